/**
 * The apps' built entry points (`node <path>`), for the demo and the end-to-end tests that run
 * the services as processes. Each path is written here only; callers in src/ and dist/ resolve
 * it from the repository root alike.
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const ROOT = new URL('../../../', import.meta.url);

function built(path: string): string {
  const file = fileURLToPath(new URL(path, ROOT));
  if (!existsSync(file)) throw new Error(`${path} is missing: run pnpm build first`);
  return file;
}

/**
 * Absolute path of the Gas Quote API's server entry point (HTTP, WebSocket and the in-process
 * price feeder; apps/gas-quote-api/README.md).
 *
 * @throws when the app has not been built.
 */
export function gasQuoteApiEntry(): string {
  return built('apps/gas-quote-api/dist/bin/main.js');
}

/**
 * Absolute path of a Monitoring API entry point: `main.js` (the API), `indexer.js` (the
 * transfer indexer, docs/indexer.md) or `rank-job.js` (the points and rank job).
 *
 * @throws when the app has not been built.
 */
export function monitoringApiEntry(file: 'main.js' | 'indexer.js' | 'rank-job.js'): string {
  return built(`apps/monitoring-api/dist/bin/${file}`);
}

/**
 * Absolute path of the built `pnpm demo` (packages/devnet `dist/demo.js`, docs/indexer.md "Demo").
 *
 * @throws when the devnet package has not been built.
 */
export function demoEntry(): string {
  return built('packages/devnet/dist/demo.js');
}
