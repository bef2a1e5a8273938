/**
 * The Solana source (docs/indexer.md "Solana") against a local cluster speaking Solana's JSON-RPC
 * (`@ctss/devnet` solana-cluster.ts) with transactions built and signed by `@solana/kit` in the
 * programs' layouts (solana-cctp.ts), and the local Iris reading that cluster: a transfer seen at
 * `confirmed` is written pending, becomes confirmed once its slot is finalized (same record), is
 * attested (v2: the nonce Iris assigned); a confirmed slot that is dropped leaves no record;
 * skipped slots hide nothing; a backfill of many pages killed between pages resumes with no gap
 * and no duplicate; the rollups stay exact throughout.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import {
  buildSolanaTransfer,
  evmRecipient32,
  startFakeIris,
  startLocalSolana,
  type FakeIris,
  type LocalSolana,
} from '@ctss/devnet';
import { pollAttestations } from '../../src/indexer/attestation.js';
import { IrisClient } from '../../src/indexer/iris.js';
import { ChainLocks } from '../../src/indexer/lock.js';
import { SolanaChainConfigSchema } from '../../src/indexer/solana/config.js';
import { SolanaRpc } from '../../src/indexer/solana/rpc.js';
import { SolanaSource } from '../../src/indexer/solana/source.js';
import { createTestDatabase, type TestDatabase } from '../support/database.js';
import { expectRollupsExact, rows } from '../support/rollups.js';

const EVM_RECIPIENT = '0x00000000000000000000000000000000000c0de5';

let cluster: LocalSolana;
let iris: FakeIris;
let db: TestDatabase;
let locks: ChainLocks;

const sourceFor = (pageSize = 1_000) => {
  const config = SolanaChainConfigSchema.parse({
    family: 'solana',
    name: 'solana',
    rpcUrls: [cluster.url],
    pollIntervalMs: 50,
    pageSize,
  });
  return new SolanaSource(config, new SolanaRpc(config.rpcUrls, 5_000), db.database, locks);
};

/** Ticks until idle; returns the number of ticks. */
async function sync(source: SolanaSource): Promise<number> {
  for (let i = 1; i <= 500; i++) {
    const result = await source.tick();
    if (result.kind === 'idle') return i;
  }
  throw new Error('the Solana source did not catch up');
}

const solanaRows = () =>
  rows(
    db.knex,
    `select id::text, source_tx_hash, log_index::text, block_number::text, confirmed::text,
            sender, recipient, destination_domain::text, deposit_amount::text,
            receive_amount::text, relayer_fee::text, gas_drop_amount::text,
            is_gas_drop_in_native::text, max_fee::text, version::text, cctp_nonce,
            min_finality_threshold::text, message_hash, attested::text
       from transactions t where source_domain = 5 order by t.block_number, t.log_index`,
  );

beforeAll(async () => {
  cluster = await startLocalSolana();
  iris = await startFakeIris(0, {}, { solanaRpcUrl: cluster.url });
  db = await createTestDatabase();
  locks = new ChainLocks(db.database);
}, 60_000);

afterAll(async () => {
  await locks?.close();
  await db?.drop();
  await iris?.close();
  await cluster?.close();
});

describe('Solana source', () => {
  it('writes a confirmed transfer pending, confirms it at finalized, and Iris attests it', async () => {
    const source = sourceFor();
    const v2 = await buildSolanaTransfer({
      version: 2,
      usdcAmount: 10_000_000n,
      usdcFee: 250_000n,
      destinationDomain: 0,
      recipient: evmRecipient32(EVM_RECIPIENT),
      gasDropAmount: 1_000n,
      maxFee: 5_000n,
      minFinalityThreshold: 1000,
    });
    const slot = cluster.land(v2.transaction);
    await sync(source);
    // Nothing finalized yet and no cursor: the first finalized signature starts the cursor.
    expect(await solanaRows()).toEqual([]);
    const v1 = await buildSolanaTransfer({
      version: 1,
      usdcAmount: 3_000_000n,
      usdcFee: 3_000n,
      destinationDomain: 3,
      recipient: evmRecipient32(EVM_RECIPIENT),
      cctpNonce: 77n,
      feeIsNative: true,
      gasDropAmount: 10n ** 15n,
    });
    cluster.finalize(slot);
    const slotV1 = cluster.land(v1.transaction);
    await sync(source);
    let found = await solanaRows();
    expect(found).toMatchObject([
      {
        source_tx_hash: v2.transaction.signature,
        log_index: '0',
        block_number: String(slot),
        confirmed: 'true',
        sender: v2.user,
        recipient: EVM_RECIPIENT,
        destination_domain: '0',
        deposit_amount: '10000000',
        receive_amount: '9750000',
        relayer_fee: '250000',
        gas_drop_amount: '1000',
        is_gas_drop_in_native: 'false',
        max_fee: '5000',
        version: '2',
        cctp_nonce: null,
        min_finality_threshold: '1000',
        attested: 'false',
      },
      {
        source_tx_hash: v1.transaction.signature,
        block_number: String(slotV1),
        confirmed: 'false',
        sender: v1.user,
        destination_domain: '3',
        deposit_amount: '3000000',
        receive_amount: '2997000',
        relayer_fee: '3000',
        is_gas_drop_in_native: 'true',
        max_fee: '0',
        version: '1',
        // v1: the nonce and hash come from the MessageSent account the transfer wrote.
        cctp_nonce: '77',
        min_finality_threshold: null,
      },
    ]);
    const pendingId = found[1]!.id;
    cluster.finalize();
    await sync(source);
    found = await solanaRows();
    expect(found[1]).toMatchObject({ id: pendingId, confirmed: 'true' });
    expect(found[1]!.message_hash).toMatch(/^0x[0-9a-f]{64}$/);

    iris.complete(v2.transaction.signature);
    iris.complete(v1.transaction.signature);
    await pollAttestations(db.database, new IrisClient(iris.url, 50), {
      timeoutSeconds: 3600,
      recheckSeconds: 1,
      chain: { network: 'mainnet', domain: 5 },
    });
    found = await solanaRows();
    expect(found.map((r) => r.attested)).toEqual(['true', 'true']);
    expect(found[0]!.cctp_nonce).toMatch(/^0x[0-9a-f]{64}$/);
    expect(found[1]!.cctp_nonce).toBe('77');
    expect(iris.requests).toEqual(
      expect.arrayContaining([
        `/v2/messages/5?transactionHash=${v2.transaction.signature}`,
        `/v1/messages/5/${v1.transaction.signature}`,
      ]),
    );
    await expectRollupsExact(db.knex);
  }, 60_000);

  it('deletes a transfer seen at confirmed whose slot is dropped, and skipped slots hide nothing', async () => {
    const source = sourceFor();
    const before = (await solanaRows()).length;
    const dropped = await buildSolanaTransfer({
      version: 2,
      usdcAmount: 5_000_000n,
      usdcFee: 5_000n,
      destinationDomain: 6,
      recipient: evmRecipient32(EVM_RECIPIENT),
    });
    const droppedSlot = cluster.land(dropped.transaction);
    await sync(source);
    expect((await solanaRows()).map((r) => r.source_tx_hash)).toContain(
      dropped.transaction.signature,
    );
    cluster.drop(droppedSlot);
    cluster.skip(3);
    const kept = await buildSolanaTransfer({
      version: 1,
      usdcAmount: 2_000_000n,
      usdcFee: 2_000n,
      destinationDomain: 6,
      recipient: evmRecipient32(EVM_RECIPIENT),
      cctpNonce: 78n,
    });
    cluster.land(kept.transaction);
    cluster.skip(2);
    cluster.finalize();
    await sync(source);
    const after = await solanaRows();
    expect(after.map((r) => r.source_tx_hash)).not.toContain(dropped.transaction.signature);
    expect(after.map((r) => r.source_tx_hash)).toContain(kept.transaction.signature);
    expect(after).toHaveLength(before + 1);
    expect(after.every((r) => r.confirmed === 'true')).toBe(true);
    // The dropped sender left the unique senders with its record.
    expect(
      await rows(db.knex, `select sender from tx_senders where sender = ?`, [dropped.user]),
    ).toEqual([]);
    await expectRollupsExact(db.knex);
  }, 60_000);

  it('backfills page by page and resumes after a stop between pages with no gap and no duplicate', async () => {
    const before = (await solanaRows()).length;
    const signatures: string[] = [];
    for (let i = 0; i < 25; i++) {
      const t = await buildSolanaTransfer({
        version: i % 2 === 0 ? 2 : 1,
        usdcAmount: 1_000_000n + BigInt(i),
        usdcFee: 1_000n,
        destinationDomain: 0,
        recipient: evmRecipient32(EVM_RECIPIENT),
        cctpNonce: 100n + BigInt(i),
      });
      signatures.push(t.transaction.signature);
      cluster.land(t.transaction);
    }
    cluster.finalize();
    // A first process writes the two oldest pages (pages of 4 counted from the newest: the
    // oldest holds 1) and stops.
    const first = sourceFor(4);
    expect((await first.tick()).kind).toBe('scanned');
    expect((await first.tick()).kind).toBe('scanned');
    const partial = await solanaRows();
    expect(partial.slice(before).map((r) => r.source_tx_hash)).toEqual(signatures.slice(0, 5));
    // Another process (fresh page walk, no memory of the first) resumes from the cursor.
    const second = sourceFor(4);
    await sync(second);
    const all = await solanaRows();
    expect(all.slice(before).map((r) => r.source_tx_hash)).toEqual(signatures);
    expect(new Set(all.map((r) => r.id)).size).toBe(all.length);
    await expectRollupsExact(db.knex);
  }, 120_000);
});
