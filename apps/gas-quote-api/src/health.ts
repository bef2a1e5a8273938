/**
 * Probes (docs/api.md "Gas Quote API probes"): `GET /health` is liveness and says which price
 * source is in use; `GET /ready` is readiness: the in-process price copy quotes are served from
 * has a fresh chain. A lost Redis alone does not make a replica unready (docs/operations.md
 * "Redis lost"): quotes go on from that copy while it is fresh, and every replica shares the
 * outage, so failing readiness would only turn a degraded service into none.
 */
import type { OpenAPIRegistry } from '@asteasolutions/zod-to-openapi';
import {
  PROBLEM_CONTENT_TYPE,
  ProblemDetails,
  problem,
  z,
  type ChainRegistry,
} from '@ctss/domain-types';
import { parseQuery, sendJson, type KvStore } from '@ctss/server-kit';
import type { Express, Response } from 'express';
import type { GasQuoteConfig } from './config.js';
import { jsonResponse, problemResponse } from './openapi-responses.js';
import { MissingPriceDataError } from './prices/entries.js';
import { PriceSnapshot } from './prices/snapshot.js';
import type { PriceStore } from './prices/store.js';
import type { SignerIdentities } from './quotes/service.js';

/** The probes take no query parameters: any is a 400 INVALID_QUERY, as everywhere in this API. */
const ProbeQuery = z.strictObject({});

/** What the probes read: the part of `AppDeps` (deps.ts) they use. */
export interface HealthRouteDeps {
  /** Price source in use and whether the feeder runs in this process (`/health`). */
  readonly config: Pick<GasQuoteConfig, 'priceSource' | 'feederInProcess'>;
  /** The signers' public identities (`/health`). */
  readonly signerIdentities: SignerIdentities;
  /** The served chains, each checked for fresh prices (`/ready`). */
  readonly registry: ChainRegistry;
  /** The shared store, pinged for `/ready`'s `cache`. */
  readonly kv: Pick<KvStore, 'ping'>;
  /** The price store whose in-process copy quotes are served from. */
  readonly priceStore: Pick<PriceStore, 'snapshot'>;
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
 * Adds `/health` and `/ready` to `app`. A chain counts as fresh when its gas price and its native
 * token price are within the maximum age; `/ready` answers 503 when no chain is fresh (one chain's
 * RPC outage must not take every replica out of service), and reports `cache` either way.
 */
export function addHealthRoutes(app: Express, deps: HealthRouteDeps): void {
  const { config, signerIdentities, registry, kv, priceStore: store } = deps;
  const info = {
    priceSource: config.priceSource,
    feederInProcess: config.feederInProcess,
    ecdsaSigner: signerIdentities.ecdsaAddress,
    ed25519PublicKey: signerIdentities.ed25519PublicKey,
  };
  app.get('/health', (req, res) => {
    parseQuery(ProbeQuery, req.query);
    sendJson(res, 200, { status: 'ok', snapshot: info.priceSource === 'snapshot', ...info });
  });
  app.get('/ready', async (req, res) => {
    parseQuery(ProbeQuery, req.query);
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
}

/** `/ready`'s account of the price data and the cache (both the 200 and the 503 carry it). */
const readiness = {
  cache: z
    .enum(['ok', 'unreachable'])
    .openapi({ description: 'the shared cache (Redis, or the in-process store)' }),
  freshDomains: z
    .array(z.number().int())
    .openapi({ description: 'domains with a fresh gas price and native token price' }),
  staleDomains: z
    .array(z.number().int())
    .openapi({ description: 'domains whose gas or token price is missing or too old' }),
};

/** The 200 body of `/health`. */
const HealthBody = z
  .object({
    status: z.literal('ok'),
    snapshot: z.boolean().openapi({ description: 'prices come from the bundled snapshot' }),
    priceSource: z.enum(['live', 'snapshot']),
    feederInProcess: z.boolean().openapi({ description: 'the price feeder runs in this process' }),
    ecdsaSigner: z.string().openapi({ description: 'address of the ECDSA quote signer (0x hex)' }),
    ed25519PublicKey: z
      .string()
      .openapi({ description: 'public key of the Ed25519 quote signer (0x hex, 32 bytes)' }),
  })
  .openapi('GasHealth');

/** The 200 body of `/ready`. */
const ReadyBody = z.object({ status: z.literal('ready'), ...readiness }).openapi('GasReady');

/**
 * The 503 body of `/ready`: a problem (SERVICE_UNAVAILABLE) with the readiness members, which a
 * process that started shutting down leaves out (server-kit answers that one itself).
 */
const NotReadyBody = ProblemDetails.extend({
  cache: readiness.cache.optional(),
  freshDomains: readiness.freshDomains.optional(),
  staleDomains: readiness.staleDomains.optional(),
}).openapi('GasNotReady');

/** The 400 of a probe given a query parameter. */
const probeQueryProblem = problemResponse('INVALID_QUERY: the probes take no query parameters');

/** Registers `GET /health` and `GET /ready` in the OpenAPI `registry` (neither is rate limited). */
export function registerHealthPaths(registry: OpenAPIRegistry): void {
  registry.registerPath({
    method: 'get',
    path: '/health',
    operationId: 'getHealth',
    summary: 'Liveness; the price source in use and the signer identities',
    responses: {
      200: jsonResponse('Alive', HealthBody),
      400: probeQueryProblem,
    },
  });
  registry.registerPath({
    method: 'get',
    path: '/ready',
    operationId: 'getReady',
    summary: 'Readiness: at least one chain has fresh gas and token prices',
    responses: {
      200: jsonResponse('Ready; cache reported, not decisive', ReadyBody),
      400: probeQueryProblem,
      503: {
        description:
          'SERVICE_UNAVAILABLE: no chain has fresh gas and token prices, or the process is shutting down',
        content: { 'application/problem+json': { schema: NotReadyBody } },
      },
    },
  });
}
