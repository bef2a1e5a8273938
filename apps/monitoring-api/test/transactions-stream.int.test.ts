/**
 * The live feed `GET /transactionsmainnet/stream` (docs/api.md "Live feed (Server-Sent Events)")
 * over real HTTP, against real PostgreSQL (DATABASE_URL) or the embedded PGlite behind the
 * session server, with Redis when REDIS_URL is set: writes through the database (the change-log
 * triggers, LISTEN/NOTIFY) reach the matching streams of two app instances, a reconnect with
 * `Last-Event-ID` misses nothing, a client that does not read is dropped while the others keep
 * receiving, bad filters are 400 problems, 1,000 streams each receive an event, and a drain ends
 * the open streams.
 */
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import { createEdgeServer, listen, runService } from '@ctss/server-kit';
import { createApp } from '../src/app.js';
import {
  createLiveFeed,
  streamLimitsFromConfig,
  type RunningLiveFeed,
} from '../src/transactions/live-feed.js';
import { aTransaction, hexId, insertAll } from './support/builders.js';
import { createTestDatabase, type TestDatabase } from './support/database.js';
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

/** One API instance: its deps with a live feed of its own, listening on loopback. */
interface Instance {
  readonly deps: TestDeps;
  readonly live: RunningLiveFeed;
  readonly http: Listening;
  readonly base: string;
}

async function startInstance(db: TestDatabase): Promise<Instance> {
  const probe = buildTestDeps({ database: db.database, env: ENV });
  const live = createLiveFeed({
    url: db.url,
    logger: probe.logger,
    limits: streamLimitsFromConfig(probe.config),
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
    a = await startInstance(db);
    b = await startInstance(db);
  });
  afterAll(async () => {
    for (const stream of open) stream.close();
    await stopInstance(a);
    await stopInstance(b);
    await db?.drop();
  });

  it('when a record matching the filters is inserted and updated, then both instances deliver it, and other records are not sent', async () => {
    const sender = hexId(40);
    const bySender = await sse(a, `?senders=${sender.toUpperCase().replace('0X', '0x')}`);
    const byDomain = await sse(b, '?domain=6');
    const everything = await sse(b);
    expect(bySender.status).toBe(200);
    expect(bySender.headers['content-type']).toMatch(/^text\/event-stream/);
    expect(bySender.headers['cache-control']).toBe('no-cache, no-transform');

    const other = aTransaction({ source_domain: 1, destination_domain: 2 });
    const mine = aTransaction({ sender, source_domain: 6, destination_tx_status: 'pending' });
    const [otherId, mineId] = await insertAll(db.knex, [other, mine]);
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
    const [id1] = await insertAll(db.knex, [aTransaction({ sender })]);
    const seen = await first.waitFor((e) => json(e).id === id1);
    first.close();

    const [id2, , id3] = await insertAll(db.knex, [
      aTransaction({ sender }),
      aTransaction(),
      aTransaction({ sender, destination_tx_status: 'pending' }),
    ]);
    await db.knex('transactions').where('id', id3).update({ destination_tx_status: 'failed' });

    const resumed = await sse(b, `?senders=${sender}`, { 'Last-Event-ID': seen.id! });
    const [id4] = await insertAll(db.knex, [aTransaction({ sender })]);
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
        db.knex,
        Array.from({ length: 1000 }, () => aTransaction()),
      );
      await reader.waitFor((e) => json(e).id === ids[ids.length - 1]);
    }
    expect(a.live.health().dropped).toBe(droppedBefore + 1);
    const [marker] = await insertAll(db.knex, [aTransaction()]);
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

  it('when 1,000 clients listen, then each receives the event', async () => {
    const sender = hexId(40);
    const clients: SseStream[] = [];
    for (let i = 0; i < 1000; i += 1)
      clients.push(await sse(i % 2 === 0 ? a : b, `?senders=${sender}`));
    expect(clients.every((c) => c.status === 200)).toBe(true);
    const [id] = await insertAll(db.knex, [aTransaction({ sender })]);
    await Promise.all(clients.map((c) => c.waitFor((e) => json(e).id === id)));
    for (const c of clients) c.close();
  });

  it('shows the listener in /health', async () => {
    const res = await fetch(`${a.base}/health`);
    const body = (await res.json()) as { stream?: Record<string, unknown> };
    expect(body.stream).toMatchObject({ listener: 'listening' });
    expect(typeof body.stream!.last_event_id).toBe('string');
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
