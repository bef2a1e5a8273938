/**
 * Probes (DESIGN.md "Errors, limits, health"): `GET /health` is liveness and says which price
 * source is in use; `GET /ready` is readiness: the cache answers and price data is fresh.
 */
import type { ChainRegistry } from '@ctss/domain-types';
import { PROBLEM_CONTENT_TYPE, problem } from '@ctss/domain-types';
import type { KvStore } from '@ctss/server-kit';
import { sendJson } from '@ctss/server-kit';
import { Router, type Response } from 'express';
import { MissingPriceDataError, type PriceStore } from '../pricing/price-store.js';

/** Facts `/health` reports. */
export interface HealthInfo {
  readonly priceSource: 'live' | 'snapshot';
  readonly feederInProcess: boolean;
  readonly ecdsaSigner: string;
  readonly ed25519PublicKey: string;
}

async function fresh(p: Promise<unknown>): Promise<boolean> {
  try {
    await p;
    return true;
  } catch (err) {
    if (err instanceof MissingPriceDataError) return false;
    throw err;
  }
}

/**
 * The 503 of `/ready`: a problem body (503 `SERVICE_UNAVAILABLE`) whose extra members (RFC 9457
 * section 3.2) say what is missing: `cache` and the fresh and stale domains.
 */
function notReady(res: Response, detail: string, extra: Record<string, unknown>): void {
  res
    .status(503)
    .type(PROBLEM_CONTENT_TYPE)
    .send(JSON.stringify({ ...problem(503, 'SERVICE_UNAVAILABLE', detail), ...extra }));
}

/**
 * Router with `/health` and `/ready`. A chain counts as fresh when its gas price and its native
 * token price are within the maximum age; `/ready` answers 503 when the cache does not answer or
 * no chain is fresh (one chain's RPC outage must not take every replica out of service).
 */
export function healthRouter(
  info: HealthInfo,
  registry: ChainRegistry,
  kv: KvStore,
  store: PriceStore,
): Router {
  const router = Router();
  router.get('/health', (_req, res) => {
    sendJson(res, 200, { status: 'ok', snapshot: info.priceSource === 'snapshot', ...info });
  });
  router.get('/ready', async (_req, res) => {
    try {
      await kv.ping();
    } catch {
      notReady(res, 'the store does not answer', {
        cache: 'unreachable',
        freshDomains: [],
        staleDomains: [],
      });
      return;
    }
    const checks = await Promise.all(
      registry
        .all()
        .map(
          async (c) =>
            [
              c.domain,
              (await fresh(store.gas(c.domain))) && (await fresh(store.usd(c.nativeSymbol))),
            ] as const,
        ),
    );
    const freshDomains = checks.filter(([, ok]) => ok).map(([d]) => d);
    const staleDomains = checks.filter(([, ok]) => !ok).map(([d]) => d);
    if (freshDomains.length === 0) {
      notReady(res, 'no chain has fresh gas and token prices', {
        cache: 'ok',
        freshDomains,
        staleDomains,
      });
      return;
    }
    sendJson(res, 200, { status: 'ready', cache: 'ok', freshDomains, staleDomains });
  });
  return router;
}
