/**
 * The SQL of every repository, written to src/queries/<feature>.sql (docs/architecture.md
 * "Database layer"), so a review shows each statement's text: each repository function runs
 * against a migrated database while the database handle's statement observer records what it
 * sends. A committed file that differs from what the repositories send fails the test with the
 * first differing line; `UPDATE_SQL=1` rewrites the files instead.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { describe, expect, it } from '@jest/globals';
import { prepare } from '../src/db/statements.js';
import { windowSums } from '../src/defillama/repository.js';
import {
  networkTotals,
  sendersVolume,
  volumeBySourceDomain,
  volumeSeries,
} from '../src/stats/repository.js';
import { MAINNET_FIELDS, TESTNET_FIELDS } from '../src/transactions/record.js';
import { createFeedRepository, type FeedFilter } from '../src/transactions/repository.js';
import { parseWalletAddress } from '../src/users/address.js';
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

  it('when a statement is prepared, then its name is derived from its text alone', () => {
    expect(prepare('x', 'select 1').name).toBe(prepare('x', 'select 1').name);
    expect(prepare('x', 'select 1').name).not.toBe(prepare('x', 'select 2').name);
  });
});
