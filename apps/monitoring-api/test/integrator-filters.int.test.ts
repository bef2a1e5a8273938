/**
 * The lookups by origin hash and the feed filters `domain`, `status` and `recipients` over real
 * HTTP and a real database (docs/api.md "Transaction by hash (either leg)", "Transaction feeds"): each
 * filter against the same rows filtered in the test, the cursor walk over filtered pages, and
 * every bad input a 4xx problem.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import request from 'supertest';
import type { Express } from 'express';
import { aTransaction, hexId, insertAll } from './support/builders.js';
import { startTestApp, type TestApp } from './support/app.js';
import type { SeedTransaction } from '../src/seed/transactions.js';

const SOLANA_HASH =
  '5VERv8NMvzbJMEkV8xnrLkEaWRtSz9CosKDYjCJjBRnbJLgp8uirBgmQpjKhoR4tjF3ZpRzrFmBV6UjKdiSZkQUW';
const SHARED_HASH = `0x${'c'.repeat(64)}`;
const RECIPIENTS = [hexId(40), hexId(40), 'HN7cABqLq46Es1jh92dQQisAq662SmxELLLsHHe4YWrH'];
const STATUSES = ['pending', 'success', 'failed'] as const;

/** A feed page as the tests read it. */
interface Page {
  transactions: { id: number; [field: string]: unknown }[];
  next_cursor: string;
  has_more: boolean;
}

let t: TestApp;
let app: Express;
let rows: (SeedTransaction & { id: number })[];

beforeAll(async () => {
  t = await startTestApp();
  app = t.app;
  const records: SeedTransaction[] = [];
  for (let i = 0; i < 60; i++) {
    records.push(
      aTransaction({
        created_at: new Date(Date.UTC(2026, 10, 20, 0, 0, 0) + Math.floor(i / 3) * 60_000),
        source_domain: [0, 3, 6, 5][i % 4]!,
        destination_domain: [6, 0, 2, 3, 7][i % 5]!,
        recipient: RECIPIENTS[i % 3]!,
        destination_tx_status: STATUSES[i % 3 === 0 ? 0 : i % 7 === 0 ? 2 : 1],
      }),
    );
  }
  // One origin transaction with two transfers (mixed case on insert), one base58 origin hash.
  records.push(
    aTransaction({ source_tx_hash: SHARED_HASH.toUpperCase().replace('0X', '0x') }),
    aTransaction({ source_tx_hash: SHARED_HASH, destination_tx_status: 'success' }),
    aTransaction({ source_tx_hash: SOLANA_HASH, source_domain: 5 }),
    aTransaction({ network: 'testnet', source_tx_hash: SOLANA_HASH, source_domain: 5 }),
    aTransaction({ source_tx_hash: `0x${'e'.repeat(64)}`, destination_tx_status: 'pending' }),
  );
  const ids = await insertAll(t.db.database, records);
  rows = records.map((r, i) => ({ ...r, id: ids[i]! }));
}, 60_000);

afterAll(async () => {
  await t?.close();
});

/** Ids of the mainnet rows matching `keep`, newest first (the feed order). */
const expected = (keep: (r: SeedTransaction) => boolean): number[] =>
  rows
    .filter((r) => r.network === 'mainnet' && keep(r))
    .sort((a, b) => b.created_at.getTime() - a.created_at.getTime() || b.id - a.id)
    .map((r) => r.id);

/** Every id of the feed under `query`, walking the cursor with pages of `limit`. */
async function walk(query: Record<string, string>, limit = 7): Promise<number[]> {
  const ids: number[] = [];
  let cursor = '';
  for (let page = 0; page < 50; page++) {
    const res = await request(app)
      .get('/transactionsmainnet')
      .query({ ...query, limit: String(limit), ...(cursor ? { cursor } : {}) })
      .expect(200);
    const body = res.body as Page;
    ids.push(...body.transactions.map((r) => r.id));
    if (!body.has_more) return ids;
    cursor = body.next_cursor;
  }
  throw new Error('the walk did not end');
}

describe('GET /transactionsmainnet/{source_tx_hash} and /transactions/{source_tx_hash}', () => {
  it('returns the record of an EVM hash in any letter case, as a page', async () => {
    const single = rows.find((r) => r.source_tx_hash === `0x${'e'.repeat(64)}`)!;
    for (const spelling of [
      single.source_tx_hash,
      single.source_tx_hash.toUpperCase().replace('0X', '0x'),
      `0X${'E'.repeat(64)}`,
    ]) {
      const res = await request(app).get(`/transactionsmainnet/${spelling}`).expect(200);
      const page = res.body as Page;
      expect(page).toEqual({
        transactions: [
          expect.objectContaining({ id: single.id, destination_tx_status: 'pending' }),
        ],
        next_cursor: '',
        has_more: false,
      });
      expect(res.headers['cache-control']).toBe('public, max-age=5');
      expect(res.headers.etag).toMatch(/^"[A-Za-z0-9_-]{27}"$/);
    }
  });

  it('returns every transfer of one origin transaction, newest first', async () => {
    const res = await request(app).get(`/transactionsmainnet/${SHARED_HASH}`).expect(200);
    const ids = rows.filter((r) => r.source_tx_hash.toLowerCase() === SHARED_HASH).map((r) => r.id);
    expect(res.body.transactions.map((r: { id: number }) => r.id)).toEqual(ids.reverse());
    // Both settled: the long lifetime.
    expect(res.headers['cache-control']).toBe('public, max-age=300');
  });

  it('compares base58 exactly and keeps the networks apart', async () => {
    const mainnet = await request(app).get(`/transactionsmainnet/${SOLANA_HASH}`).expect(200);
    expect(mainnet.body.transactions).toHaveLength(1);
    const testnet = await request(app).get(`/transactions/${SOLANA_HASH}`).expect(200);
    const page = testnet.body as Page;
    expect(Object.keys(page.transactions[0]!)).not.toContain('destination_tx_status');
    expect(page.transactions).toHaveLength(1);
    expect(page.transactions[0]!.id).not.toBe(mainnet.body.transactions[0].id);
    // Another letter case is another base58 hash.
    const otherCase = SOLANA_HASH.replace('5VER', '5vER');
    const miss = await request(app).get(`/transactionsmainnet/${otherCase}`).expect(404);
    expect(miss.body.code).toBe('NOT_FOUND');
  });

  it('answers an unknown hash with a 404 NOT_FOUND problem, briefly cacheable', async () => {
    const res = await request(app)
      .get(`/transactionsmainnet/0x${'1'.repeat(64)}`)
      .expect(404);
    expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(res.body).toMatchObject({ status: 404, code: 'NOT_FOUND' });
    expect(res.headers['cache-control']).toBe('public, max-age=5');
    const testnet = await request(app)
      .get(`/transactions/0x${'e'.repeat(64)}`)
      .expect(404);
    expect(testnet.body.code).toBe('NOT_FOUND');
  });

  it.each([
    ['a character outside hex and base58', '0xzz'],
    ['base58 with a 0', '0abc'],
    ['base58 with an l', 'abcl'],
    ['too long', `0x${'a'.repeat(200)}`],
    ['punctuation', 'abc-def'],
    ['bad percent-encoding', '%E0%A4%A'],
    ['a NUL', 'abc%00'],
  ])('answers %s with a 400 problem', async (_name, hash) => {
    const res = await request(app).get(`/transactionsmainnet/${hash}`).expect(400);
    expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(['INVALID_QUERY', 'BAD_REQUEST']).toContain(res.body.code);
  });

  it('refuses query parameters (strict)', async () => {
    const res = await request(app).get(`/transactionsmainnet/${SHARED_HASH}?limit=1`).expect(400);
    expect(res.body.code).toBe('INVALID_QUERY');
  });
});

describe('feed filters', () => {
  it('domain: records with the domain as origin or destination, across pages', async () => {
    for (const domain of [0, 3, 6, 7]) {
      const want = expected((r) => r.source_domain === domain || r.destination_domain === domain);
      expect(want.length).toBeGreaterThan(0);
      expect(await walk({ domain: String(domain) })).toEqual(want);
    }
  });

  it('status: records of that destination_tx_status, across pages', async () => {
    for (const status of STATUSES) {
      const want = expected((r) => r.destination_tx_status === status);
      expect(want.length).toBeGreaterThan(0);
      const ids = await walk({ status });
      expect(ids).toEqual(want);
    }
  });

  it('recipients: any of a comma list (hex in any case, base58 exact), across pages', async () => {
    const list = [RECIPIENTS[0]!.toUpperCase().replace('0X', '0x'), RECIPIENTS[2]!];
    const want = expected((r) => r.recipient === RECIPIENTS[0] || r.recipient === RECIPIENTS[2]);
    expect(await walk({ recipients: list.join(',') })).toEqual(want);
    expect(await walk({ recipients: RECIPIENTS[1]! }, 100)).toEqual(
      expected((r) => r.recipient === RECIPIENTS[1]),
    );
  });

  it('combines with each other and with the existing filters (AND)', async () => {
    const want = expected(
      (r) =>
        (r.source_domain === 6 || r.destination_domain === 6) &&
        r.destination_tx_status === 'success' &&
        r.recipient === RECIPIENTS[1] &&
        r.created_at.getTime() >= Date.UTC(2026, 10, 20, 0, 5),
    );
    expect(want.length).toBeGreaterThan(0);
    const start = String(Date.UTC(2026, 10, 20, 0, 5) / 1000);
    expect(
      await walk(
        { domain: '6', status: 'success', recipients: RECIPIENTS[1]!, start_time: start },
        2,
      ),
    ).toEqual(want);
    const withMatch = await walk({ domain: '5', addr_or_tx_hash: SOLANA_HASH });
    expect(withMatch).toEqual(expected((r) => r.source_tx_hash === SOLANA_HASH));
  });

  it.each([
    ['domain', '-1'],
    ['domain', '4294967296'],
    ['domain', 'abc'],
    ['status', 'done'],
    ['status', 'PENDING'],
    ['status', ''],
    ['recipients', 'not-an-address'],
    [
      'recipients',
      Array.from({ length: 51 }, (_, i) => `0x${i.toString(16).padStart(40, '0')}`).join(','),
    ],
  ])('answers bad %s (case %#) with a 400 INVALID_QUERY problem', async (name, value) => {
    const res = await request(app)
      .get('/transactionsmainnet')
      .query({ [name]: value })
      .expect(400);
    expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(res.body.code).toBe('INVALID_QUERY');
  });

  it('answers a repeated filter with a 400 problem', async () => {
    const res = await request(app)
      .get('/transactionsmainnet?status=success&status=failed')
      .expect(400);
    expect(res.body.code).toBe('INVALID_QUERY');
  });
});
