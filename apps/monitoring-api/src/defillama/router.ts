/**
 * `GET /defillama/fees` and `GET /defillama/bridge/volumes` (docs/api.md "DefiLlama adapters"):
 * figures over a window for DefiLlama's fee and bridge adapters, from the rollups. Answers carry
 * a strong `ETag` and the window's `Cache-Control` (docs/api.md "Compression and HTTP caching").
 */
import { parseQuery, sendCacheableJson, stringifyJson } from '@ctss/server-kit';
import { Router, type Request, type Response } from 'express';
import { windowCacheControl } from '../cache-control.js';
import type { Clock } from '../clock.js';
import type { Databases } from '../db/connect.js';
import { WindowQuery } from './schemas.js';
import { feesOverWindow, volumeOverWindow } from './service.js';

/** What the DefiLlama routes use: the read pool and the clock (the window's Cache-Control). */
export interface DefiLlamaRouteDeps {
  readonly db: Pick<Databases, 'read'>;
  readonly clock: Clock;
}

/** The DefiLlama router, mounted at `/defillama` (its paths below are relative to it). */
export function createDefiLlamaRouter(deps: DefiLlamaRouteDeps): Router {
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
    figures((from, to) => feesOverWindow(deps.db.read, from, to)),
  );
  router.get(
    '/bridge/volumes',
    figures((from, to) => volumeOverWindow(deps.db.read, from, to)),
  );
  return router;
}
