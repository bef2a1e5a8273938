/**
 * The `recipient` and `solanaOwner` words of a transfer, per destination family (docs/api.md
 * "Using a quote on-chain"): an EVM address left-padded to 32 bytes; into Solana the wallet's
 * associated token account for USDC as `recipient` and the wallet itself as `solanaOwner`; a Sui or
 * Aptos address as its 32 bytes. `solanaOwner` is zero unless the destination is Solana.
 */
import { DEFAULT_CHAINS, type VmFamily } from '@ctss/domain-types';
import { ed25519 } from '@noble/curves/ed25519.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { concatBytes, utf8ToBytes } from '@noble/hashes/utils.js';
import { base58 } from '@scure/base';
import { bytesToHex, isAddress, type Hex } from 'viem';
import {
  SOLANA_ASSOCIATED_TOKEN_PROGRAM_ID,
  SOLANA_TOKEN_PROGRAM_ID,
  SOLANA_USDC_MINT,
} from './addresses.js';
import { TransferInputError } from './errors.js';

/** 32 zero bytes as hex. */
export const ZERO_BYTES32: Hex = `0x${'0'.repeat(64)}`;

/** The two 32-byte words a transfer carries for its recipient. */
export interface EncodedRecipient {
  /** The mint recipient on the destination: 32 bytes, 0x hex. */
  readonly recipient: Hex;
  /** The Solana wallet owning `recipient` (Solana destinations), else {@link ZERO_BYTES32}. */
  readonly solanaOwner: Hex;
}

/** Options of {@link encodeRecipient}. */
export interface RecipientOptions {
  /** Solana USDC mint (base58) the associated token account is derived for (default mainnet's). */
  readonly solanaUsdcMint?: string;
  /** The family of the destination when it is not a served CCTP domain. */
  readonly family?: VmFamily;
}

/** The VM family of a served CCTP domain. @throws {TransferInputError} for an unknown domain. */
export function familyOf(domain: number): VmFamily {
  const chain = DEFAULT_CHAINS.find((c) => c.domain === domain);
  if (!chain) throw new TransferInputError('destinationDomain', `domain ${domain} is not served`);
  return chain.vm;
}

function base58Key(field: string, value: string): Uint8Array {
  let bytes: Uint8Array;
  try {
    bytes = base58.decode(value);
  } catch {
    throw new TransferInputError(field, `not a base58 Solana address: ${value}`);
  }
  if (bytes.length !== 32)
    throw new TransferInputError(field, `must decode to 32 bytes, got ${bytes.length}`);
  return bytes;
}

/** Whether 32 bytes are an ed25519 point (Solana's `is_on_curve`, lenient decoding). */
function isOnCurve(bytes: Uint8Array): boolean {
  try {
    ed25519.Point.fromBytes(bytes, true);
    return true;
  } catch {
    return false;
  }
}

/**
 * Solana `find_program_address`: the first bump (255 down to 0) for which
 * sha256(seeds || bump || programId || "ProgramDerivedAddress") is off the curve.
 *
 * @returns the 32-byte address.
 */
export function findProgramAddress(
  seeds: readonly Uint8Array[],
  programId: Uint8Array,
): Uint8Array {
  const marker = utf8ToBytes('ProgramDerivedAddress');
  for (let bump = 255; bump >= 0; bump--) {
    const hash = sha256(concatBytes(...seeds, Uint8Array.of(bump), programId, marker));
    if (!isOnCurve(hash)) return hash;
  }
  throw new Error('no viable bump seed');
}

/**
 * The associated token account of `owner` for `mint` (spl-associated-token-account
 * `get_associated_token_address`: seeds owner, token program, mint; ATA program).
 *
 * @param owner base58 wallet address. @param mint base58 mint (default mainnet USDC).
 * @returns the account as base58.
 * @throws {TransferInputError} when an address is not 32 bytes of base58.
 */
export function associatedTokenAddress(owner: string, mint: string = SOLANA_USDC_MINT): string {
  const seeds = [
    base58Key('recipient', owner),
    base58.decode(SOLANA_TOKEN_PROGRAM_ID),
    base58Key('solanaUsdcMint', mint),
  ];
  return base58.encode(
    findProgramAddress(seeds, base58.decode(SOLANA_ASSOCIATED_TOKEN_PROGRAM_ID)),
  );
}

/**
 * Encodes `recipient` for a transfer into `destinationDomain`.
 *
 * @param recipient EVM: a 0x address; Solana: the base58 wallet (its USDC associated token
 *   account is derived); Sui/Aptos: a 0x address of at most 32 bytes.
 * @throws {TransferInputError} when the address does not match the destination's family.
 * @example encodeRecipient(3, '0x00000000000000000000000000000000000c0de2')
 */
export function encodeRecipient(
  destinationDomain: number,
  recipient: string,
  options: RecipientOptions = {},
): EncodedRecipient {
  const family = options.family ?? familyOf(destinationDomain);
  if (typeof recipient !== 'string') throw new TransferInputError('recipient', 'must be a string');
  switch (family) {
    case 'evm': {
      if (!isAddress(recipient, { strict: false })) {
        throw new TransferInputError('recipient', `not an EVM address: ${recipient}`);
      }
      return {
        recipient: `0x${recipient.slice(2).toLowerCase().padStart(64, '0')}`,
        solanaOwner: ZERO_BYTES32,
      };
    }
    case 'solana': {
      const owner = base58Key('recipient', recipient);
      const ata = base58.decode(associatedTokenAddress(recipient, options.solanaUsdcMint));
      return { recipient: bytesToHex(ata), solanaOwner: bytesToHex(owner) };
    }
    case 'sui':
    case 'aptos': {
      if (!/^0x[0-9a-fA-F]{1,64}$/.test(recipient)) {
        throw new TransferInputError(
          'recipient',
          `not a ${family} address (0x hex, at most 32 bytes): ${recipient}`,
        );
      }
      return {
        recipient: `0x${recipient.slice(2).toLowerCase().padStart(64, '0')}`,
        solanaOwner: ZERO_BYTES32,
      };
    }
  }
}
