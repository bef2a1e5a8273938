/**
 * The transaction feeds over real HTTP and a real database: shapes, filters, pagination and bad
 * input (every bad value is a 4xx problem, never a 500).
 */
import { beforeAll, describe, expect, it } from '@jest/globals';
import { TestnetTransactionRecord, TransactionRecord } from '@ctss/domain-types';
import request from 'supertest';
import { aTransaction, insertAll } from './support/builders.js';
import { useTestApp } from './support/app.js';

const SOLANA_SENDER = '7xKXtg2CW87d97TXJSDpbD5jBkheTqA83TZRuJosgAsU';
const BIG = 2n ** 60n + 7n;

describe('GET /transactionsmainnet and /transactions', () => {
  const t = useTestApp();
  let ids: number[];
  const upperSender = '0xABCDEF0000000000000000000000000000000001';
  const destinationHash = `0x${'d'.repeat(64)}`;

  beforeAll(async () => {
    ids = await insertAll(t.db.database, [
      aTransaction({
        created_at: new Date('2026-11-20T00:00:00Z'),
        sender: upperSender,
        deposit_amount: BIG,
        receive_amount: BIG - 5n,
      }),
      aTransaction({
        created_at: new Date('2026-11-20T00:00:00Z'),
        source_domain: 4_294_967_295,
        destination_domain: 500001,
      }),
      aTransaction({
        created_at: new Date('2026-11-20T06:00:00Z'),
        source_domain: 5,
        sender: SOLANA_SENDER,
        recipient: '0x' + 'e'.repeat(40),
      }),
      aTransaction({
        created_at: new Date('2026-11-21T00:00:00Z'),
        destination_tx_hash: destinationHash.toUpperCase().replace('0X', '0x'),
      }),
      aTransaction({
        created_at: new Date('2026-11-21T01:00:00Z'),
        destination_tx_status: 'pending',
        destination_tx_hash: null,
        has_attestation_error: true,
        gas_drop_amount: 10n ** 30n,
        is_gas_drop_in_native: true,
      }),
      aTransaction({
        network: 'testnet',
        created_at: new Date('2026-11-21T02:00:00Z'),
        sender: upperSender,
      }),
    ]);
  });

  it('when listing mainnet, then records are full, newest first, amounts exact above 2^53', async () => {
    const res = await request(t.app).get('/transactionsmainnet').expect(200);
    expect(res.headers['content-type']).toMatch(/application\/json/);
    expect(res.body.has_more).toBe(false);
    expect(res.body.next_cursor).toBe('');
    expect(res.body.transactions.map((t: { id: number }) => t.id)).toEqual([
      ids[4],
      ids[3],
      ids[2],
      ids[1],
      ids[0],
    ]);
    const first = res.body.transactions[0];
    expect(Object.keys(first).sort()).toEqual(Object.keys(TransactionRecord.shape).sort());
    expect(first).toMatchObject({
      destination_tx_status: 'pending',
      destination_tx_hash: null,
      has_attestation_error: true,
      is_gas_drop_in_native: true,
    });
    expect(res.text).toContain(`"deposit_amount":${BIG.toString()}`);
    expect(res.text).toContain(`"gas_drop_amount":${(10n ** 30n).toString()}`);
    expect(res.body.transactions[4].sender).toBe(upperSender.toLowerCase());
    expect(res.body.transactions[4].created_at).toBe('2026-11-20T00:00:00.000Z');
  });

  it('when listing testnet, then only testnet records in the subset shape are returned', async () => {
    const res = await request(t.app).get('/transactions').expect(200);
    expect(res.body.transactions).toHaveLength(1);
    expect(Object.keys(res.body.transactions[0]).sort()).toEqual(
      Object.keys(TestnetTransactionRecord.shape).sort(),
    );
    expect(res.body.transactions[0].id).toBe(ids[5]);
  });

  it('when filtering by senders in another letter case, then EVM addresses match case-insensitively', async () => {
    const res = await request(t.app)
      .get('/transactionsmainnet')
      .query({ senders: `${upperSender.toLowerCase()},${SOLANA_SENDER}` })
      .expect(200);
    expect(res.body.transactions.map((t: { id: number }) => t.id)).toEqual([ids[2], ids[0]]);
  });

  it('when a base58 sender differs in case, then it does not match (base58 is exact)', async () => {
    const res = await request(t.app)
      .get('/transactionsmainnet')
      .query({ senders: SOLANA_SENDER.toLowerCase() })
      .expect(200);
    expect(res.body.transactions).toEqual([]);
  });

  it('when addr_or_tx_hash is a sender, recipient, source or destination hash, then it matches that record', async () => {
    const all = (await request(t.app).get('/transactionsmainnet')).body
      .transactions as TransactionRecord[];
    const byId = (id: number) => all.find((t) => t.id === id)!;
    const cases: [string, number][] = [
      [SOLANA_SENDER, ids[2]!],
      ['0x' + 'E'.repeat(40), ids[2]!],
      [byId(ids[1]!).source_tx_hash.toUpperCase().replace('0X', '0x'), ids[1]!],
      [destinationHash, ids[3]!],
    ];
    for (const [value, id] of cases) {
      const res = await request(t.app)
        .get('/transactionsmainnet')
        .query({ addr_or_tx_hash: value })
        .expect(200);
      expect(res.body.transactions.map((t: { id: number }) => t.id)).toEqual([id]);
    }
  });

  it('when filtering by domains (any uint32), then only matching records are returned', async () => {
    const src = await request(t.app)
      .get('/transactionsmainnet')
      .query({ source_domain: '4294967295' })
      .expect(200);
    expect(src.body.transactions.map((t: { id: number }) => t.id)).toEqual([ids[1]]);
    expect(src.body.transactions[0].destination_domain).toBe(500001);
    const dst = await request(t.app)
      .get('/transactionsmainnet')
      .query({ destination_domain: '500001', source_domain: '4294967295' })
      .expect(200);
    expect(dst.body.transactions).toHaveLength(1);
    const none = await request(t.app)
      .get('/transactionsmainnet')
      .query({ source_domain: '5', destination_domain: '500001' })
      .expect(200);
    expect(none.body.transactions).toEqual([]);
  });

  it('when filtering by time, then start_time is inclusive and end_time exclusive', async () => {
    const start = Date.parse('2026-11-20T06:00:00Z') / 1000;
    const end = Date.parse('2026-11-21T01:00:00Z') / 1000;
    const res = await request(t.app)
      .get('/transactionsmainnet')
      .query({ start_time: String(start), end_time: String(end) })
      .expect(200);
    expect(res.body.transactions.map((t: { id: number }) => t.id)).toEqual([ids[3], ids[2]]);
  });

  it('when paging with limit 2, then pages chain through next_cursor to the end', async () => {
    const seen: number[] = [];
    let cursor = '';
    let pages = 0;
    do {
      const res = await request(t.app)
        .get('/transactionsmainnet')
        .query({ limit: '2', ...(cursor ? { cursor } : {}) })
        .expect(200);
      seen.push(...res.body.transactions.map((t: { id: number }) => t.id));
      cursor = res.body.next_cursor;
      expect(res.body.has_more).toBe(cursor !== '');
      if (cursor) expect(cursor).toMatch(/^[0-9]+_[0-9]+$/);
      pages += 1;
    } while (cursor);
    expect(pages).toBe(3);
    expect(seen).toEqual([ids[4], ids[3], ids[2], ids[1], ids[0]]);
  });

  it('when limit is above 100, then it is clamped', async () => {
    const res = await request(t.app)
      .get('/transactionsmainnet')
      .query({ limit: '100000000000000000000' })
      .expect(200);
    expect(res.body.transactions).toHaveLength(5);
  });

  const badQueries: [string, Record<string, string> | string, string][] = [
    ['limit 0', { limit: '0' }, 'INVALID_QUERY'],
    ['negative limit', { limit: '-1' }, 'INVALID_QUERY'],
    ['fractional limit', { limit: '1.5' }, 'INVALID_QUERY'],
    ['non-numeric limit', { limit: 'ten' }, 'INVALID_QUERY'],
    ['domain above uint32', { source_domain: '4294967296' }, 'INVALID_QUERY'],
    ['negative domain', { destination_domain: '-1' }, 'INVALID_QUERY'],
    ['non-numeric domain', { source_domain: 'eth' }, 'INVALID_QUERY'],
    ['malformed cursor', { cursor: 'abc' }, 'INVALID_CURSOR'],
    ['cursor without id', { cursor: '1700000000_' }, 'INVALID_CURSOR'],
    ['cursor id above int8', { cursor: '1700000000_9999999999999999999' }, 'INVALID_CURSOR'],
    ['reversed time range', { start_time: '1700000100', end_time: '1700000000' }, 'INVALID_QUERY'],
    ['non-numeric time', { start_time: 'yesterday' }, 'INVALID_QUERY'],
    [
      '51 senders',
      {
        senders: Array.from({ length: 51 }, (_, i) => `0x${i.toString(16).padStart(40, '0')}`).join(
          ',',
        ),
      },
      'INVALID_QUERY',
    ],
    ['a 10 kB value', { addr_or_tx_hash: 'a'.repeat(10_000) }, 'INVALID_QUERY'],
    ['SQL metacharacters', { addr_or_tx_hash: "x' OR '1'='1" }, 'INVALID_QUERY'],
    ['SQL in senders', { senders: '0xabc;drop table transactions' }, 'INVALID_QUERY'],
    ['unknown parameter', { sender: '0xabc' }, 'INVALID_QUERY'],
    ['repeated parameter', 'limit=1&limit=2', 'INVALID_QUERY'],
    ['a .eth name with no resolver configured', { addr_or_tx_hash: 'vitalik.eth' }, 'INVALID_NAME'],
  ];

  it.each(badQueries)('when given %s, then it is a 400 problem', async (_name, query, code) => {
    for (const path of ['/transactionsmainnet', '/transactions']) {
      const res = await request(t.app).get(path).query(query).expect(400);
      expect(res.headers['content-type']).toMatch(/application\/problem\+json/);
      expect(res.body).toMatchObject({ status: 400, code });
      expect(typeof res.body.detail).toBe('string');
    }
    expect(await t.db.knex('transactions').count<{ count: string }[]>('* as count')).toEqual([
      { count: String(ids.length) },
    ]);
  });
});
