/**
 * The SQL of every repository, written to src/queries/<feature>.sql (docs/architecture.md
 * "Database layer"), so a review shows each statement's text: the request paths' repositories,
 * the indexer's statements (indexer.sql: store.ts with the cursor, the reorg anchors, the Iris
 * budget and the chain lock) and the rank job's (points.sql). Each repository function runs
 * against a migrated database while the database handle's statement observer records what it
 * sends. A committed file that differs from what the repositories send fails the test with the
 * first differing line; `UPDATE_SQL=1` rewrites the files instead.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { describe, expect, it } from '@jest/globals';
import { prepare } from '../src/db/statements.js';
import { windowSums } from '../src/defillama/repository.js';
import { readCursor, type ChainKey } from '../src/indexer/cursor.js';
import type { TransferRow } from '../src/indexer/decode.js';
import { PgRateGate } from '../src/indexer/iris-budget.js';
import { ChainLocks } from '../src/indexer/lock.js';
import { anchorsAtOrBelow } from '../src/indexer/reorg.js';
import {
  awaitedReceives,
  deferAttestationCheck,
  deleteUnfinalized,
  dueAttestations,
  flagOverdueAttestations,
  indexedRecordsOf,
  recordAttestationAnswers,
  rewind,
  storedBlocksAbove,
  writeBatch,
  type DueTransaction,
  type ReceivedRow,
} from '../src/indexer/store.js';
import { recomputePoints } from '../src/points/recompute.js';
import { pointsConfigSchema, pointsRuleOf } from '../src/points/rule.js';
import {
  networkTotals,
  sendersVolume,
  volumeBySourceDomain,
  volumeSeries,
} from '../src/stats/repository.js';
import { MAINNET_FIELDS, TESTNET_FIELDS } from '../src/transactions/record.js';
import { createFeedRepository, type FeedFilter } from '../src/transactions/repository.js';
import { parseWalletAddress } from '../src/users/address.js';
import { recomputeRanks } from '../src/users/ranks.js';
import {
  bindAuthorizedWallet,
  countUsers,
  createUserWithWallet,
  fetchDomainAggregate,
  fetchLeaderboard,
  findUserByUsername,
  findUsersByWallets,
  unbindOwnedWallet,
} from '../src/users/repository.js';
import { useTestDatabase } from './support/database.js';
import { TEST_NOW } from './support/deps.js';

/** Where the files go. */
const QUERIES = new URL('../src/queries/', import.meta.url);

const HEADER =
  "-- The statements of this feature's repository, as sent to PostgreSQL ($n = bound values).\n" +
  '-- Written by apps/monitoring-api/test/queries.int.test.ts (UPDATE_SQL=1 rewrites it): do not edit.\n';

/** A feature's statements, each under the label of the call that sent it, first sent first. */
type Recorded = { label: string; text: string }[];

/** The file text of `recorded`: each distinct statement once, under the first label that sent it. */
function render(recorded: Recorded): string {
  const seen = new Set<string>();
  const blocks: string[] = [];
  for (const { label, text } of recorded) {
    if (seen.has(text)) continue;
    seen.add(text);
    blocks.push(`-- ${label}\n${text.trim()};\n`);
  }
  return `${HEADER}\n${blocks.join('\n')}`;
}

/** Compares `text` with the committed file of `feature` (or writes it with UPDATE_SQL=1). */
async function check(feature: string, text: string): Promise<void> {
  const url = new URL(`${feature}.sql`, QUERIES);
  if (process.env.UPDATE_SQL === '1') {
    await writeFile(url, text);
    return;
  }
  const committed = await readFile(url, 'utf8').catch(() => '');
  if (committed === text) return;
  const a = committed.split('\n');
  const b = text.split('\n');
  let line = 0;
  while (line < Math.max(a.length, b.length) && a[line] === b[line]) line += 1;
  throw new Error(
    `src/queries/${feature}.sql is stale (run the test with UPDATE_SQL=1 and commit the file): ` +
      `line ${line + 1} is ${JSON.stringify(a[line] ?? '(end of file)')}, ` +
      `the repository sends ${JSON.stringify(b[line] ?? '(end of file)')}`,
  );
}

describe('the SQL files of src/queries', () => {
  const db = useTestDatabase();

  /** Runs `calls` in order, recording what each sends under its label. */
  async function record(calls: [string, () => Promise<unknown>][]): Promise<Recorded> {
    const recorded: Recorded = [];
    let label = '';
    const stop = db.database.observe((statement) => recorded.push({ label, text: statement.text }));
    try {
      for (const [name, call] of calls) {
        label = name;
        await call();
      }
    } finally {
      stop();
    }
    return recorded;
  }

  it('when the feed repository runs each filter shape, then transactions.sql holds its statements', async () => {
    const { listTransactions } = createFeedRepository();
    const a = '0x00000000000000000000000000000000000000a1';
    const b = '0x00000000000000000000000000000000000000b2';
    const hash = `0x${'ab'.repeat(32)}`;
    const shapes: [string, FeedFilter][] = [
      ['no filter', {}],
      ['one sender', { senders: [a] }],
      ['several senders and recipients', { senders: [a, b], recipients: [a, b] }],
      ['addr_or_tx_hash', { match: a }],
      ['a transaction hash (the lookups)', { txHash: hash }],
      ['domain', { domain: 6 }],
      [
        'source and destination domain, status, time window and cursor',
        {
          sourceDomain: 0,
          destinationDomain: 6,
          status: 'success',
          startTime: 1_700_000_000,
          endTime: 1_800_000_000,
          cursor: { seconds: 1_750_000_000, id: 5n },
        },
      ],
    ];
    const recorded = await record([
      ...shapes.map(([label, filter]): [string, () => Promise<unknown>] => [
        `listTransactions (mainnet): ${label}`,
        () => listTransactions(db.database, 'mainnet', filter, 10, MAINNET_FIELDS),
      ]),
      [
        'listTransactions (testnet): no filter',
        () => listTransactions(db.database, 'testnet', {}, 10, TESTNET_FIELDS),
      ],
    ]);
    expect(recorded.length).toBe(shapes.length + 1);
    await check('transactions', render(recorded));
  });

  it('when the statistics repository runs each read, then stats.sql holds its statements', async () => {
    const recorded = await record([
      ['volumeSeries: hourly', () => volumeSeries(db.database, 'mainnet', 'hourly', 24, TEST_NOW)],
      ['volumeSeries: daily', () => volumeSeries(db.database, 'mainnet', 'daily', 30, TEST_NOW)],
      ['networkTotals', () => networkTotals(db.database, 'mainnet')],
      ['volumeBySourceDomain', () => volumeBySourceDomain(db.database, 'mainnet')],
      [
        'sendersVolume',
        () => sendersVolume(db.database, 'mainnet', ['0x00000000000000000000000000000000000000a1']),
      ],
    ]);
    expect(recorded.length).toBe(5);
    await check('stats', render(recorded));
  });

  it('when the DefiLlama repository sums a window, then defillama.sql holds its statement', async () => {
    const range: [number, number] = [1_700_000_000, 1_700_003_600];
    const recorded = await record([
      [
        'windowSums',
        () =>
          windowSums(db.database, {
            leadingRecords: range,
            leadingHours: range,
            days: range,
            trailingHours: range,
            trailingRecords: range,
          }),
      ],
    ]);
    expect(recorded.length).toBe(1);
    await check('defillama', render(recorded));
  });

  it('when the users repository runs each read and write, then users.sql holds its statements', async () => {
    const first = parseWalletAddress('evm', '0x00000000000000000000000000000000000000c3')!;
    const second = parseWalletAddress('solana', '9WzDXwBbmkg8ZTbNMqUxvQRAyrZzDsGYdLVL9zYtAWWM')!;
    let userId = 0;
    const recorded = await record([
      [
        'createUserWithWallet',
        async () => {
          const claim = await createUserWithWallet(
            db.database,
            'sql.ctss',
            first,
            () => 'SQLREF01',
          );
          if (claim.outcome === 'created') userId = claim.user.id;
        },
      ],
      ['findUserByUsername', () => findUserByUsername(db.database, 'sql.ctss')],
      ['bindAuthorizedWallet', () => bindAuthorizedWallet(db.database, userId, second, first)],
      ['unbindOwnedWallet', () => unbindOwnedWallet(db.database, userId, second)],
      ['countUsers: everyone', () => countUsers(db.database, '')],
      ['countUsers: trigram search', () => countUsers(db.database, 'sql')],
      ['countUsers: short search', () => countUsers(db.database, 's')],
      ...(['mainnet', 'devnet'] as const).flatMap((network) =>
        (['', 'sql', 's'] as const).map((search): [string, () => Promise<unknown>] => [
          `fetchLeaderboard (${network}): ${search === '' ? 'everyone' : `search ${search}`}`,
          () =>
            fetchLeaderboard(
              db.database,
              { network, limit: 10, offset: 0, search },
              { totalUsers: () => Promise.resolve(0) },
            ),
        ]),
      ),
      ['findUsersByWallets', () => findUsersByWallets(db.database, [first])],
      ['fetchDomainAggregate', () => fetchDomainAggregate(db.database, 'sql.ctss')],
    ]);
    expect(userId).toBeGreaterThan(0);
    await check('users', render(recorded));
  });

  it('when the indexer writes, attests and rewinds a chain, then indexer.sql holds its statements', async () => {
    const chain: ChainKey = { name: 'sql-chain', network: 'mainnet', domain: 3 };
    const hash = (byte: string) => `0x${byte.repeat(32)}`;
    const transfer: TransferRow = {
      network: 'mainnet',
      source_domain: 3,
      source_tx_hash: hash('a1'),
      destination_domain: 0,
      sender: '0x00000000000000000000000000000000000000a1',
      recipient: '0x00000000000000000000000000000000000000b2',
      deposit_amount: 10_000_000n,
      receive_amount: 9_990_000n,
      relayer_fee: 10_000n,
      gas_drop_amount: 0n,
      is_gas_drop_in_native: false,
      max_fee: 0n,
      confirmed: false,
      created_at: new Date('2026-11-21T12:00:00Z'),
      log_index: 4,
      block_number: 101n,
      block_hash: hash('b1'),
      version: 2,
      cctp_nonce: null,
      message_hash: null,
      min_finality_threshold: 2000,
    };
    const received: ReceivedRow = {
      network: 'mainnet',
      destination_domain: 3,
      source_domain: 0,
      version: 2,
      nonce: hash('0c'),
      tx_hash: hash('c1'),
      log_index: 1,
      block_number: 101n,
      block_hash: hash('b1'),
      mint_amount: 5_000_000n,
      fee_executed: 500n,
      received_at: new Date('2026-11-21T12:00:00Z'),
    };
    const first = { number: 101n, hash: hash('b1') };
    const second = { number: 102n, hash: hash('b2') };
    const locks = new ChainLocks(db.database);
    const gate = new PgRateGate(db.database, 1_000, 'sql');
    let ids: string[] = [];
    let due: DueTransaction | undefined;
    const recorded = await record([
      ['ChainLocks.tryAcquire', () => locks.tryAcquire('mainnet:3')],
      ['readCursor (none yet: the name-only cursor adopted)', () => readCursor(db.database, chain)],
      [
        'writeBatch: the first range (the cursor inserted)',
        () =>
          writeBatch(db.database, {
            chain,
            expected: undefined,
            next: first,
            transfers: [transfer],
            received: [received],
            safeBlock: 90n,
          }),
      ],
      [
        'writeBatch: the next range (the cursor moved)',
        () =>
          writeBatch(db.database, {
            chain,
            expected: first,
            next: second,
            transfers: [],
            received: [],
            safeBlock: 101n,
            confirmedTime: new Date('2026-11-21T12:00:00Z'),
          }),
      ],
      ['dueAttestations: one chain', () => dueAttestations(db.database, chain, 20)],
      ['dueAttestations: every chain', () => dueAttestations(db.database, undefined, 20)],
      [
        'indexedRecordsOf',
        async () => {
          [due] = await dueAttestations(db.database, chain, 1);
          ids = await indexedRecordsOf(db.database, due!);
        },
      ],
      ['deferAttestationCheck', () => deferAttestationCheck(db.database, due!, 30)],
      [
        'recordAttestationAnswers',
        () =>
          recordAttestationAnswers(db.database, [
            { id: ids[0]!, attested: false, nextCheckSeconds: 30 },
            { id: ids[0]!, attested: true, version: 2, message: '0x00', nonce: hash('0d') },
          ]),
      ],
      ['flagOverdueAttestations', () => flagOverdueAttestations(db.database, chain, 3600)],
      ['PgRateGate.acquire', () => gate.acquire()],
      ['PgRateGate.pause', () => gate.pause(10)],
      ['awaitedReceives', () => awaitedReceives(db.database, chain, 200)],
      ['storedBlocksAbove', () => storedBlocksAbove(db.database, chain, 0n)],
      ['anchorsAtOrBelow', () => anchorsAtOrBelow(db.database, chain, 102n)],
      ['deleteUnfinalized', () => deleteUnfinalized(db.database, chain, 102n, [])],
      [
        'rewind: back before the first block',
        () => rewind(db.database, chain, second, undefined, new Map()),
      ],
    ]);
    await locks.close();
    expect(ids).toHaveLength(1);
    await check('indexer', render(recorded));
  });

  it('when the rank job runs (a rebuild, then an incremental run), then points.sql holds its statements', async () => {
    const rule = pointsRuleOf(
      pointsConfigSchema.parse({
        POINTS_MULTIPLIERS: JSON.stringify([
          { source_domain: 0, multiplier: '2', from: '2026-01-01T00:00:00Z' },
        ]),
      }),
    );
    const recorded = await record([
      ['recomputePoints: first run (rebuild)', () => recomputePoints(db.database, rule)],
      ['recomputePoints: incremental', () => recomputePoints(db.database, rule)],
      ['recomputeRanks', () => recomputeRanks(db.database)],
    ]);
    await check('points', render(recorded));
  });

  it('when a statement is prepared, then its name is derived from its text alone', () => {
    expect(prepare('x', 'select 1').name).toBe(prepare('x', 'select 1').name);
    expect(prepare('x', 'select 1').name).not.toBe(prepare('x', 'select 2').name);
  });
});
