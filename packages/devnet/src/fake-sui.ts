/**
 * A local Sui GraphQL RPC (docs/indexer.md "Sui and Aptos"): graphql-js executing queries against
 * Sui's published schema (the `schema.graphql` that `@mysten/sui` ships), so a query the real
 * service would reject is rejected here too. It serves `checkpoint` (latest, or by sequence
 * number) and `events(filter: { type, afterCheckpoint, beforeCheckpoint }, first, after)` with
 * `pageInfo.endCursor` (an opaque base64 cursor, at most 50 per page as the service caps it),
 * each event with `contents { type { repr } bcs }` and its transaction's digest, checkpoint and
 * events, over transactions the caller adds (event bytes built with `@mysten/sui`'s bcs:
 * sui-cctp.ts). Events are indexed by type, so a page costs its own size, not the chain's. A
 * request that is not GraphQL is answered 400 with a GraphQL `errors` body (graphql-server.ts).
 */
import { readFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { toBase58 } from '@mysten/sui/utils';
import { buildSchema, type GraphQLSchema } from 'graphql';
import { serveGraphql } from './graphql-server.js';

/**
 * Sui's GraphQL schema as published with `@mysten/sui` (its `src/graphql/generated/schema.graphql`).
 *
 * @throws when the installed `@mysten/sui` does not ship the file.
 */
export function suiSchema(): GraphQLSchema {
  const root = fileURLToPath(new URL('../../', import.meta.resolve('@mysten/sui/bcs')));
  return buildSchema(readFileSync(`${root}src/graphql/generated/schema.graphql`, 'utf8'));
}

/** One Move event of a transaction. */
export interface SuiEvent {
  /** Full type, e.g. `0x…::transfer::CashmereTransfer` (package as 64 hex). */
  readonly type: string;
  /** BCS bytes of the Move value. */
  readonly bcs: Uint8Array;
}

/** A transaction the fake serves. */
export interface SuiTx {
  /** Base58 digest of 32 random bytes. */
  readonly digest: string;
  readonly checkpoint: number;
  readonly events: readonly SuiEvent[];
}

/** The fake and its controls. */
export interface FakeSui {
  /** The GraphQL endpoint (`http://127.0.0.1:<port>/graphql`). */
  readonly url: string;
  /** Requests received. */
  requests: number;
  /** Adds a transaction in a new checkpoint (head + 1) and returns it. */
  addTransaction(events: readonly SuiEvent[]): SuiTx;
  /** Adds empty checkpoints. */
  advance(count: number): void;
  /** The latest checkpoint (starts at 100). */
  readonly head: number;
  close(): Promise<void>;
}

/** Where an event is: its checkpoint, transaction (index in the order added) and event index. */
interface EventRef {
  readonly checkpoint: number;
  readonly t: number;
  readonly i: number;
}

/** The first index of `list` whose entry passes `ok` (false then true along the list). */
function firstIndex(list: readonly EventRef[], ok: (r: EventRef) => boolean): number {
  let lo = 0;
  let hi = list.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (ok(list[mid]!)) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}

const checkpointDigest = (n: number) => toBase58(new Uint8Array(32).fill((n % 250) + 1));
const timeOf = (n: number) => new Date(1_780_000_000_000 + n * 1000).toISOString();

/**
 * Starts the fake on 127.0.0.1 (a free port).
 *
 * @throws when the schema cannot be read ({@link suiSchema}).
 */
export async function startFakeSui(): Promise<FakeSui> {
  const schema = suiSchema();
  const txs: SuiTx[] = [];
  // Every event in chain order, and by type: added at the head only, so sorted by checkpoint.
  const all: EventRef[] = [];
  const byType = new Map<string, EventRef[]>();
  let head = 100;
  const state = { requests: 0 };

  const checkpoint = (n: number) =>
    n > head ? null : { sequenceNumber: n, digest: checkpointDigest(n), timestamp: timeOf(n) };
  const eventNode = (tx: SuiTx, i: number) => ({
    sequenceNumber: i,
    timestamp: timeOf(tx.checkpoint),
    contents: {
      type: { repr: tx.events[i]!.type },
      bcs: Buffer.from(tx.events[i]!.bcs).toString('base64'),
    },
    transaction: {
      digest: tx.digest,
      effects: {
        checkpoint: checkpoint(tx.checkpoint),
        events: () => ({ nodes: tx.events.map((_, j) => eventNode(tx, j)) }),
      },
    },
  });
  const rootValue = {
    checkpoint: (args: { sequenceNumber?: number }) => checkpoint(args.sequenceNumber ?? head),
    events: (args: {
      first?: number;
      after?: string;
      filter?: { type?: string; afterCheckpoint?: number; beforeCheckpoint?: number };
    }) => {
      const f = args.filter ?? {};
      const list = f.type === undefined ? all : (byType.get(f.type) ?? []);
      let start = firstIndex(list, (r) => r.checkpoint > (f.afterCheckpoint ?? -1));
      const end =
        f.beforeCheckpoint === undefined
          ? list.length
          : firstIndex(list, (r) => r.checkpoint >= f.beforeCheckpoint!);
      if (args.after) {
        const [, t, i] = JSON.parse(Buffer.from(args.after, 'base64').toString()) as number[];
        start = Math.max(
          start,
          firstIndex(list, (r) => r.t > t! || (r.t === t && r.i > i!)),
        );
      }
      const page = list.slice(start, Math.min(end, start + Math.min(args.first ?? 50, 50)));
      const key = (r: EventRef) =>
        Buffer.from(JSON.stringify([r.checkpoint, r.t, r.i])).toString('base64');
      return {
        nodes: page.map((r) => eventNode(txs[r.t]!, r.i)),
        edges: [],
        pageInfo: {
          hasNextPage: start + page.length < end,
          hasPreviousPage: start > 0,
          startCursor: page[0] ? key(page[0]) : null,
          endCursor: page.length ? key(page[page.length - 1]!) : null,
        },
      };
    },
  };

  const server = await serveGraphql({
    schema,
    rootValue,
    graphqlPath: '/graphql',
    onRequest: () => state.requests++,
  });
  return {
    url: `${server.base}/graphql`,
    get requests() {
      return state.requests;
    },
    set requests(v: number) {
      state.requests = v;
    },
    get head() {
      return head;
    },
    addTransaction(events) {
      head++;
      const tx = { digest: toBase58(randomBytes(32)), checkpoint: head, events };
      txs.push(tx);
      events.forEach((e, i) => {
        const ref = { checkpoint: head, t: txs.length - 1, i };
        all.push(ref);
        const list = byType.get(e.type) ?? [];
        if (list.length === 0) byType.set(e.type, list);
        list.push(ref);
      });
      return tx;
    },
    advance(count) {
      head += count;
    },
    close: () => server.close(),
  };
}
