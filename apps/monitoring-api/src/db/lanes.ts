/**
 * Pipelined connections for the named statements of the hot read paths (docs/architecture.md
 * "Database layer"). With node-postgres `pipeline: true` a statement is written without waiting
 * for the ones before it to finish, so the server reads several per wake-up instead of sleeping
 * between them (PostgreSQL protocol "Pipelining"; on this project's benchmark machine a wake-up
 * costs PostgreSQL more than a feed page's query itself: packages/bench/FINDINGS.md).
 */

/**
 * A pool connection the statements in flight share.
 *
 * @typeParam C what the lane's connection is (db/database.ts: a pool client and its target).
 */
export interface Lane<C> {
  /** The pool connection, once acquired (statements joining the lane wait for it too). */
  readonly connection: Promise<C>;
  /** Statements on the lane and not yet answered. */
  inflight: number;
}

/**
 * The lanes of one database handle: at most `max` of its pool connections carry pipelined
 * statements. The pool's connections must be created with node-postgres `pipeline: true`
 * (db/database.ts does both from `pipelineLanes`).
 *
 * Keep `max` below the pool size: the other connections serve the other statements while the
 * lanes are busy. PostgreSQL runs one statement per connection at a time, so more lanes than the
 * server's cores add no parallelism, only fewer statements per wake-up.
 */
export class PipelineLanes<C> {
  readonly #open: Lane<C>[] = [];

  /** @param max most connections used as lanes (at least 1). */
  constructor(readonly max: number) {}

  /**
   * The lane a statement runs on: an idle lane, else a new connection from `acquire` while fewer
   * than `max` lanes are open, else the least busy lane (pipelined behind the statements on it),
   * the way postgres.js picks connections.
   */
  take(acquire: () => Promise<C>): Lane<C> {
    let least: Lane<C> | undefined;
    for (const lane of this.#open) {
      if (least === undefined || lane.inflight < least.inflight) least = lane;
    }
    if (least !== undefined && (least.inflight === 0 || this.#open.length >= this.max)) {
      least.inflight += 1;
      return least;
    }
    const lane: Lane<C> = { connection: acquire(), inflight: 1 };
    this.#open.push(lane);
    return lane;
  }

  /** Takes `lane` out of the open lanes (no new statement goes to it). */
  drop(lane: Lane<C>): void {
    const index = this.#open.indexOf(lane);
    if (index >= 0) this.#open.splice(index, 1);
  }
}
