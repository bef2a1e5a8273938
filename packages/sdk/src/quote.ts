/**
 * Quotes verified locally before anything is signed or sent (docs/api.md "ECDSA quote",
 * "Ed25519 quote" and "Routes"): the ECDSA digest of the origin's packing must recover the pinned
 * signer address, the Ed25519 signature must verify over the BCS message rebuilt from the quoted
 * fields with the pinned public key, the quote must answer the route asked, and its deadline must
 * leave time to send the transaction.
 */
import type { EcdsaQuote, Ed25519Quote } from '@ctss/domain-types';
import { ed25519 } from '@noble/curves/ed25519.js';
import {
  bytesToHex,
  encodePacked,
  hexToBytes,
  isAddressEqual,
  keccak256,
  recoverAddress,
  type Address,
  type Hex,
} from 'viem';
import { QuoteRefusedError, TransferInputError } from './errors.js';
import type { GasQuoteClient, QuoteRequest, SdkRouteInfo } from './gas-quote-client.js';
import { familyOf } from './recipient.js';

/** How an EVM origin packs the quote digest (docs/api.md "ECDSA quote"). */
export type QuotePacking = 'spec' | 'compact';

/** The signer identities quotes are checked against (as `/routes` `signers` carries them). */
export interface SignerIdentities {
  /** The ECDSA quote signer's address (EVM origins). */
  readonly ecdsaAddress?: Address;
  /** The Ed25519 quote signer's 32-byte public key, 0x hex (Solana, Sui, Aptos origins). */
  readonly ed25519PublicKey?: Hex;
}

interface QuoteFields extends QuoteRequest {
  /** Relayer fee: USDC base units, or origin native smallest units (wei, lamports) when `isNative`. */
  readonly fee: bigint;
  /** UNIX seconds after which the contract refuses the quote. */
  readonly deadline: bigint;
  /** The route as `/routes` describes it, when it was read. */
  readonly route?: SdkRouteInfo;
}

/** A verified ECDSA quote (EVM origin). */
export interface EcdsaVerifiedQuote extends QuoteFields {
  readonly scheme: 'ecdsa';
  /** 65 bytes `r || s || v`. */
  readonly signature: Hex;
  /** The address the signature recovers to (the pinned signer). */
  readonly signer: Address;
  readonly packing: QuotePacking;
}

/** A verified Ed25519 quote (Solana, Sui or Aptos origin). */
export interface Ed25519VerifiedQuote extends QuoteFields {
  readonly scheme: 'ed25519';
  /** 64-byte signature. */
  readonly signature: Hex;
  /** The signed BCS message. */
  readonly message: Hex;
  /** The signer's 32-byte public key (the pinned one). */
  readonly publicKey: Hex;
}

/** A quote that passed {@link verifyEcdsaQuote} or {@link verifyEd25519Quote}. */
export type VerifiedQuote = EcdsaVerifiedQuote | Ed25519VerifiedQuote;

/** Options of the verification. */
export interface VerifyOptions {
  /** Current time in ms (default `Date.now`). */
  readonly now?: () => number;
  /** Seconds the quote must still be valid for (default 15): time to sign and mine the transfer. */
  readonly minValiditySeconds?: number;
  /** The route info to attach to the result. */
  readonly route?: SdkRouteInfo;
}

const U64 = 1n << 64n;
const U128 = 1n << 128n;

function checkDeadline(deadline: bigint, options: VerifyOptions): void {
  const now = BigInt(Math.floor((options.now ?? Date.now)() / 1000));
  const margin = BigInt(options.minValiditySeconds ?? 15);
  if (deadline <= now) {
    throw new QuoteRefusedError('EXPIRED', `deadline ${deadline} has passed (now ${now})`);
  }
  if (deadline - now < margin) {
    throw new QuoteRefusedError(
      'EXPIRED',
      `deadline ${deadline} is less than ${margin} s away (now ${now})`,
    );
  }
}

/**
 * The digest an ECDSA quote signs: keccak256 of `abi.encodePacked(uint32 localDomain, uint32
 * destinationDomain, fee, deadline, bool isNative, uint8 cctpVersion)`, fee/deadline `uint128`/
 * `uint64` for `compact` (what the deployed CashmereCCTP rebuilds) or `uint256`/`uint256` for
 * `spec`.
 *
 * @throws {QuoteRefusedError} `FIELD_MISMATCH` when fee or deadline do not fit the packing.
 */
export function ecdsaQuoteDigest(
  fields: Pick<
    QuoteFields,
    'localDomain' | 'destinationDomain' | 'fee' | 'deadline' | 'isNative' | 'version'
  >,
  packing: QuotePacking,
): Hex {
  const { localDomain, destinationDomain, fee, deadline, isNative, version } = fields;
  if (packing === 'compact') {
    if (fee >= U128 || deadline >= U64) {
      throw new QuoteRefusedError(
        'FIELD_MISMATCH',
        'fee or deadline exceeds the contract field width',
      );
    }
    return keccak256(
      encodePacked(
        ['uint32', 'uint32', 'uint128', 'uint64', 'bool', 'uint8'],
        [localDomain, destinationDomain, fee, deadline, isNative, version],
      ),
    );
  }
  return keccak256(
    encodePacked(
      ['uint32', 'uint32', 'uint256', 'uint256', 'bool', 'uint8'],
      [localDomain, destinationDomain, fee, deadline, isNative, version],
    ),
  );
}

/**
 * Verifies an ECDSA quote answer for `request` against `signer`.
 *
 * @returns the quote with bigint fee and deadline.
 * @throws {QuoteRefusedError} `FIELD_MISMATCH` (another version or fee currency than asked),
 *   `BAD_SIGNATURE` (not a recoverable signature), `WRONG_SIGNER` (recovers to another address:
 *   the fields were altered or another key signed), `EXPIRED`.
 */
export async function verifyEcdsaQuote(
  raw: EcdsaQuote,
  request: QuoteRequest,
  signer: Address,
  packing: QuotePacking,
  options: VerifyOptions = {},
): Promise<EcdsaVerifiedQuote> {
  if (raw.cctpVersion !== request.version || raw.isNative !== request.isNative) {
    throw new QuoteRefusedError(
      'FIELD_MISMATCH',
      `asked v${request.version} isNative=${request.isNative}, got v${raw.cctpVersion} isNative=${raw.isNative}`,
    );
  }
  const fee = BigInt(raw.fee);
  const deadline = BigInt(raw.deadline);
  const digest = ecdsaQuoteDigest({ ...request, fee, deadline }, packing);
  let recovered: Address;
  try {
    recovered = await recoverAddress({ hash: digest, signature: raw.signature as Hex });
  } catch (cause) {
    throw new QuoteRefusedError(
      'BAD_SIGNATURE',
      `signature does not recover: ${(cause as Error).message.split('\n')[0]}`,
    );
  }
  if (!isAddressEqual(recovered, signer)) {
    throw new QuoteRefusedError(
      'WRONG_SIGNER',
      `signature recovers ${recovered}, not the pinned signer ${signer} (altered fields or another key)`,
    );
  }
  checkDeadline(deadline, options);
  return {
    scheme: 'ecdsa',
    ...request,
    fee,
    deadline,
    signature: raw.signature as Hex,
    signer: recovered,
    packing,
    ...(options.route ? { route: options.route } : {}),
  };
}

function le(value: bigint, bytes: number): number[] {
  const out: number[] = [];
  for (let i = 0; i < bytes; i++) out.push(Number((value >> BigInt(8 * i)) & 0xffn));
  return out;
}

/**
 * The BCS message an Ed25519 quote signs (docs/api.md "Ed25519 quote"): `u8 version`,
 * `u32 localDomain`, `u32 destinationDomain`, `u64 fee`, `u64 deadline`, `bool isNative`, all
 * little-endian (26 bytes).
 *
 * @throws {QuoteRefusedError} `FIELD_MISMATCH` when fee or deadline exceed u64.
 */
export function ed25519QuoteMessage(
  fields: Pick<
    QuoteFields,
    'localDomain' | 'destinationDomain' | 'fee' | 'deadline' | 'isNative' | 'version'
  >,
): Uint8Array {
  if (fields.fee >= U64 || fields.deadline >= U64 || fields.fee < 0n || fields.deadline < 0n) {
    throw new QuoteRefusedError('FIELD_MISMATCH', 'fee or deadline exceeds u64');
  }
  return Uint8Array.from([
    fields.version,
    ...le(BigInt(fields.localDomain), 4),
    ...le(BigInt(fields.destinationDomain), 4),
    ...le(fields.fee, 8),
    ...le(fields.deadline, 8),
    fields.isNative ? 1 : 0,
  ]);
}

/**
 * Verifies an Ed25519 quote answer for `request` against the pinned `publicKey` (strict RFC 8032
 * verification, as Solana's Ed25519 program does).
 *
 * @throws {QuoteRefusedError} `FIELD_MISMATCH` (the message is not the one rebuilt from the
 *   request and the quoted fee/deadline), `WRONG_SIGNER` (another public key), `BAD_SIGNATURE`,
 *   `EXPIRED`.
 */
export function verifyEd25519Quote(
  raw: Ed25519Quote,
  request: QuoteRequest,
  publicKey: Hex,
  options: VerifyOptions = {},
): Ed25519VerifiedQuote {
  const fee = BigInt(raw.fee);
  const deadline = BigInt(raw.deadline);
  if (
    raw.isNative !== request.isNative ||
    Number(raw.destinationDomain) !== request.destinationDomain ||
    (raw.version ?? 1) !== request.version
  ) {
    throw new QuoteRefusedError(
      'FIELD_MISMATCH',
      'the quote answers another route, version or fee currency',
    );
  }
  const expected = ed25519QuoteMessage({ ...request, fee, deadline });
  if (bytesToHex(expected) !== raw.message.toLowerCase()) {
    throw new QuoteRefusedError(
      'FIELD_MISMATCH',
      `signed message ${raw.message} is not ${bytesToHex(expected)}`,
    );
  }
  if (raw.publicKey.toLowerCase() !== publicKey.toLowerCase()) {
    throw new QuoteRefusedError(
      'WRONG_SIGNER',
      `signed by ${raw.publicKey}, not the pinned ${publicKey}`,
    );
  }
  let ok: boolean;
  try {
    ok = ed25519.verify(hexToBytes(raw.signature as Hex), expected, hexToBytes(publicKey), {
      zip215: false,
    });
  } catch {
    ok = false;
  }
  if (!ok) throw new QuoteRefusedError('BAD_SIGNATURE', 'Ed25519 signature does not verify');
  checkDeadline(deadline, options);
  return {
    scheme: 'ed25519',
    ...request,
    fee,
    deadline,
    signature: raw.signature as Hex,
    message: raw.message as Hex,
    publicKey: raw.publicKey as Hex,
    ...(options.route ? { route: options.route } : {}),
  };
}

/** Options of {@link getQuote}. */
export interface GetQuoteOptions extends Omit<VerifyOptions, 'route'> {
  /** Signer identities to check against; absent ones are taken from `/routes`. */
  readonly signers?: SignerIdentities;
  /** ECDSA packing of the origin (default: `/routes` `ecdsaPacking`, else `compact`). */
  readonly packing?: QuotePacking;
  readonly signal?: AbortSignal;
}

/**
 * Fetches and verifies a quote for `request`: reads the route from `/routes` (versions offered,
 * packing, signer identities, contract fee), fetches the quote from the endpoint of the origin's
 * scheme, and verifies it locally.
 *
 * @returns the verified quote, with the route attached.
 * @throws {TransferInputError} when the route does not offer `request.version`.
 * @throws {QuoteRefusedError} when verification fails (see {@link verifyEcdsaQuote}) or no signer
 *   identity is known (`NO_SIGNER`).
 * @throws {ApiProblemError} / {@link ResponseValidationError} from the API calls.
 */
export async function getQuote(
  gas: GasQuoteClient,
  request: QuoteRequest,
  options: GetQuoteOptions = {},
): Promise<VerifiedQuote> {
  const call = options.signal ? { signal: options.signal } : {};
  const routes = await gas.routes(
    { localDomain: request.localDomain, destinationDomain: request.destinationDomain },
    call,
  );
  const route = routes.routes.find(
    (r) =>
      r.localDomain === request.localDomain && r.destinationDomain === request.destinationDomain,
  );
  if (!route) {
    throw new TransferInputError(
      'route',
      `no route ${request.localDomain} -> ${request.destinationDomain}`,
    );
  }
  if (!route.cctpVersions.includes(request.version)) {
    throw new TransferInputError(
      'version',
      `route offers CCTP ${route.cctpVersions.join(', ')}, not ${request.version}`,
    );
  }
  const verify = { ...options, route };
  if (familyOf(request.localDomain) === 'evm') {
    const signer =
      options.signers?.ecdsaAddress ?? (routes.signers.ecdsaAddress as Address | undefined);
    if (!signer)
      throw new QuoteRefusedError('NO_SIGNER', 'no ECDSA signer address to verify against');
    const raw = await gas.ecdsaQuote(request, call);
    return verifyEcdsaQuote(
      raw,
      request,
      signer,
      options.packing ?? route.ecdsaPacking ?? 'compact',
      verify,
    );
  }
  const publicKey =
    options.signers?.ed25519PublicKey ?? (routes.signers.ed25519PublicKey as Hex | undefined);
  if (!publicKey)
    throw new QuoteRefusedError('NO_SIGNER', 'no Ed25519 public key to verify against');
  const raw = await gas.ed25519Quote(request, call);
  return verifyEd25519Quote(raw, request, publicKey, verify);
}
