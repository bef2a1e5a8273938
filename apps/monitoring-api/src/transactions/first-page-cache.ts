/**
 * The rendered first feed pages, kept in process for at most the page's own `max-age`
 * (docs/api.md "Compression and HTTP caching"; docs/decisions.md "D63. In-process first-page
 * cache"). Pollers of the first page, with or without `If-None-Match`, are answered from memory
 * (no SQL, no hashing) while the copy is younger than `FEED_FIRST_PAGE_CACHE_SECONDS` (at most
 * {@link OPEN_WINDOW_MAX_AGE}); the copy's age goes out in `Age` (RFC 9111 section 5.1), so no
 * client or shared cache keeps the data longer than `max-age` in total.
 *
 * A bounded LRU (`lru-cache`): at most {@link MAX_ENTRIES} pages and {@link MAX_CHARACTERS}
 * characters of keys and bodies. Concurrent misses of one key run one query and share its page
 * (`fetch`); a failed query is never stored, every waiter gets its error. The cache is per
 * process: replicas may answer different first pages for up to the lifetime.
 */
import { strongEtag } from '@ctss/server-kit';
import { LRUCache } from 'lru-cache';
import { OPEN_WINDOW_MAX_AGE } from '../cache-control.js';
import type { Clock } from '../clock.js';
import type { TransferNetwork } from '@ctss/domain-types';
import type { FeedFilter } from './repository.js';

/** Most pages kept (the first pages of many filters; LRU evicted first). */
const MAX_ENTRIES = 2_000;

/**
 * Most characters of keys and bodies kept (16 Mi; feed JSON is ASCII but for rare names, so about
 * as many bytes): about 230 full 100-record mainnet pages of about 70 KB.
 */
const MAX_CHARACTERS = 16 * 1024 * 1024;

/** A rendered page: its JSON body, its strong ETag and when its query started (epoch ms). */
interface RenderedPage {
  readonly body: string;
  readonly etag: string;
  readonly renderedAt: number;
}

/**
 * A page as served: the page and, when this call did not render it (a stored copy, or the render
 * of a concurrent call it waited for), its age in whole seconds rounded up (the `Age` value).
 */
interface ServedPage extends RenderedPage {
  readonly ageSeconds?: number;
}

/** The first pages of both feeds ({@link createFirstPageCache}). */
export interface FirstPageCache {
  /**
   * The page of `key`: the stored copy while younger than the lifetime, else `render()`'s body
   * (stored with its ETag). With the lifetime 0 every call renders and nothing is stored.
   *
   * @param render runs the page's query and returns its JSON body.
   * @throws `render`'s error (nothing is stored), also to the calls that waited for it.
   */
  page(key: string, render: () => Promise<string>): Promise<ServedPage>;
}

/** Options of {@link createFirstPageCache}. */
export interface FirstPageCacheOptions {
  /** Lifetime of a stored page, seconds, 0 to {@link OPEN_WINDOW_MAX_AGE}; 0 = off. */
  readonly ttlSeconds: number;
  /** The app's clock (deps.clock, epoch milliseconds). */
  readonly clock: Clock;
}

/**
 * The cache key of a first page: network, page size and the filter, whose values are already
 * validated and normalized (addresses, a resolved name). Only for filters without a cursor.
 */
export function firstPageKey(network: TransferNetwork, filter: FeedFilter, limit: number): string {
  return `${network}|${limit}|${JSON.stringify(filter)}`;
}

/**
 * Creates the cache (see the module comment).
 *
 * @throws RangeError when `ttlSeconds` is outside 0 to {@link OPEN_WINDOW_MAX_AGE} (config.ts
 *   validates the variable with the same bounds).
 */
export function createFirstPageCache(options: FirstPageCacheOptions): FirstPageCache {
  const { ttlSeconds, clock } = options;
  if (!Number.isInteger(ttlSeconds) || ttlSeconds < 0 || ttlSeconds > OPEN_WINDOW_MAX_AGE) {
    throw new RangeError(`ttlSeconds must be an integer from 0 to ${OPEN_WINDOW_MAX_AGE}`);
  }
  const now = clock;
  const render = async (load: () => Promise<string>): Promise<RenderedPage> => {
    const renderedAt = now();
    const body = await load();
    return { body, etag: strongEtag(body), renderedAt };
  };
  if (ttlSeconds === 0) {
    return { page: async (_key, load) => render(load) };
  }
  const ttlMs = ttlSeconds * 1000;
  const pages = new LRUCache<string, RenderedPage, () => Promise<string>>({
    max: MAX_ENTRIES,
    maxSize: MAX_CHARACTERS,
    sizeCalculation: (page, key) => page.body.length + key.length,
    ttl: ttlMs,
    // Read the clock on every check (the default caches it for 1 ms).
    ttlResolution: 0,
    perf: { now },
    // A page evicted while its query runs is still given to the requests waiting for it.
    ignoreFetchAbort: true,
    fetchMethod: (_key, _stale, { context }) => render(context),
  });
  // The lifetime counts from the start of the query (when the data was read), and a clock that
  // went back makes a copy stale rather than younger.
  const fresh = (page: RenderedPage, at: number) =>
    at >= page.renderedAt && at - page.renderedAt < ttlMs;
  return {
    async page(key, load) {
      let rendered = false;
      const context = () => {
        rendered = true;
        return load();
      };
      let page = await pages.forceFetch(key, { context });
      if (!fresh(page, now())) page = await pages.forceFetch(key, { context, forceRefresh: true });
      if (rendered) return page;
      return { ...page, ageSeconds: Math.max(0, Math.ceil((now() - page.renderedAt) / 1000)) };
    },
  };
}
