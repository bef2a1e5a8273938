/**
 * From one Solana transaction (`getTransaction`, `json` encoding) to transfer records and
 * destination receipts (docs/indexer.md "Solana"). Instructions are taken in execution order
 * (each top-level instruction, then its inner instructions) and matched one to one with the
 * `Program <id> invoke [n]` lines of the log, so every `Program data:` line is attributed to the
 * program that wrote it: a `TransferEvent` counts only when the configured transfer program
 * emitted it from its own `transfer` / `transfer_v2` instruction, a `MessageReceived` or
 * `MintAndWithdraw` only when it is an `emit_cpi!` self-invocation of the configured Circle
 * program. A failed transaction (`meta.err` set) yields nothing.
 */
import {
  getAddressCodec,
  getBase58Codec,
  getBase64Codec,
  type ReadonlyUint8Array,
} from '@solana/kit';
import { keccak256, toHex } from 'viem';
import { addressFromBytes32, isZero32, vmOfDomain } from '../addresses.js';
import type { TransferRow } from '../decode.js';
import type { ReceivedRow } from '../store.js';
import {
  DISCRIMINATORS,
  EVENT_IX_TAG,
  messageReceivedV1Codec,
  messageReceivedV2Codec,
  mintAndWithdrawV1Codec,
  mintAndWithdrawV2Codec,
  startsWith,
  transferArgsCodec,
  transferEventCodec,
  transferV2ArgsCodec,
  type MintAndWithdrawV1Event,
  type MintAndWithdrawV2Event,
} from '@ctss/solana-layouts';

/** A compiled instruction as `getTransaction` (`json`) returns it. */
interface RawInstruction {
  readonly programIdIndex: number | bigint;
  readonly accounts: readonly (number | bigint)[];
  /** base58 */
  readonly data: string;
}

/** The fields of a `getTransaction` answer (`json` encoding) the decoder reads. */
export interface SolanaTransaction {
  readonly slot: number | bigint;
  /** UNIX seconds; null when the node has no time for the slot. */
  readonly blockTime: number | bigint | null;
  readonly meta: {
    readonly err: unknown;
    readonly logMessages?: readonly string[] | null;
    readonly innerInstructions?:
      | readonly {
          readonly index: number | bigint;
          readonly instructions: readonly RawInstruction[];
        }[]
      | null;
    readonly loadedAddresses?: {
      readonly writable: readonly string[];
      readonly readonly: readonly string[];
    } | null;
  } | null;
  readonly transaction: {
    readonly signatures: readonly string[];
    readonly message: {
      readonly accountKeys: readonly string[];
      readonly instructions: readonly RawInstruction[];
    };
  };
}

/** The programs whose events count (base58 addresses). */
export interface SolanaPrograms {
  readonly transferPrograms: ReadonlySet<string>;
  readonly messageTransmitterV1: string;
  readonly messageTransmitterV2: string;
  readonly tokenMessengerMinterV1: string;
  readonly tokenMessengerMinterV2: string;
}

/** An instruction in execution order, with the log data its program wrote while running it. */
interface Invocation {
  readonly program: string;
  readonly accounts: readonly string[];
  readonly data: Uint8Array;
  readonly logData: Uint8Array[];
}

const base58 = getBase58Codec();
const base64 = getBase64Codec();
const addressCodec = getAddressCodec();

/**
 * The transaction's instructions in execution order, each with the `Program data:` lines its
 * program logged while it was the running frame.
 *
 * @throws Error when the log's invocations do not follow the instructions (not a node's answer).
 */
function invocations(tx: SolanaTransaction): Invocation[] {
  const keys = [
    ...tx.transaction.message.accountKeys,
    ...(tx.meta?.loadedAddresses?.writable ?? []),
    ...(tx.meta?.loadedAddresses?.readonly ?? []),
  ];
  const key = (i: number | bigint) => keys[Number(i)] ?? '';
  const inner = new Map<number, readonly RawInstruction[]>();
  for (const group of tx.meta?.innerInstructions ?? []) {
    inner.set(Number(group.index), group.instructions);
  }
  const ordered: Invocation[] = [];
  tx.transaction.message.instructions.forEach((ix, i) => {
    for (const one of [ix, ...(inner.get(i) ?? [])]) {
      ordered.push({
        program: key(one.programIdIndex),
        accounts: one.accounts.map(key),
        data: Uint8Array.from(base58.encode(one.data)),
        logData: [],
      });
    }
  });
  const stack: Invocation[] = [];
  let next = 0;
  for (const line of tx.meta?.logMessages ?? []) {
    const invoke = /^Program (\w+) invoke \[\d+\]$/.exec(line);
    if (invoke) {
      const ix = ordered[next++];
      if (!ix || ix.program !== invoke[1]) {
        throw new Error(
          `log invocation ${next} of ${tx.transaction.signatures[0]} is not its instruction`,
        );
      }
      stack.push(ix);
      continue;
    }
    if (/^Program \w+ (success|failed)/.test(line)) {
      stack.pop();
      continue;
    }
    const data = /^Program data: (.+)$/.exec(line);
    if (data && stack.length > 0) {
      // sol_log_data writes its fields base64-encoded, separated by spaces; emit! writes one.
      stack[stack.length - 1]!.logData.push(
        Uint8Array.from(base64.encode(data[1]!.split(' ')[0]!)),
      );
    }
  }
  return ordered;
}

/** `bytes` as 0x hex, lower case (a decoded byte field is read-only; viem takes a Uint8Array). */
const hex = (bytes: ReadonlyUint8Array) => toHex(Uint8Array.from(bytes));

/** What the origin decoder knows of the source chain. */
export interface SolanaOrigin {
  readonly network: 'mainnet' | 'testnet';
  /** 5 on mainnet and devnet. */
  readonly domain: number;
  readonly programs: SolanaPrograms;
}

/** A transfer record with the account holding its CCTP message (read separately). */
export interface SolanaTransfer {
  readonly row: TransferRow;
  /** The `MessageSent` account (base58). */
  readonly messageAccount: string;
}

/**
 * The transfer records of one transaction: one per `TransferEvent` the transfer program logged
 * from its own `transfer` / `transfer_v2` instruction (docs/indexer.md "Solana").
 *
 * @param confirmed whether the transaction was read at `finalized` commitment.
 * @throws Error when the log does not follow the instructions.
 */
export function decodeSolanaTransfers(
  tx: SolanaTransaction,
  origin: SolanaOrigin,
  confirmed: boolean,
): SolanaTransfer[] {
  if (!tx.meta || tx.meta.err !== null) return [];
  const signature = tx.transaction.signatures[0]!;
  const slot = BigInt(tx.slot);
  const createdAt = new Date(Number(tx.blockTime ?? 0) * 1000);
  const out: SolanaTransfer[] = [];
  for (const ix of invocations(tx)) {
    if (!origin.programs.transferPrograms.has(ix.program)) continue;
    const v2 = startsWith(ix.data, DISCRIMINATORS.transferV2);
    if (!v2 && !startsWith(ix.data, DISCRIMINATORS.transfer)) continue;
    const argBytes = ix.data.subarray(8);
    const v2Args = v2 ? transferV2ArgsCodec.decode(argBytes) : undefined;
    const args = v2Args ?? transferArgsCodec.decode(argBytes);
    const eventData = ix.logData.find((d) => startsWith(d, DISCRIMINATORS.transferEvent));
    if (!eventData) continue;
    const event = transferEventCodec.decode(eventData.subarray(8));
    const version: 1 | 2 = event.cctp_nonce === -1n ? 1 : 2;
    const destination = event.destination_domain;
    const vm = vmOfDomain(destination);
    const owner = hex(event.solana_owner);
    const recipient =
      vm === 'solana' && !isZero32(owner)
        ? addressFromBytes32(owner, vm)
        : addressFromBytes32(hex(event.recipient), vm);
    const deposit = args.usdc_amount;
    out.push({
      messageAccount: event.cctp_message,
      row: {
        network: origin.network,
        source_domain: origin.domain,
        source_tx_hash: signature,
        log_index: out.length,
        block_number: slot,
        block_hash: `slot:${slot}`,
        destination_domain: destination,
        sender: event.user,
        recipient,
        deposit_amount: deposit,
        receive_amount: event.amount,
        relayer_fee: deposit > event.amount ? deposit - event.amount : 0n,
        gas_drop_amount: event.gas_drop_amount,
        is_gas_drop_in_native: event.fee_is_native,
        max_fee: version === 2 ? (v2Args?.max_fee ?? 0n) : 0n,
        version,
        cctp_nonce: null,
        message_hash: null,
        min_finality_threshold: version === 2 ? (v2Args?.min_finality_threshold ?? null) : null,
        confirmed,
        created_at: createdAt,
      },
    });
  }
  return out;
}

/**
 * Fills a v1 record's nonce and message hash from its `MessageSent` message (the nonce is a
 * uint64 at byte 12; docs/indexer.md "Events"). v2 messages carry nonce 0 at the source: Iris
 * assigns it, so v2 records keep both null until attested.
 */
export function withMessage(
  row: TransferRow,
  message: ReadonlyUint8Array | undefined,
): TransferRow {
  if (!message || row.version !== 1 || message.length < 20) return row;
  let nonce = 0n;
  for (let i = 12; i < 20; i++) nonce = (nonce << 8n) | BigInt(message[i]!);
  return { ...row, cctp_nonce: nonce.toString(), message_hash: keccak256(hex(message)) };
}

const uint = (bytes: ReadonlyUint8Array, at: number, size: number): bigint => {
  let value = 0n;
  for (let i = at; i < at + size; i++) value = (value << 8n) | BigInt(bytes[i] ?? 0);
  return value;
};

/**
 * The receipts of one destination transaction: one per `MessageReceived` of a configured
 * MessageTransmitter, with the amount of the message's own mint: the nearest `MintAndWithdraw`
 * of the same version before it (after the previous `MessageReceived`) whose recipient and
 * amount are the burn body's (mintRecipient @36, amount @68, v2 feeExecuted @164; v2: amount
 * less the fee, with `fee_collected` = the fee).
 *
 * @throws Error when the log does not follow the instructions.
 */
export function decodeSolanaReceived(
  tx: SolanaTransaction,
  destination: { readonly network: 'mainnet' | 'testnet'; readonly domain: number },
  programs: SolanaPrograms,
): ReceivedRow[] {
  if (!tx.meta || tx.meta.err !== null) return [];
  const signature = tx.transaction.signatures[0]!;
  const slot = BigInt(tx.slot);
  const receivedAt = new Date(Number(tx.blockTime ?? 0) * 1000);
  const rows: ReceivedRow[] = [];
  let mints: (
    { version: 1; event: MintAndWithdrawV1Event } | { version: 2; event: MintAndWithdrawV2Event }
  )[] = [];
  for (const ix of invocations(tx)) {
    if (!startsWith(ix.data, EVENT_IX_TAG)) continue;
    const event = ix.data.subarray(8);
    const body = event.subarray(8);
    if (startsWith(event, DISCRIMINATORS.mintAndWithdraw)) {
      if (ix.program === programs.tokenMessengerMinterV1) {
        mints.push({ version: 1, event: mintAndWithdrawV1Codec.decode(body) });
      } else if (ix.program === programs.tokenMessengerMinterV2) {
        mints.push({ version: 2, event: mintAndWithdrawV2Codec.decode(body) });
      }
      continue;
    }
    if (!startsWith(event, DISCRIMINATORS.messageReceived)) continue;
    const version: 1 | 2 | undefined =
      ix.program === programs.messageTransmitterV1
        ? 1
        : ix.program === programs.messageTransmitterV2
          ? 2
          : undefined;
    if (!version) continue;
    const received =
      version === 1 ? messageReceivedV1Codec.decode(body) : messageReceivedV2Codec.decode(body);
    const burn = received.message_body;
    const burnOk = burn.length >= (version === 1 ? 132 : 228);
    const recipient = burnOk ? addressCodec.decode(burn.subarray(36, 68)) : undefined;
    const amount = burnOk ? uint(burn, 68, 32) : 0n;
    const fee = burnOk && version === 2 ? uint(burn, 164, 32) : 0n;
    const mint = burnOk
      ? [...mints]
          .reverse()
          .find(
            (m) =>
              m.version === version &&
              m.event.mint_recipient === recipient &&
              m.event.amount === amount - fee &&
              (m.version === 2 ? m.event.fee_collected : 0n) === fee,
          )
      : undefined;
    mints = [];
    rows.push({
      network: destination.network,
      destination_domain: destination.domain,
      source_domain: received.source_domain,
      version,
      // v1: a u64 (decimal); v2: bytes32 (hex).
      nonce: typeof received.nonce === 'bigint' ? String(received.nonce) : hex(received.nonce),
      tx_hash: signature,
      log_index: rows.length,
      block_number: slot,
      block_hash: `slot:${slot}`,
      mint_amount: mint ? mint.event.amount : null,
      fee_executed: mint && version === 2 ? fee : null,
      received_at: receivedAt,
    });
  }
  return rows;
}
