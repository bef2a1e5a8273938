/**
 * Borsh field codecs the program layouts share (`@solana/kit`): 32-byte arrays and
 * `u32`-length-prefixed byte vectors.
 */
import { addCodecSizePrefix, fixCodecSize, getBytesCodec, getU32Codec } from '@solana/kit';

/** `[u8; 32]`: exactly 32 bytes, no prefix. */
export const bytes32 = fixCodecSize(getBytesCodec(), 32);

/** `Vec<u8>`: a little-endian `u32` length, then the bytes. */
export const vecU8 = addCodecSizePrefix(getBytesCodec(), getU32Codec());
