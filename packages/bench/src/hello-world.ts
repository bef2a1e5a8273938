/**
 * The baseline: an Express 5 hello-world, run as its own node process on the same machine so
 * every API figure is read as a fraction of what Express itself serves here. Listens on PORT.
 */
import express from 'express';

const app = express();
app.get('/', (_req, res) => {
  res.send('Hello World!');
});
const port = Number(process.env.PORT ?? '0');
const server = app.listen(port, '127.0.0.1', () => {
  process.stdout.write(`hello-world listening on ${JSON.stringify(server.address())}\n`);
});
process.once('SIGTERM', () => {
  server.close(() => process.exit(0));
  server.closeAllConnections();
});
