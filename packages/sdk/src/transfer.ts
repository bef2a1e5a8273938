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

/** What a transfer's cost depends on. All amounts are bigint base units. */
export interface CostInput {
  /** USDC base units (6 decimals) the contract is called with; at most uint64. */
  readonly amount: bigint;
  /** Gas drop: USDC base units when the quote's `isNative` is false, origin native units when true (default 0). */
  readonly gasDrop?: bigint;
  /** CCTP version; must equal the quote's (default the quote's). */
  readonly version?: 1 | 2;
  /** v2 finality: `fast` (threshold 1000, Circle's fee) or `standard` (2000, no fee; default). */
  readonly finality?: 'fast' | 'standard';
  /** v2 `maxFee` override, USDC base units (default from Circle's fee table + 20 %). */
  readonly maxFee?: bigint;
}

/** What the caller chooses for a transfer: its {@link CostInput} and where it goes. */
export interface TransferInput extends CostInput {
  /** Destination wallet: 0x address (EVM, Sui, Aptos) or base58 wallet (Solana). */
  readonly recipient: string;
  /** v2 hook data (default empty). */
  readonly hookData?: Hex;
  /** Solana USDC mint for the recipient's associated token account (default mainnet's). */
  readonly solanaUsdcMint?: string;
}

/**
 * Where the contract's percentage fee came from: `given` by the caller, `routes` (`/routes`
 * `contractFeeBps` read from the contract by the Gas Quote API's feeder), `contract` (read by the
 * SDK from the origin contract), `snapshot` (`/routes` serving its bundled default, used only
 * when the contract cannot be read).
 */
export type ContractFeeSource = 'given' | 'routes' | 'contract' | 'snapshot';

/** The fee rates a plan is computed with. */
export interface FeeContext {
  /** The transfer contract's percentage fee, basis points (`state().feeBP`). */
  readonly contractFeeBps: bigint;
  /** Where `contractFeeBps` came from (default `given`). */
  readonly contractFeeSource?: ContractFeeSource;
  /** Circle's fee for the chosen finality, thousandths of a basis point. */
  readonly circleFeeMilliBps: bigint;
  /** Where the Circle rate came from. */
  readonly circleFeeSource: 'iris' | 'fallback' | 'none';
}

/**
 * What the user pays and the recipient gets: the quoted relayer fee, the contract's percentage
 * fee, Circle's fast-transfer fee and the gas drop, added up by the contract's rules. USDC amounts
 * in base units (6 decimals); native amounts in the origin's smallest unit (wei).
 */
export interface TransferCosts {
  readonly amount: bigint;
  /** Quoted relayer fee, in `relayerFeeCurrency`. */
  readonly relayerFee: bigint;
  readonly relayerFeeCurrency: 'usdc' | 'native';
  /** The contract's percentage fee, USDC: `amount * contractFeeBps / 10000`, rounded down as the contract does. */
  readonly contractFee: bigint;
  /** The rate `contractFee` was computed with, basis points, and where it came from. */
  readonly contractFeeBps: bigint;
  readonly contractFeeSource: ContractFeeSource;
  /** Gas drop delivered as native tokens on the destination, paid in `gasDropCurrency`. */
  readonly gasDrop: bigint;
  readonly gasDropCurrency: 'usdc' | 'native';
  /** Circle's fee at most (v2 `maxFee`; 0 for v1), USDC. */
  readonly circleFeeMax: bigint;
  /** Circle's fee at the current rate, USDC. */
  readonly circleFeeExpected: bigint;
  /** Where Circle's rate came from (`none`: v1, standard finality or a given `maxFee`). */
  readonly circleFeeSource: FeeContext['circleFeeSource'];
  /** USDC leaving the wallet (the allowance or permit must cover it). */
  readonly userPaysUsdc: bigint;
  /** Native value of the transaction (relayer fee + gas drop when `isNative`), wei. */
  readonly userPaysNative: bigint;
  /** USDC burned on the origin. */
  readonly burned: bigint;
  /**
   * The USDC fees the transfer contract keeps: the relayer fee when paid in USDC plus the contract
   * fee (a USDC gas drop is kept too, but delivered as native tokens: not a fee); what the
   * Monitoring API records as the transfer's `relayer_fee`.
   */
  readonly feesUsdc: bigint;
  /** USDC minted to the recipient at the least (burned - maxFee). */
  readonly recipientGetsMin: bigint;
  /** USDC minted to the recipient at the current Circle rate. */
  readonly recipientGetsExpected: bigint;
  /**
   * USDC the user gives up beyond what the recipient receives, at the current Circle rate
   * (`userPaysUsdc - recipientGetsExpected`) and at most (`userPaysUsdc - recipientGetsMin`); a
   * USDC gas drop is in it (it comes back as native tokens on the destination), a native fee and
   * gas drop are in `userPaysNative` instead.
   */
  readonly totalCostUsdc: bigint;
  readonly totalCostUsdcMax: bigint;
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

/** The quote as the contract's rules need it: an ECDSA (EVM origin) quote, version checked. */
function evmQuote(quote: VerifiedQuote, input: CostInput): EcdsaVerifiedQuote {
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
  return quote;
}

/**
 * What a transfer of `input.amount` with `quote` costs (no I/O): the relayer fee, the contract's
 * percentage fee, Circle's fast fee (v2 fast) and the gas drop, added into what the user pays
 * (USDC and native wei) and what the recipient gets, by the deployed contract's rules (module
 * comment). Amounts in base units.
 *
 * @throws {TransferInputError} for a non-EVM quote, a version other than the quote's, amounts that
 *   are not bigint or exceed the contract's field widths, finality or `maxFee` on v1, or an amount
 *   that does not cover the fees.
 * @example
 * // the demo's v1 USDC-fee transfer of 467.08 USDC, quoted 0.08 USDC, contract fee 10 bps:
 * transferCosts(quote, { amount: 467_080_000n }, { contractFeeBps: 10n, circleFeeMilliBps: 0n, circleFeeSource: 'none' }).feesUsdc; // 547_080n
 */
export function transferCosts(
  quote: VerifiedQuote,
  input: CostInput,
  fees: FeeContext,
): TransferCosts {
  const q = evmQuote(quote, input);
  const version = q.version;
  const amount = amountField('amount', input.amount, U64);
  if (amount === 0n) throw new TransferInputError('amount', 'must be positive');
  const gasDrop = amountField('gasDrop', input.gasDrop ?? 0n, U128);
  const contractFee = (amount * fees.contractFeeBps) / 10_000n;
  const usdcRelayerFee = q.isNative ? 0n : q.fee;
  const usdcGasDrop = q.isNative ? 0n : gasDrop;
  // v1 pulls a USDC gas drop on top of `amount`; v2 takes it out of `amount`.
  const gasDropInAmount = version === 2 ? usdcGasDrop : 0n;
  const burned = amount - contractFee - usdcRelayerFee - gasDropInAmount;
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
  const userPaysUsdc = amount + (version === 1 ? usdcGasDrop : 0n);
  const recipientGetsMin = burned - circleFeeMax;
  const recipientGetsExpected =
    burned - (circleFeeExpected < circleFeeMax ? circleFeeExpected : circleFeeMax);
  return {
    amount,
    relayerFee: q.fee,
    relayerFeeCurrency: q.isNative ? 'native' : 'usdc',
    contractFee,
    contractFeeBps: fees.contractFeeBps,
    contractFeeSource: fees.contractFeeSource ?? 'given',
    gasDrop,
    gasDropCurrency: q.isNative ? 'native' : 'usdc',
    circleFeeMax,
    circleFeeExpected,
    circleFeeSource: version === 2 ? fees.circleFeeSource : 'none',
    userPaysUsdc,
    userPaysNative: q.isNative ? q.fee + gasDrop : 0n,
    burned,
    feesUsdc: usdcRelayerFee + contractFee,
    recipientGetsMin,
    recipientGetsExpected,
    totalCostUsdc: userPaysUsdc - recipientGetsExpected,
    totalCostUsdcMax: userPaysUsdc - recipientGetsMin,
  };
}

/**
 * Builds the parameters from a verified quote and known fee rates (no I/O); `costs` as
 * {@link transferCosts} gives them.
 *
 * @throws {TransferInputError} as {@link transferCosts}, or for a recipient that does not match
 *   the destination family.
 */
export function buildTransferPlan(
  quote: VerifiedQuote,
  input: TransferInput,
  fees: FeeContext,
): TransferPlan {
  const costs = transferCosts(quote, input, fees);
  const q = evmQuote(quote, input);
  const { version } = q;
  const { amount, gasDrop, circleFeeMax } = costs;
  const { recipient, solanaOwner } = encodeRecipient(q.destinationDomain, input.recipient, {
    ...(input.solanaUsdcMint ? { solanaUsdcMint: input.solanaUsdcMint } : {}),
  });
  const threshold = FINALITY_THRESHOLD[input.finality ?? 'standard'];
  const value = costs.userPaysNative;
  const base: TransferParamsV1 = {
    amount,
    fee: q.fee,
    deadline: q.deadline,
    gasDropAmount: gasDrop,
    destinationDomain: q.destinationDomain,
    recipient,
    solanaOwner,
    isNative: q.isNative,
    signature: q.signature,
  };
  if (version === 1)
    return { version: 1, functionName: 'transfer', params: base, quote: q, value, costs };
  return {
    version: 2,
    functionName: 'transferV2',
    params: {
      ...base,
      maxFee: circleFeeMax,
      minFinalityThreshold: threshold,
      hookData: input.hookData ?? '0x',
    },
    quote: q,
    value,
    costs,
  };
}

/** Where {@link buildTransfer} and {@link quoteTransfer} read the fee rates they are not given. */
export interface BuildContext {
  /** Iris base URL for Circle's fee table (undefined: the local fallback). */
  readonly irisUrl?: string;
  /**
   * The contract's fee in bps when known; else the route's `contractFeeBps` when `/routes` read it
   * from the contract, else `readContractFeeBps`, else the route's snapshot default.
   */
  readonly contractFeeBps?: bigint;
  /** Reads `state().feeBP` from the origin's transfer contract. */
  readonly readContractFeeBps?: () => Promise<bigint>;
  readonly http?: HttpOptions;
}

/** A priced transfer before it has a recipient: the verified quote and what the transfer costs. */
export interface TransferQuote {
  readonly quote: VerifiedQuote;
  readonly costs: TransferCosts;
}

/**
 * The fee rates of a transfer: the contract's percentage fee (see {@link BuildContext}) and, for
 * a fast v2 transfer without a given `maxFee`, Circle's rate (Iris, else the local fallback).
 *
 * @throws {TransferInputError} when the contract fee is unknown.
 * @throws what `ctx.readContractFeeBps` throws (an RPC error).
 */
async function resolveFees(
  quote: VerifiedQuote,
  input: CostInput,
  ctx: BuildContext,
): Promise<FeeContext> {
  const route = quote.route;
  const published =
    route?.contractFeeBps !== undefined && route.contractFeeBps !== null
      ? BigInt(route.contractFeeBps)
      : undefined;
  // An older server sends the value without its source: it read it from the contract.
  const fromContract = route?.contractFeeSource !== 'snapshot';
  let contractFee: { bps: bigint; source: ContractFeeSource } | undefined;
  if (ctx.contractFeeBps !== undefined) contractFee = { bps: ctx.contractFeeBps, source: 'given' };
  else if (published !== undefined && fromContract)
    contractFee = { bps: published, source: 'routes' };
  else if (ctx.readContractFeeBps)
    contractFee = { bps: await ctx.readContractFeeBps(), source: 'contract' };
  else if (published !== undefined) contractFee = { bps: published, source: 'snapshot' };
  if (contractFee === undefined) {
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
  return {
    contractFeeBps: contractFee.bps,
    contractFeeSource: contractFee.source,
    circleFeeMilliBps: circle.milliBps,
    circleFeeSource: circle.source,
  };
}

/**
 * What a transfer with a verified quote costs, before a recipient is chosen: resolves the fee
 * rates as {@link buildTransfer} does, then {@link transferCosts}.
 *
 * @throws {TransferInputError} as {@link transferCosts}, or when the contract fee is unknown.
 */
export async function quoteTransfer(
  quote: VerifiedQuote,
  input: CostInput,
  ctx: BuildContext = {},
): Promise<TransferQuote> {
  return { quote, costs: transferCosts(quote, input, await resolveFees(quote, input, ctx)) };
}

/**
 * Builds a transfer from a verified quote: resolves the contract's percentage fee (see
 * {@link BuildContext}) and, for a fast v2 transfer, Circle's rate (Iris, else the local
 * fallback), then {@link buildTransferPlan}.
 *
 * @throws {TransferInputError} as {@link buildTransferPlan}, or when the contract fee is unknown.
 */
export async function buildTransfer(
  quote: VerifiedQuote,
  input: TransferInput,
  ctx: BuildContext = {},
): Promise<TransferPlan> {
  return buildTransferPlan(quote, input, await resolveFees(quote, input, ctx));
}
