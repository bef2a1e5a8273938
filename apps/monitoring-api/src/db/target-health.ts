/**
 * Whether each database target (the primary, each read replica) serves statements, as opposed to
 * merely accepting connections (docs/operations.md "A database target failing"): a target whose
 * statements keep failing with errors of the server while `select 1` still answers is reported
 * `failing` in `GET /health` and in `/metrics`, instead of looking healthy. A lost connection is
 * the circuit breaker's business (db/circuit-breaker.ts) and is reported `unreachable`.
 * SQLSTATE codes: PostgreSQL manual, appendix A "PostgreSQL Error Codes".
 */
import { Counter, Gauge, type Registry } from 'prom-client';

/**
 * A target is `failing` when at least this many of its {@link RECENT_STATEMENTS} last statements
 * of the last {@link RECENT_MS} failed with errors of the server. Not "in a row": statements that
 * still work (a readiness `select 1`) must not hide those that keep failing.
 */
export const FAILING_AFTER = 3;
/** How many of a target's last statements count. */
export const RECENT_STATEMENTS = 20;
/** How far back a failure counts, milliseconds. */
export const RECENT_MS = 60_000;

/**
 * SQLSTATEs that say nothing about the target: class 23 (integrity constraint: a conflict the
 * caller handles, such as a wallet bound twice), class 40 (transaction rollback: serialization
 * failure, deadlock; retried) and 57014 query_canceled (a statement timeout under load).
 */
const NOT_THE_TARGET = /^(23|40)|^57014$/;

/** One target's state as `GET /health` reports it. */
export interface TargetReport {
  /** `primary`, or `replica-<n>` for the n-th URL of DATABASE_READ_URLS (0-based). */
  readonly target: string;
  /**
   * `ok`; `failing`: {@link FAILING_AFTER} or more of its recent statements failed with errors
   * of the server; `unreachable`: its circuit breaker is open (connections are being lost) or, for
   * a replica, its last probe failed.
   */
  readonly status: 'ok' | 'failing' | 'unreachable';
  /**
   * Of its last {@link RECENT_STATEMENTS} statements within {@link RECENT_MS}, how many failed
   * with an error of the server that counts against it.
   */
  readonly recent_failures: number;
  /** SQLSTATE of the last failure (absent when none failed since start). */
  readonly last_error_code?: string;
}

/** Counts of one target. */
interface TargetState {
  /** Outcomes of the last statements, oldest first: the time of a failure, or 0 for an answer. */
  recent: number[];
  lastCode?: string;
  reachable?: () => boolean;
}

/**
 * The statement outcomes of every target of one process's pools (db/connect.ts
 * `createDatabases` feeds it).
 */
export class DatabaseHealth {
  readonly #targets = new Map<string, TargetState>();
  readonly #now: () => number;
  #errors: Counter<'target' | 'code'> | undefined;

  /**
   * @param targets names of the targets reported even before their first statement.
   * @param now the clock, epoch milliseconds.
   */
  constructor(targets: readonly string[] = ['primary'], now: () => number = Date.now) {
    this.#now = now;
    for (const target of targets) this.#state(target);
  }

  #state(target: string): TargetState {
    let state = this.#targets.get(target);
    if (state === undefined) {
      state = { recent: [] };
      this.#targets.set(target, state);
    }
    return state;
  }

  /**
   * Reports `target` `unreachable` while `reachable()` is false (its circuit breaker is open, or
   * the replica failed its last probe).
   */
  watchReachable(target: string, reachable: () => boolean): void {
    this.#state(target).reachable = reachable;
  }

  /** Appends an outcome (0: answered; else the failure's time) to `target`'s recent ones. */
  #record(target: string, outcome: number): void {
    const { recent } = this.#state(target);
    recent.push(outcome);
    if (recent.length > RECENT_STATEMENTS) recent.shift();
  }

  /** A statement on `target` was answered. */
  answered(target: string): void {
    this.#record(target, 0);
  }

  /**
   * A statement on `target` failed with the server error `code` (a SQLSTATE); codes that say
   * nothing about the target (constraint conflicts, rollbacks, statement timeouts) are ignored.
   */
  failed(target: string, code: string): void {
    if (NOT_THE_TARGET.test(code)) return;
    this.#record(target, this.#now());
    this.#state(target).lastCode = code;
    this.#errors?.inc({ target, code });
  }

  /** Every target's state, primary first. */
  report(): TargetReport[] {
    const since = this.#now() - RECENT_MS;
    return [...this.#targets].map(([target, state]) => {
      const failures = state.recent.filter((at) => at > 0 && at >= since).length;
      return {
        target,
        status:
          state.reachable !== undefined && !state.reachable()
            ? 'unreachable'
            : failures >= FAILING_AFTER
              ? 'failing'
              : 'ok',
        recent_failures: failures,
        ...(state.lastCode === undefined ? {} : { last_error_code: state.lastCode }),
      };
    });
  }

  /**
   * Registers in `registry`: `<prefix>database_target_up{target}` (1 when `ok`, read at scrape
   * time) and `<prefix>database_statement_errors_total{target,code}` (server errors counted
   * towards `failing`).
   *
   * @throws Error (prom-client) when `registry` already holds a metric of one of these names.
   */
  registerMetrics(registry: Registry, prefix: string): void {
    const report = () => this.report();
    new Gauge({
      name: `${prefix}database_target_up`,
      help: 'Whether a database target serves statements (1) or is failing or unreachable (0), by target',
      labelNames: ['target'],
      registers: [registry],
      collect() {
        for (const each of report())
          this.set({ target: each.target }, each.status === 'ok' ? 1 : 0);
      },
    });
    this.#errors = new Counter({
      name: `${prefix}database_statement_errors_total`,
      help: 'Statements failed with an error of the server that counts against its target, by target and SQLSTATE',
      labelNames: ['target', 'code'],
      registers: [registry],
    });
  }
}
