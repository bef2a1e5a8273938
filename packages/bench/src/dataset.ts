/**
 * The benchmark database: a dedicated database on DATABASE_URL's server, loaded by the monitoring
 * API's own seeder (`dist/bin/seed.js`, COPY) and recreated only when the requested size differs from
 * the one recorded in its marker table, so reruns start in seconds. Also picks realistic request
 * parameters (cursors, senders, addresses, hashes, time windows, usernames) from the loaded data.
 */
import { createHash } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import pg from 'pg';
import { runNode } from './child.js';
import { MONITORING_APP_DIR } from './paths.js';

/** Size of a loaded dataset. */
export interface DatasetSize {
  readonly transactions: number;
  readonly users: number;
  /** {@link seedFingerprint} of the code that loaded it. */
  readonly fingerprint?: string;
}

const MARKER = 'ctss_bench_dataset';

/**
 * A fingerprint of the monitoring API's built migrations and seeder (dist/migrations, dist/seed,
 * dist/bin/seed.js): a database loaded by other code is reloaded, so a schema change (a new index,
 * a new rollup table) is always measured.
 */
async function seedFingerprint(): Promise<string> {
  const dist = path.join(MONITORING_APP_DIR, 'dist');
  const hash = createHash('sha256');
  for (const dir of ['migrations', 'seed']) {
    const files = (await readdir(path.join(dist, dir)).catch(() => [] as string[]))
      .filter((f) => f.endsWith('.js'))
      .sort();
    for (const f of files) hash.update(f).update(await readFile(path.join(dist, dir, f)));
  }
  hash.update(await readFile(path.join(dist, 'bin', 'seed.js')).catch(() => Buffer.alloc(0)));
  return hash.digest('hex').slice(0, 16);
}

/** The URL of `database` on the server of `adminUrl` (same host, port, user). */
export function databaseUrl(adminUrl: string, database: string): string {
  const url = new URL(adminUrl);
  url.pathname = `/${database}`;
  return url.toString();
}

async function withClient<T>(url: string, fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

/** The size recorded in the marker table of `url`, or undefined when absent or unreadable. */
async function loadedSize(url: string): Promise<DatasetSize | undefined> {
  try {
    return await withClient(url, async (c) => {
      const r = await c.query<{ transactions: string; users: string; fingerprint: string | null }>(
        `select transactions::text, users::text, to_jsonb(m) ->> 'fingerprint' as fingerprint from ${MARKER} m limit 1`,
      );
      const row = r.rows[0];
      return row
        ? {
            transactions: Number(row.transactions),
            users: Number(row.users),
            fingerprint: row.fingerprint ?? undefined,
          }
        : undefined;
    });
  } catch {
    return undefined;
  }
}

/** Options of {@link ensureDataset}. */
export interface EnsureDatasetOptions {
  readonly adminUrl: string;
  readonly database: string;
  readonly size: DatasetSize;
  /** Use the database as it is. */
  readonly skipSeed: boolean;
  /** Reload even when the size matches. */
  readonly reseed: boolean;
  readonly log: (line: string) => void;
}

/**
 * Makes sure `database` holds a dataset of `size` (drop, create, seed, ANALYZE, marker) and
 * returns its URL and the size actually loaded.
 * @throws Error when the server is unreachable or the seeder fails.
 */
export async function ensureDataset(
  opts: EnsureDatasetOptions,
): Promise<{ url: string; size: DatasetSize; seededNow: boolean; seedSeconds?: number }> {
  const url = databaseUrl(opts.adminUrl, opts.database);
  const current = await loadedSize(url);
  if (opts.skipSeed) {
    if (!current)
      throw new Error(
        `--skip-seed: ${opts.database} has no ${MARKER} marker; run without --skip-seed once`,
      );
    return { url, size: current, seededNow: false };
  }
  const fingerprint = await seedFingerprint();
  if (
    !opts.reseed &&
    current &&
    current.transactions === opts.size.transactions &&
    current.users === opts.size.users &&
    current.fingerprint === fingerprint
  ) {
    opts.log(
      `dataset: ${opts.database} already holds ${current.transactions} transactions, ${current.users} users`,
    );
    return { url, size: current, seededNow: false };
  }
  if (current && current.fingerprint !== fingerprint)
    opts.log('dataset: the monitoring API migrations or seeder changed since the last load');
  opts.log(
    `dataset: (re)creating ${opts.database} with ${opts.size.transactions} transactions, ${opts.size.users} users`,
  );
  await withClient(opts.adminUrl, async (c) => {
    await c.query(`drop database if exists ${opts.database} with (force)`);
    await c.query(`create database ${opts.database}`);
  });
  const started = Date.now();
  await runNode({
    name: 'seed',
    script: path.join(MONITORING_APP_DIR, 'dist', 'bin', 'seed.js'),
    args: ['--transactions', String(opts.size.transactions), '--users', String(opts.size.users)],
    cwd: MONITORING_APP_DIR,
    env: { DATABASE_URL: url, LOG_LEVEL: 'info' },
  });
  const seedSeconds = (Date.now() - started) / 1000;
  await withClient(url, async (c) => {
    await c.query('vacuum analyze');
    await c.query(
      `create table ${MARKER} (transactions bigint not null, users bigint not null, fingerprint text not null, seeded_at timestamptz not null default now())`,
    );
    await c.query(`insert into ${MARKER} (transactions, users, fingerprint) values ($1, $2, $3)`, [
      opts.size.transactions,
      opts.size.users,
      fingerprint,
    ]);
  });
  opts.log(`dataset: loaded in ${seedSeconds.toFixed(0)} s`);
  return { url, size: { ...opts.size, fingerprint }, seededNow: true, seedSeconds };
}

/** Request parameters picked from the loaded data. */
export interface BenchParams {
  /** `<unix_ts>_<id>` cursors of rows in the older half of the mainnet feed. */
  readonly deepCursors: string[];
  /** Senders of sampled mainnet rows (so busy senders come up as often as they do in the data). */
  readonly senders: string[];
  /** A mix of senders, recipients, source and destination hashes of sampled mainnet rows. */
  readonly lookups: string[];
  /** [start, end) one-hour windows (UNIX seconds) inside the mainnet time range. */
  readonly windows: Array<readonly [number, number]>;
  /** Substrings of existing usernames for leaderboard search. */
  readonly searches: string[];
  /** Mainnet rows, for the report. */
  readonly mainnetRows: number;
  /**
   * `FEED_INDEXED_CHAINS` of the closed-window workload, once their cursors are written
   * (closed-windows.ts); absent = not written.
   */
  readonly indexedChains?: string;
}

function shuffle<T>(items: T[], seed = 42): T[] {
  // Deterministic (mulberry32) so two runs send the same requests.
  let s = seed;
  const rand = () => {
    s = (s + 0x6d2b79f5) | 0;
    let t = Math.imul(s ^ (s >>> 15), 1 | s);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  for (let i = items.length - 1; i > 0; i--) {
    const j = Math.floor(rand() * (i + 1));
    [items[i], items[j]] = [items[j]!, items[i]!];
  }
  return items;
}

/**
 * Picks {@link BenchParams} from the benchmark database (a few hundred values of each kind).
 * @throws Error when the database has no mainnet transactions or no users.
 */
export async function pickParams(url: string): Promise<BenchParams> {
  return withClient(url, async (c) => {
    // Same parameters on every run over the same data: seed random() of this connection.
    await c.query('select setseed(0.42)');
    const range = await c.query<{ lo: string | null; hi: string | null; n: string }>(`
      select extract(epoch from min(created_at))::bigint::text as lo,
             extract(epoch from max(created_at))::bigint::text as hi,
             (select count(*) from transactions where network = 'mainnet')::text as n
        from transactions where network = 'mainnet'`);
    const lo = Number(range.rows[0]?.lo ?? NaN);
    const hi = Number(range.rows[0]?.hi ?? NaN);
    if (!Number.isFinite(lo) || !Number.isFinite(hi))
      throw new Error('the benchmark database has no mainnet transactions');
    const mid = Math.floor((lo + hi) / 2);

    interface Row {
      id: string;
      ts: string;
      sender: string;
      recipient: string;
      source_tx_hash: string;
      destination_tx_hash: string | null;
    }
    const sample = async (clause: string) =>
      (
        await c.query<Row>(`
          select id::text, extract(epoch from created_at)::bigint::text as ts, sender, recipient,
                 source_tx_hash, destination_tx_hash
            from transactions ${clause}
           where network = 'mainnet'
           order by random() limit 600`)
      ).rows;
    let rows = await sample('tablesample system (1) repeatable (7)');
    if (rows.length < 100) rows = await sample('');
    rows = shuffle(rows);

    const deepCursors = rows.filter((r) => Number(r.ts) <= mid).map((r) => `${r.ts}_${r.id}`);
    const senders = rows.map((r) => r.sender);
    const lookups = rows.map((r, i) => {
      switch (i % 4) {
        case 0:
          return r.sender;
        case 1:
          return r.recipient;
        case 2:
          return r.source_tx_hash;
        default:
          return r.destination_tx_hash ?? r.source_tx_hash;
      }
    });
    const windows: Array<readonly [number, number]> = rows.map((r) => {
      const start = Math.floor(Number(r.ts) / 3600) * 3600;
      return [start, start + 3600] as const;
    });

    const users = await c.query<{ username: string }>(`
      select username from users tablesample system (5) repeatable (7) order by random() limit 300`);
    let names = users.rows.map((u) => u.username);
    if (names.length < 50)
      names = (
        await c.query<{ username: string }>(
          'select username from users order by random() limit 300',
        )
      ).rows.map((u) => u.username);
    if (names.length === 0) throw new Error('the benchmark database has no users');
    const searches = shuffle(
      names.map((name) => {
        const base = name.includes('.') ? name.slice(0, name.lastIndexOf('.')) : name;
        return base.length <= 5 ? base : base.slice(-5);
      }),
    );
    return {
      deepCursors,
      senders,
      lookups,
      windows,
      searches,
      mainnetRows: Number(range.rows[0]?.n ?? 0),
    };
  });
}
