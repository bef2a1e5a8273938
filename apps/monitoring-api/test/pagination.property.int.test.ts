/**
 * Property: for random data (many rows in the same second), random filters (EVM addresses sent in
 * another letter case) and random page sizes,
 * walking `next_cursor` until `has_more` is false returns exactly the filtered rows, in
 * (second, id) DESC order, with no duplicates and no gaps. The expectation is computed in
 * TypeScript from the generated records, independently of the SQL.
 */
import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import request from 'supertest';
import type { SeedTransaction } from '../src/seed/transactions.js';
import { insertTransactions } from '../src/seed/writer.js';
import { aTransaction } from './support/builders.js';
import { useTestApp } from './support/app.js';

const BASE_SECONDS = Date.parse('2026-11-21T00:00:00Z') / 1000;
const SENDERS = [
  '0x00000000000000000000000000000000000000aa',
  '0x00000000000000000000000000000000000000bb',
  'So1anaSender1111111111111111111111111111111',
];
const DOMAINS = [0, 3, 5, 4_294_967_295];

const recordArb = fc.record({
  second: fc.integer({ min: 0, max: 6 }),
  sender: fc.constantFrom(...SENDERS),
  recipient: fc.constantFrom(...SENDERS),
  source: fc.constantFrom(...DOMAINS),
  destination: fc.constantFrom(...DOMAINS),
  testnet: fc.boolean(),
});

const sendersArb = fc.subarray(SENDERS, { minLength: 1 });
const domainArb = fc.constantFrom(...DOMAINS);
const timeArb = fc.record(
  { start_time: fc.integer({ min: 0, max: 7 }), end_time: fc.integer({ min: 0, max: 7 }) },
  { requiredKeys: [] },
);

/** No filter, one filter, or a pair: enough rows survive to span several pages. */
const filterArb: fc.Arbitrary<{
  senders?: string[];
  addr_or_tx_hash?: string;
  source_domain?: number;
  destination_domain?: number;
  start_time?: number;
  end_time?: number;
}> = fc.oneof(
  fc.constant({}),
  sendersArb.map((senders) => ({ senders })),
  domainArb.map((source_domain) => ({ source_domain })),
  domainArb.map((destination_domain) => ({ destination_domain })),
  timeArb,
  fc.tuple(sendersArb, timeArb).map(([senders, time]) => ({ senders, ...time })),
  fc.constantFrom(...SENDERS).map((addr_or_tx_hash) => ({ addr_or_tx_hash })),
  fc
    .tuple(domainArb, domainArb)
    .map(([source_domain, destination_domain]) => ({ source_domain, destination_domain })),
);

describe('feed pagination (property)', () => {
  const t = useTestApp();

  it('when walking every page, then the rows are exactly the filtered rows in order', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(recordArb, { minLength: 20, maxLength: 80, size: 'max' }),
        filterArb,
        fc.integer({ min: 1, max: 12 }),
        fc.boolean(),
        async (specs, rawFilter, pageSize, mainnet) => {
          await t.db.knex.raw(
            'truncate transactions, tx_hourly_rollups, tx_senders restart identity',
          );
          const records: SeedTransaction[] = specs.map((s) =>
            aTransaction({
              network: s.testnet ? 'testnet' : 'mainnet',
              sender: s.sender,
              recipient: s.recipient,
              source_domain: s.source,
              destination_domain: s.destination,
              created_at: new Date((BASE_SECONDS + s.second) * 1000),
            }),
          );
          await insertTransactions(t.db.database, records);
          const filter = {
            ...rawFilter,
            ...(rawFilter.start_time !== undefined &&
            rawFilter.end_time !== undefined &&
            rawFilter.start_time > rawFilter.end_time
              ? { start_time: rawFilter.end_time, end_time: rawFilter.start_time }
              : {}),
          };
          const expected = records
            .map((r, index) => ({
              r,
              id: index + 1,
              second: r.created_at.getTime() / 1000 - BASE_SECONDS,
            }))
            .filter(
              ({ r, second }) =>
                r.network === (mainnet ? 'mainnet' : 'testnet') &&
                (filter.senders === undefined || filter.senders.includes(r.sender)) &&
                (filter.addr_or_tx_hash === undefined ||
                  r.sender === filter.addr_or_tx_hash ||
                  r.recipient === filter.addr_or_tx_hash) &&
                (filter.source_domain === undefined || r.source_domain === filter.source_domain) &&
                (filter.destination_domain === undefined ||
                  r.destination_domain === filter.destination_domain) &&
                (filter.start_time === undefined || second >= filter.start_time) &&
                (filter.end_time === undefined || second < filter.end_time),
            )
            .sort((a, b) => b.second - a.second || b.id - a.id)
            .map(({ id }) => id);

          const query: Record<string, string> = { limit: String(pageSize) };
          // EVM hex goes out upper-cased: the feed compares it case-insensitively.
          const shout = (address: string) =>
            address.startsWith('0x') ? `0x${address.slice(2).toUpperCase()}` : address;
          if (filter.senders) query.senders = filter.senders.map(shout).join(',');
          if (filter.addr_or_tx_hash !== undefined)
            query.addr_or_tx_hash = shout(filter.addr_or_tx_hash);
          if (filter.source_domain !== undefined)
            query.source_domain = String(filter.source_domain);
          if (filter.destination_domain !== undefined)
            query.destination_domain = String(filter.destination_domain);
          if (filter.start_time !== undefined)
            query.start_time = String(BASE_SECONDS + filter.start_time);
          if (filter.end_time !== undefined)
            query.end_time = String(BASE_SECONDS + filter.end_time);

          const seen: number[] = [];
          let cursor = '';
          for (let page = 0; page <= expected.length + 1; page += 1) {
            const res = await request(t.app)
              .get(mainnet ? '/transactionsmainnet' : '/transactions')
              .query({ ...query, ...(cursor ? { cursor } : {}) })
              .expect(200);
            const ids = (res.body.transactions as { id: number }[]).map((t) => t.id);
            expect(ids.length).toBeLessThanOrEqual(pageSize);
            seen.push(...ids);
            expect(res.body.has_more).toBe(res.body.next_cursor !== '');
            cursor = res.body.next_cursor as string;
            if (!res.body.has_more) break;
            expect(ids).toHaveLength(pageSize);
          }
          expect(cursor).toBe('');
          expect(seen).toEqual(expected);
        },
      ),
      { numRuns: 40, seed: 20261121 },
    );
  });
});
