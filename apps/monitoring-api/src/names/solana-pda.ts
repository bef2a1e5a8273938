/**
 * Solana program-derived addresses (PDAs) without the Solana SDK: the same rule as
 * `PublicKey.findProgramAddressSync` of @solana/web3.js and `Pubkey::find_program_address` in
 * solana-program.
 */
import { ed25519 } from '@noble/curves/ed25519.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { concatBytes, utf8ToBytes } from '@noble/hashes/utils.js';

const PDA_MARKER = utf8ToBytes('ProgramDerivedAddress');
const MAX_SEED_LENGTH = 32;

/**
 * Whether 32 bytes decode to a point of the ed25519 curve. Solana uses curve25519-dalek's
 * `decompress`, which accepts non-canonical encodings, hence the ZIP-215 (lenient) decoding.
 */
export function isOnCurve(bytes: Uint8Array): boolean {
  try {
    ed25519.Point.fromBytes(bytes, true);
    return true;
  } catch {
    return false;
  }
}

/**
 * `create_program_address`: sha256(seed_1 || ... || seed_n || programId || "ProgramDerivedAddress"),
 * or undefined when the hash lands on the curve (a PDA must have no private key).
 *
 * @throws RangeError when a seed is longer than 32 bytes or there are more than 16 seeds.
 */
function createProgramAddress(
  seeds: readonly Uint8Array[],
  programId: Uint8Array,
): Uint8Array | undefined {
  if (seeds.length > 16) throw new RangeError('at most 16 seeds');
  for (const seed of seeds) {
    if (seed.length > MAX_SEED_LENGTH) throw new RangeError('a seed is longer than 32 bytes');
  }
  const hash = sha256(concatBytes(...seeds, programId, PDA_MARKER));
  return isOnCurve(hash) ? undefined : hash;
}

/**
 * `find_program_address`: the first off-curve address for bump seeds 255, 254, ..., 0.
 *
 * @returns the 32-byte address and its bump seed.
 * @throws Error when no bump gives an off-curve address (probability ~2^-256).
 */
export function findProgramAddress(
  seeds: readonly Uint8Array[],
  programId: Uint8Array,
): { address: Uint8Array; bump: number } {
  for (let bump = 255; bump >= 0; bump -= 1) {
    const address = createProgramAddress([...seeds, Uint8Array.of(bump)], programId);
    if (address) return { address, bump };
  }
  throw new Error('no viable bump seed for the program address');
}
