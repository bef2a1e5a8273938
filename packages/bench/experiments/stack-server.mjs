// Middleware-stack ablation server (run by stack-ablation.mjs): an Express 5 app with the first
// STACK_DEPTH layers of @ctss/server-kit's createHttpApp stack, in its order, then a handler that
// answers "Hello World!" (or, with BODY=feed, a 10-record feed page through server-kit sendJson).
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
const kitDir = new URL('../../server-kit/', import.meta.url);
const kitRequire = createRequire(new URL('package.json', kitDir));
const load = async (name) => import(pathToFileURL(kitRequire.resolve(name)).href);
const kit = await import(new URL('dist/index.js', kitDir).href);
const express = (await load('express')).default;
const helmet = (await load('helmet')).default;
const cors = (await load('cors')).default;
const { pinoHttp } = await load('pino-http');
const { Redis } = await load('ioredis');

const depth = Number(process.env.STACK_DEPTH ?? '0');
const logger = kit.createLogger({ name: 'stack', level: 'warn' });
const metrics = kit.createMetrics({ prefix: 'stack_' });
const redis = process.env.REDIS_URL ? new Redis(process.env.REDIS_URL) : undefined;
const layers = [
  ['helmet', () => helmet()],
  ['cors', () => cors({ origin: '*', methods: ['GET', 'POST', 'OPTIONS'], maxAge: 600 })],
  ['pino-http', () => (process.env.PINO_HTTP === 'off' ? (_req, _res, next) => next() : pinoHttp({ logger, ...(process.env.PINO_HTTP === 'quiet' ? { quietReqLogger: true } : {}), ...(process.env.PINO_HTTP === 'lazy' ? { quietReqLogger: true, quietResLogger: true, autoLogging: false } : {}) }))],
  ['metrics', () => kit.httpMetricsMiddleware(metrics)],
  ['rate-limit', () => (process.env.RATE_LIMIT === 'off' ? (_req, _res, next) => next() : kit.createRateLimiter({ limit: 1_000_000, windowSeconds: 60, redis, prefix: `stack${process.pid}:` }))],
  ['json-parser', () => express.json({ limit: '16kb' })],
];
const app = express();
app.disable('x-powered-by');
app.set('query parser', 'simple');
if (process.env.ETAG === 'false') app.set('etag', false);
for (const [, make] of layers.slice(0, depth)) app.use(make());
const row = { id: 123456789, source_tx_hash: `0x${'ab'.repeat(32)}`, destination_tx_hash: `0x${'cd'.repeat(32)}`, source_domain: 0, destination_domain: 3, sender: `0x${'12'.repeat(20)}`, recipient: `0x${'34'.repeat(20)}`, deposit_amount: 1234567890n, receive_amount: 1234000000n, relayer_fee: 200000n, gas_drop_amount: 0n, is_gas_drop_in_native: false, max_fee: 0n, version: 2, confirmed: true, destination_tx_status: 'success', created_at: 1790000000 };
const page = { transactions: Array.from({ length: 10 }, () => ({ ...row })), next_cursor: '1790000000_123456789', has_more: true };
app.get('/', (_req, res) => {
  if (process.env.BODY === 'feed') kit.sendJson(res, 200, page);
  else res.send('Hello World!');
});
const server = app.listen(Number(process.env.PORT), '127.0.0.1');
process.once('SIGTERM', () => { server.close(); server.closeAllConnections(); redis?.disconnect(); process.exit(0); });
export const LAYERS = layers.map(([n]) => n);
