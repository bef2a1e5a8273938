/**
 * Circle's Iris attestation API (docs/indexer.md "Attestation"): `GET /v2/messages/{sourceDomain}
 * ?transactionHash=0x...` and v1 `GET /v1/messages/{sourceDomain}/{txHash}`
 * (https://developers.circle.com/api-reference/cctp/all/get-messages-v2). A 404 means Iris has
 * not observed the transaction yet (https://developers.circle.com/cctp/howtos/resolve-stuck-attestation).
 * Every request first takes a slot of a {@link RateGate}: the PostgreSQL one (iris-budget.ts)
 * shares `IRIS_RATE_PER_SECOND` between every indexer process; Circle's published limit is 35
 * requests per second, above which it blocks every request for 5 minutes with 429
 * (https://developers.circle.com/cctp/v1/cctp-apis "API Service Rate Limit"). A 429 pauses the
 * gate for `Retry-After`, or for those 5 minutes when Iris sends none.
 */

import type { Clock } from '../clock.js';

/** Pause after a 429 without `Retry-After`: Circle's documented block of 5 minutes, ms. */
const IRIS_BLOCK_MS = 300_000;

/**
 * Spaces requests to a rate: `acquire()` resolves when the caller may send one request;
 * `pause(ms)` holds every caller for `ms` from now.
 */
export interface RateGate {
  /** Waits for the next request slot. @throws the gate's storage errors (database). */
  acquire(): Promise<void>;
  /** Holds every slot for `ms` milliseconds from now. @throws the gate's storage errors. */
  pause(ms: number): Promise<void>;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A {@link RateGate} of this process only: one slot every `1000 / ratePerSecond` ms. */
class LocalRateGate implements RateGate {
  private nextAt = 0;

  /**
   * @param ratePerSecond requests per second (> 0).
   * @param clock the time the slots are counted in (ms since epoch).
   */
  constructor(
    private readonly ratePerSecond: number,
    private readonly clock: Clock,
  ) {}

  async acquire(): Promise<void> {
    const now = this.clock();
    const at = Math.max(now, this.nextAt);
    this.nextAt = at + Math.ceil(1000 / this.ratePerSecond);
    if (at > now) await sleep(at - now);
  }

  pause(ms: number): Promise<void> {
    this.nextAt = Math.max(this.nextAt, this.clock() + ms);
    return Promise.resolve();
  }
}

/** One message of an Iris answer, the fields the indexer reads. */
export interface IrisMessage {
  /** The attested message (0x hex); v2 carries the assigned nonce. */
  readonly message: string;
  /** v1: decimal nonce; v2: bytes32 0x hex. */
  readonly eventNonce: string;
  /** `PENDING` until attested, then 0x hex. */
  readonly attestation: string;
  /** v2: `pending_confirmations` or `complete`; absent in v1 answers. */
  readonly status?: string;
}

/** Whether an Iris message is attested. */
export function isAttested(m: IrisMessage): boolean {
  return m.status === undefined
    ? m.attestation !== 'PENDING' && /^0x[0-9a-fA-F]+$/.test(m.attestation)
    : m.status === 'complete' && m.attestation !== 'PENDING';
}

/**
 * What went wrong with an Iris request: `unreachable` (network error or timeout), `rate_limited`
 * (429; the gate is paused), `status` (another non-2xx answer), `body` (an answer without
 * `messages`).
 */
export type IrisErrorKind = 'unreachable' | 'rate_limited' | 'status' | 'body';

/** Thrown for an Iris answer the client cannot use; {@link IrisError.kind} says which. */
export class IrisError extends Error {
  constructor(
    readonly kind: IrisErrorKind,
    message: string,
  ) {
    super(message);
    this.name = 'IrisError';
  }
}

/** An Iris client whose requests go through a {@link RateGate}. */
export class IrisClient {
  private readonly gate: RateGate;
  /** Requests sent by this client (for tests and metrics). */
  requests = 0;

  /**
   * @param baseUrl e.g. `https://iris-api.circle.com` (no trailing slash).
   * @param rate a shared {@link RateGate}, or requests per second of a {@link LocalRateGate}.
   * @param timeoutMs per-request timeout.
   * @param clock the time a {@link LocalRateGate} counts its slots in (ms since epoch).
   */
  constructor(
    private readonly baseUrl: string,
    rate: RateGate | number,
    private readonly timeoutMs = 10_000,
    clock: Clock = Date.now,
  ) {
    this.gate = typeof rate === 'number' ? new LocalRateGate(rate, clock) : rate;
  }

  /**
   * The messages of an origin transaction.
   *
   * @returns the messages, or `[]` when Iris does not know the transaction yet (404).
   * @throws {IrisError} on 429 (after pausing the gate), 5xx, a timeout or an unexpected body;
   *   the gate's own errors (database) as they are.
   */
  async messages(version: 1 | 2, sourceDomain: number, txHash: string): Promise<IrisMessage[]> {
    await this.gate.acquire();
    const url =
      version === 2
        ? `${this.baseUrl}/v2/messages/${sourceDomain}?transactionHash=${txHash}`
        : `${this.baseUrl}/v1/messages/${sourceDomain}/${txHash}`;
    this.requests++;
    let res: Response;
    try {
      res = await fetch(url, { signal: AbortSignal.timeout(this.timeoutMs) });
    } catch (error) {
      throw new IrisError('unreachable', `Iris unreachable: ${(error as Error).message}`);
    }
    if (res.status === 404) {
      await res.body?.cancel();
      return [];
    }
    if (res.status === 429) {
      const retryAfter = Number(res.headers.get('retry-after'));
      const pauseMs =
        Number.isFinite(retryAfter) && retryAfter > 0 ? retryAfter * 1000 : IRIS_BLOCK_MS;
      await res.body?.cancel();
      await this.gate.pause(pauseMs);
      throw new IrisError('rate_limited', `Iris rate limited: paused ${pauseMs} ms`);
    }
    if (!res.ok) {
      await res.body?.cancel();
      throw new IrisError('status', `Iris answered ${res.status}`);
    }
    const body = (await res.json()) as { messages?: unknown };
    if (!Array.isArray(body.messages)) throw new IrisError('body', 'Iris answer without messages');
    return body.messages.filter(
      (m): m is IrisMessage =>
        typeof m === 'object' &&
        m !== null &&
        typeof (m as IrisMessage).attestation === 'string' &&
        typeof (m as IrisMessage).eventNonce === 'string',
    );
  }
}
