/**
 * Binding nonces (docs/decisions.md "D11. Binding message and nonce rules"): random, single-use, bound to (username, address,
 * chain_type), expiring at `expires_at`, stored in the KvStore (Redis in production) and consumed
 * atomically (GETDEL), so one nonce binds or unbinds at most once across every replica. Without
 * the store there is no nonce to issue or check: its loss is 503 DEPENDENCY_UNAVAILABLE with
 * `Retry-After`, answered as fast as the store fails (bounded by its command timeout).
 */
import { randomBytes } from 'node:crypto';
import { DependencyUnavailableError, KV_RETRY_AFTER_SECONDS, type KvStore } from '@ctss/server-kit';
import { z } from 'zod';

/** What a nonce was issued for. */
export const NonceGrant = z.object({
  username: z.string(),
  chain_type: z.enum(['evm', 'solana', 'sui', 'aptos']),
  address_key: z.string(),
  message: z.string(),
  /** Expiry, ms since the epoch (checked against the app clock as well as the store TTL). */
  expires_at_ms: z.number(),
});
export type NonceGrant = z.infer<typeof NonceGrant>;

/**
 * The exact text to sign (docs/decisions.md "D11. Binding message and nonce rules"):
 * `Wallet binding request: <username>\nNonce: <nonce>`.
 */
export function bindingMessage(username: string, nonce: string): string {
  return `Wallet binding request: ${username}\nNonce: ${nonce}`;
}

/** Extracts the nonce from a binding message, or undefined when the text is not one. */
export function nonceOfMessage(message: string): string | undefined {
  const match = /^Wallet binding request: [^\n]+\nNonce: ([0-9a-f]{32})$/.exec(message);
  return match?.[1];
}

const keyOf = (nonce: string) => `binding-nonce:${nonce}`;

/**
 * Runs one store operation; a failure of the store (unreachable, too slow) becomes
 * DependencyUnavailableError (503 with Retry-After), whatever the store threw.
 */
async function storeCall<T>(op: () => Promise<T>): Promise<T> {
  try {
    return await op();
  } catch (err) {
    if (err instanceof DependencyUnavailableError) throw err;
    const unavailable = new DependencyUnavailableError('the nonce store', KV_RETRY_AFTER_SECONDS);
    unavailable.cause = err;
    throw unavailable;
  }
}

/** Issues and consumes nonces in a KvStore. */
export class NonceStore {
  constructor(
    private readonly kv: KvStore,
    private readonly ttlSeconds: number,
  ) {}

  /**
   * Issues a fresh nonce for (username, chain, address) valid for ttlSeconds from `now`.
   * @throws DependencyUnavailableError when the store does not answer.
   */
  async issue(
    grant: Omit<NonceGrant, 'message' | 'expires_at_ms'>,
    now: Date,
  ): Promise<{ nonce: string; message: string; expiresAt: Date }> {
    const nonce = randomBytes(16).toString('hex');
    const expiresAt = new Date(now.getTime() + this.ttlSeconds * 1000);
    const message = bindingMessage(grant.username, nonce);
    const record: NonceGrant = { ...grant, message, expires_at_ms: expiresAt.getTime() };
    // NX: a collision of 128 random bits would be a bug elsewhere; never overwrite a live grant.
    const stored = await storeCall(() =>
      this.kv.setIfAbsent(keyOf(nonce), JSON.stringify(record), this.ttlSeconds),
    );
    if (!stored) throw new Error('nonce collision');
    return { nonce, message, expiresAt };
  }

  /**
   * Reads a grant without consuming it; undefined when unknown, used or expired at `now`.
   * @throws DependencyUnavailableError when the store does not answer.
   */
  async peek(nonce: string, now: Date): Promise<NonceGrant | undefined> {
    const raw = await storeCall(() => this.kv.get(keyOf(nonce)));
    return this.decode(raw, now);
  }

  /**
   * Takes a grant atomically: the first caller gets it, every later caller gets undefined.
   * @throws DependencyUnavailableError when the store does not answer.
   */
  async consume(nonce: string, now: Date): Promise<NonceGrant | undefined> {
    const raw = await storeCall(() => this.kv.getDel(keyOf(nonce)));
    return this.decode(raw, now);
  }

  private decode(raw: string | null, now: Date): NonceGrant | undefined {
    if (raw === null) return undefined;
    const parsed = NonceGrant.safeParse(JSON.parse(raw));
    if (!parsed.success) return undefined;
    return parsed.data.expires_at_ms > now.getTime() ? parsed.data : undefined;
  }
}
