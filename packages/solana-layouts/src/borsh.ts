/**
 * Borsh field codecs the program layouts share (`@solana/kit`): 32-byte arrays,
 * `u32`-length-prefixed byte vectors and public keys.
 */
import {
  addCodecSizePrefix,
  address,
  fixCodecSize,
  getAddressCodec,
  getBytesCodec,
  getU32Codec,
  transformCodec,
} from '@solana/kit';

/** `[u8; 32]`: exactly 32 bytes, no prefix. */
export const bytes32 = fixCodecSize(getBytesCodec(), 32);

/** `Vec<u8>`: a little-endian `u32` length, then the bytes. */
export const vecU8 = addCodecSizePrefix(getBytesCodec(), getU32Codec());

/**
 * A public key (`Pubkey`, 32 bytes) as its base58 text: a plain string both ways, so the layouts'
 * types name no branded type of `@solana/kit`.
 *
 * @throws (encode) when the text is not a base58 32-byte address (`@solana/kit` `address`).
 */
export const base58Address = transformCodec(
  getAddressCodec(),
  (value: string) => address(value),
  (value): string => value,
);
