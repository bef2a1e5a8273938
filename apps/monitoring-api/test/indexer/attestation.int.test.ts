/**
 * Attestation polling on two local anvil chains (domains 0 and 3) with the local Iris stand-in:
 * the stand-in's answers are pinned against Circle's CCTP API reference; a v2 transfer behind a
 * backlog of 60 unattested ones reaches `success` within the recheck interval + 5 s of its
 * destination receive; and the Iris budget (`IRIS_RATE_PER_SECOND`) holds for one indexer
 * process and for two sharing it through PostgreSQL.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createLogger } from '@ctss/server-kit';
import { Registry } from 'prom-client';
import { keccak256, type Hex } from 'viem';
import type { ChainIndexer } from '../../src/indexer/chain-indexer.js';
import { IrisClient, isAttested } from '../../src/indexer/iris.js';
import { PgRateGate } from '../../src/indexer/iris-budget.js';
import { openChainLocks } from './support/lock-database.js';
import { startIndexerRunner, type IndexerRunner } from '../../src/indexer/runner.js';
import { createTestDatabase, type TestDatabase } from '../support/database.js';
import { until } from '../support/poll.js';
import { rows } from '../support/rollups.js';
import {
  attestedMessage,
  deployCctpChain,
  makeTransfer,
  receiveMessage,
  startAnvil,
  startFakeIris,
  type Anvil,
  type CctpChain,
  type FakeIris,
} from '@ctss/devnet';
import { chainConfig, indexerFor } from './support/harness.js';

const RATE = 9;
const RECHECK_SECONDS = 2;
const RECIPIENT = '0x00000000000000000000000000000000000d0d01' as Hex;

let anvils: Anvil[] = [];
let a: CctpChain;
let b: CctpChain;
let iris: FakeIris;
let db: TestDatabase;
const openLocks: ReturnType<typeof openChainLocks>[] = [];

beforeAll(async () => {
  anvils = await Promise.all([startAnvil(0, 31_030), startAnvil(0, 31_033)]);
  [a, b] = await Promise.all([
    deployCctpChain(anvils[0]!.url, 0, 31_030),
    deployCctpChain(anvils[1]!.url, 3, 31_033),
  ]);
  iris = await startFakeIris(0, { 0: a.url, 3: b.url });
  db = await createTestDatabase();
}, 300_000);

afterAll(async () => {
  await Promise.all(openLocks.map((l) => l.close()));
  await iris?.close();
  await db?.drop();
  await Promise.all(anvils.map((x) => x.stop()));
});

const v2Transfer = (from: CctpChain, to: number, amount: bigint) =>
  makeTransfer(from, {
    version: 2,
    destinationDomain: to,
    amount,
    fee: 100_000n,
    maxFee: 1_000n,
    recipient: RECIPIENT,
  });

const get = async (path: string) => {
  const res = await fetch(`${iris.url}${path}`);
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
};

/** One indexer process: its own locks and Iris client over the shared database budget. */
const replica = (chains: { name: string; chain: CctpChain }[], recheckSeconds: number) => {
  // Each process holds its locks on a connection of its own (support/lock-database.ts).
  const lockPool = openChainLocks(db);
  const { locks } = lockPool;
  openLocks.push(lockPool);
  const indexers: ChainIndexer[] = chains.map(({ name, chain }) =>
    indexerFor(chainConfig(name, chain), db.database, locks),
  );
  const client = new IrisClient(iris.url, new PgRateGate(db.database, RATE));
  const runner: IndexerRunner = startIndexerRunner({
    indexers,
    db: db.database,
    iris: client,
    attestation: { timeoutSeconds: 3600, recheckSeconds, batch: RATE },
    logger: createLogger({ name: 'attestation-test', level: 'warn' }),
    registry: new Registry(),
  });
  const stop = async () => {
    await runner.stop();
    // Ending the session releases the process's chain locks, as a stopped pod does.
    await lockPool.close();
  };
  return { runner, client, stop };
};

const statusOf = async (txHash: string) =>
  (
    await rows(db.knex, `select destination_tx_status from transactions where source_tx_hash = ?`, [
      txHash.toLowerCase(),
    ])
  )[0]?.destination_tx_status;

/** Most requests the stand-in received in any 1 s window of [from, to). */
const peakPerSecond = (from: number, to: number) => {
  const times = iris.requestTimes.filter((t) => t >= from && t < to);
  let peak = 0;
  for (let i = 0, j = 0; i < times.length; i++) {
    while (times[j]! < times[i]! - 999) j++;
    peak = Math.max(peak, i - j + 1);
  }
  return { peak, average: (times.length * 1000) / (to - from) };
};

describe("the local Iris stand-in, as Circle's CCTP API reference describes Iris", () => {
  // Shapes and values from https://developers.circle.com/api-reference/cctp/all/get-messages-v2,
  // .../get-messages (v1), .../get-attestation (v1), and "Why 404 responses are expected"
  // (https://developers.circle.com/cctp/howtos/resolve-stuck-attestation).
  it('answers 404 until it has observed the burn, then pending, then complete (v2)', async () => {
    const unknown = `0x${'00'.repeat(32)}`;
    expect((await get(`/v2/messages/0?transactionHash=${unknown}`)).status).toBe(404);
    expect((await get(`/v1/messages/0/${unknown}`)).status).toBe(404);
    expect((await get(`/v1/attestations/${unknown}`)).status).toBe(404);
    const client = new IrisClient(iris.url, 50);
    expect(await client.messages(2, 0, unknown)).toEqual([]);

    const sent = await v2Transfer(a, 3, 3_000_000n);
    const hash = sent.receipt.transactionHash;
    const pending = await get(`/v2/messages/0?transactionHash=${hash}`);
    expect(pending.status).toBe(200);
    const [p] = pending.body.messages as Record<string, unknown>[];
    expect(Object.keys(p!).sort()).toEqual(
      [
        'attestation',
        'cctpVersion',
        'decodedMessage',
        'delayReason',
        'eventNonce',
        'message',
        'status',
      ].sort(),
    );
    expect(p).toMatchObject({
      attestation: 'PENDING',
      status: 'pending_confirmations',
      cctpVersion: 2,
      message: sent.message,
    });
    expect(isAttested((await client.messages(2, 0, hash))[0]!)).toBe(false);

    iris.complete(hash);
    const [c] = (await get(`/v2/messages/0?transactionHash=${hash}`)).body.messages as {
      attestation: string;
      status: string;
      eventNonce: string;
      message: string;
    }[];
    expect(c!.status).toBe('complete');
    expect(c!.attestation).toMatch(/^0x[0-9a-f]+$/);
    // The attested v2 message carries the nonce Iris assigned at bytes 12-44.
    expect(`0x${c!.message.slice(2 + 24, 2 + 88)}`).toBe(c!.eventNonce);
    expect(isAttested((await client.messages(2, 0, hash))[0]!)).toBe(true);
  });

  it('answers v1 messages with attestation PENDING then hex, and /v1/attestations by message hash', async () => {
    const sent = await makeTransfer(a, {
      version: 1,
      destinationDomain: 3,
      amount: 2_000_000n,
      fee: 100_000n,
      recipient: RECIPIENT,
    });
    const hash = sent.receipt.transactionHash;
    const v1 = await get(`/v1/messages/0/${hash}`);
    const [m] = v1.body.messages as Record<string, string>[];
    expect(Object.keys(m!).sort()).toEqual(['attestation', 'eventNonce', 'message']);
    expect(m).toMatchObject({ attestation: 'PENDING', message: sent.message });
    expect(m!.eventNonce).toMatch(/^\d+$/);
    const byHash = `/v1/attestations/${keccak256(sent.message)}`;
    expect((await get(byHash)).body).toEqual({
      attestation: 'PENDING',
      status: 'pending_confirmations',
    });
    iris.complete(hash);
    const done = (await get(byHash)).body;
    expect(done.status).toBe('complete');
    expect(done.attestation).toMatch(/^0x[0-9a-f]+$/);
    const [attested] = await new IrisClient(iris.url, 50).messages(1, 0, hash);
    expect(isAttested(attested!)).toBe(true);
  });
});

describe('fair, bounded polling', () => {
  it('a v2 transfer behind 60 unattested ones reaches success within the recheck interval + 5 s of its receive', async () => {
    for (let i = 0; i < 60; i++) await v2Transfer(a, 3, 1_000_000n + BigInt(i));
    const { stop } = replica(
      [
        { name: 'chain-a', chain: a },
        { name: 'chain-b', chain: b },
      ],
      RECHECK_SECONDS,
    );
    try {
      await until(
        async () => {
          const [n] = await rows(
            db.knex,
            `select count(*) filter (where iris_attempts > 0)::text as asked from transactions`,
          );
          return Number(n!.asked);
        },
        (asked) => asked >= 60,
        'the backlog to be asked',
        { pauseMs: 50 },
      );
      const fast = await v2Transfer(a, 3, 20_000_000n);
      const hash = fast.receipt.transactionHash;
      await until(
        () => statusOf(hash),
        (s) => s === 'pending',
        'the transfer to be indexed',
        {
          pauseMs: 50,
        },
      );
      iris.complete(hash);
      // The relayer reads the attested message from Iris and receives it on chain B.
      const message = await attestedMessage(iris.url, 0, hash, 2);
      const received = await receiveMessage(b, 2, message!);
      const receivedAt = Date.now();
      await until(
        () => statusOf(hash),
        (s) => s === 'success',
        'success',
        { pauseMs: 50 },
      );
      const seconds = (Date.now() - receivedAt) / 1000;
      process.stdout.write(
        `fast transfer behind 60 unattested: success ${seconds.toFixed(2)} s after its receive (recheck ${RECHECK_SECONDS} s)\n`,
      );
      expect(seconds).toBeLessThanOrEqual(RECHECK_SECONDS + 5);
      const [record] = await rows(
        db.knex,
        `select destination_tx_hash from transactions where source_tx_hash = ?`,
        [hash.toLowerCase()],
      );
      expect(record!.destination_tx_hash).toBe(received.transactionHash.toLowerCase());
    } finally {
      await stop();
    }
  }, 180_000);

  it(`keeps Iris at ${RATE} requests per second with one indexer process and with two`, async () => {
    // A backlog on both chains, always due (recheck 0): demand far above the budget.
    for (let i = 0; i < 20; i++) await v2Transfer(b, 0, 1_000_000n + BigInt(i));
    const one = replica(
      [
        { name: 'chain-a', chain: a },
        { name: 'chain-b', chain: b },
      ],
      0,
    );
    let from = Date.now() + 1_000;
    await new Promise((r) => setTimeout(r, 5_000));
    const single = peakPerSecond(from, Date.now());
    await one.stop();

    // Two processes: the first takes chain A's lock, the second chain B's (and stands by for A).
    const first = replica([{ name: 'chain-a', chain: a }], 0);
    await until(
      () => first.client.requests,
      (n) => n > 0,
      'the first replica to hold chain A',
      {
        pauseMs: 50,
      },
    );
    const second = replica(
      [
        { name: 'chain-b', chain: b },
        { name: 'chain-a', chain: a },
      ],
      0,
    );
    await until(
      () => second.client.requests,
      (n) => n > 0,
      'the second replica to poll',
      {
        pauseMs: 50,
      },
    );
    from = Date.now() + 1_000;
    const counted = [first.client.requests, second.client.requests];
    await new Promise((r) => setTimeout(r, 5_000));
    const to = Date.now();
    const both = peakPerSecond(from, to);
    const byReplica = [first.client.requests - counted[0]!, second.client.requests - counted[1]!];
    await Promise.all([first.stop(), second.stop()]);
    process.stdout.write(
      `IRIS_RATE_PER_SECOND=${RATE}: one process ${single.average.toFixed(1)}/s (peak ${single.peak} in 1 s); two processes ${both.average.toFixed(1)}/s (peak ${both.peak} in 1 s; ${byReplica.join(' + ')} requests)\n`,
    );
    // Spacing by the shared slot allows RATE per second; one more at a window's edge.
    expect(single.peak).toBeLessThanOrEqual(RATE + 1);
    expect(both.peak).toBeLessThanOrEqual(RATE + 1);
    expect(byReplica.every((n) => n > 0)).toBe(true);
  }, 120_000);
});
