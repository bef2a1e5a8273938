/**
 * Workloads whose requests depend on the running API are completed just before they are
 * measured: the same-bytes baseline serves the bytes of a real feed page, the compressed walk
 * replays the pages of the time-window walk, and the conditional poll sends the ETag the API gave
 * its first page (RFC 9110 section 13.1.2). Each reads the API with plain GETs that send no
 * Accept-Encoding, so the bytes and the validator are those of the identity representation.
 */
import { httpGet } from './http-get.js';
import type { PathRotation, RequestPlan, Walk } from './load.js';
import { pageTail, REPLAY_PAGES, type Preparation } from './workloads.js';

/** A feed page as received: its bytes and its Content-Type. */
export interface CapturedPage {
  readonly body: Buffer;
  readonly contentType: string;
  /** Whether the page has a next page, so as many records as the walk's `limit`. */
  readonly full: boolean;
}

/** The plan to measure, and for the same-bytes baseline the page its server sends. */
export interface PreparedPlan {
  readonly plan: RequestPlan;
  readonly page?: CapturedPage;
}

/** Walks collected at once (as the load generator runs several walks in flight). */
const COLLECT_CONCURRENCY = 8;

/**
 * The first page of the first of `walk`'s walks that has a next page (`has_more`), so a page as
 * full as the walk's `limit`, as the API sends it without Accept-Encoding; when none of `tries`
 * walks has one (a dataset too small for the walk), the largest first page, with `full` false.
 * @param tries how many walks to try (at least one)
 * @throws Error when a page is not 200
 */
export async function fullWalkPage(baseUrl: string, walk: Walk, tries = 50): Promise<CapturedPage> {
  let largest: CapturedPage | undefined;
  for (let i = 0; i < Math.max(1, tries); i++) {
    const path = walk.first(i);
    const res = await httpGet(`${baseUrl}${path}`);
    if (res.status !== 200) throw new Error(`GET ${path} answered ${res.status}`);
    const page = {
      body: res.body,
      contentType: String(res.headers['content-type'] ?? ''),
      full: pageTail(res.body.toString('utf8')).has_more === true,
    };
    if (page.full) return page;
    if (!largest || page.body.length > largest.body.length) largest = page;
  }
  return largest!;
}

/**
 * Walks `walk` against the running API, several walks at once, and returns the path of every
 * page in the order each walk reached it, at most `maxPages` (the walks' first paths repeat, so
 * collection stops there).
 * @throws Error when a page is not 200
 */
export async function collectWalk(
  baseUrl: string,
  walk: Walk,
  maxPages: number,
  concurrency = COLLECT_CONCURRENCY,
): Promise<string[]> {
  const pages: string[] = [];
  let walks = 0;
  // Requests started, so walkers in flight together stop at `maxPages` exactly.
  let started = 0;
  const walker = async (): Promise<void> => {
    while (started < maxPages) {
      let path: string | undefined = walk.first(walks++);
      while (path !== undefined && started < maxPages) {
        started++;
        const res = await httpGet(`${baseUrl}${path}`);
        if (res.status !== 200) throw new Error(`GET ${path} answered ${res.status}`);
        pages.push(path);
        path = walk.next(path, res.status, res.body.toString('utf8'));
      }
    }
  };
  await Promise.all(Array.from({ length: concurrency }, walker));
  return pages;
}

/**
 * `plan` with `If-None-Match` set to the ETag the API sends for its first path now; unchanged
 * (so every answer is a 200, which the 304 workload counts as failed) when there is none.
 * @throws Error when the first path is not 200
 */
export async function withIfNoneMatch(
  baseUrl: string,
  plan: PathRotation,
): Promise<{ plan: PathRotation; etag: string | undefined }> {
  const path = plan.paths[0] ?? '/';
  const res = await httpGet(`${baseUrl}${path}`);
  if (res.status !== 200) throw new Error(`GET ${path} answered ${res.status}`);
  const etag = res.headers.etag;
  if (etag === undefined) return { plan, etag };
  return { plan: { ...plan, headers: { ...plan.headers, 'if-none-match': etag } }, etag };
}

/**
 * Completes `plan` by `preparation` against the API at `baseUrl`: `same-bytes-page` fetches a full
 * page of the walk `plan` and measures `GET /` of the server that will send it, `replay-walk`
 * turns the walk `plan` into the rotation of its first {@link REPLAY_PAGES} pages with the walk's
 * headers, `replay-walk-warmed` does the same and then requests each page once with those headers,
 * `if-none-match` adds the first path's ETag.
 * @throws Error when `plan` is not of the kind the preparation takes, or the API answers a
 *   preparing request with another status than 200
 */
export async function preparePlan(
  preparation: Preparation | undefined,
  plan: RequestPlan,
  baseUrl: string,
  log: (line: string) => void,
): Promise<PreparedPlan> {
  if (preparation === undefined) return { plan };
  if (preparation === 'if-none-match') {
    if (plan.kind !== 'paths') throw new Error('if-none-match needs a path rotation');
    const prepared = await withIfNoneMatch(baseUrl, plan);
    log(`  If-None-Match: ${prepared.etag ?? 'none (the first page has no ETag)'}`);
    return { plan: prepared.plan };
  }
  if (plan.kind !== 'walk') throw new Error(`${preparation} needs a walk`);
  if (preparation === 'same-bytes-page') {
    const page = await fullWalkPage(baseUrl, plan);
    log(
      `  same-bytes page: ${page.body.length} bytes, ${page.contentType}${page.full ? '' : ' (the largest first page: no window fills a page)'}`,
    );
    return { plan: { kind: 'paths', paths: ['/'] }, page };
  }
  const paths = await collectWalk(baseUrl, plan, REPLAY_PAGES);
  if (preparation === 'replay-walk-warmed') await warmWithHeaders(baseUrl, paths, plan.headers);
  return { plan: { kind: 'paths', paths, ...(plan.headers && { headers: plan.headers }) } };
}

/**
 * Requests each of `paths` once with `headers` (the walk's, e.g. its Accept-Encoding), a few at a
 * time, so that what the API keeps per request form (a closed page's compressed copy) is kept
 * before the run.
 * @throws Error when a page answers another status than 200
 */
async function warmWithHeaders(
  baseUrl: string,
  paths: readonly string[],
  headers: Readonly<Record<string, string>> = {},
): Promise<void> {
  let next = 0;
  const warmer = async (): Promise<void> => {
    while (next < paths.length) {
      const path = paths[next++]!;
      const res = await httpGet(`${baseUrl}${path}`, headers);
      if (res.status !== 200) throw new Error(`GET ${path} answered ${res.status}`);
    }
  };
  await Promise.all(Array.from({ length: COLLECT_CONCURRENCY }, warmer));
}
