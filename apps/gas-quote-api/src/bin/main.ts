/**
 * Gas Quote API entry point (`node dist/bin/main.js`): reads config, starts the service (HTTP and
 * WebSocket on one port, in-process feeder with the bundled snapshot when configured), and shuts
 * down gracefully on SIGTERM: HTTP drained, WebSockets closed with 1001, feeder stopped, Redis
 * closed (src/server.ts). Configuration and start-up failures exit 1 (server-kit `runProcess`).
 */
import { runProcess } from '@ctss/server-kit';
import { loadConfig } from '../config.js';
import { startGasQuoteService } from '../server.js';

await runProcess('gas-quote-api', loadConfig, (config, logger) =>
  startGasQuoteService(config, logger),
);
