/**
 * The mainnet defaults of a chain entry's contract addresses (docs/indexer.md "Configuration",
 * "Solana", "Sui and Aptos"): a mainnet entry may leave Circle's contracts and the transfer
 * contracts out and takes the published ones; any other entry must name them. One rule for the
 * EVM, Solana, Sui and Aptos entries, applied in each schema's transform.
 */
import type { z } from 'zod';

/** A default of a field whose value is `T`: an array default may be read-only (it is copied). */
type DefaultOf<T> = T extends readonly (infer E)[] ? readonly E[] : T;

/** The defaults of `K`'s fields of an entry `C`. */
type ChainDefaults<C, K extends keyof C> = {
  readonly [P in K]: DefaultOf<NonNullable<C[P]>>;
};

/** Entry `C` with each of `K`'s fields given. */
export type WithDefaults<C, K extends keyof C> = Omit<C, K> & { [P in K]-?: NonNullable<C[P]> };

/** What {@link fillMainnetDefaults} fills and how its message names the entry. */
export interface MainnetDefaultsSpec<C, K extends keyof C> {
  /** The fields that default (in the order the message lists them). */
  readonly fields: readonly K[];
  /** The mainnet defaults of `chain`, or undefined when there are none (e.g. an unknown domain). */
  readonly mainnet: (chain: C) => ChainDefaults<C, K> | undefined;
  /** What the fields are, in the message: `Circle contracts`, `programs`, `packages`, ... */
  readonly what: string;
  /** The entry, in the message: `mainnet domain 99`, `testnet Solana`, ... */
  readonly label: (chain: C) => string;
}

/** `a`, `a and b`, `a, b and c`. */
const listed = (names: readonly string[]) =>
  names.length < 2
    ? names.join('')
    : `${names.slice(0, -1).join(', ')} and ${names[names.length - 1]!}`;

/**
 * `chain` with each of `spec.fields` it leaves out taken from its mainnet defaults (a mainnet
 * entry only; an array is copied), for a zod transform.
 *
 * @returns the filled entry, or undefined when a field is in neither the entry nor the defaults:
 *          the entry then fails validation (an issue on `ctx` naming the fields to set, e.g.
 *          `no default programs for testnet Solana: set transferProgram and messageTransmitterV1`).
 */
export function fillMainnetDefaults<
  C extends { readonly network: string },
  K extends keyof C & string,
>(
  chain: C,
  ctx: z.core.$RefinementCtx<C>,
  spec: MainnetDefaultsSpec<C, K>,
): WithDefaults<C, K> | undefined {
  const defaults = chain.network === 'mainnet' ? spec.mainnet(chain) : undefined;
  const filled: Record<string, unknown> = { ...chain };
  const missing: string[] = [];
  for (const field of spec.fields) {
    const value: unknown = chain[field] ?? defaults?.[field];
    if (value === undefined) missing.push(field);
    else filled[field] = Array.isArray(value) ? [...(value as unknown[])] : value;
  }
  if (missing.length === 0) return filled as WithDefaults<C, K>;
  ctx.addIssue({
    code: 'custom',
    message: `no default ${spec.what} for ${spec.label(chain)}: set ${listed(missing)}`,
  });
  return undefined;
}
