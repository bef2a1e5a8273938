/**
 * Typed client of the Monitoring API's transfer records (docs/api.md "Transaction feeds" and
 * "Transaction by hash (either leg)"), amounts read losslessly as bigint.
 */
import { TransactionPage, type TransactionRecord } from '@ctss/domain-types';
import { ApiProblemError } from './errors.js';
import { getJson, normalizeBase, type CallOptions, type HttpOptions } from './http.js';

/** Filters of the mainnet feed (docs/api.md "Transaction feeds"); times in UNIX seconds. */
export interface FeedQuery {
  readonly senders?: readonly string[];
  readonly recipients?: readonly string[];
  readonly addr_or_tx_hash?: string;
  readonly source_domain?: number;
  readonly destination_domain?: number;
  readonly domain?: number;
  readonly status?: 'pending' | 'success' | 'failed';
  readonly start_time?: number;
  readonly end_time?: number;
  readonly limit?: number;
  readonly cursor?: string;
}

/** Client of one Monitoring API deployment. */
export class MonitoringClient {
  readonly baseUrl: string;

  /** @param baseUrl e.g. `http://localhost:3000`. @throws {TypeError} for a non-http(s) URL. */
  constructor(
    baseUrl: string,
    readonly http: HttpOptions = {},
  ) {
    this.baseUrl = normalizeBase(baseUrl);
  }

  /**
   * `GET /transactionsmainnet`: one keyset page.
   *
   * @throws {ApiProblemError} 400 `INVALID_QUERY`/`INVALID_CURSOR`/`INVALID_NAME`, 429, 503.
   */
  transactions(query: FeedQuery = {}, call?: CallOptions): Promise<TransactionPage> {
    const q = new URLSearchParams();
    for (const [key, value] of Object.entries(query)) {
      if (value === undefined) continue;
      q.set(key, Array.isArray(value) ? value.join(',') : String(value));
    }
    const qs = q.size > 0 ? `?${q.toString()}` : '';
    return getJson(`${this.baseUrl}/transactionsmainnet${qs}`, TransactionPage, this.http, call);
  }

  /**
   * `GET /transactionsmainnet/{hash}`: the records whose origin or destination transaction is
   * `hash`, newest first; an empty list when none is indexed yet (the API's 404 `NOT_FOUND`).
   *
   * @throws {ApiProblemError} 400 `INVALID_QUERY` for a malformed hash, 429, 503.
   */
  async byHash(hash: string, call?: CallOptions): Promise<TransactionRecord[]> {
    try {
      const page = await getJson(
        `${this.baseUrl}/transactionsmainnet/${encodeURIComponent(hash)}`,
        TransactionPage,
        this.http,
        call,
      );
      return page.transactions;
    } catch (err) {
      if (err instanceof ApiProblemError && err.status === 404 && err.code === 'NOT_FOUND')
        return [];
      throw err;
    }
  }
}
