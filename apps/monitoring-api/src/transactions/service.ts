/**
 * The transaction feeds and the lookups by transaction hash (docs/api.md "Transaction feeds",
 * "Pagination", "Transaction by hash (either leg)"): pages as JSON text in the envelope of
 * docs/api.md "Pagination", first pages reused from the in-process cache (docs/decisions.md
 * "D63. In-process first-page cache"), each answer with its `Cache-Control` (docs/api.md
 * "Compression and HTTP caching").
 */
import {
  HttpProblem,
  type KeptRepresentation,
  type KvStore,
  type StoredCoding,
} from '@ctss/server-kit';
import {
  NOT_FOUND_CACHE_CONTROL,
  recordCacheControl,
  windowCacheControl,
} from '../cache-control.js';
import type { Clock } from '../clock.js';
import type { Databases } from '../db/connect.js';
import type { NameResolver } from '../names/resolver.js';
import type { TransferNetwork } from '@ctss/domain-types';
import { createChangeWatch, type ChangeListeners } from './change-watch.js';
import {
  CLOSED_WINDOW_CACHE_CONTROL,
  closedPageKey,
  createClosedWindowStore,
  PENDING_CLOSED_PAGE_CACHE_CONTROL,
} from './closed-windows.js';
import { toFilter } from './filters.js';
import { createFirstPageCache, firstPageKey } from './first-page-cache.js';
import { MAINNET_FIELDS, TESTNET_FIELDS } from './record.js';
import { createFeedRepository, type FeedFilter } from './repository.js';
import { FEED_MAX_LIMIT, type FeedQuery } from './schemas.js';
import { createWatermark, type IndexedChain } from './watermark.js';

/**
 * What the transaction feeds use: the read pool, the clock, name resolution, the first-page
 * cache lifetime (seconds, 0 = off) and the closed-window store (closed-windows.ts).
 */
export interface TransactionsServiceDeps {
  readonly db: Pick<Databases, 'read'>;
  /** Seconds a rendered first page is reused; 0 = off (FEED_FIRST_PAGE_CACHE_SECONDS). */
  readonly firstPageCacheSeconds: number;
  readonly clock: Clock;
  readonly names: NameResolver;
  /** Where closed windows' pages are kept (Redis; closed-windows.ts). */
  readonly kv: KvStore;
  /** The indexer's configured chains (FEED_INDEXED_CHAINS; none = no window is closed). */
  readonly indexedChains: readonly IndexedChain[];
  /** Bytes of closed pages kept in process (FEED_CLOSED_PAGE_MEMORY_BYTES). */
  readonly closedPageMemoryBytes: number;
  /**
   * The live feed's delivered changes (live-feed.ts): with them, closed pages holding a pending
   * mainnet record are kept too (closed-windows.ts); absent = never kept.
   */
  readonly changes?: ChangeListeners | undefined;
}

/**
 * A page to send: JSON text (or its UTF-8 bytes, for a closed window's page read from Redis; or
 * its compressed copy, with `coding`), its `Cache-Control`, and for a kept page its tag and, for a
 * cached first page, its age.
 */
export interface PageAnswer {
  readonly body: string | Buffer;
  readonly cacheControl: string;
  /**
   * A kept page's strong ETag (of its identity body) and, for a closed page's kept compressed
   * copy, its coding; without it `body` is identity JSON whose tag is computed when sent.
   */
  readonly kept?: KeptRepresentation;
  /** Seconds since a cached first page was rendered (the `Age` header). */
  readonly ageSeconds?: number;
}

/** The feeds and lookups of both networks. */
export interface TransactionsService {
  /**
   * A feed page, newest first.
   *
   * @param coding the coding the answer will be compressed with (server-kit `negotiatedCoding`),
   *   if any: a kept closed page then comes as its kept compressed copy (closed-windows.ts).
   * @throws HttpProblem 400 INVALID_NAME, INVALID_QUERY, INVALID_CURSOR (filters.ts).
   */
  feed(network: TransferNetwork, query: FeedQuery, coding?: StoredCoding): Promise<PageAnswer>;
  /**
   * The records of one transaction hash, origin or destination leg, as a page (several transfers
   * may share one transaction, e.g. a batch relayer's receives).
   *
   * @throws HttpProblem 404 NOT_FOUND when no record has that hash.
   */
  lookup(network: TransferNetwork, hash: string): Promise<PageAnswer>;
}

const fieldsOf = (network: TransferNetwork) =>
  network === 'mainnet' ? MAINNET_FIELDS : TESTNET_FIELDS;

/** Builds the feeds over the read pool, with their first-page cache and closed-window store. */
export function createTransactionsService(deps: TransactionsServiceDeps): TransactionsService {
  // This app's feed statements, each query shape built on its first request (repository.ts).
  const { listTransactions } = createFeedRepository();
  const firstPages = createFirstPageCache({
    ttlSeconds: deps.firstPageCacheSeconds,
    clock: deps.clock,
  });
  const watermark = createWatermark({
    read: deps.db.read,
    chains: deps.indexedChains,
    clock: deps.clock,
  });
  const closedPages = createClosedWindowStore({
    kv: deps.kv,
    maxBytes: deps.closedPageMemoryBytes,
    clock: deps.clock,
    watch:
      deps.changes === undefined ? undefined : createChangeWatch(deps.changes, deps.clock, deps.kv),
  });
  /**
   * Whether the filter's window is closed (closed-windows.ts): an `end_time` at or below the
   * network's watermark and no `status` filter.
   */
  const isClosed = async (network: TransferNetwork, filter: FeedFilter): Promise<boolean> => {
    if (filter.endTime === undefined || filter.status !== undefined) return false;
    const mark = await watermark.closedBefore(network);
    return mark !== undefined && filter.endTime <= mark;
  };
  return {
    async feed(network, query, coding) {
      const filter = await toFilter(deps, query);
      if (await isClosed(network, filter)) {
        const fields = fieldsOf(network);
        const page = await closedPages.page(
          closedPageKey(network, filter, query.limit, fields),
          async () => {
            const read = await listTransactions(deps.db.read, network, filter, query.limit, fields);
            return { body: read.body, settled: read.settled, pending: read.pending };
          },
          // The live feed carries mainnet changes only.
          network === 'mainnet',
          coding,
        );
        const cacheControl = page.immutable
          ? CLOSED_WINDOW_CACHE_CONTROL
          : page.keptPending
            ? PENDING_CLOSED_PAGE_CACHE_CONTROL
            : windowCacheControl(query.end_time, deps.clock());
        return {
          body: page.body,
          cacheControl,
          kept: { etag: page.etag, coding: page.coding },
        };
      }
      const render = async () =>
        (await listTransactions(deps.db.read, network, filter, query.limit, fieldsOf(network)))
          .body;
      const cacheControl = windowCacheControl(query.end_time, deps.clock());
      if (filter.cursor !== undefined) return { body: await render(), cacheControl };
      // A first page: served from the in-process copy while it is young enough (D63).
      const page = await firstPages.page(firstPageKey(network, filter, query.limit), render);
      return {
        body: page.body,
        cacheControl,
        kept: { etag: page.etag },
        ...(page.ageSeconds !== undefined ? { ageSeconds: page.ageSeconds } : {}),
      };
    },
    async lookup(network, hash) {
      const filter = { txHash: hash };
      const page = await listTransactions(
        deps.db.read,
        network,
        filter,
        FEED_MAX_LIMIT,
        fieldsOf(network),
      );
      if (page.size === 0) {
        throw new HttpProblem(
          404,
          'NOT_FOUND',
          `no transfer with source_tx_hash or destination_tx_hash ${hash}`,
          { 'Cache-Control': NOT_FOUND_CACHE_CONTROL },
        );
      }
      return { body: page.body, cacheControl: recordCacheControl(page.settled) };
    },
  };
}
