/**
 * Bad input for every operation and parameter of the Gas Quote API's own OpenAPI document
 * (`/openapi.json`), over real HTTP against the app listening on a free port: every answer is a
 * 4xx problem or a schema-valid 2xx, never a 5xx or a hang, and valid requests are still served
 * afterwards. Fixed fast-check seed; `TEST_FUZZ_SEED` varies it.
 */
import { afterAll, beforeAll, expect, it } from '@jest/globals';
import { buildTestApp, type TestApp } from '../support/app.js';
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

/** A valid request of each operation (the document has no examples for the quote routes). */
const FIXTURES: Record<string, OperationFixture> = {
  'GET /getEcdsaSig_native': {
    query: { localDomain: '0', destinationDomain: '3', isV2: 'true', isNative: 'false' },
    expect2xx: true,
  },
  'GET /getEd25519Sig_native': {
    query: { localDomain: '5', destinationDomain: '0', isNative: 'false', version: '2' },
    expect2xx: true,
  },
  'GET /routes': { query: { localDomain: '0', destinationDomain: '3' }, expect2xx: true },
  'GET /tokenPrices': { expect2xx: true },
  'GET /health': { expect2xx: true },
  'GET /ready': { expect2xx: true },
  // A plain GET of the WebSocket path (upgrades are tested with raw sockets elsewhere).
  'GET /subscribe': {},
};

let t: TestApp;
let opts: FuzzOptions;
let total = 0;

beforeAll(async () => {
  t = buildTestApp({ env: { RATE_LIMIT_PER_MINUTE: '1000000' } });
  await t.snapshotFeeder.refresh();
  const base = await t.listen();
  const doc = (await (await fetch(`${base}/openapi.json`)).json()) as OpenApiDocument;
  opts = { base, doc, numRuns: 120, bodyLimitBytes: 16 * 1024 };
});

afterAll(async () => {
  closeAgent();
  await t?.close();
  process.stdout.write(
    `gas-quote-api bad input: ${total} cases checked (fast-check seed ${FUZZ_SEED})\n`,
  );
});

it('documents a valid request of every operation it has', () => {
  const names = operationsOf(opts.doc).map((op) => `${op.method} ${op.path}`);
  expect(names.sort()).toEqual(Object.keys(FIXTURES).sort());
});

it('rejects a 5xx, a 4xx without a problem body, and a 2xx the response schema refuses', () => {
  const op = operationsOf(opts.doc).find((o) => o.method === 'GET' && o.path === '/tokenPrices');
  const req = { method: 'GET', target: '/tokenPrices', headers: {}, label: 'self-check' };
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
    checkAnswer(opts.doc, op, req, { status: 200, headers: json, text: '{"0":"not a number"}' }),
  ).toThrow(/response schema/);
  expect(() =>
    checkAnswer(opts.doc, op, req, { status: 400, headers: problemType, text: problem(400) }),
  ).not.toThrow();
});

it('answers bad input to every operation with a 4xx problem or a schema-valid 2xx', async () => {
  for (const op of operationsOf(opts.doc)) {
    total += await fuzzOperation(opts, op, FIXTURES[`${op.method} ${op.path}`] ?? {});
  }
}, 240_000);

it('answers methods and paths outside the document with 4xx problems', async () => {
  total += await fuzzOutsideDocument(opts);
}, 60_000);

it('still serves every valid request afterwards, over at least 2,000 cases', async () => {
  for (const op of operationsOf(opts.doc)) {
    total += await checkValid(opts, op, FIXTURES[`${op.method} ${op.path}`] ?? {});
  }
  expect(total).toBeGreaterThanOrEqual(2_000);
});
