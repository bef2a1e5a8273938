/**
 * Transfer indexer entry point (`node dist/bin/indexer.js`, its own Deployment): validates its
 * configuration once, indexes every chain of INDEXER_CHAINS into DATABASE_URL (one writer per
 * chain through an advisory lock; see docs/indexer.md), polls Iris for attestations, and serves
 * `GET /health`, `GET /ready` and `GET /metrics` on PORT (src/indexer/server.ts). SIGTERM stops
 * the loops between steps, releases the locks and closes the pool.
 */
import { runProcess } from '@ctss/server-kit';
import { loadIndexerConfig } from '../indexer/config.js';
import { startIndexerService } from '../indexer/server.js';

await runProcess('monitoring-indexer', loadIndexerConfig, (config, logger) =>
  startIndexerService(config, logger),
);
