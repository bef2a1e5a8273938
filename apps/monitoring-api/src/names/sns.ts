/**
 * Solana Name Service (SNS, Bonfida) `.sol` names: account derivation and owner lookup over
 * Solana JSON-RPC. Derivation as in @bonfida/spl-name-service `getHashedNameSync`,
 * `getNameAccountKeySync` and `getDomainKeySync`:
 *   hashed = sha256("SPL Name Service" + name)
 *   key    = PDA([hashed, class or 32 zero bytes, parent or 32 zero bytes], name program)
 * with parent = the `.sol` TLD account for `name.sol`, and, for `sub.name.sol`, the hashed name
 * "\0sub" under parent = key of `name.sol`. The owner is bytes 32..64 of the name registry
 * header (parent_name 32 | owner 32 | class 32 | data).
 */
import { sha256 } from '@noble/hashes/sha2.js';
import { utf8ToBytes } from '@noble/hashes/utils.js';
import { base58, base64 } from '@scure/base';
import { findProgramAddress } from './solana-pda.js';

/** SPL Name Service program id (mainnet). */
export const NAME_PROGRAM_ID = 'namesLPneVptA9Z5rqUDD9tMTWEJwofgaYwp8cawRkX';
/** Name account of the `.sol` top-level domain (parent of every `.sol` name). */
export const SOL_TLD_ROOT = '58PwtjSDuFHuUkYjH9BYnnQKHfwo9reZhC2zMJv9JPkx';
/** Prefix hashed in front of every name (spl-name-service `HASH_PREFIX`). */
const HASH_PREFIX = 'SPL Name Service';
/** Size of the name registry header: parent_name, owner, class (3 x 32 bytes). */
const NAME_REGISTRY_HEADER_SIZE = 96;

const ZERO_KEY = new Uint8Array(32);

/** sha256(HASH_PREFIX + name), the 32-byte seed of a name account. */
function getHashedName(name: string): Uint8Array {
  return sha256(utf8ToBytes(HASH_PREFIX + name));
}

/**
 * Address of a name account (base58), from its hashed name, class and parent (both default to
 * 32 zero bytes, as in `getNameAccountKeySync`).
 */
function getNameAccountKey(
  hashedName: Uint8Array,
  nameClass?: Uint8Array,
  nameParent?: Uint8Array,
): string {
  const { address } = findProgramAddress(
    [hashedName, nameClass ?? ZERO_KEY, nameParent ?? ZERO_KEY],
    base58.decode(NAME_PROGRAM_ID),
  );
  return base58.encode(address);
}

/**
 * Name account of a `.sol` domain (`bonfida.sol`) or a first-level subdomain (`dex.bonfida.sol`).
 * The input must already be lower case and end in `.sol`.
 *
 * @throws RangeError for deeper names or empty labels.
 */
export function getSolDomainKey(name: string): string {
  const labels = name.slice(0, -'.sol'.length).split('.');
  if (labels.some((label) => label.length === 0) || labels.length > 2) {
    throw new RangeError('a .sol name has one or two labels before .sol');
  }
  const root = base58.decode(SOL_TLD_ROOT);
  if (labels.length === 1)
    return getNameAccountKey(getHashedName(labels[0] ?? ''), undefined, root);
  const [sub = '', domain = ''] = labels;
  const parent = base58.decode(getNameAccountKey(getHashedName(domain), undefined, root));
  return getNameAccountKey(getHashedName(`\0${sub}`), undefined, parent);
}

/**
 * Reads the owner (bytes 32..64) out of base64 name-registry account data.
 *
 * @returns the owner as base58, or undefined when the data is shorter than the header or the
 *          owner is the all-zero key (a name without an owner does not resolve).
 */
export function readNameOwner(dataBase64: string): string | undefined {
  const data = base64.decode(dataBase64);
  if (data.length < NAME_REGISTRY_HEADER_SIZE) return undefined;
  const owner = data.subarray(32, 64);
  if (owner.every((b) => b === 0)) return undefined;
  return base58.encode(owner);
}
