/**
 * The Iris request budget shared by every indexer process (docs/indexer.md "Attestation"): one
 * row of `iris_rate` holds the next free request slot. Taking a slot is one atomic statement
 * (`insert ... on conflict do update`) that moves the row one spacing (`1 / ratePerSecond` s)
 * past `max(next slot, now)` and answers how long the caller waits for the slot it got, so
 * replicas reserve slots on one timeline and together stay within the rate, whatever their
 * number. The database clock is the only clock involved. A 429 moves the slot past the pause
 * for everyone.
 */
import type { Queryable } from '../db/statements.js';
import type { RateGate } from './iris.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A {@link RateGate} stored in PostgreSQL (table `iris_rate`, migration 20261202000200). */
export class PgRateGate implements RateGate {
  private readonly spacingSeconds: number;

  /**
   * @param db the primary (the row is written on every request).
   * @param ratePerSecond requests per second for all processes together (> 0).
   * @param name the budget's row; one per Iris host.
   */
  constructor(
    private readonly db: Queryable,
    ratePerSecond: number,
    private readonly name = 'iris',
  ) {
    this.spacingSeconds = 1 / ratePerSecond;
  }

  /** Reserves the next slot and waits for it. @throws database errors. */
  async acquire(): Promise<void> {
    const row = await this.db.first<{ wait_ms: string }>(
      `insert into iris_rate as r (name, next_at)
       values ($1, clock_timestamp() + make_interval(secs => $2))
       on conflict (name) do update
         set next_at = greatest(r.next_at, clock_timestamp()) + make_interval(secs => $2)
       returning greatest(0, extract(epoch from (r.next_at - clock_timestamp())) - $2) * 1000
         as wait_ms`,
      [this.name, this.spacingSeconds],
    );
    const wait = Number(row?.wait_ms ?? 0);
    if (wait > 0) await sleep(wait);
  }

  /** Holds every process's slots for `ms` from now. @throws database errors. */
  async pause(ms: number): Promise<void> {
    await this.db.execute(
      `insert into iris_rate as r (name, next_at)
       values ($1, clock_timestamp() + make_interval(secs => $2))
       on conflict (name) do update
         set next_at = greatest(r.next_at, clock_timestamp() + make_interval(secs => $2))`,
      [this.name, ms / 1000],
    );
  }
}
