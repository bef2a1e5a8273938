/**
 * Monitoring API entry point (`node dist/bin/main.js`): reads configuration, connects (or starts
 * the embedded database with demo data when DATABASE_URL is unset), migrates, listens on PORT,
 * and shuts down gracefully on SIGTERM/SIGINT: requests drained, pools, Redis and the embedded
 * database closed (src/server.ts). Configuration and start-up failures exit 1 (server-kit
 * `runProcess`).
 */
import { runProcess } from '@ctss/server-kit';
import { loadConfig } from '../config.js';
import { startMonitoringService } from '../server.js';

await runProcess('monitoring-api', loadConfig, (config, logger) =>
  startMonitoringService(config, logger),
);
