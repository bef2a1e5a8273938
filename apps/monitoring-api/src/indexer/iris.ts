/**
 * Circle's Iris attestation API (docs/indexer.md "Attestation"): `GET /v2/messages/{sourceDomain}
 * ?transactionHash=0x...` and v1 `GET /v1/messages/{sourceDomain}/{txHash}`
 * (https://developers.circle.com/api-reference/cctp/all/get-messages-v-2). Requests are spaced to
 * stay under the configured rate (Circle asks for fewer than 10 per second); a 429 pauses every
 * request for `Retry-After` (or a doubling backoff).
 */

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

/** Thrown for an Iris answer the client cannot use (5xx, 429 after backoff, bad body). */
export class IrisError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'IrisError';
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** An Iris client with client-side rate limiting. */
export class IrisClient {
  private nextAt = 0;
  private backoffMs = 0;
  /** Requests sent (for tests and metrics). */
  requests = 0;

  /**
   * @param baseUrl e.g. `https://iris-api.circle.com` (no trailing slash).
   * @param ratePerSecond at most this many requests per second (1-9).
   * @param timeoutMs per-request timeout.
   */
  constructor(
    private readonly baseUrl: string,
    private readonly ratePerSecond: number,
    private readonly timeoutMs = 10_000,
  ) {}

  private async slot(): Promise<void> {
    const now = Date.now();
    const at = Math.max(now, this.nextAt);
    this.nextAt = at + Math.ceil(1000 / this.ratePerSecond);
    if (at > now) await sleep(at - now);
  }

  /**
   * The messages of an origin transaction.
   *
   * @returns the messages, or `[]` when Iris does not know the transaction yet (404).
   * @throws {IrisError} on 429 (after pausing), 5xx, a timeout or an unexpected body.
   */
  async messages(version: 1 | 2, sourceDomain: number, txHash: string): Promise<IrisMessage[]> {
    await this.slot();
    const url =
      version === 2
        ? `${this.baseUrl}/v2/messages/${sourceDomain}?transactionHash=${txHash}`
        : `${this.baseUrl}/v1/messages/${sourceDomain}/${txHash}`;
    this.requests++;
    let res: Response;
    try {
      res = await fetch(url, { signal: AbortSignal.timeout(this.timeoutMs) });
    } catch (error) {
      throw new IrisError(`Iris unreachable: ${(error as Error).message}`);
    }
    if (res.status === 404) {
      await res.body?.cancel();
      return [];
    }
    if (res.status === 429) {
      const retryAfter = Number(res.headers.get('retry-after'));
      this.backoffMs =
        Number.isFinite(retryAfter) && retryAfter > 0
          ? retryAfter * 1000
          : Math.min(Math.max(this.backoffMs * 2, 1000), 60_000);
      this.nextAt = Date.now() + this.backoffMs;
      await res.body?.cancel();
      throw new IrisError(`Iris rate limited: paused ${this.backoffMs} ms`);
    }
    this.backoffMs = 0;
    if (!res.ok) {
      await res.body?.cancel();
      throw new IrisError(`Iris answered ${res.status}`);
    }
    const body = (await res.json()) as { messages?: unknown };
    if (!Array.isArray(body.messages)) throw new IrisError('Iris answer without messages');
    return body.messages.filter(
      (m): m is IrisMessage =>
        typeof m === 'object' &&
        m !== null &&
        typeof (m as IrisMessage).attestation === 'string' &&
        typeof (m as IrisMessage).eventNonce === 'string',
    );
  }
}
