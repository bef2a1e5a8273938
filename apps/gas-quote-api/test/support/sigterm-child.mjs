// A server made like the services make theirs (server-kit createHttpApp, createEdgeServer,
// runService), run as its own process so a test can send it a real SIGTERM. Prints {"port":N}
// once listening. GET /work answers after 20 ms, so requests are in flight when the signal comes.
import {
  createEdgeServer,
  createHttpApp,
  createLogger,
  createMetrics,
  finishHttpApp,
  listen,
  runService,
} from '@ctss/server-kit';

const logger = createLogger({ name: 'sigterm-child', level: 'warn' });
await runService({
  name: 'sigterm-child',
  logger,
  start: async () => {
    const app = createHttpApp({
      logger,
      metrics: createMetrics({ prefix: 'child_' }),
      corsOrigins: ['*'],
      rateLimit: { limit: 1_000_000 },
      trustProxy: false,
    });
    app.get('/work', (_req, res) => {
      setTimeout(() => res.json({ ok: true }), 20);
    });
    app.get('/ready', (_req, res) => {
      res.json({ status: 'ready' });
    });
    finishHttpApp(app, logger);
    const server = createEdgeServer(app, { logger });
    const port = await listen(server, 0, '127.0.0.1');
    process.stdout.write(`${JSON.stringify({ port })}\n`);
    return { server, close: async () => undefined };
  },
});
