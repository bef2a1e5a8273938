/**
 * The baselines, each run as its own node process on the same machine so every API figure is read
 * as a fraction of what Express itself serves here: an Express 5 hello-world, or, with BODY_FILE,
 * the same-bytes server, which answers `GET /` with that file's bytes (a page captured from the
 * monitoring API) as CONTENT_TYPE, from memory and without an ETag (nothing hashed per request).
 * Listens on PORT.
 */
import { readFileSync } from 'node:fs';
import express from 'express';

const app = express();
const bodyFile = process.env.BODY_FILE;
if (bodyFile) {
  const body = readFileSync(bodyFile);
  const contentType = process.env.CONTENT_TYPE || 'application/json';
  app.set('etag', false);
  app.get('/', (_req, res) => {
    res.set('Content-Type', contentType);
    res.send(body);
  });
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
