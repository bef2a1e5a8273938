/**
 * Pins the local Solana cluster to Solana's RPC reference (https://solana.com/docs/rpc/http):
 * `getSignaturesForAddress` entries (`blockTime`, `confirmationStatus`, `err`, `memo`,
 * `signature`, `slot`, newest first, `before` / `until` exclusive, `limit` 1-1000, `finalized`
 * by default), `getTransaction` (`json`: `slot`, `blockTime`, `meta`, `transaction`, `version`;
 * -32015 for a v0 transaction without `maxSupportedTransactionVersion`; null at a commitment the
 * transaction has not reached), `getBlockTime` (-32009 for a skipped slot), and checks that the
 * transactions it serves carry real ed25519 signatures over their compiled v0 messages.
 */
import { describe, expect, it } from '@jest/globals';
import {
  address,
  getBase58Encoder,
  getCompiledTransactionMessageEncoder,
  getPublicKeyFromAddress,
  signatureBytes,
  verifySignature,
  type Address,
} from '@solana/kit';
import { buildSolanaTransfer } from './solana-cctp.js';
import { startLocalSolana } from './solana-cluster.js';

const rpc = async (url: string, method: string, params: unknown[]) => {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 7, method, params }),
  });
  return (await res.json()) as { id: number; result?: unknown; error?: { code: number } };
};

const transfer = () =>
  buildSolanaTransfer({
    version: 2,
    usdcAmount: 1_000_000n,
    usdcFee: 1_000n,
    destinationDomain: 0,
    recipient: new Uint8Array(32).fill(7),
  });

describe('local Solana cluster', () => {
  it('answers getSignaturesForAddress and getTransaction in the reference shapes', async () => {
    const cluster = await startLocalSolana();
    try {
      const [a, b, c] = await Promise.all([transfer(), transfer(), transfer()]);
      const slotA = cluster.land(a.transaction);
      cluster.skip(2);
      cluster.land(b.transaction);
      cluster.finalize();
      cluster.land(c.transaction);
      const program = '5RsvKL6LFq6yEFiAXEwgYHAN3aLFypeB4AaafdeDnHqM';
      const finalized = await rpc(cluster.url, 'getSignaturesForAddress', [program]);
      expect(finalized.id).toBe(7);
      expect(finalized.result).toEqual([
        {
          blockTime: expect.any(Number),
          confirmationStatus: 'finalized',
          err: null,
          memo: null,
          signature: b.transaction.signature,
          slot: slotA + 3,
        },
        expect.objectContaining({ signature: a.transaction.signature, slot: slotA }),
      ]);
      const confirmed = (await rpc(cluster.url, 'getSignaturesForAddress', [
        program,
        { commitment: 'confirmed', until: a.transaction.signature, limit: 1 },
      ])) as { result: { signature: string; confirmationStatus: string }[] };
      expect(confirmed.result).toEqual([
        expect.objectContaining({
          signature: c.transaction.signature,
          confirmationStatus: 'confirmed',
        }),
      ]);
      const before = (await rpc(cluster.url, 'getSignaturesForAddress', [
        program,
        { commitment: 'confirmed', before: c.transaction.signature },
      ])) as { result: { signature: string }[] };
      expect(before.result.map((s) => s.signature)).toEqual([
        b.transaction.signature,
        a.transaction.signature,
      ]);
      expect(
        (await rpc(cluster.url, 'getSignaturesForAddress', [program, { limit: 1001 }])).error?.code,
      ).toBe(-32602);

      expect(
        (await rpc(cluster.url, 'getTransaction', [a.transaction.signature, { encoding: 'json' }]))
          .error?.code,
      ).toBe(-32015);
      expect(
        (
          await rpc(cluster.url, 'getTransaction', [
            c.transaction.signature,
            { encoding: 'json', commitment: 'finalized', maxSupportedTransactionVersion: 0 },
          ])
        ).result,
      ).toBeNull();
      const tx = (
        await rpc(cluster.url, 'getTransaction', [
          a.transaction.signature,
          { encoding: 'json', maxSupportedTransactionVersion: 0 },
        ])
      ).result as Record<string, unknown> & {
        meta: Record<string, unknown>;
        transaction: {
          signatures: string[];
          message: {
            accountKeys: string[];
            header: {
              numRequiredSignatures: number;
              numReadonlySignedAccounts: number;
              numReadonlyUnsignedAccounts: number;
            };
            instructions: { programIdIndex: number; accounts: number[]; data: string }[];
            recentBlockhash: string;
            addressTableLookups: unknown[];
          };
        };
      };
      expect(Object.keys(tx).sort()).toEqual([
        'blockTime',
        'meta',
        'slot',
        'transaction',
        'version',
      ]);
      expect(tx).toMatchObject({ slot: slotA, version: 0 });
      expect(Object.keys(tx.meta)).toEqual(
        expect.arrayContaining([
          'err',
          'fee',
          'innerInstructions',
          'loadedAddresses',
          'logMessages',
          'postBalances',
          'preBalances',
          'status',
        ]),
      );
      expect(Object.keys(tx.transaction.message).sort()).toEqual([
        'accountKeys',
        'addressTableLookups',
        'header',
        'instructions',
        'recentBlockhash',
      ]);
      expect(Object.keys(tx.transaction.message.header).sort()).toEqual([
        'numReadonlySignedAccounts',
        'numReadonlyUnsignedAccounts',
        'numRequiredSignatures',
      ]);
      // The fee payer's signature verifies over the v0 message rebuilt from the answer.
      const m = tx.transaction.message;
      const base58 = getBase58Encoder();
      const bytes = getCompiledTransactionMessageEncoder().encode({
        version: 0,
        header: {
          numSignerAccounts: m.header.numRequiredSignatures,
          numReadonlySignerAccounts: m.header.numReadonlySignedAccounts,
          numReadonlyNonSignerAccounts: m.header.numReadonlyUnsignedAccounts,
        },
        staticAccounts: m.accountKeys.map((k) => address(k)),
        lifetimeToken: m.recentBlockhash,
        instructions: m.instructions.map((ix) => ({
          programAddressIndex: ix.programIdIndex,
          accountIndices: ix.accounts,
          data: base58.encode(ix.data),
        })),
        addressTableLookups: [],
      } as const);
      const payer = m.accountKeys[0] as Address;
      expect(payer).toBe(a.user);
      const verified = await verifySignature(
        await getPublicKeyFromAddress(payer),
        signatureBytes(base58.encode(tx.transaction.signatures[0]!)),
        bytes,
      );
      expect(verified).toBe(true);

      expect((await rpc(cluster.url, 'getBlockTime', [slotA + 1])).error?.code).toBe(-32009);
      expect((await rpc(cluster.url, 'getBlockTime', [slotA])).result).toEqual(expect.any(Number));
    } finally {
      await cluster.close();
    }
  });
});
