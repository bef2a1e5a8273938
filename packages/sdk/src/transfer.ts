/**
 * Transfer parameters for the deployed CashmereCCTP (abi.ts; docs/api.md "Using a quote
 * on-chain") and what the transfer costs, by the deployed contracts' rules as docs/indexer.md
 * "Record fields" states them: the contract keeps `amount * feeBP / 10000` (its percentage fee)
 * plus the quoted relayer fee when `isNative` is false, and burns the rest; a gas drop paid in USDC
 * is pulled on top of `amount` by v1 (`transfer`) and taken out of `amount` by v2 (`transferV2`);
 * with `isNative` the transaction value pays the relayer fee and gas drop. A fast v2 transfer also
 * pays Circle's fee (at most `maxFee`) out of the burned amount on the destination.
 */
import type { Hex } from 'viem';
import { circleFeeRate, FINALITY_THRESHOLD, maxFeeFor } from './circle-fees.js';
import { TransferInputError } from './errors.js';
import type { HttpOptions } from './http.js';
import type { EcdsaVerifiedQuote, VerifiedQuote } from './quote.js';
import { encodeRecipient, type EncodedRecipient } from './recipient.js';

/** What the caller chooses for a transfer. All amounts are bigint base units. */
export interface TransferInput {
  /** USDC base units (6 decimals) the contract is called with; at most uint64. */
  readonly amount: bigint;
  /** Destination wallet: 0x address (EVM, Sui, Aptos) or base58 wallet (Solana). */
  readonly recipient: string;
  /** Gas drop: USDC base units when the quote's `isNative` is false, origin native units when true (default 0). */
  readonly gasDrop?: bigint;
  /** CCTP version; must equal the quote's (default the quote's). */
  readonly version?: 1 | 2;
  /** v2 finality: `fast` (threshold 1000, Circle's fee) or `standard` (2000, no fee; default). */
  readonly finality?: 'fast' | 'standard';
  /** v2 `maxFee` override, USDC base units (default from Circle's fee table + 20 %). */
  readonly maxFee?: bigint;
  /** v2 hook data (default empty). */
  readonly hookData?: Hex;
  /** Solana USDC mint for the recipient's associated token account (default mainnet's). */
  readonly solanaUsdcMint?: string;
}

/** The fee rates a plan is computed with. */
export interface FeeContext {
  /** The transfer contract's percentage fee, basis points (`state().feeBP`). */
  readonly contractFeeBps: bigint;
  /** Circle's fee for the chosen finality, thousandths of a basis point. */
  readonly circleFeeMilliBps: bigint;
  /** Where the Circle rate came from. */
  readonly circleFeeSource: 'iris' | 'fallback' | 'none';
}

/** What the user pays and the recipient gets. USDC amounts in base units; native in wei. */
export interface TransferCosts {
  readonly amount: bigint;
  /** Quoted relayer fee, in `relayerFeeCurrency`. */
  readonly relayerFee: bigint;
  readonly relayerFeeCurrency: 'usdc' | 'native';
  /** The contract's percentage fee, USDC. */
  readonly contractFee: bigint;
  /** Gas drop delivered as native tokens on the destination, paid in `gasDropCurrency`. */
  readonly gasDrop: bigint;
  readonly gasDropCurrency: 'usdc' | 'native';
  /** Circle's fee at most (v2 `maxFee`; 0 for v1), USDC. */
  readonly circleFeeMax: bigint;
  /** Circle's fee at the current rate, USDC. */
  readonly circleFeeExpected: bigint;
  /** USDC leaving the wallet (the allowance or permit must cover it). */
  readonly userPaysUsdc: bigint;
  /** Native value of the transaction (relayer fee + gas drop when `isNative`), wei. */
  readonly userPaysNative: bigint;
  /** USDC burned on the origin. */
  readonly burned: bigint;
  /** USDC minted to the recipient at the least (burned - maxFee). */
  readonly recipientGetsMin: bigint;
  /** USDC minted to the recipient at the current Circle rate. */
  readonly recipientGetsExpected: bigint;
}

/** The `TransferParams` struct (v1) of the deployed ABI. */
export interface TransferParamsV1 extends EncodedRecipient {
  readonly amount: bigint;
  readonly fee: bigint;
  readonly deadline: bigint;
  readonly gasDropAmount: bigint;
  readonly destinationDomain: number;
  readonly isNative: boolean;
  readonly signature: Hex;
}

/** The `TransferV2Params` struct of the deployed ABI. */
export interface TransferParamsV2 extends TransferParamsV1 {
  readonly maxFee: bigint;
  readonly minFinalityThreshold: number;
  readonly hookData: Hex;
}

/** A transfer ready to send with sendTransfer. */
export type TransferPlan =
  | {
      readonly version: 1;
      readonly functionName: 'transfer';
      readonly params: TransferParamsV1;
      readonly quote: EcdsaVerifiedQuote;
      /** Transaction value, wei. */
      readonly value: bigint;
      readonly costs: TransferCosts;
    }
  | {
      readonly version: 2;
      readonly functionName: 'transferV2';
      readonly params: TransferParamsV2;
      readonly quote: EcdsaVerifiedQuote;
      readonly value: bigint;
      readonly costs: TransferCosts;
    };

const U64 = 1n << 64n;
const U128 = 1n << 128n;

function amountField(field: string, value: unknown, max: bigint): bigint {
  if (typeof value !== 'bigint') {
    throw new TransferInputError(field, `must be a bigint of base units, got ${typeof value}`);
  }
  if (value < 0n || value >= max) throw new TransferInputError(field, `out of range: ${value}`);
  return value;
}

/**
 * Builds the parameters from a verified quote and known fee rates (no I/O).
 *
 * @throws {TransferInputError} for a non-EVM quote, a version other than the quote's, amounts that
 *   are not bigint or exceed the contract's field widths, an amount that does not cover the fees,
 *   or a recipient that does not match the destination family.
 */
export function buildTransferPlan(
  quote: VerifiedQuote,
  input: TransferInput,
  fees: FeeContext,
): TransferPlan {
  if (quote.scheme !== 'ecdsa') {
    throw new TransferInputError(
      'quote',
      'an EVM origin quote (ECDSA) is needed for the EVM transfer contract',
    );
  }
  const version = input.version ?? quote.version;
  if (version !== quote.version) {
    throw new TransferInputError(
      'version',
      `the quote is for CCTP v${quote.version}, not v${version}`,
    );
  }
  const amount = amountField('amount', input.amount, U64);
  if (amount === 0n) throw new TransferInputError('amount', 'must be positive');
  const gasDrop = amountField('gasDrop', input.gasDrop ?? 0n, U128);
  const { recipient, solanaOwner } = encodeRecipient(quote.destinationDomain, input.recipient, {
    ...(input.solanaUsdcMint ? { solanaUsdcMint: input.solanaUsdcMint } : {}),
  });
  const contractFee = (amount * fees.contractFeeBps) / 10_000n;
  const usdcRelayerFee = quote.isNative ? 0n : quote.fee;
  const usdcGasDrop = quote.isNative ? 0n : gasDrop;
  // v1 pulls a USDC gas drop on top of `amount`; v2 takes it out of `amount`.
  const gasDropInAmount = version === 2 ? usdcGasDrop : 0n;
  const burned = amount - contractFee - usdcRelayerFee - gasDropInAmount;
  const finality = input.finality ?? 'standard';
  const threshold = FINALITY_THRESHOLD[finality];
  let circleFeeMax = 0n;
  let circleFeeExpected = 0n;
  if (version === 2) {
    circleFeeExpected =
      burned > 0n ? (burned * fees.circleFeeMilliBps + 9_999_999n) / 10_000_000n : 0n;
    circleFeeMax =
      input.maxFee !== undefined
        ? amountField('maxFee', input.maxFee, U128)
        : maxFeeFor(burned > 0n ? burned : 0n, fees.circleFeeMilliBps);
  } else if (input.finality !== undefined || input.maxFee !== undefined) {
    throw new TransferInputError('finality', 'CCTP v1 has no finality threshold or maxFee');
  }
  if (burned <= circleFeeMax) {
    throw new TransferInputError(
      'amount',
      `${amount} does not cover the fees (contract ${contractFee}, relayer ${usdcRelayerFee}, gas drop ${gasDropInAmount}, Circle up to ${circleFeeMax})`,
    );
  }
  const value = quote.isNative ? quote.fee + gasDrop : 0n;
  const costs: TransferCosts = {
    amount,
    relayerFee: quote.fee,
    relayerFeeCurrency: quote.isNative ? 'native' : 'usdc',
    contractFee,
    gasDrop,
    gasDropCurrency: quote.isNative ? 'native' : 'usdc',
    circleFeeMax,
    circleFeeExpected,
    userPaysUsdc: amount + (version === 1 ? usdcGasDrop : 0n),
    userPaysNative: value,
    burned,
    recipientGetsMin: burned - circleFeeMax,
    recipientGetsExpected:
      burned - (circleFeeExpected < circleFeeMax ? circleFeeExpected : circleFeeMax),
  };
  const base: TransferParamsV1 = {
    amount,
    fee: quote.fee,
    deadline: quote.deadline,
    gasDropAmount: gasDrop,
    destinationDomain: quote.destinationDomain,
    recipient,
    solanaOwner,
    isNative: quote.isNative,
    signature: quote.signature,
  };
  if (version === 1)
    return { version: 1, functionName: 'transfer', params: base, quote, value, costs };
  return {
    version: 2,
    functionName: 'transferV2',
    params: {
      ...base,
      maxFee: circleFeeMax,
      minFinalityThreshold: threshold,
      hookData: input.hookData ?? '0x',
    },
    quote,
    value,
    costs,
  };
}

/** Where {@link buildTransfer} reads the fee rates it is not given. */
export interface BuildContext {
  /** Iris base URL for Circle's fee table (undefined: the local fallback). */
  readonly irisUrl?: string;
  /** The contract's fee in bps when known (else the route's `contractFeeBps`, else `readContractFeeBps`). */
  readonly contractFeeBps?: bigint;
  /** Reads `state().feeBP` from the origin's transfer contract. */
  readonly readContractFeeBps?: () => Promise<bigint>;
  readonly http?: HttpOptions;
}

/**
 * Builds a transfer from a verified quote: resolves the contract's percentage fee (`/routes`
 * `contractFeeBps`, else the contract) and, for a fast v2 transfer, Circle's rate (Iris, else the
 * local fallback), then {@link buildTransferPlan}.
 *
 * @throws {TransferInputError} as {@link buildTransferPlan}, or when the contract fee is unknown.
 */
export async function buildTransfer(
  quote: VerifiedQuote,
  input: TransferInput,
  ctx: BuildContext = {},
): Promise<TransferPlan> {
  let contractFeeBps = ctx.contractFeeBps;
  if (contractFeeBps === undefined && quote.route?.contractFeeBps !== undefined) {
    contractFeeBps = BigInt(quote.route.contractFeeBps);
  }
  if (contractFeeBps === undefined && ctx.readContractFeeBps)
    contractFeeBps = await ctx.readContractFeeBps();
  if (contractFeeBps === undefined) {
    throw new TransferInputError(
      'contractFeeBps',
      'unknown: pass it, or a public client to read it from the contract',
    );
  }
  const version = input.version ?? quote.version;
  let circle: { milliBps: bigint; source: FeeContext['circleFeeSource'] } = {
    milliBps: 0n,
    source: 'none',
  };
  if (version === 2 && (input.finality ?? 'standard') === 'fast' && input.maxFee === undefined) {
    circle = await circleFeeRate(
      ctx.irisUrl,
      quote.localDomain,
      quote.destinationDomain,
      FINALITY_THRESHOLD.fast,
      ctx.http,
    );
  }
  return buildTransferPlan(quote, input, {
    contractFeeBps,
    circleFeeMilliBps: circle.milliBps,
    circleFeeSource: circle.source,
  });
}
