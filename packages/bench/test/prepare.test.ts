import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { collectWalk, fullWalkPage, preparePlan, withIfNoneMatch } from '../src/prepare.js';
import { timeWindowWalk } from '../src/workloads.js';

/**
 * A feed server over real HTTP with the keyset pagination of docs/api.md "Pagination": the
 * window starting at hour h < 100 holds h + 1 pages of one record (cursors `h_1`, `h_2`, ...), one
 * at hour h >= 100 one page of h - 99 records; the first page of the unfiltered feed has a strong
 * ETag. It records the Accept-Encoding of every request.
 */
const PAGES_OF_HOUR = (hour: number) => (hour < 100 ? hour + 1 : 1);
const RECORDS_OF_HOUR = (hour: number) => (hour < 100 ? 1 : hour - 99);
const ETAG = '"feed-v1"';
let server: http.Server;
let baseUrl: string;
const acceptEncodings: Array<string | undefined> = [];

beforeAll(async () => {
  server = http.createServer((req, res) => {
    acceptEncodings.push(req.headers['accept-encoding']);
    const url = new URL(req.url ?? '/', 'http://x');
    if (url.searchParams.get('start_time') === 'broken') {
      res.writeHead(503).end();
      return;
    }
    const hour = Number(url.searchParams.get('start_time') ?? 0) / 3600;
    const cursor = url.searchParams.get('cursor');
    const page = cursor ? Number(cursor.split('_')[1]) : 0;
    const hasMore = page + 1 < PAGES_OF_HOUR(hour);
    const body = JSON.stringify({
      transactions: Array.from({ length: RECORDS_OF_HOUR(hour) }, () => ({ id: page, hour })),
      next_cursor: hasMore ? `${hour}_${page + 1}` : '',
      has_more: hasMore,
    });
    res.writeHead(200, {
      'content-type': 'application/json; charset=utf-8',
      ...(url.searchParams.size === 0 && { etag: ETAG }),
    });
    res.end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
});

const hours = (...h: number[]) => h.map((x) => [x * 3600, x * 3600 + 3600] as const);

describe('fullWalkPage', () => {
  it("returns the bytes and type of the first walk's first page that has a next page", async () => {
    const page = await fullWalkPage(baseUrl, timeWindowWalk(hours(0, 2)));
    expect(page.contentType).toBe('application/json; charset=utf-8');
    expect(JSON.parse(page.body.toString('utf8'))).toEqual({
      transactions: [{ id: 0, hour: 2 }],
      next_cursor: '2_1',
      has_more: true,
    });
    expect(page.full).toBe(true);
  });

  it('falls back to the largest first page when no walk has a second page', async () => {
    const page = await fullWalkPage(baseUrl, timeWindowWalk(hours(100, 103, 101)), 3);
    expect(page.full).toBe(false);
    expect(JSON.parse(page.body.toString('utf8')).transactions).toHaveLength(4);
  });

  it('throws on a page that is not 200', async () => {
    await expect(
      fullWalkPage(baseUrl, timeWindowWalk([['broken', 1]] as unknown as Array<[number, number]>)),
    ).rejects.toThrow(/answered 503/);
  });
});

describe('collectWalk', () => {
  it('collects every page of each walk in order, up to the limit', async () => {
    const pages = await collectWalk(baseUrl, timeWindowWalk(hours(1, 2)), 5, 1);
    expect(pages.map((p) => new URL(p, 'http://x').searchParams.get('cursor'))).toEqual([
      null,
      '1_1',
      null,
      '2_1',
      '2_2',
    ]);
  });

  it('stops at the limit with several walkers', async () => {
    expect(await collectWalk(baseUrl, timeWindowWalk(hours(3)), 10, 4)).toHaveLength(10);
  });
});

describe('preparePlan', () => {
  it('replays the walk with its headers, and reads the pages without Accept-Encoding', async () => {
    acceptEncodings.length = 0;
    const walk = timeWindowWalk(hours(0), { 'accept-encoding': 'gzip' });
    const { plan } = await preparePlan('replay-walk', walk, baseUrl, () => undefined);
    expect(plan).toMatchObject({ kind: 'paths', headers: { 'accept-encoding': 'gzip' } });
    expect(plan.kind === 'paths' && plan.paths.length).toBe(2_000);
    expect(acceptEncodings.every((a) => a === undefined)).toBe(true);
  });

  it("warmed: then requests each replayed page once more, with the walk's headers", async () => {
    acceptEncodings.length = 0;
    const walk = timeWindowWalk(hours(0, 1, 2), { 'accept-encoding': 'gzip' });
    const { plan } = await preparePlan('replay-walk-warmed', walk, baseUrl, () => undefined);
    expect(plan).toMatchObject({ kind: 'paths', headers: { 'accept-encoding': 'gzip' } });
    // The collection without Accept-Encoding, then one request per replayed page with it.
    expect(acceptEncodings.filter((a) => a === undefined)).toHaveLength(2_000);
    expect(acceptEncodings.filter((a) => a === 'gzip')).toHaveLength(2_000);
  });

  it('serves a captured page from `/` for the same-bytes baseline', async () => {
    const prepared = await preparePlan(
      'same-bytes-page',
      timeWindowWalk(hours(1)),
      baseUrl,
      () => undefined,
    );
    expect(prepared.plan).toEqual({ kind: 'paths', paths: ['/'] });
    expect(prepared.page?.body.length).toBeGreaterThan(0);
  });

  it('refuses a plan of the wrong kind', async () => {
    await expect(
      preparePlan('if-none-match', timeWindowWalk(hours(1)), baseUrl, () => undefined),
    ).rejects.toThrow(/path rotation/);
  });
});

describe('withIfNoneMatch', () => {
  it("sends the first path's ETag as If-None-Match", async () => {
    const { plan, etag } = await withIfNoneMatch(baseUrl, { kind: 'paths', paths: ['/feed'] });
    expect(etag).toBe(ETAG);
    expect(plan.headers).toEqual({ 'if-none-match': ETAG });
  });

  it('leaves the plan as it is when the page has no ETag', async () => {
    const plan = { kind: 'paths', paths: ['/feed?limit=1'] } as const;
    expect(await withIfNoneMatch(baseUrl, plan)).toEqual({ plan, etag: undefined });
  });
});
