/**
 * The feed filter of a validated feed query (docs/api.md "Transaction feeds"): empty lists
 * dropped, `addr_or_tx_hash` resolved (a `.eth` / `.sol` name first) and normalized, the cursor
 * decoded.
 */
import { HttpProblem } from '@ctss/server-kit';
import type { NameResolver } from '../names/resolver.js';
import { addressParam } from '../params.js';
import { parseCursor } from './cursor.js';
import type { FeedFilter } from './repository.js';
import type { FeedQuery } from './schemas.js';

/** What building a filter uses: name resolution for `addr_or_tx_hash`. */
export interface FilterDeps {
  readonly names: Pick<NameResolver, 'isName' | 'resolve'>;
}

/**
 * Turns `addr_or_tx_hash` into the value compared with the address and hash columns: a `.eth` /
 * `.sol` name is resolved first (400 INVALID_NAME when it does not resolve).
 *
 * @throws HttpProblem 400 INVALID_QUERY when it is neither a name nor an address or hash.
 */
async function resolveMatch(deps: FilterDeps, value: string): Promise<string> {
  const input = deps.names.isName(value) ? (await deps.names.resolve(value)).address : value;
  const parsed = addressParam.safeParse(input);
  if (!parsed.success) {
    throw new HttpProblem(
      400,
      'INVALID_QUERY',
      'addr_or_tx_hash: must be an address, a transaction hash, or a .eth/.sol name',
    );
  }
  return parsed.data;
}

/**
 * Builds the feed filter from a validated query.
 *
 * @throws HttpProblem 400 INVALID_NAME (a name that does not resolve), 400 INVALID_QUERY
 *         (`addr_or_tx_hash` neither a name nor an address or hash), 400 INVALID_CURSOR.
 */
export async function toFilter(deps: FilterDeps, query: FeedQuery): Promise<FeedFilter> {
  return {
    ...(query.senders && query.senders.length > 0 ? { senders: query.senders } : {}),
    ...(query.recipients && query.recipients.length > 0 ? { recipients: query.recipients } : {}),
    ...(query.addr_or_tx_hash !== undefined
      ? { match: await resolveMatch(deps, query.addr_or_tx_hash) }
      : {}),
    ...(query.source_domain !== undefined ? { sourceDomain: query.source_domain } : {}),
    ...(query.destination_domain !== undefined
      ? { destinationDomain: query.destination_domain }
      : {}),
    ...(query.domain !== undefined ? { domain: query.domain } : {}),
    ...(query.status !== undefined ? { status: query.status } : {}),
    ...(query.start_time !== undefined ? { startTime: query.start_time } : {}),
    ...(query.end_time !== undefined ? { endTime: query.end_time } : {}),
    ...(query.cursor !== undefined && query.cursor !== ''
      ? { cursor: parseCursor(query.cursor) }
      : {}),
  };
}
