/**
 * Pages of closed feed windows, rendered once and kept (docs/api.md "Compression and HTTP
 * caching"; docs/decisions.md "D160. Closed feed windows and the indexer's watermark", "D161.
 * Where closed pages are kept", "D310. Closed pages holding a pending record"). A window whose
 * exclusive `end_time` is at or below the network's watermark (watermark.ts) holds only final
 * records: no record is added to it, moved or removed, and a settled record stays as it is. Each
 * of its pages (the first one and every cursor page) is kept under its query (network, page size,
 * the record's rendering, the filter with its cursor). A page whose records are all settled is
 * fixed: it is answered with {@link CLOSED_WINDOW_CACHE_CONTROL}. A page holding a `pending`
 * record (a stuck transfer) is kept too when a {@link ChangeWatch} vouches for it: it stays valid
 * while none of its pending records changed since it was rendered (less
 * {@link CHANGE_GRACE_MS}), checked on every use in every replica, and is answered with
 * {@link PENDING_CLOSED_PAGE_CACHE_CONTROL}; the first use after a change renders it again. A page
 * of a window above the watermark or of a `status` filter (a record's status moves it between
 * filters) is never stored.
 *
 * Two layers: an in-process LRU bounded by bytes (`maxBytes`), in front of Redis (shared by the
 * replicas; a settled page expires after {@link CLOSED_PAGE_TTL_SECONDS}, a pending one after
 * {@link PENDING_PAGE_TTL_SECONDS}; pages above {@link MAX_STORED_PAGE_BYTES} are not kept;
 * Redis's own `maxmemory` bounds the total). With the in-process KV store (no `REDIS_URL`) only
 * the LRU is used. A Redis failure is a miss (the page is rendered from PostgreSQL); it never
 * fails the request. Concurrent misses of one page in a process run one query.
 *
 * A kept page asked for in a coding the client accepts (`br` or `gzip`, as the compression
 * middleware negotiates it) is compressed once and the copy kept beside it, in both layers and in
 * the same form (the page's ETag, rendering time and pending records, so the copy is served
 * exactly while the page would be): later requests in that coding send the kept bytes instead of
 * compressing about 80 KB each time (docs/decisions.md "D342. Closed pages kept compressed").
 * A page below the compression threshold has no copy and is sent as it is; when it is kept in
 * process, no copy is looked for in Redis.
 */
import { createHash } from 'node:crypto';
import {
  compressBody,
  COMPRESSION_THRESHOLD_BYTES,
  strongEtag,
  type KvStore,
  type StoredCoding,
} from '@ctss/server-kit';
import { LRUCache } from 'lru-cache';
import type { TransferNetwork } from '@ctss/domain-types';
import type { Clock } from '../clock.js';
import type { ChangeWatch } from './change-watch.js';
import type { RecordField } from './record.js';
import type { FeedFilter } from './repository.js';

/** `Cache-Control` of a closed window's settled page: it can no longer change. */
export const CLOSED_WINDOW_CACHE_CONTROL = 'public, max-age=86400, immutable';

/**
 * `Cache-Control` of a kept closed page holding a pending record: revalidated on every use (its
 * ETag answers 304 from the kept copy until the record changes).
 */
export const PENDING_CLOSED_PAGE_CACHE_CONTROL = 'public, no-cache';

/** Seconds a settled page is kept in Redis (it is re-rendered, identical, when asked again later). */
const CLOSED_PAGE_TTL_SECONDS = 86_400;

/**
 * Seconds a page holding a pending record is kept (both layers): it bounds how long a missed
 * change (a replica that stored the page and stopped before the change, no replica then holding
 * its watch) can leave it stale.
 */
const PENDING_PAGE_TTL_SECONDS = 3_600;

/**
 * Milliseconds before its rendering from which a pending page's records must be unchanged: a
 * change committed just before the read that the read did not see yet (a lagging read replica)
 * and the replicas' clock differences.
 */
export const CHANGE_GRACE_MS = 30_000;

/** The byte ending each header line of a kept page's Redis value. */
const NEWLINE = 0x0a;

/** Largest page kept, bytes of its JSON (a full 100-record mainnet page is about 70 KB). */
const MAX_STORED_PAGE_BYTES = 512 * 1024;

/**
 * A page as kept: its JSON body (the rendered text, or its UTF-8 bytes as read from Redis), its
 * strong ETag, the `source_tx_hash` of each pending record on it (empty: settled) and when its
 * read started (app-clock epoch ms).
 */
interface ClosedPage {
  readonly body: string | Buffer;
  readonly etag: string;
  readonly pending: readonly string[];
  readonly renderedAt: number;
}

/**
 * A rendered page, whether it is settled (no `pending` record on it) and the `source_tx_hash` of
 * each pending record (repository.ts `FeedPage`).
 */
interface RenderedClosedPage {
  readonly body: string;
  readonly settled: boolean;
  readonly pending: readonly string[];
}

/**
 * A page to answer: body, ETag (of the identity body), and whether it is settled and kept, i.e.
 * immutable; `coding` when the body is that coding's compressed copy.
 */
interface ClosedAnswer {
  readonly body: string | Buffer;
  readonly etag: string;
  readonly immutable: boolean;
  /** Whether a page holding a pending record is served from (or now in) the store. */
  readonly keptPending: boolean;
  readonly coding?: StoredCoding;
}

/** A page as found or rendered, whether it is kept, and the coding of its body if compressed. */
interface Served {
  readonly page: ClosedPage;
  readonly kept: boolean;
  readonly coding?: StoredCoding;
}

/** The kept pages ({@link createClosedWindowStore}). */
export interface ClosedWindowStore {
  /**
   * The page of `key`: the kept copy while valid, else `render()`'s (kept when settled, or when
   * `watched` and the watch vouches for its pending records).
   *
   * @param watched whether the change watch covers the page's records (the live feed carries
   *   mainnet changes only).
   * @param coding the coding the client's answer will be compressed with (server-kit
   *   `negotiatedCoding`), if any: a kept page of at least the compression threshold is then
   *   answered with its kept compressed copy (made now if there is none).
   * @throws `render`'s error (nothing is kept), also to the calls that waited for it.
   */
  page(
    key: string,
    render: () => Promise<RenderedClosedPage>,
    watched: boolean,
    coding?: StoredCoding,
  ): Promise<ClosedAnswer>;
}

/** Options of {@link createClosedWindowStore}. */
export interface ClosedWindowStoreOptions {
  /** The shared store (Redis in production; its in-process form is not used as a layer). */
  readonly kv: KvStore;
  /** Most bytes of keys and bodies in the in-process layer; 0 = no in-process layer. */
  readonly maxBytes: number;
  /** The app clock (epoch ms). */
  readonly clock: Clock;
  /** The replica's received changes; absent = pages holding a pending record are not kept. */
  readonly watch?: ChangeWatch | undefined;
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

/**
 * Whether a page body is under the compression threshold (server-kit), so it is sent as it is and
 * never kept compressed; a string's length is a lower bound of its UTF-8 length, so a large page
 * is told without scanning it.
 */
const belowCompressionThreshold = (body: string | Buffer): boolean =>
  body.length < COMPRESSION_THRESHOLD_BYTES &&
  Buffer.byteLength(body) < COMPRESSION_THRESHOLD_BYTES;

/** Creates the store (see the module comment). */
export function createClosedWindowStore(options: ClosedWindowStoreOptions): ClosedWindowStore {
  const { kv, maxBytes, clock, watch } = options;
  const shared = kv.kind === 'redis' ? kv : undefined;
  const local =
    maxBytes > 0
      ? new LRUCache<string, ClosedPage>({
          maxSize: maxBytes,
          sizeCalculation: (page, key) =>
            page.body.length + page.etag.length + key.length + 70 * page.pending.length,
        })
      : undefined;
  const running = new Map<string, Promise<Served>>();
  // A page's key holds no newline (its filter is JSON text), so a copy's key never meets a page's.
  const codedKey = (key: string, coding: StoredCoding) => `${key}\n${coding}`;
  const sharedKey = (key: string, coding?: StoredCoding) =>
    `feed:closed:v2:${createHash('sha256').update(key).digest('base64url')}${coding ? `:${coding}` : ''}`;

  /** Whether a kept page may be served: settled, or its pending records unchanged (D310). */
  const valid = async (page: ClosedPage, watched: boolean): Promise<boolean> =>
    page.pending.length === 0 ||
    (watched &&
      watch !== undefined &&
      clock() - page.renderedAt < PENDING_PAGE_TTL_SECONDS * 1000 &&
      (await watch.unchangedSince(page.pending, page.renderedAt - CHANGE_GRACE_MS)));
  const answer = (page: ClosedPage, kept: boolean, coding?: StoredCoding): ClosedAnswer => ({
    body: page.body,
    etag: page.etag,
    immutable: kept && page.pending.length === 0,
    keptPending: kept && page.pending.length > 0,
    ...(coding !== undefined ? { coding } : {}),
  });

  /**
   * Redis value of a page or of its compressed copy: ETag (of the identity body), rendering time,
   * pending hashes (space-separated), each ended by a newline, then the body. Read as bytes: the
   * body is sent as it came (no UTF-8 decoding and encoding of about 80 KB per answer), only the
   * short header lines are decoded.
   */
  const fromShared = async (redisKey: string): Promise<ClosedPage | undefined> => {
    if (shared === undefined) return undefined;
    let value: Buffer | null;
    try {
      value = await shared.getBytes(redisKey);
    } catch {
      return undefined;
    }
    if (value === null) return undefined;
    const ends: number[] = [];
    for (let from = 0; ends.length < 3; from = ends[ends.length - 1]! + 1) {
      const end = value.indexOf(NEWLINE, from);
      if (end < 0) return undefined;
      ends.push(end);
    }
    const [etagEnd, renderedAtEnd, pendingEnd] = ends as [number, number, number];
    const at = Number(value.toString('latin1', etagEnd + 1, renderedAtEnd));
    if (!Number.isSafeInteger(at)) return undefined;
    const pending = value.toString('latin1', renderedAtEnd + 1, pendingEnd);
    return {
      etag: value.toString('latin1', 0, etagEnd),
      renderedAt: at,
      pending: pending === '' ? [] : pending.split(' '),
      body: value.subarray(pendingEnd + 1),
    };
  };
  /**
   * Keeps `page` under `localKey` in process and under `redisKey` in Redis, for as long as a page
   * of its kind (settled or pending) is kept; best effort: a page not kept is made again.
   */
  const keep = (localKey: string, redisKey: string, page: ClosedPage) => {
    if (Buffer.byteLength(page.body) > MAX_STORED_PAGE_BYTES) return;
    local?.set(localKey, page);
    if (shared === undefined) return;
    const ttl = page.pending.length === 0 ? CLOSED_PAGE_TTL_SECONDS : PENDING_PAGE_TTL_SECONDS;
    const header = `${page.etag}\n${page.renderedAt}\n${page.pending.join(' ')}\n`;
    const stored =
      typeof page.body === 'string'
        ? shared.set(redisKey, header + page.body, ttl)
        : shared.setBytes(redisKey, Buffer.concat([Buffer.from(header, 'latin1'), page.body]), ttl);
    stored.catch(() => undefined);
  };
  /** Runs `work` once for concurrent callers of the same `localKey`. */
  const once = (localKey: string, work: () => Promise<Served>): Promise<Served> => {
    let pending = running.get(localKey);
    if (pending === undefined) {
      pending = work().finally(() => running.delete(localKey));
      running.set(localKey, pending);
    }
    return pending;
  };
  /** The copy kept in process under `localKey` while valid (an invalid one is dropped). */
  const fromLocal = async (localKey: string, watched: boolean): Promise<ClosedPage | undefined> => {
    const hit = local?.get(localKey);
    if (hit === undefined) return undefined;
    if (await valid(hit, watched)) return hit;
    local!.delete(localKey);
    return undefined;
  };
  /** The copy kept in Redis under `redisKey` while valid, then kept in process under `localKey`. */
  const fromRedis = async (
    localKey: string,
    redisKey: string,
    watched: boolean,
  ): Promise<ClosedPage | undefined> => {
    const stored = await fromShared(redisKey);
    if (stored === undefined || !(await valid(stored, watched))) return undefined;
    local?.set(localKey, stored);
    return stored;
  };
  /** The page of `key`: its kept copy while valid, else rendered (and kept when it may be). */
  const identity = async (
    key: string,
    render: () => Promise<RenderedClosedPage>,
    watched: boolean,
  ): Promise<Served> => {
    const hit = await fromLocal(key, watched);
    if (hit !== undefined) return { page: hit, kept: true };
    return once(key, () => load(key, render, watched));
  };
  /** Renders the page of `key`, keeping it when it may be kept. */
  const load = async (
    key: string,
    render: () => Promise<RenderedClosedPage>,
    watched: boolean,
  ): Promise<Served> => {
    const stored = await fromRedis(key, sharedKey(key), watched);
    if (stored !== undefined) return { page: stored, kept: true };
    const renderedAt = clock();
    const rendered = await render();
    const page: ClosedPage = {
      body: rendered.body,
      etag: strongEtag(rendered.body),
      pending: rendered.pending,
      renderedAt,
    };
    // An unsettled page whose pending records are not known is never kept as settled.
    const keepable = (rendered.settled || page.pending.length > 0) && (await valid(page, watched));
    if (keepable) keep(key, sharedKey(key), page);
    return { page, kept: keepable };
  };
  /**
   * Compresses a kept page and keeps the copy beside it, with the page's ETag, rendering time and
   * pending records (so it is served exactly while the page would be); should zlib fail, the page
   * itself (the middleware then compresses it as any other answer).
   */
  const compressAndKeep = async (
    key: string,
    coding: StoredCoding,
    plain: ClosedPage,
  ): Promise<Served> => {
    let body: Buffer;
    try {
      body = await compressBody(plain.body, coding);
    } catch {
      return { page: plain, kept: true };
    }
    const copy: ClosedPage = { ...plain, body };
    keep(codedKey(key, coding), sharedKey(key, coding), copy);
    return { page: copy, kept: true, coding };
  };

  /**
   * Whether the page of `key` is kept in process and below the compression threshold, so it has
   * no compressed copy to look for.
   */
  const smallInProcess = (key: string): boolean => {
    const body = local?.peek(key)?.body;
    return body !== undefined && belowCompressionThreshold(body);
  };

  return {
    async page(key, render, watched, coding) {
      if (coding !== undefined && !smallInProcess(key)) {
        const copyKey = codedKey(key, coding);
        const copy =
          (await fromLocal(copyKey, watched)) ??
          (await fromRedis(copyKey, sharedKey(key, coding), watched));
        if (copy !== undefined) return answer(copy, true, coding);
      }
      const own = await identity(key, render, watched);
      if (coding === undefined || !own.kept || belowCompressionThreshold(own.page.body)) {
        return answer(own.page, own.kept);
      }
      const coded = await once(codedKey(key, coding), () => compressAndKeep(key, coding, own.page));
      return answer(coded.page, coded.kept, coded.coding);
    },
  };
}
