/**
 * The baselines, each run as its own node process on the same machine so every API figure is read
 * as a fraction of what Express itself serves here: an Express 5 hello-world, or, with BODY_FILE,
 * the same-bytes server, which answers `GET /` with that file's bytes (a page captured from the
 * monitoring API) as CONTENT_TYPE, from memory and without an ETag (nothing hashed per request).
 * With REDIS_URL as well it is the Redis-bytes server (the `redis-floor` tool): at start it writes
 * the bytes under KEY_COUNT keys `<KEY_PREFIX><n>`, and `GET /<n>` reads key `n` back with
 * node-redis as bytes (a blob string mapped to a Buffer, as the monitoring API's kept pages are
 * read) and sends it, nothing else done per request. Listens on PORT.
 */
import { readFileSync } from 'node:fs';
import express from 'express';
import { createClient, RESP_TYPES } from 'redis';

const app = express();
const bodyFile = process.env.BODY_FILE;
const redisUrl = process.env.REDIS_URL;
if (bodyFile) {
  const body = readFileSync(bodyFile);
  const contentType = process.env.CONTENT_TYPE || 'application/json';
  app.set('etag', false);
  if (redisUrl) {
    const prefix = process.env.KEY_PREFIX ?? 'bench:redis-bytes:';
    const keys = Number(process.env.KEY_COUNT ?? '1');
    // As server-kit's store: no per-command timer, blob strings read as bytes.
    const client = createClient({
      url: redisUrl,
      commandOptions: { timeout: undefined, typeMapping: { [RESP_TYPES.BLOB_STRING]: Buffer } },
    });
    await client.connect();
    for (let n = 0; n < keys; n++) await client.set(`${prefix}${n}`, body, { EX: 3600 });
    app.get('/:n', async (req, res) => {
      const page = await client.get(`${prefix}${Number(req.params.n) % keys}`);
      if (page === null) {
        res.status(404).end();
        return;
      }
      res.set('Content-Type', contentType);
      res.send(page);
    });
  } else {
    app.get('/', (_req, res) => {
      res.set('Content-Type', contentType);
      res.send(body);
    });
  }
} else {
  app.get('/', (_req, res) => {
    res.send('Hello World!');
  });
}

const port = Number(process.env.PORT ?? '0');
const server = app.listen(port, '127.0.0.1', () => {
  process.stdout.write(`baseline listening on ${JSON.stringify(server.address())}\n`);
});
process.once('SIGTERM', () => {
  server.close(() => process.exit(0));
  server.closeAllConnections();
});
