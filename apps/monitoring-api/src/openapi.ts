/**
 * The OpenAPI 3.0 document of the Monitoring API, generated from the domain-types schemas
 * (zod-to-openapi), served at `/openapi.json` with a docs page at `/docs`. Query parameters are
 * documented as the strings they arrive as, with the rules the route schemas enforce.
 */
import {
  ChainSharesResponse,
  FeeSeriesResponse,
  ProblemDetails,
  TestnetTransactionPage,
  TotalVolumeResponse,
  TransactionCountResponse,
  TransactionPage,
  UniqueSendersResponse,
  UserVolumeResponse,
  VolumeSeriesResponse,
  z,
} from '@ctss/domain-types';
import { OpenAPIRegistry, OpenApiGeneratorV3 } from '@asteasolutions/zod-to-openapi';
import type { ZodObject, ZodType } from 'zod';
import { registerDefiLlamaOpenApi } from './defillama/openapi.js';
import { notModified, problemResponse, rateLimited } from './openapi-responses.js';
import { FeedQuery, RecordParams } from './transactions/schemas.js';

/** Adds more paths to the registry (the users module registers its own). */
export type OpenApiRegistrar = (registry: OpenAPIRegistry) => void;

const param = (description: string, example?: string) =>
  z
    .string()
    .optional()
    .openapi(example === undefined ? { description } : { description, example });

const problems = {
  400: {
    description: 'Invalid query (INVALID_QUERY, INVALID_CURSOR, INVALID_NAME)',
    content: { 'application/problem+json': { schema: ProblemDetails } },
  },
  429: {
    description: 'Rate limited (RATE_LIMITED), with Retry-After',
    content: { 'application/problem+json': { schema: ProblemDetails } },
  },
};

/** Registers one GET path; `conditional` ones answer If-None-Match with 304. */
function get(
  registry: OpenAPIRegistry,
  path: string,
  summary: string,
  response: ZodType,
  query?: ZodObject,
  conditional = true,
): void {
  registry.registerPath({
    method: 'get',
    path,
    summary,
    ...(query ? { request: { query } } : {}),
    responses: {
      200: { description: 'OK', content: { 'application/json': { schema: response } } },
      ...(conditional ? notModified : {}),
      ...problems,
    },
  });
}

/** Registers a single-record lookup (`/<feed>/{source_tx_hash}`). */
function lookup(registry: OpenAPIRegistry, feed: string, page: ZodType): void {
  registry.registerPath({
    method: 'get',
    path: `${feed}/{source_tx_hash}`,
    summary: `The records of one origin transaction hash (${feed} record shape), as one page`,
    request: { params: RecordParams },
    responses: {
      200: { description: 'OK', content: { 'application/json': { schema: page } } },
      ...notModified,
      400: problemResponse('Malformed hash or a query parameter (INVALID_QUERY)'),
      404: problemResponse('No record with this origin hash (NOT_FOUND)'),
      ...rateLimited,
    },
  });
}

/** Registers the transaction, statistics and probe paths. */
export function registerCoreOpenApi(registry: OpenAPIRegistry): void {
  registry.register('ProblemDetails', ProblemDetails);
  get(
    registry,
    '/transactionsmainnet',
    'Mainnet transaction feed, newest first, cursor pagination',
    TransactionPage,
    FeedQuery,
  );
  lookup(registry, '/transactionsmainnet', TransactionPage);
  get(
    registry,
    '/transactions',
    'Testnet/staging transaction feed (subset record)',
    TestnetTransactionPage,
    FeedQuery,
  );
  lookup(registry, '/transactions', TestnetTransactionPage);
  get(
    registry,
    '/stats/mainnet/volumes',
    "Lifetime volume (base units); with senders, those senders' volume (UserVolumeResponse)",
    z.union([TotalVolumeResponse, UserVolumeResponse]),
    z.object({ senders: param('Comma-separated sender addresses (at most 50).') }),
  );
  get(
    registry,
    '/stats/mainnet/volumes/hourly',
    'Hourly volume, UTC buckets, oldest first, empty buckets zero',
    VolumeSeriesResponse,
    z.object({ limit: param('Buckets, default 24, clamped at 720.', '24') }),
  );
  get(
    registry,
    '/stats/mainnet/volumes/daily',
    'Daily volume, UTC buckets, oldest first, empty buckets zero',
    VolumeSeriesResponse,
    z.object({ limit: param('Buckets, default 30, clamped at 365.', '30') }),
  );
  get(
    registry,
    '/stats/mainnet/fees',
    'Fees per bucket: total_fee_usd = sum(deposit - receive), total_relayer_fee_usd = sum(relayer_fee)',
    FeeSeriesResponse,
    z.object({
      period: param('`hourly` (default) or `daily`.', 'hourly'),
      limit: param('Buckets; default 24 hourly / 30 daily, clamped at 720 / 365.'),
      offset: param('Buckets skipped back from the newest, default 0, at most 8760.', '0'),
    }),
  );
  get(
    registry,
    '/stats/mainnet/transactions',
    'Number of mainnet transfers',
    TransactionCountResponse,
  );
  get(
    registry,
    '/stats/mainnet/chain-shares',
    'Lifetime volume per source domain; share = amount / total_amount',
    ChainSharesResponse,
  );
  get(registry, '/stats/mainnet/wallets', 'Distinct mainnet senders', UniqueSendersResponse);
  get(registry, '/stats/wallets', 'Distinct testnet/devnet senders', UniqueSendersResponse);
  registerDefiLlamaOpenApi(registry);
  get(registry, '/health', 'Liveness', z.object({ status: z.literal('ok') }), undefined, false);
  get(
    registry,
    '/ready',
    'Readiness: database and cache reachable (503 SERVICE_UNAVAILABLE otherwise)',
    z.object({ status: z.literal('ready'), database: z.string(), cache: z.string() }),
    undefined,
    false,
  );
}

/** Generates the whole document: the core paths plus those of `registrars`. */
export function buildOpenApiDocument(registrars: readonly OpenApiRegistrar[] = []): object {
  const registry = new OpenAPIRegistry();
  registerCoreOpenApi(registry);
  for (const register of registrars) register(registry);
  return new OpenApiGeneratorV3(registry.definitions).generateDocument({
    openapi: '3.0.3',
    info: {
      title: 'CTSS Monitoring API',
      version: '1.0.0',
      description:
        'Transfer records, statistics, points, leaderboard and wallet binding of the CCTP bridge. All keys snake_case; amounts without `_usd` are exact integers in 6-decimal base units. Errors are RFC 9457 problem details with a stable `code`. Unknown query parameters are a 400.',
    },
    servers: [{ url: '/' }],
  });
}
