/** Filesystem locations the harness uses, resolved from this file (packages/bench/dist or src). */
import { fileURLToPath } from 'node:url';
import path from 'node:path';

const here = path.dirname(fileURLToPath(import.meta.url));

/** packages/bench. */
export const PACKAGE_DIR = path.resolve(here, '..');
/** The monorepo root. */
export const REPO_ROOT = path.resolve(PACKAGE_DIR, '..', '..');
/** apps/gas-quote-api. */
export const GAS_APP_DIR = path.join(REPO_ROOT, 'apps', 'gas-quote-api');
/** apps/monitoring-api. */
export const MONITORING_APP_DIR = path.join(REPO_ROOT, 'apps', 'monitoring-api');
/** The monitoring API chart's values, whose `command` the image's `CMD` equals (infra/check.mjs). */
export const MONITORING_CHART_VALUES = path.join(
  REPO_ROOT,
  'infra',
  'helm',
  'monitoring-api',
  'values.yaml',
);
/** Committed results, one JSON file per dataset size; BENCHMARKS.md is rendered from them. */
export const RESULTS_DIR = path.join(PACKAGE_DIR, 'results');
/** Logs and CPU profiles of the child processes (git-ignored). */
export const RUN_DIR = path.join(PACKAGE_DIR, 'bench-results');
/** The report at the repo root. */
export const REPORT_FILE = path.join(REPO_ROOT, 'BENCHMARKS.md');
/** The compiled hello-world entry beside this file. */
export const HELLO_WORLD_ENTRY = path.join(here, 'hello-world.js');
