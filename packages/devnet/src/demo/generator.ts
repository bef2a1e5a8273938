/**
 * The demo's traffic: every few seconds a transfer on chain A priced and signed by the Gas Quote
 * API (`GET /getEcdsaSig_native`, docs/api.md "ECDSA quote"), alternately CCTP v2 (fast:
 * minFinalityThreshold 1000, with a max fee covering the local Iris's fee executed) and v1; once
 * the local Iris attests it, the receive on chain B with the attested message (v2: carrying the
 * nonce and fee Iris filled in, which the indexer matches on). Each transfer's record is read
 * back from the Monitoring API when attested and when received, so the log shows its explorer
 * fields move (docs/api.md "Transaction record").
 */
import type { Hex } from 'viem';
import { makeTransfer, receiveMessage, type CctpChain } from '../cctp-chain.js';
import { attestedMessage } from '../fake-iris.js';

/** Recipient of every generated transfer on chain B. */
const RECIPIENT: Hex = '0x000000000000000000000000000000000000dE10';

/** The generator's wiring. Intervals in ms. */
export interface GeneratorOptions {
  readonly source: CctpChain;
  readonly destination: CctpChain;
  readonly gasQuoteUrl: string;
  readonly irisUrl: string;
  readonly intervalMs: number;
  /** Base URL of the Monitoring API whose lookup is read back (absent: not read). */
  readonly monitoringUrl?: string;
  /** v2 transfers' `maxFee`, base units (at least the local Iris's fee executed). */
  readonly maxFee?: bigint;
  readonly log: (line: string) => void;
}

/** A running generator. */
export interface Generator {
  /** Transfers sent, and receives relayed, so far. */
  readonly counts: { sent: number; received: number; failed: number };
  /** Stops after the step in progress (and waits for it). */
  stop(): Promise<void>;
}

interface Quote {
  fee: string;
  deadline: string;
  signature: Hex;
}

async function fetchQuote(base: string, from: number, to: number, v2: boolean): Promise<Quote> {
  const url = `${base}/getEcdsaSig_native?localDomain=${from}&destinationDomain=${to}&isV2=${v2}&isNative=false`;
  const res = await fetch(url);
  const body = (await res.json()) as Quote & { detail?: string };
  if (!res.ok) throw new Error(`quote ${res.status}: ${body.detail ?? 'no detail'}`);
  return body;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The explorer fields of a record shown in the log. */
const SHOWN = [
  'destination_tx_status',
  'receive_amount',
  'fee_executed',
  'min_finality_threshold',
  'nonce',
  'message_hash',
  'attested_at',
  'received_at',
  'updated_at',
] as const;

/**
 * Reads the record of `txHash` from the Monitoring API lookup until `done` holds for it (at most
 * ~10 s), and returns its fields as one log line; undefined when it did not appear.
 */
async function readBack(
  monitoringUrl: string,
  txHash: Hex,
  done: (record: Record<string, unknown>) => boolean,
): Promise<string | undefined> {
  for (let i = 0; i < 40; i++) {
    const res = await fetch(`${monitoringUrl}/transactionsmainnet/${txHash}`);
    if (res.ok) {
      const [record] = ((await res.json()) as { transactions: Record<string, unknown>[] })
        .transactions;
      if (record && done(record)) {
        return SHOWN.map((name) => `${name}=${JSON.stringify(record[name])}`).join(' ');
      }
    } else {
      await res.arrayBuffer();
    }
    await sleep(250);
  }
  return undefined;
}

/** Starts sending one transfer every `intervalMs`. */
export function startGenerator(o: GeneratorOptions): Generator {
  const counts = { sent: 0, received: 0, failed: 0 };
  let stopping = false;
  let receives: Promise<void> = Promise.resolve();

  const relay = async (txHash: Hex, version: 1 | 2) => {
    for (let i = 0; i < 600 && !stopping; i++) {
      const message = await attestedMessage(o.irisUrl, o.source.domain, txHash, version);
      if (message) {
        if (o.monitoringUrl) {
          const line = await readBack(o.monitoringUrl, txHash, (r) => r.attested_at !== null);
          if (line) o.log(`  attested ${txHash.slice(0, 10)}: ${line}`);
        }
        const receipt = await receiveMessage(o.destination, version, message);
        counts.received++;
        o.log(`received on chain B: ${receipt.transactionHash} (for ${txHash})`);
        if (o.monitoringUrl) {
          const line = await readBack(
            o.monitoringUrl,
            receipt.transactionHash,
            (r) => r.destination_tx_status === 'success',
          );
          if (line) o.log(`  received ${txHash.slice(0, 10)}: ${line}`);
        }
        return;
      }
      await sleep(500);
    }
  };

  const loop = (async () => {
    for (let n = 0; !stopping; n++) {
      const started = Date.now();
      const version = n % 2 === 0 ? 2 : 1;
      try {
        const quote = await fetchQuote(
          o.gasQuoteUrl,
          o.source.domain,
          o.destination.domain,
          version === 2,
        );
        const amount = BigInt(1 + Math.floor(Math.random() * 500)) * 1_000_000n;
        const { receipt } = await makeTransfer(o.source, {
          version,
          destinationDomain: o.destination.domain,
          amount: amount + BigInt(quote.fee),
          fee: BigInt(quote.fee),
          recipient: RECIPIENT,
          ...(version === 2 ? { minFinalityThreshold: 1000, maxFee: o.maxFee ?? 0n } : {}),
          quote: { deadline: BigInt(quote.deadline), signature: quote.signature },
        });
        counts.sent++;
        const hash = receipt.transactionHash;
        o.log(
          `sent v${version} transfer on chain A: ${hash} (block ${receipt.blockNumber}, fee ${quote.fee} base units)`,
        );
        // Receives are relayed one at a time: they share the relayer account's nonce.
        receives = receives.then(() =>
          relay(hash, version).catch((err: unknown) => {
            counts.failed++;
            o.log(`receive of ${hash} failed: ${(err as Error).message}`);
          }),
        );
      } catch (err) {
        counts.failed++;
        o.log(`transfer failed: ${(err as Error).message.split('\n')[0]}`);
      }
      const wait = o.intervalMs - (Date.now() - started);
      for (let waited = 0; waited < wait && !stopping; waited += 100) await sleep(100);
    }
  })();

  return {
    counts,
    async stop() {
      stopping = true;
      await loop;
      await receives;
    },
  };
}
