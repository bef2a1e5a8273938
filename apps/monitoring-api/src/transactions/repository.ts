/**
 * SQL of the transaction feeds. Keyset pagination over (created_at, id) DESC: created_at is stored
 * in whole seconds, so this is the (second, id) order of docs/api.md "Pagination", served by the
 * `(network, <filter column>, created_at desc, id desc)` indexes. All values are bound parameters;
 * each query shape (which filters are present) is one named prepared statement (db/statements.ts `prepare`, run by db/database.ts).
 */
import type { DestinationTxStatus } from '@ctss/domain-types';
import type { Queryable } from '../db/statements.js';
import { prepare, type PreparedStatement } from '../db/statements.js';
import type { TransferNetwork } from '@ctss/domain-types';
import type { FeedCursor } from './cursor.js';
import { recordJsonSql, type RecordField } from './record.js';

/** Filters of a feed query; addresses and hashes already normalized (see `normalizeAddress`). */
export interface FeedFilter {
  readonly senders?: readonly string[];
  readonly recipients?: readonly string[];
  /** Matches sender, recipient, source_tx_hash or destination_tx_hash. */
  readonly match?: string;
  /**
   * A transaction hash matching `source_tx_hash` or `destination_tx_hash` exactly (the lookups:
   * either leg of a transfer).
   */
  readonly txHash?: string;
  readonly sourceDomain?: number;
  readonly destinationDomain?: number;
  /** Matches source_domain or destination_domain. */
  readonly domain?: number;
  /** `destination_tx_status`. */
  readonly status?: DestinationTxStatus;
  /** Inclusive lower bound, UNIX seconds. */
  readonly startTime?: number;
  /** Exclusive upper bound, UNIX seconds. */
  readonly endTime?: number;
  readonly cursor?: FeedCursor;
}

/** Columns `addr_or_tx_hash` is compared with. */
const MATCH_COLUMNS = ['sender', 'recipient', 'source_tx_hash', 'destination_tx_hash'] as const;

/**
 * The rows a page reads: `$1` (the page size) plus one, to tell whether another page follows. As
 * an InitPlan value the size is unknown to the planner in every execution, so PostgreSQL plans
 * each statement once and reuses the plan; with `$1 + 1` a custom plan for the known size always
 * looked cheaper, and the statement was planned again on every request (pg_prepared_statements:
 * 0 generic, 12 custom plans in 12 executions; packages/bench/FINDINGS.md).
 */
const PAGE_ROWS = '(select $1::int8 + 1)';

/** Newest first: the keyset order of the feeds. */
const NEWEST_FIRST = 'order by created_at desc, id desc';

/** The page size `$1`, an InitPlan value like {@link PAGE_ROWS}. */
const PAGE_SIZE = '(select $1::int8)';

/** An aggregate's filter to the page's rows (numbered `n` from 1, newest first), not the extra one. */
const ON_PAGE = `filter (where t.n <= ${PAGE_SIZE})`;

/**
 * `next_cursor` (docs/api.md "Pagination"): `<unix_ts>_<id>` of the page's last row when another
 * row follows it, else ''.
 */
const NEXT_CURSOR = `case when count(*) > ${PAGE_SIZE} then max(date_part('epoch', t.created_at)::int8 || '_' || t.id) filter (where t.n = ${PAGE_SIZE}) else '' end`;

/** One page of a feed, already JSON text. */
interface FeedPage {
  /**
   * The page in the envelope of docs/api.md "Pagination":
   * `{"transactions":[<records>],"next_cursor":"<cursor or empty>","has_more":<bool>}`, each
   * record's JSON rendered by PostgreSQL (record.ts).
   */
  readonly body: string;
  /** Records on the page. */
  readonly size: number;
  /** Whether no record of the page is `pending` (its `destination_tx_status`). */
  readonly settled: boolean;
  /**
   * The `source_tx_hash` of each `pending` record of the page, page order (read with the page:
   * the testnet rendering has no status to find them in the body).
   */
  readonly pending: readonly string[];
}

/**
 * Builds the statement of one query shape and the order of the values it binds. `$1` is the page
 * size; the others follow in the order the filters are listed in {@link FeedFilter}. Exported for
 * the benchmark's database floor (packages/bench), which sends the same statements.
 *
 * @public (imported at run time by packages/bench/src/db-floor.ts)
 */
export function buildStatement(
  network: TransferNetwork,
  filter: FeedFilter,
  fields: readonly RecordField[],
): { statement: PreparedStatement; values: (f: FeedFilter, limit: number) => unknown[] } {
  const binders: ((f: FeedFilter) => unknown)[] = [];
  const bind = (read: (f: FeedFilter) => unknown): string => {
    binders.push(read);
    return `$${binders.length + 1}`;
  };
  // The network is one of two fixed identifiers, never user input: a literal lets the planner use
  // its statistics in the generic plan.
  const where = [`network = '${network === 'mainnet' ? 'mainnet' : 'testnet'}'`];
  const addressList = (column: string, read: (f: FeedFilter) => readonly string[] | undefined) => {
    const list = read(filter) ?? [];
    // Equality (not `= any`) keeps the index order, so no sort of the address's rows.
    if (list.length === 1) where.push(`${column} = ${bind((f) => read(f)![0])}`);
    else if (list.length > 1) where.push(`${column} = any(${bind(read)}::text[])`);
  };
  addressList('sender', (f) => f.senders);
  addressList('recipient', (f) => f.recipients);
  if (filter.sourceDomain !== undefined)
    where.push(`source_domain = ${bind((f) => f.sourceDomain)}::int8`);
  if (filter.destinationDomain !== undefined)
    where.push(`destination_domain = ${bind((f) => f.destinationDomain)}::int8`);
  if (filter.status !== undefined)
    where.push(`destination_tx_status = ${bind((f) => f.status)}::text`);
  // Time bounds and the cursor as InitPlan values too (see PAGE_ROWS): with their values known,
  // each execution got a custom plan of its own (the same index scan, planned again).
  const hidden = (param: string) => `(select ${param}::int8)`;
  if (filter.startTime !== undefined)
    where.push(`created_at >= to_timestamp(${hidden(bind((f) => f.startTime))})`);
  if (filter.endTime !== undefined)
    where.push(`created_at < to_timestamp(${hidden(bind((f) => f.endTime))})`);
  if (filter.cursor !== undefined) {
    const seconds = hidden(bind((f) => f.cursor!.seconds));
    const id = hidden(bind((f) => f.cursor!.id.toString()));
    where.push(`(created_at, id) < (to_timestamp(${seconds}), ${id})`);
  }
  // Filters that match one of several columns (`or` groups): each alternative is read through
  // its own index, newest first and at most $1 + 1 rows, and the page is taken from the union of
  // those ids (the newest $1 + 1 matching rows are always among them). Several groups give one
  // branch per combination of their alternatives.
  const groups: string[][] = [];
  if (filter.match !== undefined) {
    const value = bind((f) => f.match);
    groups.push(MATCH_COLUMNS.map((column) => `${column} = ${value}`));
  }
  if (filter.txHash !== undefined) {
    const value = bind((f) => f.txHash);
    groups.push([`source_tx_hash = ${value}`, `destination_tx_hash = ${value}`]);
  }
  if (filter.domain !== undefined) {
    const value = bind((f) => f.domain);
    groups.push([`source_domain = ${value}::int8`, `destination_domain = ${value}::int8`]);
  }
  let rows: string;
  if (groups.length === 0) {
    rows = `select * from transactions where ${where.join(' and ')} ${NEWEST_FIRST} limit ${PAGE_ROWS}`;
  } else {
    const combinations = groups.reduce<string[][]>(
      (acc, group) => acc.flatMap((picked) => group.map((condition) => [...picked, condition])),
      [[]],
    );
    const branches = combinations.map(
      (conditions) =>
        `(select id from transactions where ${[...where, ...conditions].join(' and ')} ${NEWEST_FIRST} limit ${PAGE_ROWS})`,
    );
    rows = `select * from transactions where id in (select id from (${branches.join(' union all ')}) as matches) ${NEWEST_FIRST} limit ${PAGE_ROWS}`;
  }
  // The page as one row: the rows numbered newest first; the first $1 rendered (record.ts) and
  // joined in that order into the envelope of docs/api.md "Pagination"; row $1 + 1 only tells
  // that another page follows.
  const text = `select '{"transactions":[' || coalesce(string_agg(${recordJsonSql(fields)}, ',' order by t.n) ${ON_PAGE}, '')
         || '],"next_cursor":"' || ${NEXT_CURSOR} || '","has_more":' || (count(*) > ${PAGE_SIZE})::text || '}',
         count(*) ${ON_PAGE},
         coalesce(bool_and(t.destination_tx_status <> 'pending') ${ON_PAGE}, true),
         coalesce(string_agg(t.source_tx_hash, ' ' order by t.n) filter (where t.n <= ${PAGE_SIZE} and t.destination_tx_status = 'pending'), '')
  from (select r.*, row_number() over (order by r.created_at desc, r.id desc) as n from (${rows}) r) t`;
  return {
    statement: prepare('feed', text),
    values: (f, limit) => [limit, ...binders.map((read) => read(f))],
  };
}

/** The statement of one query shape and how it binds a filter's values. */
type FeedStatement = ReturnType<typeof buildStatement>;

/** The key of a filter's query shape (which filters are present, one or many addresses). */
function shapeKey(
  network: TransferNetwork,
  filter: FeedFilter,
  fields: readonly RecordField[],
): string {
  const list = (values: readonly string[] | undefined, one: string) =>
    (values?.length ?? 0) === 0 ? '' : values!.length === 1 ? one : one.toUpperCase();
  return [
    network,
    fields.length,
    list(filter.senders, 's'),
    list(filter.recipients, 'r'),
    filter.match === undefined ? '' : 'm',
    filter.txHash === undefined ? '' : 'h',
    filter.sourceDomain === undefined ? '' : 'o',
    filter.destinationDomain === undefined ? '' : 'd',
    filter.domain === undefined ? '' : 'x',
    filter.status === undefined ? '' : 't',
    filter.startTime === undefined ? '' : 'a',
    filter.endTime === undefined ? '' : 'b',
    filter.cursor === undefined ? '' : 'c',
  ].join('');
}

/** The feed reads of one app (see {@link createFeedRepository}). */
export interface FeedRepository {
  /**
   * Reads up to `limit` rows of a feed after `filter.cursor`, newest first (plus one more row to
   * tell whether another page exists), selecting `fields` in order, on `db` (the read handle),
   * as one row: the page's JSON text in its envelope, joined by PostgreSQL (docs/decisions.md
   * "D300. A feed page read as one row").
   *
   * With `match` (addr_or_tx_hash), each of the four columns is read through its own index, newest
   * first and at most `limit + 1` rows, and the page is taken from the union of those ids, so an
   * address with a million transfers costs four short index scans instead of sorting all its rows.
   *
   * @param fields the record's columns (record.ts MAINNET_FIELDS or TESTNET_FIELDS).
   * @throws the PostgreSQL error of the statement (a 500 through the problem handler).
   */
  readonly listTransactions: (
    db: Queryable,
    network: TransferNetwork,
    filter: FeedFilter,
    limit: number,
    fields: readonly RecordField[],
  ) => Promise<FeedPage>;
}

/**
 * The feed reads with their statement table: each query shape's statement is built on its first
 * request and kept by this object (one per app, created with its routes), so a shape's SQL text
 * and statement name are computed once.
 */
export function createFeedRepository(): FeedRepository {
  const statements = new Map<string, FeedStatement>();
  return {
    async listTransactions(db, network, filter, limit, fields) {
      const key = shapeKey(network, filter, fields);
      let shape = statements.get(key);
      if (shape === undefined) {
        shape = buildStatement(network, filter, fields);
        statements.set(key, shape);
      }
      const [row] = await db.arrays(shape.statement, shape.values(filter, limit));
      const [body, size, settled, pending] = row as [string, string, boolean, string];
      return {
        body,
        size: Number(size),
        settled,
        pending: pending === '' ? [] : pending.split(' '),
      };
    },
  };
}
