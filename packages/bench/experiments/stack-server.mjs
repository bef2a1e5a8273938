// Stack experiment server (run by the stack experiments through stack-run.mjs): an Express 5
// hello-world, either bare (STACK=express), built with @ctss/server-kit's createHttpApp (STACK=kit:
// the stack both APIs use), or with only the parts of that stack named in PARTS (STACK=parts,
// PARTS a comma-separated subset of helmet, cors, log, metrics, rl, rlmem: the rate limit in Redis
// or in memory), answering "Hello World!" or, with BODY=feed, a 10-record feed page through
// sendJson, or, with BODY_FILE=<path>, that file's text (read once) through sendJsonText.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
const kitDir = new URL('../../server-kit/', import.meta.url);
const kitRequire = createRequire(new URL('package.json', kitDir));
const kit = await import(new URL('dist/index.js', kitDir).href);
const express = (await import(pathToFileURL(kitRequire.resolve('express')).href)).default;

const logger = kit.createLogger({ name: 'stack', level: 'warn' });
// The rate limiter's Redis connection, as the services get it (KvStore.redis).
const redis = process.env.REDIS_URL
  ? kit.createKvStore({ redisUrl: process.env.REDIS_URL, prefix: '', logger }).redis
  : undefined;
let app;
if (process.env.STACK === 'kit') {
  app = kit.createHttpApp({
    logger,
    metrics: kit.createMetrics({ prefix: 'stack_' }),
    corsOrigins: ['*'],
    trustProxy: false,
    rateLimit: { limit: 1_000_000, windowSeconds: 60, redis, prefix: `stack${process.pid}:` },
  });
} else {
  app = express();
  app.disable('x-powered-by');
  if (process.env.STACK === 'parts') {
    app.set('etag', false);
    app.set('query parser', 'simple');
    app.use(await stackParts(new Set(process.env.PARTS?.split(',') ?? [])));
  }
}

/** The middleware of createHttpApp (http-app.ts) named in `parts`, as one chain like there. */
async function stackParts(parts) {
  const fromKit = async (file) => import(new URL(`dist/${file}`, kitDir).href);
  const { chainMiddleware } = await fromKit('middleware-chain.js');
  const { requestLogMiddleware } = await fromKit('request-log.js');
  const helmet = (await import(pathToFileURL(kitRequire.resolve('helmet')).href)).default;
  const cors = (await import(pathToFileURL(kitRequire.resolve('cors')).href)).default;
  const limit = { limit: 1_000_000, windowSeconds: 60, prefix: `stack${process.pid}:` };
  const chain = [
    parts.has('helmet') && helmet(),
    parts.has('cors') && cors(kit.corsOptions(['*'])),
    parts.has('log') && requestLogMiddleware(logger),
    parts.has('metrics') && kit.httpMetricsMiddleware(kit.createMetrics({ prefix: 'stack_' })),
    parts.has('rl') && kit.createRateLimiter({ ...limit, redis }),
    parts.has('rlmem') && kit.createRateLimiter(limit),
  ].filter(Boolean);
  return chainMiddleware(chain);
}
const row = {
  id: 123456789,
  source_tx_hash: `0x${'ab'.repeat(32)}`,
  destination_tx_hash: `0x${'cd'.repeat(32)}`,
  source_domain: 0,
  destination_domain: 3,
  sender: `0x${'12'.repeat(20)}`,
  recipient: `0x${'34'.repeat(20)}`,
  deposit_amount: 1234567890n,
  receive_amount: 1234000000n,
  relayer_fee: 200000n,
  gas_drop_amount: 0n,
  is_gas_drop_in_native: false,
  max_fee: 0n,
  version: 2,
  confirmed: true,
  destination_tx_status: 'success',
  created_at: 1790000000,
};
const page = {
  transactions: Array.from({ length: 10 }, () => ({ ...row })),
  next_cursor: '1790000000_123456789',
  has_more: true,
};
const fileBody = process.env.BODY_FILE ? readFileSync(process.env.BODY_FILE, 'utf8') : undefined;
app.get('/', (_req, res) => {
  if (fileBody !== undefined) kit.sendJsonText(res, 200, fileBody);
  else if (process.env.BODY === 'feed') kit.sendJson(res, 200, page);
  else res.send('Hello World!');
});
// The apps listen on `::` (req.ip is then the IPv4-mapped ::ffff:127.0.0.1); so does this.
const server = app.listen(Number(process.env.PORT), '::');
process.once('SIGTERM', () => {
  server.close();
  server.closeAllConnections();
  // The process exits: its Redis connection goes with it.
  process.exit(0);
});
