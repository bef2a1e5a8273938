/**
 * A small circuit breaker in front of a database pool, so that while the database is known to be
 * down requests fail at once (503 DEPENDENCY_UNAVAILABLE) instead of each waiting for a connect
 * or read timeout, and the process recovers by itself when it comes back
 * (apps/monitoring-api/README.md "Database outages"). The pattern: M. Nygard, "Release It!",
 * "Circuit Breaker".
 *
 * - closed: everything passes. `failureThreshold` consecutive connection failures (no answer
 *   from the server in between) open it.
 * - open: {@link CircuitBreaker.admit} throws. With a `probe` function, it runs every `openMs`,
 *   one at a time, in the background, and closes the breaker when it succeeds: no request ever
 *   waits for a dead server. Without one, after `openMs` the next request is admitted as the one
 *   probe (half-open) while the others keep failing at once.
 * - half-open (no `probe` function): the probe request's outcome decides: any answer of the
 *   server closes the breaker, a connection failure opens it again for `openMs`. A probe that
 *   reports nothing within `probeTimeoutMs` no longer blocks the next one.
 *
 * Any answer of the server (a query of a request still in flight, say) closes it at once.
 *
 * Only lost connections count as failures: a pool busy under load (acquire timeout) or a slow
 * statement (statement timeout) is a live database and never opens the breaker.
 */
import { DependencyUnavailableError } from '@ctss/server-kit';
import type { Logger } from 'pino';

/** Options of {@link CircuitBreaker}; times in milliseconds. */
export interface CircuitBreakerOptions {
  /** Name in logs and in the 503 detail, e.g. `database`. */
  readonly name: string;
  /** Consecutive connection failures that open the breaker (default 3). */
  readonly failureThreshold?: number;
  /** How long it stays open before one probe is let through (default 500). */
  readonly openMs?: number;
  /** How long a probe request may go unreported before another is admitted (default 5000). */
  readonly probeTimeoutMs?: number;
  /**
   * Tests the database while open (resolves true when it answers; must settle within its own
   * timeouts); absent = a request is the probe.
   */
  readonly probe?: () => Promise<boolean>;
  readonly logger?: Logger;
  /** The clock, epoch milliseconds (tests may pass their own). */
  readonly now?: () => number;
}

/** The breaker's state (see the module comment). */
export type CircuitState = 'closed' | 'open' | 'half-open';

/** Counts connection failures and answers of one database and fails requests fast while it is down. */
export class CircuitBreaker {
  private readonly threshold: number;
  private readonly openMs: number;
  private readonly probeTimeoutMs: number;
  private readonly now: () => number;
  private failures = 0;
  private openedAt = 0;
  private probeAt: number | undefined;
  private current: CircuitState = 'closed';
  private timer: NodeJS.Timeout | undefined;
  private stopped = false;

  constructor(private readonly options: CircuitBreakerOptions) {
    this.threshold = options.failureThreshold ?? 3;
    this.openMs = options.openMs ?? 500;
    this.probeTimeoutMs = options.probeTimeoutMs ?? 5_000;
    this.now = options.now ?? Date.now;
  }

  /** The current state. */
  get state(): CircuitState {
    return this.current;
  }

  /**
   * Lets a request try the database, or refuses it.
   *
   * @throws DependencyUnavailableError (503, `Retry-After: 1`) while open, and while half-open
   *         with a probe in flight.
   */
  admit(): void {
    if (this.current === 'closed') return;
    if (this.options.probe) throw new DependencyUnavailableError(this.options.name);
    const now = this.now();
    if (this.current === 'open' && now - this.openedAt >= this.openMs) {
      this.current = 'half-open';
      this.probeAt = now;
      return;
    }
    if (this.current === 'half-open' && now - (this.probeAt ?? 0) >= this.probeTimeoutMs) {
      this.probeAt = now;
      return;
    }
    throw new DependencyUnavailableError(this.options.name);
  }

  /** The server answered (a query returned, or failed with an error of its own). */
  succeeded(): void {
    this.failures = 0;
    if (this.current === 'closed') return;
    this.current = 'closed';
    this.probeAt = undefined;
    this.options.logger?.info({ dependency: this.options.name }, 'database answers again');
  }

  /** A connection could not be made or was lost (db/unavailable.ts `isConnectionLost`). */
  failed(err?: unknown): void {
    this.failures += 1;
    if (
      this.current === 'half-open' ||
      (this.current === 'closed' && this.failures >= this.threshold)
    ) {
      if (this.current === 'closed') {
        this.options.logger?.warn(
          { dependency: this.options.name, err },
          'database unavailable: failing requests at once and probing for recovery',
        );
      }
      this.current = 'open';
      this.openedAt = this.now();
      this.probeAt = undefined;
      this.scheduleProbe();
    }
  }

  /** Stops background probing for good (the pool is being closed). */
  stop(): void {
    this.stopped = true;
    clearTimeout(this.timer);
    this.timer = undefined;
  }

  /** Runs the `probe` function `openMs` from now, unless one is already scheduled or running. */
  private scheduleProbe(): void {
    const { probe } = this.options;
    if (probe === undefined || this.timer !== undefined || this.stopped) return;
    this.timer = setTimeout(() => {
      void (async () => {
        const ok = await probe().catch(() => false);
        this.timer = undefined;
        if (this.current !== 'open') return;
        if (ok) this.succeeded();
        else this.scheduleProbe();
      })();
    }, this.openMs);
    this.timer.unref();
  }
}
