/**
 * The statistics endpoints (docs/api.md "Volume statistics", "Fee statistics",
 * "Counts and chain shares"). Every response is cached in the KvStore for
 * CACHE_TTL_SECONDS (0 = off) with single-flight, so a miss under load runs one query per process
 * (docs/decisions.md "D31. Cache lifetimes and single-flight"); the cached value is the serialized body, so bigints stay exact.
 *
 * While the database is unavailable the last good body of each key (kept in process, at most
 * {@link STALE_ENTRIES} keys, at most a day old) is served stale with `Cache-Status:
 * monitoring-api; fwd=stale; ttl=<seconds>` (RFC 9211; README "Database outages"); without one the
 * request is a 503 DEPENDENCY_UNAVAILABLE. Every response says how it was served in `Cache-Status`.
 */
import { createHash } from 'node:crypto';
import {
  cacheStatus,
  createCachedLoader,
  mountRouter,
  parseQuery,
  sendCacheableJson,
  stringifyJson,
  textCodec,
  type KvStore,
  type Logger,
} from '@ctss/server-kit';
import { Router, type Express, type Request, type Response } from 'express';
import { classifyDatabaseError } from '../db/unavailable.js';
import type { TransferNetwork } from '@ctss/domain-types';
import type { Period } from './repository.js';
import { DailyQuery, FeesQuery, HourlyQuery, NoQuery, VolumesQuery } from './schemas.js';
import type { StatsService } from './service.js';

/** Keys whose last good body is kept for serving stale (a few hundred short JSON bodies). */
const STALE_ENTRIES = 500;

/** The cache's name in `Cache-Status` (RFC 9211 section 2). */
const CACHE_NAME = 'monitoring-api';

/** What the statistics routes use: the service, the response cache and its lifetime. */
export interface StatsRouteDeps {
  readonly stats: StatsService;
  readonly kv: KvStore;
  readonly logger: Logger;
  /** Lifetime of a cached answer, seconds; 0 turns caching off (CACHE_TTL_SECONDS). */
  readonly cacheTtlSeconds: number;
}

/** Adds the statistics routes to `app` (a router mounted at `/stats`; paths below are relative). */
export function addStatsRoutes(app: Express, deps: StatsRouteDeps): void {
  const { stats } = deps;
  const router = Router();
  const cached = createCachedLoader(deps.kv, {
    ttlSeconds: deps.cacheTtlSeconds,
    logger: deps.logger,
    staleEntries: STALE_ENTRIES,
    classifyError: classifyDatabaseError,
  });
  // Clients and CDNs may keep an answer as long as this process does (docs/api.md "Compression
  // and HTTP caching"); with the cache off they revalidate every time.
  const ttl = deps.cacheTtlSeconds;
  const cacheControl = ttl > 0 ? `public, max-age=${ttl}` : 'no-cache';
  const respond = async (
    req: Request,
    res: Response,
    key: string,
    load: () => Promise<unknown>,
  ): Promise<void> => {
    const result = await cached.lookup(
      `stats:${key}`,
      async () => stringifyJson(await load()),
      textCodec,
    );
    res.setHeader('Cache-Status', cacheStatus(CACHE_NAME, result));
    sendCacheableJson(req, res, result.value, cacheControl);
  };
  /** The current bucket is part of series keys, so a cached series never spans two buckets. */
  const seriesKey = (period: Period) => stats.currentBucket(period).toString();

  router.get('/mainnet/volumes', async (req, res) => {
    const query = parseQuery(VolumesQuery, req.query);
    const senders = query.senders ?? [];
    if (senders.length === 0) {
      await respond(req, res, 'mainnet:volume', () => stats.totalVolume());
      return;
    }
    const digest = createHash('sha256')
      .update([...senders].sort().join(','))
      .digest('hex');
    await respond(req, res, `mainnet:user-volume:${digest}`, () => stats.sendersVolume(senders));
  });

  router.get('/mainnet/volumes/hourly', async (req, res) => {
    const { limit } = parseQuery(HourlyQuery, req.query);
    await respond(req, res, `mainnet:volumes:hourly:${limit}:${seriesKey('hourly')}`, () =>
      stats.volumeSeries('hourly', limit),
    );
  });

  router.get('/mainnet/volumes/daily', async (req, res) => {
    const { limit } = parseQuery(DailyQuery, req.query);
    await respond(req, res, `mainnet:volumes:daily:${limit}:${seriesKey('daily')}`, () =>
      stats.volumeSeries('daily', limit),
    );
  });

  router.get('/mainnet/fees', async (req, res) => {
    const { period, limit, offset } = parseQuery(FeesQuery, req.query);
    await respond(req, res, `mainnet:fees:${period}:${limit}:${offset}:${seriesKey(period)}`, () =>
      stats.feeSeries(period, limit, offset),
    );
  });

  router.get('/mainnet/transactions', async (req, res) => {
    parseQuery(NoQuery, req.query);
    await respond(req, res, 'mainnet:transactions', () => stats.transactionCount());
  });

  router.get('/mainnet/chain-shares', async (req, res) => {
    parseQuery(NoQuery, req.query);
    await respond(req, res, 'mainnet:chain-shares', () => stats.chainShares());
  });

  const wallets = (network: TransferNetwork) =>
    async function handler(req: Request, res: Response): Promise<void> {
      parseQuery(NoQuery, req.query);
      await respond(req, res, `${network}:wallets`, () => stats.uniqueSenders(network));
    };
  router.get('/mainnet/wallets', wallets('mainnet'));
  router.get('/wallets', wallets('testnet'));
  mountRouter(app, '/stats', router);
}
