/**
 * The `/users` routes (docs/api.md "Leaderboard", "Users by wallet or username",
 * "Wallet binding"): each parses its request, calls the users reads (service.ts) or the binding
 * flow (binding-service.ts) and sends the answer. Every failure is an HttpProblem (RFC 9457 body
 * with `code`), turned into the response by the app's problem handler.
 */
import { VerifyRequest } from '@ctss/domain-types';
import { HttpProblem, parseBody, parseQuery, sendJson, sendJsonText } from '@ctss/server-kit';
import { mountRouter } from '@ctss/server-kit';
import express, { type Express } from 'express';
import type { BindingService } from './binding-service.js';
import { LeaderboardQuery, MessagesQuery, UsersQuery } from './schemas.js';
import type { UsersService } from './service.js';

/** What the users routes use: the users reads and the binding flow. */
export interface UsersRouteDeps {
  readonly users: UsersService;
  readonly binding: Pick<BindingService, 'issueNonce' | 'verify'>;
}

/** Adds the `/users` routes to `app` (a router mounted at `/users`; paths below are relative). */
export function addUsersRoutes(app: Express, deps: UsersRouteDeps): void {
  const { users, binding } = deps;
  const router = express.Router();

  router.get('/leaderboard', async (req, res) => {
    const query = parseQuery(LeaderboardQuery, req.query);
    sendJsonText(res, 200, await users.leaderboardPage(query));
  });

  router.get('/messages', async (req, res) => {
    const query = parseQuery(MessagesQuery, req.query);
    sendJson(res, 200, await binding.issueNonce(query));
  });

  router.post('/verify', async (req, res) => {
    if (!req.is('application/json')) {
      throw new HttpProblem(415, 'UNSUPPORTED_MEDIA_TYPE', 'Content-Type must be application/json');
    }
    const body = parseBody(VerifyRequest, req.body);
    sendJson(res, 200, await binding.verify(body));
  });

  router.get('/', async (req, res) => {
    const query = parseQuery(UsersQuery, req.query);
    sendJson(
      res,
      200,
      query.wallets !== undefined
        ? await users.usersByWallets(query.wallets)
        : await users.domainAggregate(query.domains ?? ''),
    );
  });

  mountRouter(app, '/users', router);
}
