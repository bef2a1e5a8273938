/**
 * Gas Quote API entry point (`node dist/bin/main.js`): reads config, starts the service (HTTP and
 * WebSocket on one port, in-process feeder with the bundled snapshot when configured), and shuts
 * down gracefully on SIGTERM: HTTP drained, WebSockets closed with 1001, feeder stopped, Redis
 * closed (src/server.ts).
 */
import { runProcess } from '../run-process.js';
import { startGasQuoteService } from '../server.js';

await runProcess('gas-quote-api', (config, logger) => startGasQuoteService(config, logger));
