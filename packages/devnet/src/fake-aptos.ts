/**
 * A local Aptos (docs/indexer.md "Sui and Aptos"): the Indexer GraphQL API's `events` and `processor_status` tables (graphql-js
 * over the part of the Hasura schema that `@aptos-labs/ts-sdk`'s generated types describe:
 * `events_bool_exp` with `_and` / `_or` / `_not` and `_eq` / `_gt` / `_gte` / `_lt` / `_lte` /
 * `_in`, `events_order_by`, `limit`, `offset`), and the node REST API's
 * `GET /v1/transactions/by_version/{version}` answering a `UserTransactionResponse` (ts-sdk type)
 * with its events. Module events carry the zero event handle (`guid` of account 0x0, creation
 * number 0). Event data is what the caller gives (built with ts-sdk `AccountAddress` and `Hex`:
 * aptos-cctp.ts).
 */
import { randomBytes } from 'node:crypto';
import { TransactionResponseType, type UserTransactionResponse } from '@aptos-labs/ts-sdk';
import { buildSchema } from 'graphql';
import { serveGraphql } from './graphql-server.js';

/** The part of the Aptos Indexer's GraphQL schema the fake serves (names and types as in ts-sdk's generated types). */
export const APTOS_INDEXER_SCHEMA = buildSchema(`
  scalar bigint
  scalar jsonb
  enum order_by { asc desc }
  input bigint_comparison_exp { _eq: bigint _gt: bigint _gte: bigint _lt: bigint _lte: bigint _in: [bigint!] }
  input String_comparison_exp { _eq: String _in: [String!] }
  input events_bool_exp {
    _and: [events_bool_exp!] _or: [events_bool_exp!] _not: events_bool_exp
    account_address: String_comparison_exp creation_number: bigint_comparison_exp
    event_index: bigint_comparison_exp indexed_type: String_comparison_exp
    sequence_number: bigint_comparison_exp transaction_block_height: bigint_comparison_exp
    transaction_version: bigint_comparison_exp type: String_comparison_exp
  }
  input events_order_by {
    account_address: order_by creation_number: order_by event_index: order_by indexed_type: order_by
    sequence_number: order_by transaction_block_height: order_by transaction_version: order_by type: order_by
  }
  type events {
    account_address: String! creation_number: bigint! data(path: String): jsonb! event_index: bigint!
    indexed_type: String! sequence_number: bigint! transaction_block_height: bigint!
    transaction_version: bigint! type: String!
  }
  input processor_status_bool_exp { processor: String_comparison_exp }
  type processor_status { last_success_version: bigint! last_updated: String! processor: String! }
  type query_root {
    events(where: events_bool_exp, order_by: [events_order_by!], limit: Int, offset: Int): [events!]!
    processor_status(where: processor_status_bool_exp): [processor_status!]!
  }
  schema { query: query_root }
`);

/** A Move event of a transaction. */
export interface AptosEvent {
  /** Full type tag, e.g. `0x…::transfer::CashmereTransfer`. */
  readonly type: string;
  /** The Move value as the node writes it in JSON (u64/u256 as decimal strings, bytes as 0x hex). */
  readonly data: Record<string, unknown>;
}

type Row = Record<string, unknown>;
/** A Hasura boolean expression. */
interface Exp {
  [key: string]: unknown;
}

function matches(row: Row, exp: Exp | undefined): boolean {
  if (!exp) return true;
  return Object.entries(exp).every(([key, cond]) => {
    if (key === '_and') return (cond as Exp[]).every((e) => matches(row, e));
    if (key === '_or') return (cond as Exp[]).some((e) => matches(row, e));
    if (key === '_not') return !matches(row, cond as Exp);
    const value = row[key];
    const num = (v: unknown) => (typeof value === 'number' ? Number(v) : v) as number;
    return Object.entries(cond as Record<string, unknown>).every(([op, v]) => {
      switch (op) {
        case '_eq':
          return value === num(v);
        case '_gt':
          return (value as number) > num(v);
        case '_gte':
          return (value as number) >= num(v);
        case '_lt':
          return (value as number) < num(v);
        case '_lte':
          return (value as number) <= num(v);
        case '_in':
          return (v as unknown[]).map(num).includes(value as number);
        default:
          throw new Error(`operator ${op} not served`);
      }
    });
  });
}

/**
 * Orders two values of one column: numbers and bigints by value, strings by UTF-16 code unit (as
 * PostgreSQL's "C" collation orders the ASCII of addresses and type tags); a null or absent value
 * last, as PostgreSQL sorts NULLs in ascending order.
 */
function compareColumn(a: unknown, b: unknown): number {
  if (a === b) return 0;
  if (a === undefined || a === null) return 1;
  if (b === undefined || b === null) return -1;
  const x = a as string | number | bigint;
  const y = b as string | number | bigint;
  return x < y ? -1 : x > y ? 1 : 0;
}

/** The fake and its controls. */
export interface FakeAptos {
  /** Indexer GraphQL URL. */
  readonly indexerUrl: string;
  /** Node REST base with `/v1`. */
  readonly restUrl: string;
  /** Commits a user transaction at the next version (a few versions after the last). */
  addTransaction(events: readonly AptosEvent[]): UserTransactionResponse;
  /** The indexed head (`events_processor`), a transaction version; starts at 1,000. */
  readonly head: number;
  close(): Promise<void>;
}

/**
 * Starts the fake on 127.0.0.1 (a free port); a comparison operator it does not serve is answered
 * as a GraphQL error, a request that is not GraphQL with 400 and a GraphQL `errors` body
 * (graphql-server.ts).
 */
export async function startFakeAptos(): Promise<FakeAptos> {
  const txs = new Map<number, UserTransactionResponse>();
  const events: Row[] = [];
  let head = 1_000;
  const rootValue = {
    events: (args: {
      where?: Exp;
      order_by?: Record<string, 'asc' | 'desc'>[];
      limit?: number;
      offset?: number;
    }) => {
      const rows = events.filter(
        (r) => (r.transaction_version as number) <= head && matches(r, args.where),
      );
      const order = args.order_by ?? [];
      rows.sort((a, b) => {
        for (const o of order) {
          for (const [k, dir] of Object.entries(o)) {
            const d = compareColumn(a[k], b[k]);
            if (d !== 0) return dir === 'asc' ? d : -d;
          }
        }
        return 0;
      });
      return rows.slice(args.offset ?? 0, (args.offset ?? 0) + (args.limit ?? rows.length));
    },
    // The real table holds a row per processor of the Indexer and `where` picks among them; only
    // `events_processor` runs here, so a `where` naming another processor matches no row.
    processor_status: (args: { where?: Exp }) =>
      [
        {
          processor: 'events_processor',
          last_success_version: head,
          last_updated: new Date().toISOString(),
        },
      ].filter((row) => matches(row, args.where)),
  };
  const server = await serveGraphql({
    schema: APTOS_INDEXER_SCHEMA,
    rootValue,
    graphqlPath: '/v1/graphql',
    rest(method, url) {
      const byVersion = /^\/v1\/transactions\/by_version\/(\d+)$/.exec(url.pathname);
      if (method !== 'GET' || !byVersion) return undefined;
      const v = Number(byVersion[1]);
      const tx = txs.get(v);
      if (tx) return { status: 200, body: tx };
      if (v > head) return { status: 404, body: { error_code: 'transaction_not_found' } };
      // A version without a test transaction: a block epilogue of its own.
      return {
        status: 200,
        body: {
          type: 'block_epilogue_transaction',
          version: String(v),
          hash: `0x${v.toString(16).padStart(64, '0')}`,
          timestamp: String(1_780_000_000_000_000 + v * 1000),
          success: true,
          events: [],
        },
      };
    },
  });
  const base = server.base;
  return {
    indexerUrl: `${base}/v1/graphql`,
    restUrl: `${base}/v1`,
    get head() {
      return head;
    },
    addTransaction(list) {
      head += 3;
      const version = head;
      const tx = {
        type: TransactionResponseType.User,
        version: String(version),
        hash: `0x${randomBytes(32).toString('hex')}`,
        timestamp: String(1_780_000_000_000_000 + version * 1000),
        success: true,
        vm_status: 'Executed successfully',
        sender: '0x1',
        sequence_number: '0',
        events: list.map((e) => ({
          guid: { creation_number: '0', account_address: '0x0' },
          sequence_number: '0',
          type: e.type,
          data: e.data,
        })),
      } as unknown as UserTransactionResponse;
      txs.set(version, tx);
      list.forEach((e, i) =>
        events.push({
          account_address: '0x0',
          creation_number: 0,
          sequence_number: 0,
          transaction_block_height: version,
          transaction_version: version,
          event_index: i,
          type: e.type,
          indexed_type: e.type,
          data: e.data,
        }),
      );
      return tx;
    },
    close: () => server.close(),
  };
}
