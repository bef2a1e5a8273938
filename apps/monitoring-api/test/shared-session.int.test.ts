/**
 * The database layer over a server that serves every client connection from one session
 * (docs/architecture.md "Embedded defaults": PGlite, db/session-server.ts) and over a real
 * PostgreSQL: after the pool closes its idle connections, the feed, statistics, leaderboard and
 * DefiLlama routes still answer 200 (a closed connection's named statements stay in a shared
 * session, and the next connection's `Parse` of the same name would fail with 42P05). The pools
 * here close a connection idle for 50 ms; `pnpm start` closes them after 30 s (tarn's default).
 * Connections that send extended-protocol batches at the same time each get their own rows (a
 * shared session must not run one connection's `Bind` against another's unnamed statement).
 * And a target whose statements keep failing while it accepts connections is `failing` in
 * `GET /health` and `monitoring_database_target_up` (db/target-health.ts).
 */
import { connect as connectTcp, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createLogger } from '@ctss/server-kit';
import type { Database } from '../src/db/database.js';
import pg from 'pg';
import { createApp } from '../src/app.js';
import { createDatabases, type DatabaseHandles } from '../src/db/connect.js';
import { aTransaction, insertAll } from './support/builders.js';
import { useTestDatabase } from './support/database.js';
import { buildTestDeps, TEST_NOW, type TestDeps } from './support/deps.js';
import { closeInOrder, listenOnLoopback, type Listening } from './support/listen.js';
import { until } from './support/poll.js';

const logger = createLogger({ name: 'shared-session-test', level: 'silent' });
const IDLE_TIMEOUT_MS = 50;

/** An hour-aligned DefiLlama window ending before TEST_NOW, epoch seconds. */
const HOUR = 3_600;
const TO = Math.floor(TEST_NOW.getTime() / 1000 / HOUR) * HOUR;
const FROM = TO - 2 * HOUR;

/** One request of each kind whose statements are prepared (db/statements.ts `prepare`). */
const PATHS = [
  '/transactionsmainnet?limit=5',
  '/stats/mainnet/transactions',
  '/stats/mainnet/volumes',
  '/users/leaderboard',
  `/defillama/fees?from_timestamp=${FROM}&to_timestamp=${TO}`,
  `/defillama/bridge/volumes?from_timestamp=${FROM}&to_timestamp=${TO}`,
];

/** Resolves once every connection of `database`'s pool has been closed for being idle. */
async function poolDrained(database: Database): Promise<void> {
  await until(
    () => database.openConnections(),
    (open) => open === 0,
    'the pool to close its idle connections',
    { deadlineMs: 10_000, pauseMs: 50 },
  );
}

/** The status of each of {@link PATHS}, in order. */
async function statuses(base: string): Promise<number[]> {
  const out: number[] = [];
  for (const path of PATHS) out.push((await fetch(`${base}${path}`)).status);
  return out;
}

describe('a pool whose idle connections close', () => {
  const db = useTestDatabase();

  beforeAll(async () => {
    await insertAll(
      db.database,
      Array.from({ length: 12 }, (_, i) =>
        aTransaction({ created_at: new Date(TEST_NOW.getTime() - (i + 1) * 600_000) }),
      ),
    );
  });

  /** The app on pools of its own with a 50 ms idle timeout, served over HTTP. */
  async function serve(sessionShared: boolean) {
    const dbs: DatabaseHandles = createDatabases(
      {
        primaryUrl: db.url,
        readUrls: [],
        poolMax: 2,
        idleTimeoutMs: IDLE_TIMEOUT_MS,
        sessionShared,
      },
      logger,
    );
    const deps: TestDeps = { ...buildTestDeps({ database: dbs.primary }), db: dbs };
    const http: Listening = await listenOnLoopback(createApp(deps));
    return {
      dbs,
      base: http.base,
      close: () => closeInOrder(http, deps, dbs),
    };
  }

  for (const told of [true, false]) {
    it(`when every connection closed while idle and the pool was ${told ? '' : 'not '}told the session is shared, then every route still answers 200`, async () => {
      const served = await serve(told && db.embedded);
      try {
        for (let round = 0; round < 3; round += 1) {
          expect(await statuses(served.base)).toEqual(PATHS.map(() => 200));
          await poolDrained(served.dbs.primary);
        }
        const health = await (await fetch(`${served.base}/health`)).json();
        expect(health).toEqual({
          status: 'ok',
          database: [{ target: 'primary', status: 'ok', recent_failures: 0 }],
        });
        // Named statements stay where they pay: on a real server the pool never gives them up.
        const shared = served.dbs.primary.sessionShared;
        expect(shared).toBe(db.embedded);
      } finally {
        await served.close();
      }
    }, 60_000);
  }
});

describe('a target whose statements keep failing while it accepts connections', () => {
  const db = useTestDatabase();
  let served: { dbs: DatabaseHandles; base: string; deps: TestDeps; http: Listening };

  beforeAll(async () => {
    await insertAll(db.database, [
      aTransaction({ created_at: new Date(TEST_NOW.getTime() - 60_000) }),
    ]);
    const dbs = createDatabases(
      { primaryUrl: db.url, readUrls: [], poolMax: 1, sessionShared: db.embedded },
      logger,
    );
    // Every feed request reads the database (no in-process first page).
    const env = { FEED_FIRST_PAGE_CACHE_SECONDS: '0' };
    const deps: TestDeps = { ...buildTestDeps({ database: dbs.primary, env }), db: dbs };
    dbs.health.registerMetrics(deps.metrics.registry, 'monitoring_test_');
    served = { dbs, deps, base: '', http: await listenOnLoopback(createApp(deps)) };
    served.base = served.http.base;
  });

  afterAll(async () => {
    await closeInOrder(served?.http, served?.deps, served?.dbs);
  });

  /** `monitoring_test_database_target_up{target="primary"}` as `/metrics` shows it. */
  async function up(): Promise<string | undefined> {
    const text = await served.deps.metrics.registry.metrics();
    return /monitoring_test_database_target_up\{target="primary"\} (\d)/.exec(text)?.[1];
  }

  it('when the feed table is gone, then /health says the primary is failing with its SQLSTATE, and ok again once it is back', async () => {
    expect(await up()).toBe('1');
    await db.knex.raw('alter table transactions rename to transactions_away');
    try {
      for (let i = 0; i < 3; i += 1) {
        expect((await fetch(`${served.base}/transactionsmainnet?limit=5`)).status).toBe(500);
      }
      // The database itself still answers: readiness cannot see this, /health must.
      expect((await fetch(`${served.base}/ready`)).status).toBe(200);
      const health = await (await fetch(`${served.base}/health`)).json();
      expect(health).toEqual({
        status: 'degraded',
        database: [
          {
            target: 'primary',
            status: 'failing',
            recent_failures: 3,
            last_error_code: '42P01',
          },
        ],
      });
      expect(await up()).toBe('0');
      const text = await served.deps.metrics.registry.metrics();
      expect(text).toMatch(
        /monitoring_test_database_statement_errors_total\{target="primary",code="42P01"\} 3/,
      );
    } finally {
      await db.knex.raw('alter table transactions_away rename to transactions');
    }
    // Recovered once the failures leave its last 20 statements (or its last minute).
    for (let i = 0; i < 20; i += 1) {
      expect((await fetch(`${served.base}/transactionsmainnet?limit=5`)).status).toBe(200);
    }
    const health = await (await fetch(`${served.base}/health`)).json();
    expect(health).toMatchObject({
      status: 'ok',
      database: [{ target: 'primary', status: 'ok', recent_failures: 0 }],
    });
    expect(await up()).toBe('1');
  });
});

describe('connections sending batches at the same time', () => {
  const db = useTestDatabase({ migrate: false });

  it('when four connections each run 100 differently shaped statements at once, then each gets its own rows', async () => {
    const clients = Array.from({ length: 4 }, () => new pg.Client({ connectionString: db.url }));
    await Promise.all(clients.map((client) => client.connect()));
    try {
      const shapes = [
        (i: number) => ({ text: 'select $1::int8 as n', values: [i], want: { n: String(i) } }),
        (i: number) => ({
          text: "select $1::text as t, 'x' as u",
          values: [`s${i}`],
          want: { t: `s${i}`, u: 'x' },
        }),
        (i: number) => ({
          text: 'select $1::bool as b',
          values: [i % 2 === 0],
          want: { b: i % 2 === 0 },
        }),
        (i: number) => ({
          text: 'select $1::int4 + $2::int4 as sum',
          values: [i, 1],
          want: { sum: i + 1 },
        }),
      ];
      const got = await Promise.all(
        clients.map(async (client, c) => {
          const wrong: unknown[] = [];
          for (let i = 0; i < 100; i += 1) {
            const { text, values, want } = shapes[c]!(i);
            const { rows } = await client.query(text, values as unknown[]);
            if (JSON.stringify(rows) !== JSON.stringify([want])) wrong.push({ i, rows, want });
          }
          return wrong;
        }),
      );
      expect(got).toEqual([[], [], [], []]);
    } finally {
      await Promise.all(clients.map((client) => client.end()));
    }
  }, 60_000);
});

/** A frontend message: type byte, int32 length (itself included), body (PostgreSQL manual, "Message Formats"). */
function message(type: string, ...parts: Buffer[]): Buffer {
  const body = Buffer.concat(parts);
  const length = Buffer.alloc(4);
  length.writeInt32BE(body.length + 4);
  return Buffer.concat([Buffer.from(type), length, body]);
}
const cstring = (text: string) => Buffer.from(`${text}\0`);
const int16 = (n: number) => Buffer.from([n >> 8, n & 0xff]);
const int32 = (n: number) => {
  const b = Buffer.alloc(4);
  b.writeInt32BE(n);
  return b;
};

/** A raw protocol connection: sends bytes, collects backend messages until a ReadyForQuery. */
class RawConnection {
  #buffer = Buffer.alloc(0);
  #waiting: (() => void) | undefined;
  constructor(readonly socket: Socket) {
    socket.on('data', (chunk: Buffer) => {
      this.#buffer = Buffer.concat([this.#buffer, chunk]);
      this.#waiting?.();
    });
  }

  static async open(url: string): Promise<RawConnection> {
    const { hostname, port } = new URL(url);
    const socket = connectTcp(Number(port), hostname);
    await new Promise((resolve, reject) => socket.once('connect', resolve).once('error', reject));
    const raw = new RawConnection(socket);
    const params = Buffer.concat([
      cstring('user'),
      cstring('postgres'),
      cstring('database'),
      cstring(new URL(url).pathname.slice(1)),
      Buffer.from([0]),
    ]);
    socket.write(Buffer.concat([int32(params.length + 8), int32(196_608), params]));
    await raw.untilReady();
    return raw;
  }

  /** Backend messages (type, body) up to and including the next ReadyForQuery. */
  async untilReady(): Promise<{ type: string; body: Buffer }[]> {
    const out: { type: string; body: Buffer }[] = [];
    for (;;) {
      while (this.#buffer.length >= 5 && this.#buffer.length >= 1 + this.#buffer.readInt32BE(1)) {
        const length = 1 + this.#buffer.readInt32BE(1);
        const type = String.fromCharCode(this.#buffer[0]!);
        out.push({ type, body: this.#buffer.subarray(5, length) });
        this.#buffer = this.#buffer.subarray(length);
        if (type === 'Z') return out;
      }
      await new Promise<void>((resolve) => {
        this.#waiting = resolve;
      });
    }
  }
}

describe('a batch split over two writes while another connection runs a statement', () => {
  const db = useTestDatabase({ migrate: false });

  it('when another connection queries between its Parse and its Bind, then it still binds its own unnamed statement', async () => {
    const a = await RawConnection.open(db.url);
    const b = new pg.Client({ connectionString: db.url });
    await b.connect();
    try {
      // Parse of the unnamed statement, and nothing else yet.
      a.socket.write(message('P', cstring(''), cstring("select 'mine' as a"), int16(0)));
      await new Promise((resolve) => setTimeout(resolve, 100));
      const other = b.query("select 'theirs' as b");
      await new Promise((resolve) => setTimeout(resolve, 100));
      a.socket.write(
        Buffer.concat([
          message('B', cstring(''), cstring(''), int16(0), int16(0), int16(0)),
          message('D', Buffer.from('P'), cstring('')),
          message('E', cstring(''), int32(0)),
          message('S'),
        ]),
      );
      const answer = await a.untilReady();
      const description = answer.find((m) => m.type === 'T')!.body;
      const column = description.subarray(2, description.indexOf(0, 2)).toString();
      const row = answer.find((m) => m.type === 'D')!.body;
      const value = row.subarray(6, 6 + row.readInt32BE(2)).toString();
      expect({ column, value }).toEqual({ column: 'a', value: 'mine' });
      expect((await other).rows).toEqual([{ b: 'theirs' }]);
    } finally {
      a.socket.destroy();
      await b.end();
    }
  });
});
