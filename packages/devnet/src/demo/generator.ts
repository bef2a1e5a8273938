/**
 * The demo's traffic, made with `@ctss/sdk` as a widget would (docs/sdk.md): every few seconds a
 * transfer on chain A, quoted and verified (`getQuote`), built for the deployed transfer contract
 * (`buildTransfer`), sent from the demo user's wallet (`sendTransfer`) and followed to settlement
 * from the Monitoring API (`trackTransfer`, each stage logged), cycling through CCTP v2 fast with
 * the fee in USDC, v1 in USDC, v2 fast with the fee in ETH and v1 in ETH (the local Iris
 * executes a fee on every v2 transfer, so none is sent standard with a zero maxFee). A relayer relays
 * every attested transfer to chain B that the Monitoring API lists as pending since the start,
 * whoever sent it (so transfers made by hand against the demo settle too).
 */
import { createCtssClient, type CtssClient } from '@ctss/sdk';
import type { Hex } from 'viem';
import { receiveMessage, type CctpChain } from '../cctp-chain.js';
import { attestedMessage } from '../fake-iris.js';

/** Recipient of every generated transfer on chain B. */
const RECIPIENT: Hex = '0x000000000000000000000000000000000000dE10';

/** The generator's wiring. Intervals in ms. */
export interface GeneratorOptions {
  readonly source: CctpChain;
  readonly destination: CctpChain;
  readonly gasQuoteUrl: string;
  readonly irisUrl: string;
  readonly monitoringUrl: string;
  readonly intervalMs: number;
  readonly log: (line: string) => void;
}

/** A running generator. */
export interface Generator {
  /** Transfers sent, and receives relayed, so far. */
  readonly counts: { sent: number; received: number; failed: number };
  /** Stops after the step in progress (and waits for it). */
  stop(): Promise<void>;
}

/** The four kinds of transfer the generator cycles through. */
const KINDS = [
  { version: 2, isNative: false, finality: 'fast' },
  { version: 1, isNative: false },
  { version: 2, isNative: true, finality: 'fast' },
  { version: 1, isNative: true },
] as const;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Relays, one at a time (they share the relayer account's nonce), what Iris has attested. */
async function relayAttested(
  o: GeneratorOptions,
  ctss: CtssClient,
  since: number,
  relayed: Set<string>,
  counts: Generator['counts'],
): Promise<void> {
  const page = await ctss.monitoring.transactions({
    source_domain: o.source.domain,
    destination_domain: o.destination.domain,
    status: 'pending',
    start_time: since,
    limit: 50,
  });
  for (const record of page.transactions) {
    const hash = record.source_tx_hash as Hex;
    if (relayed.has(hash)) continue;
    const version = record.version === 2 ? 2 : 1;
    const message = await attestedMessage(o.irisUrl, o.source.domain, hash, version);
    if (!message) continue;
    relayed.add(hash);
    try {
      const receipt = await receiveMessage(o.destination, version, message);
      counts.received++;
      o.log(`received on chain B: ${receipt.transactionHash} (for ${hash})`);
    } catch (err) {
      counts.failed++;
      o.log(`receive of ${hash} failed: ${(err as Error).message.split('\n')[0]}`);
    }
  }
}

/** Starts sending one transfer every `intervalMs`, and the relayer. */
export function startGenerator(o: GeneratorOptions): Generator {
  const counts = { sent: 0, received: 0, failed: 0 };
  const ctss = createCtssClient({
    gasQuoteUrl: o.gasQuoteUrl,
    monitoringUrl: o.monitoringUrl,
    irisUrl: o.irisUrl,
  });
  const origin = { publicClient: o.source.client, contract: o.source.cashmere };
  const stopper = new AbortController();
  let stopping = false;
  const tracking = new Set<Promise<unknown>>();
  const since = Math.floor(Date.now() / 1000) - 5;
  const relayed = new Set<string>();

  const relayer = (async () => {
    while (!stopping) {
      try {
        await relayAttested(o, ctss, since, relayed, counts);
      } catch (err) {
        o.log(`relayer: ${(err as Error).message.split('\n')[0]}`);
      }
      for (let waited = 0; waited < 1000 && !stopping; waited += 100) await sleep(100);
    }
  })();

  const loop = (async () => {
    for (let n = 0; !stopping; n++) {
      const started = Date.now();
      const kind = KINDS[n % KINDS.length]!;
      try {
        const quote = await ctss.getQuote({
          localDomain: o.source.domain,
          destinationDomain: o.destination.domain,
          version: kind.version,
          isNative: kind.isNative,
        });
        const amount = BigInt(20 + Math.floor(Math.random() * 480)) * 1_000_000n;
        const plan = await ctss.buildTransfer(
          quote,
          {
            amount,
            recipient: RECIPIENT,
            ...('finality' in kind ? { finality: kind.finality } : {}),
          },
          origin,
        );
        const { hash } = await ctss.sendTransfer(o.source.user, plan, origin);
        counts.sent++;
        const fee = `${quote.fee} ${kind.isNative ? 'wei' : 'base units'}`;
        o.log(
          `sent v${kind.version} transfer on chain A: ${hash} (amount ${amount}, relayer fee ${fee}, contract fee ${plan.costs.contractFee} at ${plan.costs.contractFeeBps} bps from ${plan.costs.contractFeeSource}, user pays ${plan.costs.userPaysUsdc} USDC + ${plan.costs.userPaysNative} wei, recipient gets at least ${plan.costs.recipientGetsMin})`,
        );
        const t = ctss
          .trackTransfer(hash, {
            signal: stopper.signal,
            pollIntervalMs: 500,
            onProgress: (p) => {
              const r = p.record;
              o.log(
                `  ${hash.slice(0, 10)} ${p.stage} at ${p.at.toISOString()}: status=${r.destination_tx_status} receive_amount=${r.receive_amount} fee_executed=${String(r.fee_executed)} nonce=${String(r.nonce)}`,
              );
            },
          })
          .catch((err: unknown) => {
            if (!stopping) o.log(`tracking of ${hash} ended: ${(err as Error).message}`);
          });
        tracking.add(t);
        void t.finally(() => tracking.delete(t));
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
      stopper.abort();
      await loop;
      await relayer;
      await Promise.all(tracking);
    },
  };
}
