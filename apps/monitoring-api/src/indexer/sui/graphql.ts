/**
 * The Sui GraphQL RPC reader (docs/indexer.md "Sui and Aptos"): `events(filter: { type,
 * afterCheckpoint, beforeCheckpoint }, first, after)` paged by `pageInfo.endCursor`, each event
 * with its BCS contents, its transaction's digest, checkpoint and other events (the
 * `DepositForBurn` and `MessageSent` of the same burn); `checkpoint` for the head and a
 * checkpoint's digest and time. Query shapes as in Sui's published schema (`@mysten/sui`
 * ships it: `src/graphql/generated/schema.graphql`); a checkpoint is final once served.
 */
import type { Hex } from 'viem';
import {
  messageOfNonce,
  type MoveReader,
  type MoveReceived,
  type MoveTransfer,
} from './move-source.js';
import type { SuiChainConfig } from './config.js';
import {
  decodeCashmereTransfer,
  decodeDepositForBurn,
  decodeMessageReceived,
  decodeMessageSent,
} from './events.js';

/** The head query: the latest checkpoint the service has indexed. */
export const SUI_HEAD_QUERY = 'query { checkpoint { sequenceNumber } }';

/** One checkpoint's digest and time. */
export const SUI_CHECKPOINT_QUERY =
  'query ($n: UInt53!) { checkpoint(sequenceNumber: $n) { sequenceNumber digest timestamp } }';

/** Events of one type in a checkpoint range, with their transactions' events. */
export const SUI_EVENTS_QUERY = `query ($type: String!, $after: String, $first: Int, $afterCheckpoint: UInt53, $beforeCheckpoint: UInt53) {
  events(first: $first, after: $after, filter: { type: $type, afterCheckpoint: $afterCheckpoint, beforeCheckpoint: $beforeCheckpoint }) {
    pageInfo { hasNextPage endCursor }
    nodes {
      sequenceNumber
      timestamp
      contents { type { repr } bcs }
      transaction {
        digest
        effects {
          checkpoint { sequenceNumber digest }
          events(first: 50) { nodes { sequenceNumber contents { type { repr } bcs } } }
        }
      }
    }
  }
}`;

/** Thrown for a failed or unusable Sui GraphQL answer. */
class SuiGraphqlError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SuiGraphqlError';
  }
}

interface MoveValue {
  type: { repr: string } | null;
  bcs: string | null;
}
interface EventNode {
  sequenceNumber: number;
  timestamp: string | null;
  contents: MoveValue | null;
  transaction: {
    digest: string;
    effects: {
      checkpoint: { sequenceNumber: number; digest: string | null } | null;
      events: { nodes: { sequenceNumber: number; contents: MoveValue | null }[] } | null;
    } | null;
  } | null;
}
interface EventsPage {
  events: {
    pageInfo: { hasNextPage: boolean; endCursor: string | null };
    nodes: EventNode[];
  };
}

/** A Move type's `package::module::Name` with the package as 32-byte hex (reprs may shorten it). */
function typeKey(repr: string): { pkg: string; rest: string } | undefined {
  const m = /^0x([0-9a-fA-F]{1,64})::(.+)$/.exec(repr);
  return m ? { pkg: `0x${m[1]!.toLowerCase().padStart(64, '0')}`, rest: m[2]! } : undefined;
}

/** The reader of one Sui chain. */
export class SuiGraphqlReader implements MoveReader {
  /** GraphQL requests sent (for tests and the bench). */
  requests = 0;

  constructor(private readonly config: SuiChainConfig) {}

  /**
   * POSTs one GraphQL request.
   *
   * @throws {SuiGraphqlError} on a network error, a non-2xx answer, GraphQL `errors` or no data.
   */
  private async query<T>(query: string, variables: Record<string, unknown> = {}): Promise<T> {
    this.requests++;
    let res: Response;
    try {
      res = await fetch(this.config.graphqlUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json' },
        body: JSON.stringify({ query, variables }),
        signal: AbortSignal.timeout(this.config.requestTimeoutMs),
      });
    } catch (error) {
      throw new SuiGraphqlError(`Sui GraphQL unreachable: ${(error as Error).message}`);
    }
    if (!res.ok) {
      await res.body?.cancel();
      throw new SuiGraphqlError(`Sui GraphQL answered ${res.status}`);
    }
    const body = (await res.json()) as { data?: T | null; errors?: { message: string }[] };
    if (body.errors?.length) {
      throw new SuiGraphqlError(`Sui GraphQL: ${body.errors.map((e) => e.message).join('; ')}`);
    }
    if (!body.data) throw new SuiGraphqlError('Sui GraphQL answer without data');
    return body.data;
  }

  async head(): Promise<bigint> {
    const data = await this.query<{ checkpoint: { sequenceNumber: number } | null }>(
      SUI_HEAD_QUERY,
    );
    if (!data.checkpoint) throw new SuiGraphqlError('no checkpoint');
    return BigInt(data.checkpoint.sequenceNumber);
  }

  async positionAt(position: bigint): Promise<{ hash: string; time: Date }> {
    const data = await this.query<{
      checkpoint: { digest: string | null; timestamp: string | null } | null;
    }>(SUI_CHECKPOINT_QUERY, { n: Number(position) });
    const c = data.checkpoint;
    if (!c?.digest || !c.timestamp) throw new SuiGraphqlError(`checkpoint ${position} not served`);
    return { hash: c.digest, time: new Date(c.timestamp) };
  }

  /** Every event of `type` in checkpoints `[from, to]`, page after page. */
  private async events(type: string, from: bigint, to: bigint): Promise<EventNode[]> {
    const out: EventNode[] = [];
    let after: string | null = null;
    for (;;) {
      const page: EventsPage = await this.query<EventsPage>(SUI_EVENTS_QUERY, {
        type,
        first: this.config.pageSize,
        after,
        ...(from > 0n ? { afterCheckpoint: Number(from - 1n) } : {}),
        beforeCheckpoint: Number(to + 1n),
      });
      out.push(...page.events.nodes);
      if (!page.events.pageInfo.hasNextPage) return out;
      if (!page.events.pageInfo.endCursor) throw new SuiGraphqlError('next page without a cursor');
      after = page.events.pageInfo.endCursor;
    }
  }

  private static where(node: EventNode) {
    const tx = node.transaction;
    const checkpoint = tx?.effects?.checkpoint;
    if (!tx || !checkpoint?.digest || !node.timestamp || !node.contents?.bcs) {
      throw new SuiGraphqlError('event without its transaction, checkpoint, time or contents');
    }
    return {
      txHash: tx.digest,
      eventIndex: node.sequenceNumber,
      position: BigInt(checkpoint.sequenceNumber),
      positionHash: checkpoint.digest,
      time: new Date(node.timestamp),
      bcs: node.contents.bcs,
    };
  }

  async transfers(from: bigint, to: bigint): Promise<MoveTransfer[]> {
    const { tokenMessengerMinterPackage: tmm, messageTransmitterPackage: mt } = this.config;
    const out: MoveTransfer[] = [];
    for (const pkg of this.config.transferPackages) {
      for (const node of await this.events(`${pkg}::transfer::CashmereTransfer`, from, to)) {
        const at = SuiGraphqlReader.where(node);
        const event = decodeCashmereTransfer(at.bcs);
        let burned: bigint | undefined;
        const messages: Hex[] = [];
        for (const other of node.transaction?.effects?.events?.nodes ?? []) {
          const key = typeKey(other.contents?.type?.repr ?? '');
          const bcs = other.contents?.bcs;
          if (!key || !bcs) continue;
          if (key.pkg === tmm && key.rest === 'deposit_for_burn::DepositForBurn') {
            const burn = decodeDepositForBurn(bcs);
            if (burn.nonce === event.cctp_nonce) burned = burn.amount;
          } else if (key.pkg === mt && key.rest === 'send_message::MessageSent') {
            messages.push(decodeMessageSent(bcs));
          }
        }
        out.push({
          txHash: at.txHash,
          eventIndex: at.eventIndex,
          position: at.position,
          positionHash: at.positionHash,
          time: at.time,
          event,
          burned,
          message: messageOfNonce(messages, event.cctp_nonce),
        });
      }
    }
    return out;
  }

  async received(from: bigint, to: bigint): Promise<MoveReceived[]> {
    const type = `${this.config.messageTransmitterPackage}::receive_message::MessageReceived`;
    return (await this.events(type, from, to)).map((node) => {
      const at = SuiGraphqlReader.where(node);
      return {
        txHash: at.txHash,
        eventIndex: at.eventIndex,
        position: at.position,
        positionHash: at.positionHash,
        time: at.time,
        ...decodeMessageReceived(at.bcs),
      };
    });
  }
}
