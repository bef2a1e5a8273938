/**
 * The Gas Quote API's built entry point as a child process for the end-to-end tests: prices from
 * the bundled snapshot, no Redis and no database (quotes are signed from the in-process snapshot
 * store), signing with the key the devnet's stand-in transfer contracts trust.
 */
import { QUOTE_KEY, gasQuoteApiEntry, type ChildService } from '@ctss/devnet';
import { startListeningService } from './child-service.js';

/**
 * Starts the Gas Quote API (module comment) on a free port with `env` added (the quote packing
 * per origin, the chains its feeder reads); resolves with the child and its base URL once
 * `/ready` answers 200.
 *
 * @throws Error when it exits before listening or is not ready within `deadlineMs` ms
 *   (startListeningService).
 */
export function startSnapshotGasQuoteApi(
  env: Record<string, string>,
  deadlineMs: number,
): Promise<[ChildService, string]> {
  return startListeningService(
    'gas-quote-api',
    gasQuoteApiEntry(),
    {
      LOG_LEVEL: 'info',
      NODE_ENV: 'development',
      NODE_OPTIONS: '',
      PRICE_SOURCE: 'snapshot',
      REDIS_URL: '',
      DATABASE_URL: '',
      SIGNER_ECDSA_PRIVATE_KEY: QUOTE_KEY,
      ...env,
    },
    deadlineMs,
  );
}
