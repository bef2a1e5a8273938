/**
 * Price feeder entry point (`node dist/bin/feeder.js`, its own Deployment in production): runs
 * the feeder and its probe server (src/feeder/server.ts) until SIGTERM, which stops the cycle,
 * releases the lock and closes Redis. Configuration and start-up failures exit 1 (server-kit
 * `runProcess`).
 */
import { runProcess } from '@ctss/server-kit';
import { loadConfig } from '../config.js';
import { startFeederService } from '../feeder/server.js';

await runProcess('gas-quote-feeder', loadConfig, (config, logger) =>
  startFeederService(config, logger),
);
