/**
 * `GET /defillama/fees` and `GET /defillama/bridge/volumes` (docs/api.md "DefiLlama adapters"):
 * figures over a window for DefiLlama's fee and bridge adapters, from the rollups. Answers carry
 * a strong `ETag` and the window's `Cache-Control` (docs/api.md "Compression and HTTP caching").
 */
import { mountRouter, parseQuery, sendCacheableJson, stringifyJson } from '@ctss/server-kit';
import { Router, type Express, type Request, type Response } from 'express';
import { windowCacheControl } from '../cache-control.js';
import type { Clock } from '../clock.js';
import { WindowQuery } from './schemas.js';
import type { DefiLlamaService } from './service.js';

/** What the DefiLlama routes use: the figures and the clock (the window's Cache-Control). */
export interface DefiLlamaRouteDeps {
  readonly defillama: DefiLlamaService;
  readonly clock: Clock;
}

/** Adds the DefiLlama routes to `app` (a router mounted at `/defillama`; paths below are relative). */
export function addDefiLlamaRoutes(app: Express, deps: DefiLlamaRouteDeps): void {
  const router = Router();
  const figures =
    (compute: (from: number, to: number) => Promise<object>) =>
    async (req: Request, res: Response): Promise<void> => {
      const { from_timestamp: from, to_timestamp: to } = parseQuery(WindowQuery, req.query);
      const body = stringifyJson(await compute(from, to));
      sendCacheableJson(req, res, body, windowCacheControl(to, deps.clock()));
    };
  // Express 5 passes a rejected promise of a handler to the error handler itself.
  router.get(
    '/fees',
    figures((from, to) => deps.defillama.fees(from, to)),
  );
  router.get(
    '/bridge/volumes',
    figures((from, to) => deps.defillama.volume(from, to)),
  );
  mountRouter(app, '/defillama', router);
}
