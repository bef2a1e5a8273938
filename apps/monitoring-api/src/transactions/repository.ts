/**
 * SQL of the transaction feeds. Keyset pagination over (created_at, id) DESC: created_at is stored
 * in whole seconds, so this is the spec's (second, id) order, served by the
 * `(network, <filter column>, created_at desc, id desc)` indexes. All values are bound parameters.
 */
import type { Knex } from 'knex';
import type { FeedCursor } from './cursor.js';

/** Which feed: mainnet (`/transactionsmainnet`) or testnet/staging (`/transactions`). */
export type Network = 'mainnet' | 'testnet';

/** Filters of a feed query; addresses and hashes already normalized (see `normalizeAddress`). */
export interface FeedFilter {
  readonly senders?: readonly string[];
  /** Matches sender, recipient, source_tx_hash or destination_tx_hash. */
  readonly match?: string;
  readonly sourceDomain?: number;
  readonly destinationDomain?: number;
  /** Inclusive lower bound, UNIX seconds. */
  readonly startTime?: number;
  /** Exclusive upper bound, UNIX seconds. */
  readonly endTime?: number;
  readonly cursor?: FeedCursor;
}

/** A row of `transactions` as pg returns it: int8 and numeric as strings. */
export interface TransactionRow {
  id: string;
  network: Network;
  source_tx_hash: string;
  destination_tx_hash: string | null;
  gas_drop_tx_hash: string | null;
  source_domain: string;
  destination_domain: string;
  sender: string;
  recipient: string;
  deposit_amount: string;
  receive_amount: string;
  relayer_fee: string;
  gas_drop_amount: string;
  is_gas_drop_in_native: boolean;
  max_fee: string;
  version: number;
  confirmed: boolean;
  has_source_tx_error: boolean;
  has_attestation_error: boolean;
  has_destination_tx_error: boolean;
  destination_tx_status: 'pending' | 'success' | 'failed';
  created_at: Date;
}

/** Columns `addr_or_tx_hash` is compared with. */
const MATCH_COLUMNS = ['sender', 'recipient', 'source_tx_hash', 'destination_tx_hash'] as const;

/**
 * Applies every filter of `filter` except `match`, and the cursor, to a query on `transactions`.
 */
function applyFilters(
  query: Knex.QueryBuilder,
  network: Network,
  filter: FeedFilter,
): Knex.QueryBuilder {
  query.where('network', network);
  if (filter.senders && filter.senders.length > 0) query.whereIn('sender', [...filter.senders]);
  if (filter.sourceDomain !== undefined) query.where('source_domain', filter.sourceDomain);
  if (filter.destinationDomain !== undefined)
    query.where('destination_domain', filter.destinationDomain);
  if (filter.startTime !== undefined)
    query.where('created_at', '>=', new Date(filter.startTime * 1000));
  if (filter.endTime !== undefined) query.where('created_at', '<', new Date(filter.endTime * 1000));
  if (filter.cursor) {
    query.whereRaw('(created_at, id) < (to_timestamp(?), ?)', [
      filter.cursor.seconds,
      filter.cursor.id.toString(),
    ]);
  }
  return query;
}

/** Newest first: the keyset order of the feeds. */
const NEWEST_FIRST = [
  { column: 'created_at', order: 'desc' },
  { column: 'id', order: 'desc' },
] as const;

/**
 * Reads up to `limit` rows of a feed after `filter.cursor`, newest first, plus one more row to
 * tell whether another page exists.
 *
 * With `match` (addr_or_tx_hash), each of the four columns is read through its own index, newest
 * first and at most `limit + 1` rows, and the page is taken from the union of those ids: the
 * newest `limit + 1` matching rows are always among them, so an address with a million transfers
 * costs four short index scans instead of sorting all its rows.
 *
 * @returns rows (at most `limit`) and `hasMore`.
 */
export async function listTransactions(
  knex: Knex,
  network: Network,
  filter: FeedFilter,
  limit: number,
): Promise<{ rows: TransactionRow[]; hasMore: boolean }> {
  let query: Knex.QueryBuilder;
  if (filter.match === undefined) {
    query = applyFilters(knex('transactions').select('*'), network, filter);
  } else {
    const value = filter.match;
    const branches = MATCH_COLUMNS.map((column) =>
      applyFilters(knex('transactions').select('id'), network, filter)
        .where(column, value)
        .orderBy([...NEWEST_FIRST])
        .limit(limit + 1),
    );
    query = knex('transactions')
      .select('*')
      .whereIn('id', knex.select('id').from(knex.unionAll(branches, true).as('matches')));
  }
  const rows = (await query.orderBy([...NEWEST_FIRST]).limit(limit + 1)) as TransactionRow[];
  const hasMore = rows.length > limit;
  return { rows: hasMore ? rows.slice(0, limit) : rows, hasMore };
}
