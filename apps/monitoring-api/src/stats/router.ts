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
  parseQuery,
  sendCacheableJson,
  stringifyJson,
  textCodec,
} from '@ctss/server-kit';
import { Router, type Request, type Response } from 'express';
import { classifyDatabaseError } from '../db/unavailable.js';
import type { AppDeps } from '../deps.js';
import type { Network } from '../network.js';
import { DailyQuery, FeesQuery, HourlyQuery, NoQuery, VolumesQuery } from './schemas.js';
import {
  networkTotals,
  sendersVolume,
  uniqueSenders,
  volumeBySourceDomain,
  volumeSeries,
  type Period,
} from './repository.js';

/** Base units (6 decimals) to a float of whole units, for `_usd` fields. */
const toUsd = (amount: bigint): number => Number(amount) / 1e6;

/** Keys whose last good body is kept for serving stale (a few hundred short JSON bodies). */
export const STALE_ENTRIES = 500;

/** The cache's name in `Cache-Status` (RFC 9211 section 2). */
const CACHE_NAME = 'monitoring-api';

/** The statistics router, mounted at `/stats` (its paths below are relative to it). */
export function createStatsRouter(deps: AppDeps): Router {
  const router = Router();
  const cached = createCachedLoader(deps.kv, {
    ttlSeconds: deps.config.CACHE_TTL_SECONDS,
    logger: deps.logger,
    staleEntries: STALE_ENTRIES,
    classifyError: classifyDatabaseError,
  });
  const db = () => deps.db.read;
  // Clients and CDNs may keep an answer as long as this process does (docs/api.md "Compression
  // and HTTP caching"); with the cache off they revalidate every time.
  const ttl = deps.config.CACHE_TTL_SECONDS;
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
  const series = (period: Period, limit: number, offset = 0) =>
    volumeSeries(db(), 'mainnet', period, limit, new Date(deps.clock()), offset);
  /** The newest-bucket start is part of series keys, so a cached series never spans two hours. */
  const bucketKey = (period: Period) => (period === 'hourly' ? 3_600_000 : 86_400_000);
  const seriesKey = (period: Period) => Math.floor(deps.clock() / bucketKey(period)).toString();

  router.get('/mainnet/volumes', async (req, res) => {
    const query = parseQuery(VolumesQuery, req.query);
    const senders = query.senders ?? [];
    if (senders.length === 0) {
      await respond(req, res, 'mainnet:volume', async () => ({
        total_volume: (await networkTotals(db(), 'mainnet')).volume,
        user_volume: null,
        volumes: null,
      }));
      return;
    }
    const digest = createHash('sha256')
      .update([...senders].sort().join(','))
      .digest('hex');
    await respond(req, res, `mainnet:user-volume:${digest}`, async () => ({
      user_volume: await sendersVolume(db(), 'mainnet', senders),
      volumes: null,
    }));
  });

  router.get('/mainnet/volumes/hourly', async (req, res) => {
    const { limit } = parseQuery(HourlyQuery, req.query);
    await respond(req, res, `mainnet:volumes:hourly:${limit}:${seriesKey('hourly')}`, async () => ({
      volumes: (await series('hourly', limit)).map((b) => ({
        bucket_start: b.start.toISOString(),
        total_volume_usd: toUsd(b.volume),
      })),
    }));
  });

  router.get('/mainnet/volumes/daily', async (req, res) => {
    const { limit } = parseQuery(DailyQuery, req.query);
    await respond(req, res, `mainnet:volumes:daily:${limit}:${seriesKey('daily')}`, async () => ({
      volumes: (await series('daily', limit)).map((b) => ({
        bucket_start: b.start.toISOString(),
        total_volume_usd: toUsd(b.volume),
      })),
    }));
  });

  router.get('/mainnet/fees', async (req, res) => {
    const { period, limit, offset } = parseQuery(FeesQuery, req.query);
    await respond(
      req,
      res,
      `mainnet:fees:${period}:${limit}:${offset}:${seriesKey(period)}`,
      async () => ({
        fees: (await series(period, limit, offset)).map((b) => ({
          bucket_start: b.start.toISOString(),
          total_fee_usd: toUsd(b.fee),
          total_relayer_fee_usd: toUsd(b.relayerFee),
        })),
        period_type: period,
        limit,
        offset,
      }),
    );
  });

  router.get('/mainnet/transactions', async (req, res) => {
    parseQuery(NoQuery, req.query);
    await respond(req, res, 'mainnet:transactions', async () => ({
      total_transactions: Number((await networkTotals(db(), 'mainnet')).count),
    }));
  });

  router.get('/mainnet/chain-shares', async (req, res) => {
    parseQuery(NoQuery, req.query);
    await respond(req, res, 'mainnet:chain-shares', async () => {
      const shares = await volumeBySourceDomain(db(), 'mainnet');
      const total = shares.reduce((sum, share) => sum + share.amount, 0n);
      return {
        chain_shares: shares.map((s) => ({
          domain: s.domain,
          amount: s.amount,
          total_amount: total,
        })),
      };
    });
  });

  const wallets = (network: Network) =>
    async function handler(req: Request, res: Response): Promise<void> {
      parseQuery(NoQuery, req.query);
      await respond(req, res, `${network}:wallets`, async () => ({
        unique_senders_count: await uniqueSenders(db(), network),
      }));
    };
  router.get('/mainnet/wallets', wallets('mainnet'));
  router.get('/wallets', wallets('testnet'));
  return router;
}
