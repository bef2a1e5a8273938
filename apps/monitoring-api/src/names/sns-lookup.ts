/**
 * `.sol` names over Solana JSON-RPC: derive the name account (see sns.ts), `getAccountInfo` it
 * (base64), check that the SPL Name Service program owns it, and read the registry owner.
 */
import { z } from 'zod';
import { NAME_PROGRAM_ID, getSolDomainKey, readNameOwner } from './sns.js';

/** Options of {@link createSnsLookup}. */
export interface SnsLookupOptions {
  /** Solana JSON-RPC URL. */
  rpcUrl: string;
  /** Per-request timeout, milliseconds. */
  timeoutMs: number;
}

/** A JSON-RPC reply to `getAccountInfo` with `encoding: base64` (Solana RPC docs). */
const AccountInfoReply = z.union([
  z.object({
    result: z.object({
      value: z
        .object({ data: z.tuple([z.string(), z.literal('base64')]), owner: z.string() })
        .nullable(),
    }),
  }),
  z.object({ error: z.object({ code: z.number(), message: z.string() }) }),
]);

/** The Solana RPC could not be asked or answered with an error or an unexpected shape. */
class SolanaRpcError extends Error {
  constructor(detail: string, options?: { cause?: unknown }) {
    super(detail, options);
    this.name = 'SolanaRpcError';
  }
}

/**
 * Builds `lookup(normalizedName)` returning the owner wallet (base58) of a `.sol` name or null
 * when the name account does not exist, is not a name-service account or has no owner.
 *
 * @throws SolanaRpcError when the RPC fails.
 * @throws RangeError when the name has an invalid shape (see getSolDomainKey).
 */
export function createSnsLookup(
  options: SnsLookupOptions,
): (normalizedName: string) => Promise<string | null> {
  return async (name) => {
    const key = getSolDomainKey(name);
    let body: unknown;
    try {
      const response = await fetch(options.rpcUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          jsonrpc: '2.0',
          id: 1,
          method: 'getAccountInfo',
          params: [key, { encoding: 'base64', commitment: 'confirmed' }],
        }),
        signal: AbortSignal.timeout(options.timeoutMs),
      });
      if (!response.ok) throw new SolanaRpcError(`solana rpc answered HTTP ${response.status}`);
      body = await response.json();
    } catch (err) {
      if (err instanceof SolanaRpcError) throw err;
      throw new SolanaRpcError('solana rpc request failed', { cause: err });
    }
    const reply = AccountInfoReply.safeParse(body);
    if (!reply.success) throw new SolanaRpcError('solana rpc reply has an unexpected shape');
    if ('error' in reply.data)
      throw new SolanaRpcError(`solana rpc error ${reply.data.error.code}`);
    const account = reply.data.result.value;
    if (!account || account.owner !== NAME_PROGRAM_ID) return null;
    return readNameOwner(account.data[0]) ?? null;
  };
}
