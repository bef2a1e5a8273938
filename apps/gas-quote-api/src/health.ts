/**
 * Probes (docs/api.md "Gas Quote API probes"): `GET /health` is liveness and says which price
 * source is in use; `GET /ready` is readiness: the in-process price copy quotes are served from
 * has a fresh chain. A lost Redis alone does not make a replica unready (docs/operations.md
 * "Redis lost"): quotes go on from that copy while it is fresh, and every replica shares the
 * outage, so failing readiness would only turn a degraded service into none.
 */
import type { OpenAPIRegistry } from '@asteasolutions/zod-to-openapi';
import { PROBLEM_CONTENT_TYPE, problem, z, type ChainRegistry } from '@ctss/domain-types';
import { sendJson, type KvStore } from '@ctss/server-kit';
import { Router, type Response } from 'express';
import { jsonResponse } from './openapi-responses.js';
import { MissingPriceDataError } from './prices/entries.js';
import { PriceSnapshot } from './prices/snapshot.js';
import type { PriceStore } from './prices/store.js';

/** Facts `/health` reports. */
export interface HealthInfo {
  readonly priceSource: 'live' | 'snapshot';
  readonly feederInProcess: boolean;
  readonly ecdsaSigner: string;
  readonly ed25519PublicKey: string;
}

/**
 * Whether the snapshot holds a fresh gas price and native token price for `chain`.
 * @throws whatever the snapshot throws other than MissingPriceDataError.
 */
function chainIsFresh(
  snapshot: PriceSnapshot | undefined,
  chain: { readonly domain: number; readonly nativeSymbol: string },
): boolean {
  if (!snapshot) return false;
  try {
    snapshot.gas(chain.domain);
    snapshot.usd(chain.nativeSymbol);
    return true;
  } catch (err) {
    if (err instanceof MissingPriceDataError) return false;
    throw err;
  }
}

/** The in-process price snapshot quotes are served from; undefined when none was ever read. */
async function currentSnapshot(
  store: Pick<PriceStore, 'snapshot'>,
): Promise<PriceSnapshot | undefined> {
  try {
    const pending = store.snapshot();
    return pending instanceof PriceSnapshot ? pending : await pending;
  } catch (err) {
    if (err instanceof MissingPriceDataError) return undefined;
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
 * token price are within the maximum age; `/ready` answers 503 when no chain is fresh (one chain's
 * RPC outage must not take every replica out of service), and reports `cache` either way.
 */
export function healthRouter(
  info: HealthInfo,
  registry: ChainRegistry,
  kv: Pick<KvStore, 'ping'>,
  store: Pick<PriceStore, 'snapshot'>,
): Router {
  const router = Router();
  router.get('/health', (_req, res) => {
    sendJson(res, 200, { status: 'ok', snapshot: info.priceSource === 'snapshot', ...info });
  });
  router.get('/ready', async (_req, res) => {
    const [cache, snapshot] = await Promise.all([
      kv.ping().then(
        () => 'ok',
        () => 'unreachable',
      ),
      currentSnapshot(store),
    ]);
    const chains = registry.all();
    const freshDomains = chains.filter((c) => chainIsFresh(snapshot, c)).map((c) => c.domain);
    const staleDomains = chains.filter((c) => !chainIsFresh(snapshot, c)).map((c) => c.domain);
    if (freshDomains.length === 0) {
      notReady(res, 'no chain has fresh gas and token prices', {
        cache,
        freshDomains,
        staleDomains,
      });
      return;
    }
    sendJson(res, 200, { status: 'ready', cache, freshDomains, staleDomains });
  });
  return router;
}

/** Registers `GET /health` and `GET /ready` in the OpenAPI `registry`. */
export function registerHealthPaths(registry: OpenAPIRegistry): void {
  registry.registerPath({
    method: 'get',
    path: '/health',
    summary: 'Liveness; reports whether the bundled snapshot price source is in use',
    responses: {
      200: jsonResponse(
        'Alive',
        z
          .object({
            status: z.literal('ok'),
            snapshot: z.boolean(),
            priceSource: z.enum(['live', 'snapshot']),
          })
          .loose(),
      ),
    },
  });
  registry.registerPath({
    method: 'get',
    path: '/ready',
    summary: 'Readiness: cache reachable and price data fresh',
    responses: {
      200: { description: 'Ready' },
      503: { description: 'Not ready (cache unreachable or no fresh prices)' },
    },
  });
}
