/**
 * OpenAPI description of the `/users` routes, generated from the same zod schemas that validate
 * the requests and type the responses (@asteasolutions/zod-to-openapi).
 */
import type { OpenAPIRegistry } from '@asteasolutions/zod-to-openapi';
import {
  BindingNonce,
  DomainAggregate,
  LeaderboardPage,
  VerifyRequest,
  VerifyResponse,
  WalletsQueryResponse,
  z,
} from '@ctss/domain-types';
import {
  dependencyUnavailable,
  jsonResponse,
  problemResponse,
  rateLimited,
} from '../openapi-responses.js';
import { LeaderboardQuery, MessagesQuery } from './schemas.js';

/** Registers the users endpoints (paths, parameters, bodies, responses and error codes). */
export function registerUsersPaths(registry: OpenAPIRegistry): void {
  registry.registerPath({
    method: 'get',
    path: '/users/leaderboard',
    operationId: 'getLeaderboard',
    summary: 'Ranked users: stored rank ascending, then unranked users (domain_rank null)',
    request: { query: LeaderboardQuery },
    responses: {
      200: jsonResponse('A leaderboard page', LeaderboardPage),
      400: problemResponse(
        'INVALID_QUERY: unknown network, limit below 1, non-integer or negative values, repeated or unknown parameters',
      ),
      ...rateLimited,
      ...dependencyUnavailable,
    },
  });

  registry.registerPath({
    method: 'get',
    path: '/users',
    operationId: 'getUsers',
    summary: 'A user by wallets (`wallets`) or by username (`domains`); exactly one of the two',
    request: {
      query: z.object({
        wallets: z
          .string()
          .optional()
          .openapi({ description: 'comma-separated `<address>_<chain>`, at most 20' }),
        domains: z
          .string()
          .optional()
          .openapi({ description: 'one username including the suffix' }),
      }),
    },
    responses: {
      200: jsonResponse(
        '`?wallets=`: WalletsQueryResponse; `?domains=`: DomainAggregate',
        z.union([WalletsQueryResponse, DomainAggregate]),
      ),
      400: problemResponse(
        'INVALID_QUERY: neither or both parameters, unknown chain, bad address, more than 20 entries',
      ),
      404: problemResponse('NOT_FOUND: no username has these wallets / no such username'),
      ...rateLimited,
      ...dependencyUnavailable,
    },
  });

  registry.registerPath({
    method: 'get',
    path: '/users/messages',
    operationId: 'getBindingMessage',
    summary: 'A one-time binding nonce and the exact message to sign',
    request: { query: MessagesQuery },
    responses: {
      200: jsonResponse('Binding nonce', BindingNonce),
      400: problemResponse('INVALID_QUERY: bad chain type, address or username suffix'),
      404: problemResponse('NOT_FOUND: unknown username'),
      ...rateLimited,
      ...dependencyUnavailable,
    },
  });

  registry.registerPath({
    method: 'post',
    path: '/users/verify',
    operationId: 'verifyWalletBinding',
    summary: 'Bind or unbind a wallet with a signature over the issued message',
    request: {
      body: { required: true, content: { 'application/json': { schema: VerifyRequest } } },
    },
    responses: {
      200: jsonResponse('Done', VerifyResponse),
      400: problemResponse(
        'INVALID_BODY: malformed JSON or fields, missing aptos public_key, message not a binding request',
      ),
      401: problemResponse(
        'INVALID_SIGNATURE: signature or message does not match the nonce grant',
      ),
      403: problemResponse(
        'AUTHORIZATION_REQUIRED / NOT_AUTHORIZED: the username has wallets and no authorizer, or an authorizer not bound to it',
      ),
      404: problemResponse('NOT_FOUND: unknown username (unbind)'),
      409: problemResponse('ALREADY_BOUND / NOT_BOUND / USERNAME_TAKEN / LAST_WALLET'),
      410: problemResponse('NONCE_EXPIRED: nonce expired, used or never issued'),
      413: problemResponse('PAYLOAD_TOO_LARGE: a JSON body over 16 kB'),
      415: problemResponse(
        'UNSUPPORTED_MEDIA_TYPE: body is not application/json, or an unsupported charset or content encoding',
      ),
      ...rateLimited,
      ...dependencyUnavailable,
    },
  });
}
