/**
 * The live feed `GET /transactionsmainnet/stream` (docs/api.md "Live feed (Server-Sent Events)")
 * over real HTTP, against real PostgreSQL (DATABASE_URL) or the embedded PGlite behind the
 * session server, with Redis when REDIS_URL is set: writes through the database (the change-log
 * triggers, LISTEN/NOTIFY) reach the matching streams of two app instances, a reconnect with
 * `Last-Event-ID` misses nothing, a client that does not read is dropped while the others keep
 * receiving, bad filters are 400 problems, 1,000 streams each receive an event, and a drain ends
 * the open streams. The two instances share a Redis of the test's own (a redis-server on port
 * 6507), so their changes go through the Redis fan-out (docs/decisions.md "D200. Live feed: one
 * listener, fanned out through Redis"): one instance LISTENs, both deliver; a killed leader
 * process is replaced within the lease and a resume misses nothing; with Redis gone both
 * instances LISTEN themselves and the open streams miss nothing; a change lost to the log's
 * retention reaches each open stream as a `reset`, from which the SDK's tracker settles. The
 * drain test runs without Redis (each process LISTENs).
 */
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import { monitoringApiEntry, type ChildService } from '@ctss/devnet';
import {
  createEdgeServer,
  createKvStore,
  createLogger,
  listen,
  runService,
  type KvStore,
} from '@ctss/server-kit';
import { MonitoringClient, trackTransfer } from '@ctss/sdk';
import { redisProcess, waitFor } from '@ctss/test-support';
import { createApp } from '../src/app.js';
import { createChangeWatch } from '../src/transactions/change-watch.js';
import {
  createLiveFeed,
  streamLimitsFromConfig,
  type RunningLiveFeed,
} from '../src/transactions/live-feed.js';
import { aTransaction, hexId, insertAll } from './support/builders.js';
import { commitWithLostChange } from './support/change-log.js';
import { createTestDatabase, type TestDatabase } from './support/database.js';
import { startListeningService } from './support/child-service.js';
import { buildTestDeps, type TestDeps } from './support/deps.js';
import { listenOnLoopback, type Listening } from './support/listen.js';
import { openSse, type SseStream } from './support/sse.js';

jest.setTimeout(120_000);

const ENV = {
  STREAM_MAX_CLIENTS_PER_ADDRESS: '2000',
  STREAM_MAX_CLIENTS: '2000',
  STREAM_CLIENT_BUFFER_BYTES: '65536',
  STREAM_HEARTBEAT_SECONDS: '1',
};

/** The lease of the fan-out in these tests, seconds (renewed every third of it). */
const LEASE_SECONDS = 2;

/** A Redis of this file's own (port 6507), stopped and restarted by the outage test. */
const redis = redisProcess(6507);

/** A store on the test Redis under `prefix` (instances sharing a prefix share the fan-out). */
const redisStore = (prefix: string): KvStore =>
  createKvStore({
    redisUrl: redis.url,
    prefix,
    logger: createLogger({ name: 'test', level: 'silent' }),
  });

/** A unique key prefix for one group of instances. */
const uniquePrefix = () => `ctss:test:stream:${process.pid}:${Date.now().toString(36)}:`;

/** One API instance: its deps with a live feed of its own, listening on loopback. */
interface Instance {
  readonly deps: TestDeps;
  readonly live: RunningLiveFeed;
  readonly http: Listening;
  readonly base: string;
}

/** Starts an instance whose live feed fans out through `kv` (Redis). */
async function startInstance(db: TestDatabase, kv: KvStore): Promise<Instance> {
  const probe = buildTestDeps({ database: db.database, env: ENV, kv });
  const live = createLiveFeed({
    url: db.url,
    logger: probe.logger,
    limits: streamLimitsFromConfig(probe.config),
    kv,
    leaseSeconds: LEASE_SECONDS,
    sessionShared: db.embedded,
  });
  await live.start();
  const deps = { ...probe, live };
  const http = await listenOnLoopback(createApp(deps));
  return { deps: probe, live, http, base: http.base };
}

async function stopInstance(instance: Instance | undefined): Promise<void> {
  if (!instance) return;
  await instance.live.close();
  await instance.http.close();
  await instance.deps.close();
}

const json = (event: { data: string }) => JSON.parse(event.data) as Record<string, unknown>;

/** The connections of the live feeds to `db` that LISTEN (named so by changes.ts). */
async function listeners(db: TestDatabase): Promise<number> {
  const { rows } = await db.knex.raw<{ rows: { n: number }[] }>(
    "select count(*)::int as n from pg_stat_activity where datname = current_database() and application_name = 'ctss-monitoring-listen'",
  );
  return rows[0]!.n;
}

beforeAll(() => redis.start());
afterAll(() => redis.stop());

describe('GET /transactionsmainnet/stream', () => {
  let db: TestDatabase;
  let a: Instance;
  let b: Instance;
  const open: SseStream[] = [];
  const sse = async (instance: Instance, query = '', headers: Record<string, string> = {}) => {
    const stream = await openSse(`${instance.base}/transactionsmainnet/stream${query}`, headers);
    open.push(stream);
    return stream;
  };

  beforeAll(async () => {
    db = await createTestDatabase();
    const prefix = uniquePrefix();
    // `a` starts first and takes the lease: the leader; `b` follows through Redis.
    a = await startInstance(db, redisStore(prefix));
    b = await startInstance(db, redisStore(prefix));
  });
  afterAll(async () => {
    for (const stream of open) stream.close();
    await stopInstance(a);
    await stopInstance(b);
    await db?.drop();
  });

  it('when a record matching the filters is inserted and updated, then both instances deliver it, and other records are not sent', async () => {
    // One instance LISTENs (the leader), the other receives through Redis.
    expect([a.live.health().role, b.live.health().role]).toEqual(['leader', 'follower']);
    expect([a.live.health().listener, b.live.health().listener]).toEqual(['listening', 'standby']);
    if (!db.embedded) expect(await listeners(db)).toBe(1);
    const sender = hexId(40);
    const bySender = await sse(a, `?senders=${sender.toUpperCase().replace('0X', '0x')}`);
    const byDomain = await sse(b, '?domain=6');
    const everything = await sse(b);
    expect(bySender.status).toBe(200);
    expect(bySender.headers['content-type']).toMatch(/^text\/event-stream/);
    expect(bySender.headers['cache-control']).toBe('no-cache, no-transform');

    const other = aTransaction({ source_domain: 1, destination_domain: 2 });
    const mine = aTransaction({ sender, source_domain: 6, destination_tx_status: 'pending' });
    const [otherId, mineId] = await insertAll(db.database, [other, mine]);
    await db.knex('transactions').where('id', mineId).update({ destination_tx_status: 'success' });

    const inserted = await bySender.waitFor((e) => e.event === 'insert');
    expect(json(inserted)).toMatchObject({
      id: mineId,
      sender,
      source_tx_hash: mine.source_tx_hash,
      destination_tx_status: 'pending',
      deposit_amount: 10_000_000,
    });
    const updated = await bySender.waitFor((e) => e.event === 'update');
    expect(json(updated)).toMatchObject({ id: mineId, destination_tx_status: 'success' });
    expect(BigInt(updated.id!)).toBeGreaterThan(BigInt(inserted.id!));

    await byDomain.waitFor((e) => e.event === 'update' && json(e).id === mineId);
    await everything.waitFor((e) => json(e).id === otherId);
    await everything.waitFor((e) => e.event === 'update' && json(e).id === mineId);
    // The other record was committed first: had it been sent to the filtered streams, it would
    // have come before their events.
    expect(bySender.events.map((e) => [e.event, json(e).id])).toEqual([
      ['insert', mineId],
      ['update', mineId],
    ]);
    expect(byDomain.events.map((e) => [e.event, json(e).id])).toEqual([
      ['insert', mineId],
      ['update', mineId],
    ]);
    // Ids are the change-log positions, increasing.
    const ids = everything.events.map((e) => BigInt(e.id!));
    expect([...ids].sort((x, y) => (x < y ? -1 : x > y ? 1 : 0))).toEqual(ids);

    // One transfer by hash: its delete (a reorg) is an event too.
    const byHash = await sse(a, `?tx_hash=${mine.destination_tx_hash}`);
    await db.knex('transactions').where('id', mineId).delete();
    const deleted = await byHash.waitFor((e) => e.event === 'delete');
    expect(json(deleted)).toEqual({
      id: mineId,
      source_tx_hash: mine.source_tx_hash,
      destination_tx_hash: mine.destination_tx_hash,
    });
  });

  it('when a client reconnects with Last-Event-ID, then it receives every change after it, once, then the live ones', async () => {
    const sender = hexId(40);
    const first = await sse(a, `?senders=${sender}`);
    const [id1] = await insertAll(db.database, [aTransaction({ sender })]);
    const seen = await first.waitFor((e) => json(e).id === id1);
    first.close();

    const [id2, , id3] = await insertAll(db.database, [
      aTransaction({ sender }),
      aTransaction(),
      aTransaction({ sender, destination_tx_status: 'pending' }),
    ]);
    await db.knex('transactions').where('id', id3).update({ destination_tx_status: 'failed' });

    const resumed = await sse(b, `?senders=${sender}`, { 'Last-Event-ID': seen.id! });
    const [id4] = await insertAll(db.database, [aTransaction({ sender })]);
    await resumed.waitFor((e) => json(e).id === id4);
    expect(resumed.events.map((e) => [e.event, json(e).id])).toEqual([
      ['insert', id2],
      ['insert', id3],
      ['update', id3],
      ['insert', id4],
    ]);
    expect(json(resumed.events[2]!)).toMatchObject({ destination_tx_status: 'failed' });
  });

  it('when Last-Event-ID is unknown to the log, then the stream starts with a reset event', async () => {
    const stream = await sse(a, '', { 'Last-Event-ID': '999999999999' });
    expect(stream.status).toBe(200);
    const reset = await stream.waitFor((e) => e.event === 'reset');
    expect(json(reset)).toEqual({ reason: 'unknown_event_id' });
  });

  it('when a client does not read, then it is dropped and the others keep receiving', async () => {
    const reader = await sse(a);
    // A raw client that sends the request and never reads a byte of the answer.
    const slow = connect(Number(new URL(a.base).port), '127.0.0.1');
    slow.pause();
    slow.write(
      'GET /transactionsmainnet/stream HTTP/1.1\r\nHost: localhost\r\nAccept: text/event-stream\r\n\r\n',
    );
    await new Promise<void>((resolve) => {
      const check = () => (a.live.health().clients >= 2 ? resolve() : setTimeout(check, 20));
      check();
    });
    const droppedBefore = a.live.health().dropped;
    // Enough changes to fill the kernel's socket buffers and then the 64 KiB limit.
    for (let i = 0; i < 10 && a.live.health().dropped === droppedBefore; i += 1) {
      const ids = await insertAll(
        db.database,
        Array.from({ length: 1000 }, () => aTransaction()),
      );
      await reader.waitFor((e) => json(e).id === ids[ids.length - 1]);
    }
    expect(a.live.health().dropped).toBe(droppedBefore + 1);
    const [marker] = await insertAll(db.database, [aTransaction()]);
    await reader.waitFor((e) => json(e).id === marker);
    slow.destroy();
    expect(a.live.health().clients).toBeGreaterThanOrEqual(1);
  });

  it('when the filters are bad, then the answer is a 400 problem', async () => {
    for (const [query, headers] of [
      ['?domain=abc', {}],
      ['?senders=not-an-address!', {}],
      ['?cursor=1_2', {}],
      ['?status=done', {}],
      ['', { 'Last-Event-ID': 'abc' }],
    ] as const) {
      const stream = await sse(a, query, headers);
      expect({ query, status: stream.status }).toEqual({ query, status: 400 });
      expect(stream.headers['content-type']).toMatch(/^application\/problem\+json/);
      expect(JSON.parse(await stream.body())).toMatchObject({ status: 400, code: 'INVALID_QUERY' });
    }
  });

  /** Resolves once `instance`'s live feed delivers a change of `sourceTxHash` to its listeners. */
  const delivered = (instance: Instance, sourceTxHash: string) =>
    new Promise<void>((resolve) => {
      const stop = instance.live.changes.listen((events) => {
        if (!events.some((e) => e.sourceTxHash === sourceTxHash)) return;
        stop();
        resolve();
      });
    });

  it('when a listener of the delivered changes throws, then the other listeners and the streams still receive every change', async () => {
    // `b` is the follower: its changes arrive through the relay, which a throw would interrupt.
    const stopFailing = b.live.changes.listen(() => {
      throw new Error('a failing listener');
    });
    try {
      const sender = hexId(40);
      const stream = await sse(b, `?senders=${sender}`);
      const first = aTransaction({ sender });
      const second = aTransaction({ sender });
      const seen = [delivered(b, first.source_tx_hash), delivered(b, second.source_tx_hash)];
      const ids = await insertAll(db.database, [first]);
      ids.push(...(await insertAll(db.database, [second])));
      await Promise.all(seen);
      await stream.waitFor((e) => json(e).id === ids[1]);
      expect(stream.events.map((e) => json(e).id)).toEqual(ids);
    } finally {
      stopFailing();
    }
  });

  it('when a change watch is closed, then it no longer records the changes the live feed delivers', async () => {
    const watchingKv = redisStore(uniquePrefix());
    const closedKv = redisStore(`${uniquePrefix()}closed:`);
    const watching = createChangeWatch(a.live.changes, Date.now, watchingKv);
    const closed = createChangeWatch(a.live.changes, Date.now, closedKv);
    closed.close();
    try {
      const record = aTransaction();
      const since = Date.now();
      const seen = delivered(a, record.source_tx_hash);
      await insertAll(db.database, [record]);
      await seen;
      expect(await watching.unchangedSince([record.source_tx_hash], since)).toBe(false);
      // The closed watch neither kept the change nor wrote it to Redis: nothing says it changed.
      expect(await closedKv.get(`feed:changed:${record.source_tx_hash}`)).toBeNull();
      expect(await closed.unchangedSince([record.source_tx_hash], since)).toBe(true);
    } finally {
      watching.close();
      await Promise.all([watchingKv.close(), closedKv.close()]);
    }
  });

  it("when the change log's retention deleted a change before the leader read it, then no replica's watch vouches for a time before the loss, and every open stream gets a reset before the next change", async () => {
    const watchKv = redisStore(uniquePrefix());
    const watches = [a, b].map((i) => createChangeWatch(i.live.changes, Date.now, watchKv));
    /** Resolves with the first batch an instance delivers with `missed` set. */
    const missedOn = (instance: Instance) =>
      new Promise<readonly string[]>((resolve) => {
        const stop = instance.live.changes.listen((events, missed) => {
          if (!missed) return;
          stop();
          resolve(events.map((e) => e.sourceTxHash));
        });
      });
    try {
      const stuck = aTransaction({ destination_tx_status: 'pending' });
      const other = aTransaction({ destination_tx_status: 'pending' });
      const seen = Promise.all([
        delivered(a, other.source_tx_hash),
        delivered(b, other.source_tx_hash),
      ]);
      await insertAll(db.database, [stuck, other]);
      await seen;
      // Past the millisecond in which the watches stamped the inserts.
      await new Promise((resolve) => setTimeout(resolve, 5));
      const since = Date.now();
      for (const watch of watches)
        expect(await watch.unchangedSince([stuck.source_tx_hash], since)).toBe(true);

      const streams = [await sse(a), await sse(b)];
      const lost = Promise.all([missedOn(a), missedOn(b)]);
      await commitWithLostChange(
        db.knex,
        { sourceTxHash: stuck.source_tx_hash, set: { destination_tx_status: 'success' } },
        { sourceTxHash: other.source_tx_hash, set: { destination_tx_status: 'success' } },
      );
      // The leader read the gap from the log; the follower learned it from the leader's message.
      expect(await lost).toEqual([[other.source_tx_hash], [other.source_tx_hash]]);
      for (const stream of streams) {
        await stream.waitFor(
          (e) => e.event === 'update' && json(e).source_tx_hash === other.source_tx_hash,
        );
        // The lost update of `stuck` is never sent; the reset stands in its place.
        expect(
          stream.events.map((e) => [
            e.event,
            e.event === 'reset' ? json(e) : json(e).source_tx_hash,
          ]),
        ).toEqual([
          ['reset', { reason: 'changes_lost' }],
          ['update', other.source_tx_hash],
        ]);
      }
      for (const watch of watches)
        expect(await watch.unchangedSince([stuck.source_tx_hash], since)).toBe(false);
      // A replica that starts later reads the loss from Redis.
      const later = createChangeWatch(
        { delivering: false, listen: () => () => undefined },
        Date.now,
        watchKv,
      );
      expect(await later.unchangedSince([stuck.source_tx_hash], since)).toBe(false);
      expect(await later.unchangedSince([stuck.source_tx_hash], Date.now() + 1)).toBe(true);
      later.close();
    } finally {
      for (const watch of watches) watch.close();
      await watchKv.close();
    }
  });

  it("when a tracked transfer's settling change is lost to the retention, then the SDK's tracker learns of it from the reset and settles from a lookup", async () => {
    const tracked = aTransaction({ destination_tx_status: 'pending', confirmed: false });
    const other = aTransaction({ destination_tx_status: 'pending' });
    await insertAll(db.database, [tracked, other]);
    const stages: string[] = [];
    let reported!: () => void;
    const firstLookup = new Promise<void>((resolve) => (reported = resolve));
    // The tracker reports the first stage from its lookup made once its stream is open, and
    // polls no more after that: only an event can settle it before the timeout.
    const settled = trackTransfer(new MonitoringClient(b.base), tracked.source_tx_hash, {
      timeoutMs: 30_000,
      onProgress: (progress) => {
        stages.push(progress.stage);
        reported();
      },
    });
    await Promise.race([firstLookup, settled]);
    expect(stages).toEqual(['pending']);
    await commitWithLostChange(
      db.knex,
      { sourceTxHash: tracked.source_tx_hash, set: { destination_tx_status: 'success' } },
      { sourceTxHash: other.source_tx_hash, set: { destination_tx_status: 'success' } },
    );
    const result = await settled;
    expect(result.status).toBe('success');
    expect(stages.at(-1)).toBe('received');
  });

  it('when 1,000 clients listen, then each receives the event', async () => {
    const sender = hexId(40);
    const clients: SseStream[] = [];
    for (let i = 0; i < 1000; i += 1)
      clients.push(await sse(i % 2 === 0 ? a : b, `?senders=${sender}`));
    expect(clients.every((c) => c.status === 200)).toBe(true);
    const [id] = await insertAll(db.database, [aTransaction({ sender })]);
    await Promise.all(clients.map((c) => c.waitFor((e) => json(e).id === id)));
    for (const c of clients) c.close();
  });

  it('shows the listener, the role and the channel in /health', async () => {
    // After the 1,000 streams of the test before, a renewal may have timed out on this loaded
    // process (the replica then LISTENs itself until the next renewal succeeds).
    let body: { stream?: Record<string, unknown> } = {};
    await waitFor(async () => {
      body = (await (await fetch(`${a.base}/health`)).json()) as typeof body;
      return body.stream?.role === 'leader' && b.live.health().channel === 'subscribed';
    }, 30_000);
    expect(body.stream).toMatchObject({
      listener: 'listening',
      role: 'leader',
      channel: 'subscribed',
    });
    expect(typeof body.stream!.last_event_id).toBe('string');
    const follower = (await (await fetch(`${b.base}/health`)).json()) as {
      status: string;
      stream?: Record<string, unknown>;
    };
    expect(follower).toMatchObject({
      status: 'ok',
      stream: { listener: 'standby', role: 'follower', channel: 'subscribed' },
    });
    // Both delivered every change: the same position, once the leader's next one is published.
    await waitFor(async () => {
      const [x, y] = await Promise.all([streamHealth(a.base), streamHealth(b.base)]);
      return x.last_event_id === y.last_event_id;
    });
  });
});

describe('a drain with open streams', () => {
  it('when the server drains, then the open streams end and the shutdown completes', async () => {
    const db = await createTestDatabase();
    const deps = buildTestDeps({ database: db.database, env: ENV });
    const live = createLiveFeed({
      url: db.url,
      logger: deps.logger,
      limits: streamLimitsFromConfig(deps.config),
    });
    await live.start();
    // Without Redis the process LISTENs itself.
    expect(live.health()).toMatchObject({ role: 'direct', channel: 'none', listener: 'listening' });
    let port = 0;
    const { shutdown } = await runService({
      name: 'monitoring-api',
      logger: deps.logger,
      // Longer than the test's timeout: only ending the streams lets the drain finish in time.
      drainTimeoutMs: 600_000,
      start: async () => {
        const server = createEdgeServer(createApp({ ...deps, live }), { logger: deps.logger });
        const { onDrainStart } = await import('@ctss/server-kit');
        onDrainStart(server, () => live.endStreams());
        port = await listen(server, 0, '127.0.0.1');
        return {
          server,
          close: async () => {
            await live.close();
            await deps.close();
            await db.drop();
          },
        };
      },
    });
    const stream = await openSse(`http://127.0.0.1:${port}/transactionsmainnet/stream`);
    expect(stream.status).toBe(200);
    await shutdown('SIGTERM');
    await stream.ended;
  });
});

/** `/health`'s live feed of the instance at `base`. */
async function streamHealth(
  base: string,
): Promise<{ status: string; role: string; channel: string; last_event_id: string }> {
  const body = (await (await fetch(`${base}/health`)).json()) as {
    status: string;
    stream: { role: string; channel: string; last_event_id: string };
  };
  return { status: body.status, ...body.stream };
}

describe('the fan-out when the leader process is killed', () => {
  let db: TestDatabase;
  const children: ChildService[] = [];
  const open: SseStream[] = [];
  afterAll(async () => {
    for (const stream of open) stream.close();
    await Promise.all(children.map((c) => c.stop()));
    await db?.drop();
  });

  it('when the leader dies, then the other process takes over within the lease and a resume with Last-Event-ID misses nothing', async () => {
    db = await createTestDatabase();
    const env = {
      ...ENV,
      // The port is read from the `listening` info line.
      LOG_LEVEL: 'info',
      NODE_OPTIONS: '',
      DATABASE_URL: db.url,
      DATABASE_READ_URLS: '',
      EMBEDDED_SEED: 'false',
      METRICS_PORT: '',
      REDIS_URL: redis.url,
      REDIS_PREFIX: uniquePrefix(),
      STREAM_LEADER_LEASE_SECONDS: String(LEASE_SECONDS),
    };
    const start = () =>
      startListeningService('monitoring-api', monitoringApiEntry('main.js'), env, 60_000);
    const [first, firstUrl] = await start();
    children.push(first);
    const [second, secondUrl] = await start();
    children.push(second);
    const roles = await Promise.all([streamHealth(firstUrl), streamHealth(secondUrl)]);
    expect(roles.map((r) => r.role)).toEqual(['leader', 'follower']);
    if (!db.embedded) expect(await listeners(db)).toBe(1);

    const sender = hexId(40);
    const onLeader = await openSse(`${firstUrl}/transactionsmainnet/stream?senders=${sender}`);
    const onFollower = await openSse(`${secondUrl}/transactionsmainnet/stream?senders=${sender}`);
    open.push(onLeader, onFollower);
    const [id1] = await insertAll(db.database, [aTransaction({ sender })]);
    const seen = await onLeader.waitFor((e) => json(e).id === id1);
    await onFollower.waitFor((e) => json(e).id === id1);

    // A crash: no lease handed over, no stream ended by the server.
    const killedAt = Date.now();
    first.process.kill('SIGKILL');
    await first.exited;
    // Committed while no replica listens.
    const [id2] = await insertAll(db.database, [aTransaction({ sender })]);
    await waitFor(async () => (await streamHealth(secondUrl)).role === 'leader', 30_000);
    const tookOverMs = Date.now() - killedAt;
    // Within the lease, plus one renewal interval and the load of a shared test machine.
    expect(tookOverMs).toBeLessThan(LEASE_SECONDS * 1000 + (LEASE_SECONDS * 1000) / 3 + 5_000);
    if (!db.embedded) await waitFor(async () => (await listeners(db)) === 1);
    const [id3] = await insertAll(db.database, [aTransaction({ sender })]);

    // The follower's open stream got the change committed without a listener, then the next.
    await onFollower.waitFor((e) => json(e).id === id3);
    expect(onFollower.events.map((e) => json(e).id)).toEqual([id1, id2, id3]);
    // The leader's client reconnects to the survivor with its Last-Event-ID.
    const resumed = await openSse(`${secondUrl}/transactionsmainnet/stream?senders=${sender}`, {
      'Last-Event-ID': seen.id!,
    });
    open.push(resumed);
    await resumed.waitFor((e) => json(e).id === id3);
    expect(resumed.events.map((e) => [e.event, json(e).id])).toEqual([
      ['insert', id2],
      ['insert', id3],
    ]);
  });
});

describe('the fan-out while Redis is down', () => {
  let db: TestDatabase;
  let a: Instance;
  let b: Instance;
  const open: SseStream[] = [];
  beforeAll(async () => {
    db = await createTestDatabase();
    const prefix = uniquePrefix();
    a = await startInstance(db, redisStore(prefix));
    b = await startInstance(db, redisStore(prefix));
  });
  afterAll(async () => {
    for (const stream of open) stream.close();
    await stopInstance(a);
    await stopInstance(b);
    await db?.drop();
    await redis.start();
  });

  it('when Redis goes away mid-stream, then each instance LISTENs itself, the open streams miss nothing, and the fan-out resumes when Redis is back', async () => {
    const sender = hexId(40);
    const streams = [
      await openSse(`${a.base}/transactionsmainnet/stream?senders=${sender}`),
      await openSse(`${b.base}/transactionsmainnet/stream?senders=${sender}`),
    ];
    open.push(...streams);
    const [id1] = await insertAll(db.database, [aTransaction({ sender })]);
    await Promise.all(streams.map((s) => s.waitFor((e) => json(e).id === id1)));

    await redis.stop();
    // Committed as Redis went away: before either instance noticed.
    const [id2] = await insertAll(db.database, [aTransaction({ sender })]);
    await waitFor(
      () => a.live.health().role === 'direct' && b.live.health().role === 'direct',
      30_000,
    );
    expect(a.live.health()).toMatchObject({ listener: 'listening', channel: 'unavailable' });
    expect(b.live.health()).toMatchObject({ listener: 'listening', channel: 'unavailable' });
    if (!db.embedded) await waitFor(async () => (await listeners(db)) === 2);
    // /health answers (degraded), it does not wait on Redis.
    expect(await streamHealth(b.base)).toMatchObject({ status: 'degraded', role: 'direct' });
    const [id3] = await insertAll(db.database, [aTransaction({ sender })]);
    await Promise.all(streams.map((s) => s.waitFor((e) => json(e).id === id3)));

    await redis.start();
    await waitFor(
      () =>
        [a.live.health().role, b.live.health().role].sort().join() === 'follower,leader' &&
        a.live.health().channel === 'subscribed' &&
        b.live.health().channel === 'subscribed',
      30_000,
    );
    if (!db.embedded) await waitFor(async () => (await listeners(db)) === 1);
    const [id4] = await insertAll(db.database, [aTransaction({ sender })]);
    await Promise.all(streams.map((s) => s.waitFor((e) => json(e).id === id4)));
    for (const stream of streams)
      expect(stream.events.map((e) => json(e).id)).toEqual([id1, id2, id3, id4]);
  });
});
