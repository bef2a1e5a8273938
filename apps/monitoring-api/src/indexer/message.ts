/**
 * CCTP message layouts (docs/indexer.md "Events"), the bytes of `MessageSent(bytes message)`.
 *
 * v1 message: version uint32 @0, sourceDomain uint32 @4, destinationDomain uint32 @8,
 * nonce uint64 @12, sender bytes32 @20, recipient bytes32 @52, destinationCaller bytes32 @84,
 * messageBody @116. v1 burn message (the body): version uint32 @0, burnToken bytes32 @4,
 * mintRecipient bytes32 @36, amount uint256 @68, messageSender bytes32 @100.
 *
 * v2 message: version uint32 @0, sourceDomain @4, destinationDomain @8, nonce bytes32 @12 (zero
 * at the source: Iris assigns it), sender @44, recipient @76, destinationCaller @108,
 * minFinalityThreshold uint32 @140, finalityThresholdExecuted uint32 @144, messageBody @148.
 * v2 burn message adds maxFee uint256 @132, feeExecuted @164, expirationBlock @196, hookData @228.
 */
import { hexToBytes, type Hex } from 'viem';

/** The fields of a CCTP message the indexer uses. */
export interface CctpMessage {
  /** Message format version: 0 for v1, 1 for v2 (as written by Circle's transmitters). */
  readonly version: number;
  readonly sourceDomain: number;
  readonly destinationDomain: number;
  /** v1: the uint64 nonce in decimal; v2: the bytes32 nonce as 0x hex (all zero at the source). */
  readonly nonce: string;
  /** The burn amount of the body, base units. */
  readonly amount: bigint;
}

const uint = (bytes: Uint8Array, at: number, size: number): bigint => {
  let value = 0n;
  for (let i = at; i < at + size; i++) value = (value << 8n) | BigInt(bytes[i] ?? 0);
  return value;
};

const hexOf = (bytes: Uint8Array, at: number, size: number): string =>
  `0x${Buffer.from(bytes.subarray(at, at + size)).toString('hex')}`;

/**
 * Parses a `MessageSent` payload of either layout; which one is told by `cctpVersion` (the
 * DepositForBurn seen beside it), not by the version field, which Circle may change.
 *
 * @throws RangeError when the message is shorter than its layout's fixed part.
 */
export function parseCctpMessage(message: Hex, cctpVersion: 1 | 2): CctpMessage {
  const bytes = hexToBytes(message);
  const bodyAt = cctpVersion === 1 ? 116 : 148;
  if (bytes.length < bodyAt + 100) {
    throw new RangeError(`CCTP v${cctpVersion} message too short: ${bytes.length} bytes`);
  }
  return {
    version: Number(uint(bytes, 0, 4)),
    sourceDomain: Number(uint(bytes, 4, 4)),
    destinationDomain: Number(uint(bytes, 8, 4)),
    nonce: cctpVersion === 1 ? uint(bytes, 12, 8).toString() : hexOf(bytes, 12, 32),
    amount: uint(bytes, bodyAt + 68, 32),
  };
}

/** The fields of a CCTP burn message (the message body of a TokenMessenger) the indexer uses. */
export interface BurnBody {
  /** The mint recipient as an EVM address (last 20 bytes of `mintRecipient`), 0x lower case. */
  readonly mintRecipient: string;
  /** The burned amount, base units. */
  readonly amount: bigint;
  /** v2: Circle's fee executed (set by the attestation service), base units; v1: 0. */
  readonly feeExecuted: bigint;
}

/**
 * Parses a burn message body (v1: 132 bytes; v2: at least 228) as the destination's
 * `MessageReceived.messageBody` carries it.
 *
 * @returns undefined when the body is too short to be a burn message of that version (another
 *   kind of CCTP message).
 */
export function parseBurnBody(body: Hex, cctpVersion: 1 | 2): BurnBody | undefined {
  const bytes = hexToBytes(body);
  if (bytes.length < (cctpVersion === 1 ? 132 : 228)) return undefined;
  return {
    mintRecipient: hexOf(bytes, 48, 20),
    amount: uint(bytes, 68, 32),
    feeExecuted: cctpVersion === 1 ? 0n : uint(bytes, 164, 32),
  };
}
