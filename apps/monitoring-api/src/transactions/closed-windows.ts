/**
 * Pages of closed feed windows, rendered once and kept (docs/api.md "Compression and HTTP
 * caching"; docs/decisions.md "D160. Closed feed windows and the indexer's watermark", "D161.
 * Where closed pages are kept"). A window whose exclusive `end_time` is at or below the network's
 * watermark (watermark.ts) holds only final records, so each of its pages (the first one and
 * every cursor page) is fixed once no record on it is `pending` any more: such a page is kept
 * under its query (network, page size, the record's rendering, the filter with its cursor) and
 * answered with {@link CLOSED_WINDOW_CACHE_CONTROL}. A page of a window above the watermark, of
 * a `status` filter (a record's status moves it between filters), or holding a pending record is
 * never stored.
 *
 * Two layers: an in-process LRU bounded by bytes (`maxBytes`), in front of Redis (shared by the
 * replicas; each page expires after {@link CLOSED_PAGE_TTL_SECONDS}, pages above
 * {@link MAX_STORED_PAGE_BYTES} are not kept; Redis's own `maxmemory` bounds the total). With the
 * in-process KV store (no `REDIS_URL`) only the LRU is used. A Redis failure is a miss (the page
 * is rendered from PostgreSQL); it never fails the request. Concurrent misses of one page in a
 * process run one query.
 */
import { createHash } from 'node:crypto';
import { strongEtag, type KvStore } from '@ctss/server-kit';
import { LRUCache } from 'lru-cache';
import type { TransferNetwork } from '@ctss/domain-types';
import type { RecordField } from './record.js';
import type { FeedFilter } from './repository.js';

/** `Cache-Control` of a closed window's page: it can no longer change. */
export const CLOSED_WINDOW_CACHE_CONTROL = 'public, max-age=86400, immutable';

/** Seconds a page is kept in Redis (it is re-rendered, identical, when asked for again later). */
const CLOSED_PAGE_TTL_SECONDS = 86_400;

/** Largest page kept, bytes of its JSON (a full 100-record mainnet page is about 70 KB). */
const MAX_STORED_PAGE_BYTES = 512 * 1024;

/** A page as kept: its JSON body and its strong ETag. */
interface ClosedPage {
  readonly body: string;
  readonly etag: string;
}

/** A rendered page and whether it may be kept (no `pending` record on it). */
interface RenderedClosedPage {
  readonly body: string;
  readonly settled: boolean;
}

/** The kept pages ({@link createClosedWindowStore}). */
export interface ClosedWindowStore {
  /**
   * The page of `key`: the kept copy, else `render()`'s (kept when settled).
   *
   * @returns the page and whether it is (now) kept, i.e. immutable.
   * @throws `render`'s error (nothing is kept), also to the calls that waited for it.
   */
  page(
    key: string,
    render: () => Promise<RenderedClosedPage>,
  ): Promise<ClosedPage & { immutable: boolean }>;
}

/** Options of {@link createClosedWindowStore}. */
export interface ClosedWindowStoreOptions {
  /** The shared store (Redis in production; its in-process form is not used as a layer). */
  readonly kv: KvStore;
  /** Most bytes of keys and bodies in the in-process layer; 0 = no in-process layer. */
  readonly maxBytes: number;
}

/** Digest of each field list's SQL rendering (the lists are module constants, record.ts). */
const renderingDigests = new WeakMap<readonly RecordField[], string>();

/**
 * The key of a page: network, page size, a digest of the record's rendering (a release that
 * changes a field's SQL does not serve the old bodies) and the validated, normalized filter with
 * its cursor.
 */
export function closedPageKey(
  network: TransferNetwork,
  filter: FeedFilter,
  limit: number,
  fields: readonly RecordField[],
): string {
  let rendering = renderingDigests.get(fields);
  if (rendering === undefined) {
    rendering = createHash('sha256')
      .update(fields.map((f) => `${f.name}=${f.json}`).join('\n'))
      .digest('base64url')
      .slice(0, 12);
    renderingDigests.set(fields, rendering);
  }
  const filterText = JSON.stringify(filter, (_name, value: unknown) =>
    typeof value === 'bigint' ? value.toString() : value,
  );
  return `${network}|${limit}|${rendering}|${filterText}`;
}

/** Creates the store (see the module comment). */
export function createClosedWindowStore(options: ClosedWindowStoreOptions): ClosedWindowStore {
  const { kv, maxBytes } = options;
  const shared = kv.kind === 'redis' ? kv : undefined;
  const local =
    maxBytes > 0
      ? new LRUCache<string, ClosedPage>({
          maxSize: maxBytes,
          sizeCalculation: (page, key) => page.body.length + page.etag.length + key.length,
        })
      : undefined;
  const pending = new Map<string, Promise<ClosedPage & { immutable: boolean }>>();
  const sharedKey = (key: string) =>
    `feed:closed:${createHash('sha256').update(key).digest('base64url')}`;

  const fromShared = async (key: string): Promise<ClosedPage | undefined> => {
    if (shared === undefined) return undefined;
    let value: string | null;
    try {
      value = await shared.get(sharedKey(key));
    } catch {
      return undefined;
    }
    if (value === null) return undefined;
    const split = value.indexOf('\n');
    if (split < 0) return undefined;
    return { etag: value.slice(0, split), body: value.slice(split + 1) };
  };
  const keep = (key: string, page: ClosedPage) => {
    if (Buffer.byteLength(page.body) > MAX_STORED_PAGE_BYTES) return;
    local?.set(key, page);
    if (shared !== undefined) {
      // Best effort: a page not kept is rendered again.
      shared
        .set(sharedKey(key), `${page.etag}\n${page.body}`, CLOSED_PAGE_TTL_SECONDS)
        .catch(() => undefined);
    }
  };
  const load = async (
    key: string,
    render: () => Promise<RenderedClosedPage>,
  ): Promise<ClosedPage & { immutable: boolean }> => {
    const kept = await fromShared(key);
    if (kept !== undefined) {
      local?.set(key, kept);
      return { ...kept, immutable: true };
    }
    const rendered = await render();
    const page = { body: rendered.body, etag: strongEtag(rendered.body) };
    if (rendered.settled) keep(key, page);
    return { ...page, immutable: rendered.settled };
  };
  return {
    async page(key, render) {
      const hit = local?.get(key);
      if (hit !== undefined) return { ...hit, immutable: true };
      let running = pending.get(key);
      if (running === undefined) {
        running = load(key, render).finally(() => pending.delete(key));
        pending.set(key, running);
      }
      return running;
    },
  };
}
