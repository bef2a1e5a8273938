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
import { aTransaction, insertAll } from '../support/builders.js';
import { bindTestWallet, insertUser } from '../users/builders.js';
import {
  FUZZ_SEED,
  checkAnswer,
  checkValid,
  closeAgent,
  fuzzOperation,
  fuzzOutsideDocument,
  operationsOf,
  type FuzzOptions,
  type OpenApiDocument,
  type OperationFixture,
} from '@ctss/test-support/openapi-fuzz';

const EVM_ADDRESS = '0x52908400098527886e0f7030069857d2e4169ee7';
/** Origin hashes of the records of `beforeAll`: an EVM one (mainnet) and a base58 one (testnet). */
const MAINNET_HASH = `0x${'ab'.repeat(32)}`;
const TESTNET_HASH =
  '5VERv8NMvzbJMEkV8xnrLkEaWRtSz9CosKDYjCJjBRnbJLgp8uirBgmQpjKhoR4tjF3ZpRzrFmBV6UjKdiSZkQUW';

/** A valid request of each operation; those answered 2xx on the data of `beforeAll` say so. */
function fixtures(suffix: string): Record<string, OperationFixture> {
  const feed = {
    query: { limit: '10', source_domain: '0', start_time: '1700000000', senders: EVM_ADDRESS },
    expect2xx: true,
  };
  return {
    'GET /transactionsmainnet': feed,
    'GET /transactions': feed,
    'GET /transactionsmainnet/{source_tx_hash}': {
      path: { source_tx_hash: MAINNET_HASH },
      expect2xx: true,
    },
    // The test app has no live feed: the path is the lookup of the hash `stream` (404); the
    // stream's own bad input is checked in transactions-stream.int.test.ts.
    'GET /transactionsmainnet/stream': {},
    'GET /transactions/{source_tx_hash}': {
      path: { source_tx_hash: TESTNET_HASH },
      expect2xx: true,
    },
    'GET /defillama/fees': {
      query: { from_timestamp: '1795219200', to_timestamp: '1795305600' },
      expect2xx: true,
    },
    'GET /defillama/bridge/volumes': {
      query: { from_timestamp: '1795219200', to_timestamp: '1795305600' },
      expect2xx: true,
    },
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
    'GET /users': { query: { domains: `alice${suffix}` }, expect2xx: true },
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
  const suffix = t.deps.config.USERNAME_SUFFIX;
  // A little data, so 2xx answers carry records for the response schemas to check.
  const at = new Date('2026-11-21T12:00:00Z');
  await insertAll(t.db.database, [
    aTransaction({ sender: EVM_ADDRESS, source_tx_hash: MAINNET_HASH, created_at: at }),
    aTransaction({ deposit_amount: 2n ** 60n, receive_amount: 2n ** 60n - 1n, created_at: at }),
    aTransaction({
      network: 'testnet',
      source_domain: 5,
      sender: EVM_ADDRESS,
      source_tx_hash: TESTNET_HASH,
      created_at: at,
    }),
  ]);
  const alice = await insertUser(t.db.knex, { username: `alice${suffix}`, nft_points: 0.5 });
  await bindTestWallet(t.db.knex, alice, 'evm', EVM_ADDRESS, { swap_points_mainnet: 3 });
  server = createServer(t.app);
  const port = await listen(server, 0, '127.0.0.1');
  const base = `http://127.0.0.1:${port}`;
  const doc = (await (await fetch(`${base}/openapi.json`)).json()) as OpenApiDocument;
  opts = {
    base,
    doc,
    numRuns: 60,
    bodyLimitBytes: 16 * 1024,
    // Usernames pass the suffix check before they reach SQL: bad text in front of the suffix.
    extraValues: [
      suffix,
      `alice${suffix}`,
      `ALICE${suffix.toUpperCase()}`,
      ` alice${suffix} `,
      `a\u0000${suffix}`,
      `alice${suffix}\u0000`,
      `\ud800${suffix}`,
      `😀${suffix}`,
      `%${suffix}`,
      `_${suffix}`,
      `\\${suffix}`,
      `' OR 1=1 --${suffix}`,
      `a,b${suffix}`,
      `${'a'.repeat(300)}${suffix}`,
      `${'é'.repeat(99)}${suffix}`,
    ],
  };
  byOperation = fixtures(suffix);
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

it('rejects a 5xx, a 4xx without a problem body, and a 2xx the response schema refuses', () => {
  const op = operationsOf(opts.doc).find(
    (o) => o.method === 'GET' && o.path === '/users/leaderboard',
  );
  const req = { method: 'GET', target: '/users/leaderboard', headers: {}, label: 'self-check' };
  const problem = (status: number) =>
    JSON.stringify({ type: 'x', title: 'x', status, detail: 'x', code: 'INVALID_QUERY' });
  const json = { 'content-type': 'application/json' };
  const problemType = { 'content-type': 'application/problem+json' };
  expect(() =>
    checkAnswer(opts.doc, op, req, { status: 500, headers: problemType, text: problem(500) }),
  ).toThrow(/neither 2xx nor 4xx/);
  expect(() =>
    checkAnswer(opts.doc, op, req, { status: 400, headers: json, text: problem(400) }),
  ).toThrow(/problem\+json/);
  expect(() =>
    checkAnswer(opts.doc, op, req, { status: 404, headers: problemType, text: problem(400) }),
  ).toThrow(/status differs/);
  expect(() =>
    checkAnswer(opts.doc, op, req, {
      status: 200,
      headers: json,
      text: '{"leaderboard":[],"total_count":"1","limit":1,"offset":0,"has_more":false}',
    }),
  ).toThrow(/response schema/);
  expect(() =>
    checkAnswer(opts.doc, op, req, { status: 400, headers: problemType, text: problem(400) }),
  ).not.toThrow();
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
