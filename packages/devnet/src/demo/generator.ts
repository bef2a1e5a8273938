/**
 * The demo's traffic from chain A, made with `@ctss/sdk` as a widget would (docs/sdk.md): every
 * few seconds a transfer, quoted and verified (`getQuote`), built for the deployed transfer
 * contract (`buildTransfer`), sent from the demo user's wallet (`sendTransfer`) and followed to
 * settlement from the Monitoring API (`trackTransfer`, each stage logged), cycling through CCTP
 * v2 fast with the fee in USDC to chain B, v2 fast with the fee in USDC into Solana (to the demo's
 * Solana wallet, when there is one), v1 in USDC, v2 fast with the fee in ETH and v1 in ETH to
 * chain B (the local Iris executes a fee on every v2 transfer, so none is sent standard with a
 * zero maxFee). The transfers are sent one at a time: they share the user account's nonce.
 * Relaying them is the relayer's job (relayer.ts); the loop itself is loop.ts's.
 */
import type { CtssClient } from '@ctss/sdk';
import type { Hex } from 'viem';
import type { CctpChain } from '../cctp-chain.js';
import { startSendingLoop, type SendingLoop } from './loop.js';

/** Recipient of every generated transfer to an EVM chain (chain B, and from Solana). */
export const DEMO_EVM_RECIPIENT: Hex = '0x000000000000000000000000000000000000dE10';

/** The generator's wiring. Intervals in ms. */
export interface GeneratorOptions {
  readonly ctss: CtssClient;
  readonly source: CctpChain;
  readonly destination: CctpChain;
  /** The Solana wallet (base58) every fifth transfer goes to; absent = none into Solana. */
  readonly solanaRecipient?: string;
  readonly intervalMs: number;
  readonly log: (line: string) => void;
}

/** A running generator: its counts of transfers sent and sends failed, and its stop. */
export type Generator = SendingLoop;

/** A kind of transfer the generator sends; `toSolana`: into Solana (CCTP domain 5). */
interface Kind {
  readonly version: 1 | 2;
  readonly isNative: boolean;
  readonly finality?: 'fast';
  readonly toSolana?: true;
}

/** The kinds of transfer the generator cycles through. */
const KINDS: readonly Kind[] = [
  { version: 2, isNative: false, finality: 'fast' },
  { version: 2, isNative: false, finality: 'fast', toSolana: true },
  { version: 1, isNative: false },
  { version: 2, isNative: true, finality: 'fast' },
  { version: 1, isNative: true },
];

/** CCTP domain of Solana. */
const SOLANA_DOMAIN = 5;

/** Starts sending one transfer every `intervalMs`. */
export function startGenerator(o: GeneratorOptions): Generator {
  const { ctss } = o;
  const origin = { publicClient: o.source.client, contract: o.source.cashmere };
  const kinds = KINDS.filter((k) => !k.toSolana || o.solanaRecipient !== undefined);
  return startSendingLoop({
    ctss,
    intervalMs: o.intervalMs,
    failure: 'transfer failed',
    log: o.log,
    async send(n) {
      const kind = kinds[n % kinds.length]!;
      const toSolana = kind.toSolana === true;
      const quote = await ctss.getQuote({
        localDomain: o.source.domain,
        destinationDomain: toSolana ? SOLANA_DOMAIN : o.destination.domain,
        version: kind.version,
        isNative: kind.isNative,
      });
      const amount = BigInt(20 + Math.floor(Math.random() * 480)) * 1_000_000n;
      const recipient = toSolana ? o.solanaRecipient! : DEMO_EVM_RECIPIENT;
      const plan = await ctss.buildTransfer(
        quote,
        { amount, recipient, ...(kind.finality ? { finality: kind.finality } : {}) },
        origin,
      );
      const { hash } = await ctss.sendTransfer(o.source.user, plan, origin);
      const fee = `${quote.fee} ${kind.isNative ? 'wei' : 'base units'}`;
      return {
        hash,
        line: `sent v${kind.version} transfer on chain A to ${toSolana ? `Solana wallet ${recipient}` : 'chain B'}: ${hash} (amount ${amount}, relayer fee ${fee}, contract fee ${plan.costs.contractFee} at ${plan.costs.contractFeeBps} bps from ${plan.costs.contractFeeSource}, user pays ${plan.costs.userPaysUsdc} USDC + ${plan.costs.userPaysNative} wei, recipient gets at least ${plan.costs.recipientGetsMin})`,
      };
    },
  });
}
