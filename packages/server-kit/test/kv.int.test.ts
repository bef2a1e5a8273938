import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createKvStore, type KvStore } from '../src/kv.js';

const redisUrl = process.env.REDIS_URL;
const backends: Array<[string, string | undefined]> = [['memory', undefined]];
if (redisUrl) backends.push(['redis', redisUrl]);
else
  console.warn(
    'REDIS_URL is not set: the Redis-backed KvStore cases are skipped (memory store still tested).',
  );

describe.each(backends)('KvStore (%s)', (_kind, url) => {
  // Opened in a hook, so a run that skips every case here (jest -t) opens nothing to close
  let kv: KvStore;
  beforeAll(() => {
    kv = createKvStore({ redisUrl: url, prefix: `test:${randomUUID()}:` });
  });
  afterAll(() => kv.close());

  it('stores, reads and deletes values', async () => {
    await kv.set('a', '1');
    expect(await kv.get('a')).toBe('1');
    expect(await kv.del('a')).toBe(1);
    expect(await kv.get('a')).toBeNull();
    expect(await kv.del('a')).toBe(0);
  });

  it('keeps bytes set with setBytes as they are, with their TTL', async () => {
    // Not valid UTF-8: a text round trip would replace these bytes.
    const bytes = Buffer.from([0x1f, 0x8b, 0x08, 0x00, 0xff, 0xfe, 0x0a, 0x80]);
    await kv.setBytes('bytes', bytes, 60);
    expect(await kv.getBytes('bytes')).toEqual(bytes);
    await kv.setBytes('short-lived', bytes, 1);
    await new Promise((r) => setTimeout(r, 1100));
    expect(await kv.getBytes('short-lived')).toBeNull();
  });

  it('expires values after their TTL', async () => {
    await kv.set('ttl', 'x', 1);
    expect(await kv.get('ttl')).toBe('x');
    await new Promise((r) => setTimeout(r, 1100));
    expect(await kv.get('ttl')).toBeNull();
  });

  it('gives a value to exactly one of many concurrent getDel calls', async () => {
    await kv.set('once', 'nonce');
    const taken = await Promise.all(Array.from({ length: 20 }, () => kv.getDel('once')));
    expect(taken.filter((v) => v === 'nonce')).toHaveLength(1);
    expect(taken.filter((v) => v === null)).toHaveLength(19);
  });

  it('sets if absent only once, and releases or renews only for the owner', async () => {
    expect(await kv.setIfAbsent('lock', 'owner-a', 10)).toBe(true);
    expect(await kv.setIfAbsent('lock', 'owner-b', 10)).toBe(false);
    expect(await kv.expireIfEquals('lock', 'owner-b', 10)).toBe(false);
    expect(await kv.expireIfEquals('lock', 'owner-a', 10)).toBe(true);
    expect(await kv.delIfEquals('lock', 'owner-b')).toBe(false);
    expect(await kv.get('lock')).toBe('owner-a');
    expect(await kv.delIfEquals('lock', 'owner-a')).toBe(true);
    expect(await kv.get('lock')).toBeNull();
  });

  it('writes a fenced value only while the fence key holds the writer token', async () => {
    expect(await kv.setIfHeld('fenced', 'v1', 10, { key: 'fence', value: 'owner-a' })).toBe(false);
    expect(await kv.get('fenced')).toBeNull();
    await kv.set('fence', 'owner-a', 10);
    expect(await kv.setIfHeld('fenced', 'v1', 10, { key: 'fence', value: 'owner-a' })).toBe(true);
    expect(await kv.get('fenced')).toBe('v1');
    // The lease passed to another owner: the former one can no longer write.
    await kv.set('fence', 'owner-b', 10);
    expect(await kv.setIfHeld('fenced', 'v2', 10, { key: 'fence', value: 'owner-a' })).toBe(false);
    expect(await kv.get('fenced')).toBe('v1');
    expect(await kv.setIfHeld('fenced', 'v3', 1, { key: 'fence', value: 'owner-b' })).toBe(true);
    await new Promise((r) => setTimeout(r, 1100));
    expect(await kv.get('fenced')).toBeNull();
  });

  it('delivers published messages to every subscriber until unsubscribed', async () => {
    const other = createKvStore({ redisUrl: url, prefix: 'unused:' });
    const got: string[] = [];
    const unsubscribe = await kv.subscribe('ch', (m) => got.push(`first:${m}`));
    const unsubscribe2 = await kv.subscribe('ch', (m) => got.push(`second:${m}`));
    await kv.publish('ch', 'hello');
    await waitFor(() => got.length === 2);
    expect(got.sort()).toEqual(['first:hello', 'second:hello']);
    await unsubscribe();
    await unsubscribe2();
    await kv.publish('ch', 'after');
    await new Promise((r) => setTimeout(r, 100));
    expect(got).toHaveLength(2);
    await other.close();
  });

  it('answers ping', async () => {
    await expect(kv.ping()).resolves.toBeUndefined();
  });
});

async function waitFor(check: () => boolean, ms = 2000): Promise<void> {
  const until = Date.now() + ms;
  while (!check()) {
    if (Date.now() > until) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 10));
  }
}

describe('Redis KvStore close', () => {
  const sockets = () =>
    process.getActiveResourcesInfo().filter((kind) => kind === 'TCPSocketWrap').length;
  /** The open socket count once it stopped changing (other stores of this file may be closing). */
  async function settledSockets(): Promise<number> {
    let count = sockets();
    for (;;) {
      await new Promise((r) => setTimeout(r, 300));
      if (sockets() === count) return count;
      count = sockets();
    }
  }

  (redisUrl ? it : it.skip)('releases its socket when closed while still connecting', async () => {
    const before = await settledSockets();
    const kv = createKvStore({ redisUrl, prefix: `test:${randomUUID()}:` });
    await kv.close();
    // node-redis finishes the handshake of a client destroyed while connecting; wait past it
    expect(await settledSockets()).toBe(before);
  });
});
