/** The one-bit forgery the wallet-signature tests present. */

/**
 * A copy of `bytes` with the bits of `mask` (0..255) flipped in the byte at `index`: a signature
 * forged by a bit error, which must no longer verify. `bytes` itself is left as it is.
 */
export function flipBits(bytes: Uint8Array, index: number, mask: number): Uint8Array {
  const forged = Uint8Array.from(bytes);
  forged[index] = forged[index]! ^ mask;
  return forged;
}
