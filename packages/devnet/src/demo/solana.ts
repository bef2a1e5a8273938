/**
 * The Solana side of `pnpm demo` (docs/indexer.md "Demo"): the local cluster stand-in
 * (solana-cluster.ts) on a fixed port, driven like a cluster whose slots follow the wall clock
 * (a slot landed now has this second's time; the seconds without a transaction are skipped
 * slots) and whose slots are finalized `finalizeAfterMs` after they land (confirmed first, as on
 * Solana, where finality comes about 13 s after confirmation); a Solana wallet (a fresh ed25519
 * key pair) sending a transfer of the transfer program to chain B every `intervalMs`,
 * alternately CCTP v2 fast and v1, built and signed with `@solana/kit` (solana-cctp.ts) and
 * followed to settlement (`trackTransfer`); and the receive into Solana of an attested message
 * (Circle's `receive_message`, landed for the relayer).
 *
 * The transfer program's history starts with one transfer landed and finalized before the
 * indexer starts (docs/decisions.md "D270. The demo's Solana cluster starts with one finalized
 * transfer"): the indexer writes pending Solana rows only above a cursor, which the first
 * finalized page sets.
 */
import type { CtssClient } from '@ctss/sdk';
import { generateKeyPairSigner, type TransactionSigner } from '@solana/kit';
import { hexToBytes, type Hex } from 'viem';
import type { CctpChain } from '../cctp-chain.js';
import { startLocalSolana, type LocalSolana, type StoredTransaction } from '../solana-cluster.js';
import { buildSolanaReceive, buildSolanaTransfer, evmRecipient32 } from '../solana-cctp.js';
import { DEMO_EVM_RECIPIENT } from './generator.js';
import { startSendingLoop, type SendingLoop } from './loop.js';

/** The Solana side's wiring. Times in ms. */
export interface DemoSolanaOptions {
  /** Port of the cluster's JSON-RPC (0 = a free one). */
  readonly port: number;
  /** Time from a slot's landing (`confirmed`) to its finalization. */
  readonly finalizeAfterMs: number;
  /** Time between two transfers from Solana. */
  readonly intervalMs: number;
  /** The EVM chain the transfers from Solana go to (chain B). */
  readonly destination: CctpChain;
  readonly log: (line: string) => void;
}

/** The running Solana side. */
export interface DemoSolana {
  readonly url: string;
  /** The demo's Solana wallet (base58): it sends from Solana and the transfers into Solana go to it. */
  readonly wallet: string;
  /** Transfers sent from Solana, and sends that failed, so far. */
  readonly counts: { sent: number; failed: number };
  /**
   * Lands Circle's `receive_message` of an attested message on the cluster (finalized later
   * like any slot).
   *
   * @returns its signature.
   */
  receive(version: 1 | 2, message: Hex): Promise<string>;
  /** Starts sending from Solana (once the indexer and the Monitoring API run). */
  startSending(ctss: CtssClient): void;
  /** Stops sending (waits for the step in progress and the tracking). */
  stop(): Promise<void>;
  /** Stops the clock and the cluster (after the indexer, which reads it). */
  close(): Promise<void>;
}

/**
 * Starts the cluster and its clock, and lands the program's first (finalized) transfer.
 *
 * @throws when the port is taken, or the first transfer cannot be built (the clock and the cluster
 *   are stopped first).
 */
export async function startDemoSolana(o: DemoSolanaOptions): Promise<DemoSolana> {
  const startTime = Math.floor(Date.now() / 1000);
  const cluster: LocalSolana = await startLocalSolana(o.port, startTime);
  /** Landed slots not finalized yet, with their landing time (ms). */
  const unfinalized: { slot: number; at: number }[] = [];
  const land = (tx: StoredTransaction): number => {
    // The slot landed now has this second's time: the seconds since the last one are skipped.
    const behind = Math.floor(Date.now() / 1000) - (startTime + cluster.slot + 1);
    if (behind > 0) cluster.skip(behind);
    const slot = cluster.land(tx);
    unfinalized.push({ slot, at: Date.now() });
    return slot;
  };
  const clock = setInterval(() => {
    let due: number | undefined;
    while (unfinalized.length > 0 && unfinalized[0]!.at + o.finalizeAfterMs <= Date.now()) {
      due = unfinalized.shift()!.slot;
    }
    if (due !== undefined) cluster.finalize(due);
  }, 250);
  const close = async () => {
    clearInterval(clock);
    await cluster.close();
  };
  try {
    const user: TransactionSigner = await generateKeyPairSigner();
    let cctpNonceV1 = 0n;
    let programNonce = 0n;
    /** Builds and lands a transfer from the demo's wallet to chain B. */
    const sendToChainB = async (version: 1 | 2) => {
      const amount = BigInt(20 + Math.floor(Math.random() * 480)) * 1_000_000n;
      // The transfer program's fee, 10 bps as the EVM transfer contracts' (docs/indexer.md "Demo").
      const fee = (amount * 10n) / 10_000n;
      const burned = amount - fee;
      programNonce++;
      if (version === 1) cctpNonceV1++;
      const transfer = await buildSolanaTransfer({
        version,
        usdcAmount: amount,
        usdcFee: fee,
        destinationDomain: o.destination.domain,
        recipient: evmRecipient32(DEMO_EVM_RECIPIENT),
        destinationTokenMessenger: evmRecipient32(
          version === 1 ? o.destination.messengerV1 : o.destination.messengerV2,
        ),
        user,
        programNonce,
        ...(version === 1
          ? { cctpNonce: cctpNonceV1 }
          : { minFinalityThreshold: 1000, maxFee: burned / 1_000n }),
      });
      const slot = land(transfer.transaction);
      return { signature: transfer.transaction.signature, amount, fee, slot };
    };

    const first = await sendToChainB(2);
    cluster.finalize(first.slot);
    unfinalized.length = 0;
    o.log(
      `Solana cluster stand-in at ${cluster.url}; the transfer program's first transfer (finalized): ${first.signature} (v2 to chain B, amount ${first.amount}, fee ${first.fee})`,
    );

    let sender: SendingLoop | undefined;
    return {
      url: cluster.url,
      wallet: user.address,
      get counts() {
        return sender?.counts ?? { sent: 0, failed: 0 };
      },
      async receive(version, message) {
        const receive = await buildSolanaReceive(version, hexToBytes(message));
        land(receive.transaction);
        return receive.transaction.signature;
      },
      startSending(ctss) {
        sender ??= startSendingLoop({
          ctss,
          intervalMs: o.intervalMs,
          failure: 'transfer failed on Solana',
          log: o.log,
          async send(n) {
            const version = n % 2 === 0 ? 2 : 1;
            const sent = await sendToChainB(version);
            return {
              hash: sent.signature,
              line: `sent v${version} transfer on Solana to chain B: ${sent.signature} (from ${user.address} to ${DEMO_EVM_RECIPIENT}, amount ${sent.amount}, program fee ${sent.fee}, slot ${sent.slot}, finalized after ${o.finalizeAfterMs / 1000} s)`,
            };
          },
        });
      },
      async stop() {
        await sender?.stop();
      },
      close,
    };
  } catch (err) {
    await close();
    throw err;
  }
}
