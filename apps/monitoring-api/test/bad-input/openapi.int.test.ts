/**
 * Bad input for every operation and parameter of the Monitoring API's own OpenAPI document
 * (`/openapi.json`), over real HTTP against the app listening on a free port, on a migrated
 * database of its own (PostgreSQL at DATABASE_URL, else embedded) and Redis at REDIS_URL (else the
 * in-process store): every answer is a 4xx problem or a schema-valid 2xx, never a 5xx or a hang,
 * and valid requests are still served afterwards. Fixed fast-check seed; `TEST_FUZZ_SEED` varies it.
 */
import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, expect, it } from '@jest/globals';
import { listen } from '@ctss/server-kit';
import { startTestApp, type TestApp } from '../support/app.js';
import {
  FUZZ_SEED,
  checkValid,
  closeAgent,
  fuzzOperation,
  fuzzOutsideDocument,
  operationsOf,
  type FuzzOptions,
  type OpenApiDocument,
  type OperationFixture,
} from './openapi-fuzz.js';

const EVM_ADDRESS = '0x52908400098527886e0f7030069857d2e4169ee7';

/** A valid request of each operation; those answered 2xx on an empty database say so. */
function fixtures(suffix: string): Record<string, OperationFixture> {
  const feed = {
    query: { limit: '10', source_domain: '0', start_time: '1700000000', senders: EVM_ADDRESS },
    expect2xx: true,
  };
  return {
    'GET /transactionsmainnet': feed,
    'GET /transactions': feed,
    'GET /stats/mainnet/volumes': { query: { senders: EVM_ADDRESS }, expect2xx: true },
    'GET /stats/mainnet/volumes/hourly': { query: { limit: '24' }, expect2xx: true },
    'GET /stats/mainnet/volumes/daily': { query: { limit: '30' }, expect2xx: true },
    'GET /stats/mainnet/fees': {
      query: { period: 'hourly', limit: '24', offset: '0' },
      expect2xx: true,
    },
    'GET /stats/mainnet/transactions': { expect2xx: true },
    'GET /stats/mainnet/chain-shares': { expect2xx: true },
    'GET /stats/mainnet/wallets': { expect2xx: true },
    'GET /stats/wallets': { expect2xx: true },
    'GET /health': { expect2xx: true },
    'GET /ready': { expect2xx: true },
    'GET /users/leaderboard': {
      query: { network: 'mainnet', limit: '10', offset: '0', search: 'alice' },
      expect2xx: true,
    },
    'GET /users': { query: { domains: `alice${suffix}` } },
    'GET /users/messages': {
      query: { username: `alice${suffix}`, address: EVM_ADDRESS, chain_type: 'evm' },
    },
    'POST /users/verify': {
      body: {
        username: `alice${suffix}`,
        address: EVM_ADDRESS,
        chain_type: 'evm',
        type: 'bind',
        signature: `0x${'11'.repeat(65)}`,
        message: `Wallet binding request: alice${suffix}\nNonce: 00000000`,
      },
    },
  };
}

let t: TestApp;
let server: Server;
let opts: FuzzOptions;
let byOperation: Record<string, OperationFixture>;
let total = 0;

beforeAll(async () => {
  t = await startTestApp();
  server = createServer(t.app);
  const port = await listen(server, 0, '127.0.0.1');
  const base = `http://127.0.0.1:${port}`;
  const doc = (await (await fetch(`${base}/openapi.json`)).json()) as OpenApiDocument;
  opts = { base, doc, numRuns: 60, bodyLimitBytes: 16 * 1024 };
  byOperation = fixtures(t.deps.config.USERNAME_SUFFIX);
}, 120_000);

afterAll(async () => {
  closeAgent();
  if (server) {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
  await t?.close();
  process.stdout.write(
    `monitoring-api bad input: ${total} cases checked (fast-check seed ${FUZZ_SEED})\n`,
  );
});

it('documents a valid request of every operation it has', () => {
  const names = operationsOf(opts.doc).map((op) => `${op.method} ${op.path}`);
  expect(names.sort()).toEqual(Object.keys(byOperation).sort());
});

it('answers bad input to every operation with a 4xx problem or a schema-valid 2xx', async () => {
  for (const op of operationsOf(opts.doc)) {
    total += await fuzzOperation(opts, op, byOperation[`${op.method} ${op.path}`] ?? {});
  }
}, 300_000);

it('answers methods and paths outside the document with 4xx problems', async () => {
  total += await fuzzOutsideDocument(opts);
}, 60_000);

it('still serves every valid request afterwards, over at least 2,000 cases', async () => {
  for (const op of operationsOf(opts.doc)) {
    total += await checkValid(opts, op, byOperation[`${op.method} ${op.path}`] ?? {});
  }
  expect(total).toBeGreaterThanOrEqual(2_000);
});
