/**
 * Demo transfer records: realistic transfers across the served CCTP domains plus a few non-CCTP
 * route ids, spread over the last 60 days, with every destination status and error flag.
 * Deterministic for a given seed. Amounts in base units (bigint).
 */
import { DEFAULT_CHAINS, type VmFamily } from '@ctss/domain-types';
import { base58 } from '@scure/base';
import type { TransferColumns } from '../transactions/row.js';
import type { Rng } from './rng.js';

/** A record to insert (no id: the identity column assigns it in insertion order). */
export interface SeedTransaction extends TransferColumns {
  destination_tx_hash: string | null;
  gas_drop_tx_hash: string | null;
  version: number;
  has_source_tx_error: boolean;
  has_attestation_error: boolean;
  has_destination_tx_error: boolean;
  destination_tx_status: 'pending' | 'success' | 'failed';
}

/**
 * Non-CCTP route ids seen in production data (30xxx, 5xxxxx/6xxxxx; docs/decisions.md "D7. Domain
 * ids beyond CCTP domains"), treated as EVM.
 */
export const EXTRA_ROUTE_IDS: readonly number[] = [30101, 30184, 500001, 600012];

/** Options of {@link generateTransactions}. */
export interface GenerateOptions {
  /** Number of records. */
  readonly count: number;
  /** End of the time range (records are in [now - days, now]). */
  readonly now: Date;
  /** Length of the time range in days (default 60). */
  readonly days?: number;
  /** Share of testnet records (default 0.2). */
  readonly testnetShare?: number;
}

interface Domain {
  readonly domain: number;
  readonly vm: VmFamily;
  readonly minFee: bigint;
  readonly v1: boolean;
  readonly v2: boolean;
  /** Relative popularity as an origin. */
  readonly weight: number;
}

const POPULARITY: Record<number, number> = {
  0: 14,
  1: 4,
  2: 6,
  3: 14,
  5: 10,
  6: 16,
  7: 5,
  8: 2,
  9: 2,
  10: 3,
  11: 3,
  13: 2,
  14: 2,
  15: 2,
  16: 1,
  19: 3,
};

const DOMAINS: readonly Domain[] = [
  ...DEFAULT_CHAINS.map((chain) => ({
    domain: chain.domain,
    vm: chain.vm,
    minFee: chain.minRelayerFee,
    v1: chain.cctpV1,
    v2: chain.cctpV2,
    weight: POPULARITY[chain.domain] ?? 1,
  })),
  ...EXTRA_ROUTE_IDS.map((domain) => ({
    domain,
    vm: 'evm' as const,
    minFee: 80_000n,
    v1: false,
    v2: true,
    weight: 0.5,
  })),
];

const TOTAL_WEIGHT = DOMAINS.reduce((sum, d) => sum + d.weight, 0);

function weightedDomain(rng: Rng): Domain {
  let roll = rng.next() * TOTAL_WEIGHT;
  for (const d of DOMAINS) {
    roll -= d.weight;
    if (roll < 0) return d;
  }
  return DOMAINS[DOMAINS.length - 1]!;
}

/** A wallet address in the format of `vm`. */
function randomAddress(rng: Rng, vm: VmFamily): string {
  switch (vm) {
    case 'evm':
      return `0x${rng.hex(40)}`;
    case 'solana':
      return base58.encode(rng.bytes(32));
    case 'sui':
    case 'aptos':
      return `0x${rng.hex(64)}`;
  }
}

/** A transaction hash in the format of `vm` (Solana signatures and Sui digests are base58). */
function randomTxHash(rng: Rng, vm: VmFamily): string {
  switch (vm) {
    case 'evm':
    case 'aptos':
      return `0x${rng.hex(64)}`;
    case 'solana':
      return base58.encode(rng.bytes(64));
    case 'sui':
      return base58.encode(rng.bytes(32));
  }
}

/**
 * A pool of senders per VM family; heavy users appear often (index drawn with a squared uniform,
 * so the first addresses carry most transfers).
 */
class SenderPool {
  private readonly pools = new Map<VmFamily, string[]>();
  constructor(
    private readonly rng: Rng,
    private readonly size: number,
  ) {}

  draw(vm: VmFamily): string {
    let pool = this.pools.get(vm);
    if (!pool) {
      const n = vm === 'evm' ? this.size : Math.max(10, Math.floor(this.size / 5));
      pool = Array.from({ length: n }, () => randomAddress(this.rng, vm));
      this.pools.set(vm, pool);
    }
    const u = this.rng.next();
    return pool[Math.floor(u * u * pool.length)]!;
  }
}

/** Log-uniform deposit between 1 and 250,000 units of the bridge asset, base units. */
function depositAmount(rng: Rng): bigint {
  const units = 10 ** (rng.next() * Math.log10(250_000));
  return BigInt(Math.round(units * 1e6));
}

/**
 * Generates `count` records, oldest first (so identity ids follow time), several sharing a second.
 * Lazily, so millions of records stream without being held in memory.
 */
export function* generateTransactions(
  rng: Rng,
  options: GenerateOptions,
): Generator<SeedTransaction> {
  const days = options.days ?? 60;
  const testnetShare = options.testnetShare ?? 0.2;
  const endMs = Math.floor(options.now.getTime() / 1000) * 1000;
  const spanMs = days * 86_400_000;
  const senders = new SenderPool(
    rng.fork('senders'),
    Math.max(200, Math.floor(options.count / 20)),
  );
  let previous = endMs - spanMs;
  for (let i = 0; i < options.count; i += 1) {
    // Evenly spread with jitter; one in eight shares the previous record's second.
    const target = endMs - spanMs + Math.floor(((i + rng.next()) * spanMs) / options.count);
    const createdMs = rng.chance(0.125)
      ? previous
      : Math.max(previous, Math.floor(target / 1000) * 1000);
    previous = createdMs;
    yield generateOne(rng, senders, new Date(createdMs), endMs, testnetShare);
  }
}

/**
 * Share of transfers whose source transaction failed: they stay `pending` with
 * `has_source_tx_error` (wallets simulate a burn before sending it, so few revert).
 */
const SOURCE_ERROR_SHARE = 0.002;

/**
 * Age under which a transfer may still be in flight, ms: a standard-finality attestation takes up
 * to about 20 minutes on the slowest source chains (Ethereum), then the relay a few blocks.
 */
const IN_FLIGHT_MS = 30 * 60_000;

/** Share of transfers past {@link IN_FLIGHT_MS} still `pending` (stuck: attestation or relay). */
const STUCK_SHARE = 0.003;

/** Share of transfers past {@link IN_FLIGHT_MS} whose destination transaction failed. */
const FAILED_SHARE = 0.05;

function generateOne(
  rng: Rng,
  senders: SenderPool,
  createdAt: Date,
  endMs: number,
  testnetShare: number,
): SeedTransaction {
  const source = weightedDomain(rng);
  let destination = weightedDomain(rng);
  while (destination.domain === source.domain) destination = weightedDomain(rng);
  const v2Possible =
    source.v2 && destination.v2 && !(source.vm !== 'evm' && destination.vm !== 'evm');
  const version = v2Possible && (!source.v1 || !destination.v1 || rng.chance(0.8)) ? 2 : 1;

  const deposit = depositAmount(rng);
  const relayerFee = destination.minFee + BigInt(rng.int(0, 400_000));
  const maxFee = version === 2 ? (deposit + 9_999n) / 10_000n + BigInt(rng.int(0, 1_000)) : 0n;
  const protocolFee = version === 2 && rng.chance(0.5) ? maxFee / 2n : 0n;
  const receive = deposit > relayerFee + protocolFee ? deposit - relayerFee - protocolFee : 0n;

  const gasDrop = rng.chance(0.2);
  const gasDropNative = gasDrop && rng.chance(0.5);
  const gasDropAmount = !gasDrop
    ? 0n
    : gasDropNative
      ? BigInt(rng.int(1, 50)) * 1_000_000_000_000_000n // 0.001-0.05 of an 18-decimal native token
      : BigInt(rng.int(1, 5)) * 1_000_000n;

  // Recent transfers are mostly still in flight; older ones settled but for rare stuck ones
  // (docs/decisions.md "D311. The seeded share of pending transfers").
  const ageMs = endMs - createdAt.getTime();
  const sourceError = rng.chance(SOURCE_ERROR_SHARE);
  let status: SeedTransaction['destination_tx_status'];
  let attestationError = false;
  let destinationError = false;
  if (sourceError) {
    status = 'pending';
  } else if (ageMs < IN_FLIGHT_MS && rng.chance(0.7)) {
    status = 'pending';
  } else {
    const roll = rng.next();
    if (roll < STUCK_SHARE) {
      status = 'pending';
      attestationError = rng.chance(0.6);
    } else if (roll < STUCK_SHARE + FAILED_SHARE) {
      status = 'failed';
      destinationError = true;
    } else status = 'success';
  }
  const settled = status !== 'pending';
  return {
    network: rng.chance(testnetShare) ? 'testnet' : 'mainnet',
    source_tx_hash: randomTxHash(rng, source.vm),
    destination_tx_hash: settled ? randomTxHash(rng, destination.vm) : null,
    gas_drop_tx_hash: gasDrop && status === 'success' ? randomTxHash(rng, destination.vm) : null,
    source_domain: source.domain,
    destination_domain: destination.domain,
    sender: senders.draw(source.vm),
    recipient:
      rng.chance(0.7) && source.vm === destination.vm
        ? senders.draw(destination.vm)
        : randomAddress(rng, destination.vm),
    deposit_amount: deposit,
    receive_amount: receive,
    relayer_fee: relayerFee,
    gas_drop_amount: gasDropAmount,
    is_gas_drop_in_native: gasDropNative,
    max_fee: maxFee,
    version,
    confirmed: !sourceError && (settled || ageMs > 20 * 60_000 || rng.chance(0.5)),
    has_source_tx_error: sourceError,
    has_attestation_error: attestationError,
    has_destination_tx_error: destinationError,
    destination_tx_status: status,
    created_at: createdAt,
  };
}
