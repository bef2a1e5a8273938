/**
 * The Aptos reader (docs/indexer.md "Sui and Aptos"): the Indexer GraphQL API's `events` table
 * filtered by `indexed_type` and a version range, ordered by `transaction_version`,
 * `event_index` and paged by that key; its `processor_status` of `events_processor` for the
 * head (the query shapes `@aptos-labs/ts-sdk` sends: `getEvents`, `getProcessorStatus`); and the
 * node's REST `GET /transactions/by_version/{version}` for a transfer's hash, time and the
 * `DepositForBurn` / `MessageSent` of the same transaction. Event data is the node's JSON of the
 * Move value: u64 / u256 as decimal strings, u32 as a number, `address` as `0x` hex (leading zeros
 * may be dropped), `vector<u8>` as `0x` hex. A version is final once committed.
 */
import type { Hex } from 'viem';
import { z } from 'zod';
import {
  messageOfNonce,
  type MoveReader,
  type MoveReceived,
  type MoveTransfer,
} from '../sui/move-source.js';
import type { AptosChainConfig } from './config.js';

/** The head query (ts-sdk `getProcessorStatus`). */
export const APTOS_HEAD_QUERY = `query ($processor: String!) {
  processor_status(where: { processor: { _eq: $processor } }) { last_success_version }
}`;

/** Events of one type in a version range after a (version, index) key. */
export const APTOS_EVENTS_QUERY = `query ($type: String!, $to: bigint!, $afterVersion: bigint!, $afterIndex: bigint!, $limit: Int!) {
  events(
    where: {
      indexed_type: { _eq: $type }
      transaction_version: { _lte: $to }
      _or: [
        { transaction_version: { _gt: $afterVersion } }
        { transaction_version: { _eq: $afterVersion }, event_index: { _gt: $afterIndex } }
      ]
    }
    order_by: [{ transaction_version: asc }, { event_index: asc }]
    limit: $limit
  ) {
    transaction_version
    event_index
    indexed_type
    data
  }
}`;

/** Thrown for a failed or unusable Aptos answer. */
class AptosReadError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'AptosReadError';
  }
}

const address = z
  .string()
  .regex(/^0x[0-9a-fA-F]{1,64}$/)
  .transform((v): Hex => `0x${v.slice(2).toLowerCase().padStart(64, '0')}`);
const u64 = z.union([z.string().regex(/^\d+$/), z.number().int().min(0)]).transform(BigInt);
const u32 = z.union([z.number().int().min(0), z.string().regex(/^\d+$/)]).transform(Number);
const bytes = z
  .string()
  .regex(/^0x([0-9a-fA-F]{2})*$/)
  .transform((v) => v.toLowerCase() as Hex);

const CashmereTransferData = z.object({
  destination_domain: u32,
  nonce: u64,
  recipient: address,
  solana_owner: address,
  user: address,
  amount: u64,
  gas_drop_amount: u64,
  fee_is_native: z.boolean(),
  cctp_nonce: u64,
});
const DepositForBurnData = z.object({ nonce: u64, amount: u64 });
const MessageSentData = z.object({ message: bytes });
const MessageReceivedData = z.object({ source_domain: u32, nonce: u64, message_body: bytes });

const EventRow = z.object({
  transaction_version: u64,
  event_index: u64,
  indexed_type: z.string(),
  data: z.unknown(),
});
type EventRowT = z.infer<typeof EventRow>;

const Transaction = z.object({
  version: u64,
  hash: z.string().regex(/^0x[0-9a-fA-F]{64}$/),
  /** Microseconds since the epoch. */
  timestamp: u64,
  success: z.boolean().optional(),
  events: z.array(z.object({ type: z.string(), data: z.unknown() })).default([]),
});
type TransactionT = z.infer<typeof Transaction>;

/** `0x<address>::module::Name` with the address as 32-byte hex. */
function typeKey(type: string): string {
  const m = /^0x([0-9a-fA-F]{1,64})::(.+)$/.exec(type);
  return m ? `0x${m[1]!.toLowerCase().padStart(64, '0')}::${m[2]}` : type;
}

/** A type string as the chain writes it: the address without leading zeros. */
function chainType(addr: string, rest: string): string {
  return `0x${addr.slice(2).replace(/^0+(?=.)/, '')}::${rest}`;
}

/** The reader of one Aptos chain. */
export class AptosReader implements MoveReader {
  /** Requests sent, GraphQL and REST (for tests and the bench). */
  requests = 0;

  constructor(private readonly config: AptosChainConfig) {}

  private async request(url: string, init?: RequestInit): Promise<unknown> {
    this.requests++;
    let res: Response;
    try {
      res = await fetch(url, {
        ...init,
        signal: AbortSignal.timeout(this.config.requestTimeoutMs),
      });
    } catch (error) {
      throw new AptosReadError(`Aptos unreachable: ${(error as Error).message}`);
    }
    if (!res.ok) {
      await res.body?.cancel();
      throw new AptosReadError(`Aptos answered ${res.status} for ${new URL(url).pathname}`);
    }
    return res.json();
  }

  private async graphql<T>(query: string, variables: Record<string, unknown>): Promise<T> {
    const body = (await this.request(this.config.indexerUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify({ query, variables }),
    })) as { data?: T | null; errors?: { message: string }[] };
    if (body.errors?.length) {
      throw new AptosReadError(`Aptos Indexer: ${body.errors.map((e) => e.message).join('; ')}`);
    }
    if (!body.data) throw new AptosReadError('Aptos Indexer answer without data');
    return body.data;
  }

  private async transaction(version: bigint): Promise<TransactionT> {
    const body = await this.request(`${this.config.restUrl}/transactions/by_version/${version}`);
    const parsed = Transaction.safeParse(body);
    if (!parsed.success) throw new AptosReadError(`transaction ${version}: unexpected shape`);
    return parsed.data;
  }

  async head(): Promise<bigint> {
    const data = await this.graphql<{ processor_status: { last_success_version: unknown }[] }>(
      APTOS_HEAD_QUERY,
      { processor: 'events_processor' },
    );
    const v = data.processor_status[0]?.last_success_version;
    if (v === undefined) throw new AptosReadError('no events_processor status');
    return u64.parse(v);
  }

  async positionAt(position: bigint): Promise<{ hash: string; time: Date }> {
    const tx = await this.transaction(position);
    return { hash: tx.hash.toLowerCase(), time: new Date(Number(tx.timestamp / 1000n)) };
  }

  /** Every event of `type` in versions `[from, to]`, page after page. */
  private async events(type: string, from: bigint, to: bigint): Promise<EventRowT[]> {
    const out: EventRowT[] = [];
    let after = { version: from - 1n, index: -1n };
    for (;;) {
      const data = await this.graphql<{ events: unknown[] }>(APTOS_EVENTS_QUERY, {
        type,
        to: to.toString(),
        afterVersion: after.version.toString(),
        afterIndex: after.index.toString(),
        limit: this.config.pageSize,
      });
      const rows = z.array(EventRow).safeParse(data.events);
      if (!rows.success) throw new AptosReadError('Aptos Indexer events: unexpected shape');
      out.push(...rows.data);
      const last = rows.data[rows.data.length - 1];
      if (!last || rows.data.length < this.config.pageSize) return out;
      after = { version: last.transaction_version, index: last.event_index };
    }
  }

  async transfers(from: bigint, to: bigint): Promise<MoveTransfer[]> {
    const burnType = `${this.config.tokenMessengerMinter}::token_messenger::DepositForBurn`;
    const sentType = `${this.config.messageTransmitter}::message_transmitter::MessageSent`;
    const out: MoveTransfer[] = [];
    for (const module of this.config.transferModules) {
      const rows = await this.events(chainType(module, 'transfer::CashmereTransfer'), from, to);
      const txs = new Map<bigint, TransactionT>();
      for (const v of new Set(rows.map((r) => r.transaction_version))) {
        txs.set(v, await this.transaction(v));
      }
      for (const row of rows) {
        const tx = txs.get(row.transaction_version)!;
        const parsed = CashmereTransferData.safeParse(row.data);
        if (!parsed.success) {
          throw new AptosReadError(`CashmereTransfer at ${row.transaction_version}: bad data`);
        }
        const event = parsed.data;
        let burned: bigint | undefined;
        const messages: Hex[] = [];
        for (const e of tx.events) {
          const key = typeKey(e.type);
          if (key === burnType) {
            const burn = DepositForBurnData.safeParse(e.data);
            if (burn.success && burn.data.nonce === event.cctp_nonce) burned = burn.data.amount;
          } else if (key === sentType) {
            const sent = MessageSentData.safeParse(e.data);
            if (sent.success) messages.push(sent.data.message);
          }
        }
        out.push({
          txHash: tx.hash.toLowerCase(),
          eventIndex: Number(row.event_index),
          position: row.transaction_version,
          positionHash: tx.hash.toLowerCase(),
          time: new Date(Number(tx.timestamp / 1000n)),
          event,
          burned,
          message: messageOfNonce(messages, event.cctp_nonce),
        });
      }
    }
    return out;
  }

  async received(from: bigint, to: bigint): Promise<MoveReceived[]> {
    const type = chainType(this.config.messageTransmitter, 'message_transmitter::MessageReceived');
    const rows = await this.events(type, from, to);
    const out: MoveReceived[] = [];
    const txs = new Map<bigint, TransactionT>();
    for (const row of rows) {
      const tx =
        txs.get(row.transaction_version) ?? (await this.transaction(row.transaction_version));
      txs.set(row.transaction_version, tx);
      const parsed = MessageReceivedData.safeParse(row.data);
      if (!parsed.success) {
        throw new AptosReadError(`MessageReceived at ${row.transaction_version}: bad data`);
      }
      out.push({
        txHash: tx.hash.toLowerCase(),
        eventIndex: Number(row.event_index),
        position: row.transaction_version,
        positionHash: tx.hash.toLowerCase(),
        time: new Date(Number(tx.timestamp / 1000n)),
        sourceDomain: parsed.data.source_domain,
        nonce: parsed.data.nonce,
        messageBody: parsed.data.message_body,
      });
    }
    return out;
  }
}
