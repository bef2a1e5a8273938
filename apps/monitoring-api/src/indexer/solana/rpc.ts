/**
 * The Solana JSON-RPC calls of the indexer (docs/indexer.md "Solana"), through `@solana/kit`'s
 * RPC client (https://solana.com/docs/rpc/http): `getSlot`, `getSignaturesForAddress` (newest
 * first, paged with `before` / `until`), `getTransaction` (`json` encoding,
 * `maxSupportedTransactionVersion: 0`, so versioned transactions with address lookup tables are
 * returned), `getMultipleAccounts` (`base64`) and `getBlockTime`. Each call goes to the
 * cluster's RPC URLs in order (the next one after a failure) with `rpcTimeoutMs` per request,
 * and the list is tried 3 times with a pause doubling from 150 ms.
 */
import {
  address,
  createSolanaRpc,
  signature as toSignature,
  type Rpc,
  type SolanaRpcApi,
} from '@solana/kit';
import type { SolanaTransaction } from './decode.js';

/** A commitment the indexer reads at. */
export type ReadCommitment = 'confirmed' | 'finalized';

/** One `getSignaturesForAddress` entry, numbers as bigint. */
export interface SignatureInfo {
  readonly signature: string;
  readonly slot: bigint;
  /** Whether the transaction failed (its events never happened). */
  readonly failed: boolean;
  /** UNIX seconds, null when unknown. */
  readonly blockTime: bigint | null;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The calls of {@link SolanaRpc} over a cluster's URLs. */
export class SolanaRpc {
  private readonly clients: Rpc<SolanaRpcApi>[];

  /**
   * @param urls JSON-RPC URLs, tried in order (at least one).
   * @param timeoutMs per-request timeout.
   */
  constructor(
    urls: readonly string[],
    private readonly timeoutMs: number,
  ) {
    this.clients = urls.map((url) => createSolanaRpc(url));
  }

  /** Requests made (every attempt counts), for metrics and tests. */
  requests = 0;

  private async call<T>(
    run: (rpc: Rpc<SolanaRpcApi>, abortSignal: AbortSignal) => Promise<T>,
  ): Promise<T> {
    let last: unknown;
    for (let round = 0; round < 3; round++) {
      for (const rpc of this.clients) {
        this.requests++;
        try {
          return await run(rpc, AbortSignal.timeout(this.timeoutMs));
        } catch (error) {
          last = error;
        }
      }
      await sleep(150 * 2 ** round);
    }
    throw last instanceof Error ? last : new Error(String(last));
  }

  /**
   * The slot at `commitment`.
   *
   * @throws the last RPC error after the retries.
   */
  slot(commitment: ReadCommitment): Promise<bigint> {
    return this.call((rpc, abortSignal) => rpc.getSlot({ commitment }).send({ abortSignal }));
  }

  /**
   * Signatures of transactions that touched `account`, newest first, strictly older than
   * `before` and newer than `until` (either absent: no bound), at most `limit` (1-1000).
   *
   * @throws the last RPC error after the retries.
   */
  async signatures(
    account: string,
    options: { before?: string; until?: string; limit: number; commitment: ReadCommitment },
  ): Promise<SignatureInfo[]> {
    const list = await this.call((rpc, abortSignal) =>
      rpc
        .getSignaturesForAddress(address(account), {
          limit: options.limit,
          commitment: options.commitment,
          ...(options.before ? { before: toSignature(options.before) } : {}),
          ...(options.until ? { until: toSignature(options.until) } : {}),
        } as { before: ReturnType<typeof toSignature> })
        .send({ abortSignal }),
    );
    return list.map((s) => ({
      signature: s.signature,
      slot: BigInt(s.slot),
      failed: s.err !== null,
      blockTime: s.blockTime === null ? null : BigInt(s.blockTime),
    }));
  }

  /**
   * A transaction at `commitment` (`json` encoding, versions up to 0).
   *
   * @returns null when the node does not have it at that commitment.
   * @throws the last RPC error after the retries.
   */
  async transaction(sig: string, commitment: ReadCommitment): Promise<SolanaTransaction | null> {
    const tx = await this.call((rpc, abortSignal) =>
      rpc
        .getTransaction(toSignature(sig), {
          commitment,
          encoding: 'json',
          maxSupportedTransactionVersion: 0,
        })
        .send({ abortSignal }),
    );
    return tx;
  }

  /**
   * The data of accounts at `commitment` (undefined for an account that does not exist, e.g.
   * closed), in the order asked; at most 100 per request.
   *
   * @throws the last RPC error after the retries.
   */
  async accountsData(
    accounts: readonly string[],
    commitment: ReadCommitment,
  ): Promise<(Uint8Array | undefined)[]> {
    const out: (Uint8Array | undefined)[] = [];
    for (let i = 0; i < accounts.length; i += 100) {
      const chunk = accounts.slice(i, i + 100);
      const answer = await this.call((rpc, abortSignal) =>
        rpc
          .getMultipleAccounts(
            chunk.map((a) => address(a)),
            { commitment, encoding: 'base64' },
          )
          .send({ abortSignal }),
      );
      for (const account of answer.value) {
        out.push(account ? Uint8Array.from(Buffer.from(account.data[0], 'base64')) : undefined);
      }
    }
    return out;
  }

  /**
   * The time of a slot, UNIX seconds.
   *
   * @returns null when the node has no time for it.
   * @throws the last RPC error after the retries.
   */
  async blockTime(slot: bigint): Promise<bigint | null> {
    const time = await this.call((rpc, abortSignal) =>
      rpc.getBlockTime(slot).send({ abortSignal }),
    );
    return time === null ? null : BigInt(time);
  }
}
