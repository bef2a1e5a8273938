/**
 * SQL of the statistics (docs/decisions.md "D29. Statistics from trigger-kept rollups",
 * "D30. Statistics defaults and buckets"). Lifetime
 * totals, distinct senders and chain shares read the trigger-kept `tx_network_totals` /
 * `tx_domain_totals` rows; series read `tx_hourly_rollups` or `tx_daily_rollups` (also kept exact
 * by triggers), so their cost is the number of buckets, not of transactions. Only the per-sender volume
 * reads raw rows, through the sender index. Sums come back as decimal strings and are parsed
 * with BigInt; `_usd` floats are computed from them at the edge.
 */
import type { Queryable } from '../db/statements.js';
import { prepare, type PreparedStatement } from '../db/statements.js';
import type { TransferNetwork } from '@ctss/domain-types';

/** Bucket width of a series. */
export type Period = 'hourly' | 'daily';

/** Bucket width of each period, milliseconds. */
export const PERIOD_MS: Record<Period, number> = { hourly: 3_600_000, daily: 86_400_000 };

/** One bucket of a series; amounts in base units. */
export interface SeriesBucket {
  /** Start of the UTC-aligned bucket. */
  readonly start: Date;
  readonly volume: bigint;
  /** Sum of deposit_amount - receive_amount. */
  readonly fee: bigint;
  readonly relayerFee: bigint;
}

/**
 * The start of the UTC bucket holding `now`, minus `offset` buckets: the newest bucket of a series.
 */
function newestBucketStart(now: Date, period: Period, offset = 0): Date {
  const width = PERIOD_MS[period];
  return new Date(Math.floor(now.getTime() / width) * width - offset * width);
}

/**
 * The series statements per period. The rollup rows of the range are aggregated first (primary
 * key range scan), then attached to the generated buckets by equality, so the cost is the number
 * of rollup rows in the range. Daily buckets read the daily rollups (one row per day), hourly ones
 * the hourly rollups. `$1` network, `$2`/`$3` rollup range, `$4`/`$5`/`$6` generate_series.
 */
const SERIES: Record<Period, PreparedStatement> = {
  hourly:
    seriesStatement(`select bucket, sum(volume) as volume, sum(fee) as fee, sum(relayer_fee) as relayer_fee
           from tx_hourly_rollups
          where network = $1 and bucket >= $2 and bucket < $3
          group by bucket`),
  daily: seriesStatement(`select bucket, volume, fee, relayer_fee
           from tx_daily_rollups
          where network = $1 and bucket >= $2 and bucket < $3`),
};

function seriesStatement(source: string): PreparedStatement {
  return prepare(
    'stats_series',
    `with agg as (${source})
     select g.bucket,
            coalesce(agg.volume, 0)::text as volume,
            coalesce(agg.fee, 0)::text as fee,
            coalesce(agg.relayer_fee, 0)::text as relayer_fee
       from generate_series($4::timestamptz, $5::timestamptz, $6::interval) as g(bucket)
       left join agg on agg.bucket = g.bucket
      order by g.bucket`,
  );
}

/**
 * The `count` buckets of width `period` ending with the bucket `offset` buckets before the one
 * holding `now`, oldest first; buckets without transfers are zero (generate_series).
 */
export async function volumeSeries(
  db: Queryable,
  network: TransferNetwork,
  period: Period,
  count: number,
  now: Date,
  offset = 0,
): Promise<SeriesBucket[]> {
  const width = PERIOD_MS[period];
  const last = newestBucketStart(now, period, offset);
  const first = new Date(last.getTime() - (count - 1) * width);
  const interval = period === 'hourly' ? '1 hour' : '24 hours';
  const end = new Date(last.getTime() + width);
  const rows = await db.rows<{
    bucket: Date;
    volume: string;
    fee: string;
    relayer_fee: string;
  }>(SERIES[period], [network, first, end, first, last, interval]);
  return rows.map((row) => ({
    start: new Date(row.bucket),
    volume: BigInt(row.volume),
    fee: BigInt(row.fee),
    relayerFee: BigInt(row.relayer_fee),
  }));
}

const NETWORK_TOTALS = prepare(
  'stats_totals',
  `select volume::text as volume, tx_count::text as count, senders::text as senders
     from tx_network_totals where network = $1`,
);

const DOMAIN_TOTALS = prepare(
  'stats_domains',
  `select source_domain, volume::text as amount
     from tx_domain_totals where network = $1
    order by volume desc, source_domain`,
);

/**
 * Lifetime totals of a network from its trigger-kept `tx_network_totals` row: volume
 * (sum deposit_amount, base units), record count and distinct senders (zero without a row).
 */
export async function networkTotals(
  db: Queryable,
  network: TransferNetwork,
): Promise<{ volume: bigint; count: bigint; senders: bigint }> {
  const [row] = await db.rows<{ volume: string; count: string; senders: string }>(NETWORK_TOTALS, [
    network,
  ]);
  return {
    volume: BigInt(row?.volume ?? '0'),
    count: BigInt(row?.count ?? '0'),
    senders: BigInt(row?.senders ?? '0'),
  };
}

/** Lifetime volume per source domain, largest first (chain shares). */
export async function volumeBySourceDomain(
  db: Queryable,
  network: TransferNetwork,
): Promise<{ domain: number; amount: bigint }[]> {
  const rows = await db.rows<{ source_domain: string; amount: string }>(DOMAIN_TOTALS, [network]);
  return rows.map((row) => ({
    domain: Number(row.source_domain),
    amount: BigInt(row.amount),
  }));
}

/** `$1` network, `$2` the senders (text[]): their lifetime volume, through the sender index. */
const SENDERS_VOLUME = `select coalesce(sum(deposit_amount), 0)::text as volume
     from transactions where network = $1 and sender = any($2::text[])`;

/** Lifetime volume (sum deposit_amount, base units) of the given normalized sender addresses. */
export async function sendersVolume(
  db: Queryable,
  network: TransferNetwork,
  senders: readonly string[],
): Promise<bigint> {
  if (senders.length === 0) return 0n;
  const row = await db.first<{ volume: string }>(SENDERS_VOLUME, [network, [...senders]]);
  return BigInt(row?.volume ?? '0');
}

/** Number of distinct senders of a network (the trigger-kept count in `tx_network_totals`). */
export async function uniqueSenders(db: Queryable, network: TransferNetwork): Promise<number> {
  return Number((await networkTotals(db, network)).senders);
}
