/**
 * Probes (DESIGN.md "Errors, limits, health"): `GET /health` is liveness and says which price
 * source is in use; `GET /ready` is readiness: the cache answers and price data is fresh.
 */
import type { ChainRegistry } from '@ctss/domain-types';
import type { KvStore } from '@ctss/server-kit';
import { sendJson } from '@ctss/server-kit';
import { Router } from 'express';
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
      sendJson(res, 503, {
        status: 'not_ready',
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
    const ready = freshDomains.length > 0;
    sendJson(res, ready ? 200 : 503, {
      status: ready ? 'ready' : 'not_ready',
      cache: 'ok',
      freshDomains,
      staleDomains,
    });
  });
  return router;
}
