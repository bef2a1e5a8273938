/**
 * Anchor's framing of instruction data, events and accounts (anchor-lang): each starts with an
 * 8-byte discriminator, the first 8 bytes of sha256(`global:<instruction>`),
 * sha256(`event:<Event>`) or sha256(`account:<Account>`); an `emit_cpi!` event is a
 * self-invocation whose data is {@link EVENT_IX_TAG}, then the event's discriminator and fields.
 */
import { sha256 } from '@noble/hashes/sha2.js';
import { utf8ToBytes } from '@noble/hashes/utils.js';

/** What an Anchor discriminator names: an instruction, an event or an account. */
export type AnchorNamespace = 'global' | 'event' | 'account';

/**
 * Anchor's 8-byte discriminator of `namespace:name`: sha256 of the UTF-8 text, first 8 bytes.
 * `name` is the instruction's snake_case name, or the event's or account's type name.
 */
export function anchorDiscriminator(namespace: AnchorNamespace, name: string): Uint8Array {
  return sha256(utf8ToBytes(`${namespace}:${name}`)).slice(0, 8);
}

/**
 * Anchor's `EVENT_IX_TAG` (0x1d9acb512ea545e4, the big-endian reading of
 * sha256(`anchor:event`)[..8]) little-endian: the first 8 bytes of the data of an `emit_cpi!`
 * self-invocation (anchor-lang `event::EVENT_IX_TAG_LE`).
 */
export const EVENT_IX_TAG = Uint8Array.from([0xe4, 0x45, 0xa5, 0x2e, 0x51, 0xcb, 0x9a, 0x1d]);

/** True when `data` starts with `prefix` (byte for byte). */
export function startsWith(data: Uint8Array, prefix: Uint8Array): boolean {
  if (data.length < prefix.length) return false;
  for (let i = 0; i < prefix.length; i++) if (data[i] !== prefix[i]) return false;
  return true;
}
