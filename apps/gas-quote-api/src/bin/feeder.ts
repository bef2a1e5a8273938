/**
 * Price feeder entry point (`node dist/bin/feeder.js`, its own Deployment in production): runs
 * the feeder and its probe server (src/feeder/server.ts) until SIGTERM, which stops the cycle,
 * releases the lock and closes Redis.
 */
import { startFeederService } from '../feeder/server.js';
import { runProcess } from '../run-process.js';

await runProcess('gas-quote-feeder', (config, logger) => startFeederService(config, logger));
