/**
 * A local Sui GraphQL RPC: graphql-js executing queries against Sui's published schema (the
 * `schema.graphql` that `@mysten/sui` ships), so a query the real service would reject is
 * rejected here too. It serves `checkpoint` (latest, or by sequence number) and `events(filter:
 * { type, afterCheckpoint, beforeCheckpoint }, first, after)` with `pageInfo.endCursor`, each
 * event with `contents { type { repr } bcs }` and its transaction's digest, checkpoint and
 * events, over transactions the test adds (event bytes built with `@mysten/sui`'s bcs).
 */
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { toBase58 } from '@mysten/sui/utils';
import { buildSchema, graphql, type GraphQLSchema } from 'graphql';

/** Sui's GraphQL schema as published with `@mysten/sui`. */
export function suiSchema(): GraphQLSchema {
  const root = fileURLToPath(new URL('../../', import.meta.resolve('@mysten/sui/bcs')));
  return buildSchema(readFileSync(`${root}src/graphql/generated/schema.graphql`, 'utf8'));
}

/** One Move event of a transaction. */
interface SuiEvent {
  /** Full type, e.g. `0x…::transfer::CashmereTransfer` (package as 64 hex). */
  readonly type: string;
  /** BCS bytes of the Move value. */
  readonly bcs: Uint8Array;
}

/** A transaction the fake serves. */
interface SuiTx {
  readonly digest: string;
  readonly checkpoint: number;
  readonly events: readonly SuiEvent[];
}

/** The fake and its controls. */
export interface FakeSui {
  readonly url: string;
  /** Requests received. */
  requests: number;
  /** Adds a transaction in a new checkpoint (head + 1) and returns it. */
  addTransaction(events: readonly SuiEvent[]): SuiTx;
  /** Adds empty checkpoints. */
  advance(count: number): void;
  readonly head: number;
  close(): Promise<void>;
}

const checkpointDigest = (n: number) => toBase58(new Uint8Array(32).fill((n % 250) + 1));
const timeOf = (n: number) => new Date(1_780_000_000_000 + n * 1000).toISOString();

/** Starts the fake on 127.0.0.1 (a free port). */
export async function startFakeSui(): Promise<FakeSui> {
  const schema = suiSchema();
  const txs: SuiTx[] = [];
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
      const all: { key: string; node: unknown }[] = [];
      txs.forEach((tx, t) => {
        if (tx.checkpoint > head) return;
        if (f.afterCheckpoint !== undefined && tx.checkpoint <= f.afterCheckpoint) return;
        if (f.beforeCheckpoint !== undefined && tx.checkpoint >= f.beforeCheckpoint) return;
        tx.events.forEach((e, i) => {
          if (f.type && e.type !== f.type) return;
          const key = Buffer.from(JSON.stringify([tx.checkpoint, t, i])).toString('base64');
          all.push({ key, node: eventNode(tx, i) });
        });
      });
      const start = args.after ? all.findIndex((x) => x.key === args.after) + 1 : 0;
      const page = all.slice(start, start + Math.min(args.first ?? 50, 50));
      return {
        nodes: page.map((x) => x.node),
        edges: [],
        pageInfo: {
          hasNextPage: start + page.length < all.length,
          hasPreviousPage: start > 0,
          startCursor: page[0]?.key ?? null,
          endCursor: page[page.length - 1]?.key ?? null,
        },
      };
    },
  };

  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      state.requests++;
      void (async () => {
        const { query, variables } = JSON.parse(Buffer.concat(chunks).toString()) as {
          query: string;
          variables?: Record<string, unknown>;
        };
        const result = await graphql({
          schema,
          source: query,
          rootValue,
          variableValues: variables ?? {},
        });
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify(result));
      })().catch(() => res.writeHead(400).end());
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    url: `http://127.0.0.1:${port}/graphql`,
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
      return tx;
    },
    advance(count) {
      head += count;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
