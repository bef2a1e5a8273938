#!/usr/bin/env node
// Runs what each infra/docker/<app>.Dockerfile does, without a Docker engine, and starts the
// result:
//   1. prune:   turbo prune @ctss/<app> --docker          (the prune stage)
//   2. install: pnpm install --frozen-lockfile on out/json (the build stage, from the pruned lockfile)
//   3. build:   turbo run build --filter=@ctss/<app>...   on out/full
//   4. deploy:  pnpm --filter @ctss/<app> deploy --prod   (production dependencies only)
//   5. runtime: copies exactly what the runtime stage COPYs into a fresh directory, makes it
//      read-only (the pods run with readOnlyRootFilesystem), runs the Dockerfile's CMD with
//      NODE_ENV=production, waits for GET /health = 200, runs the Dockerfile's HEALTHCHECK
//      command, checks /metrics, then SIGTERM must end the process with exit code 0.
// The monitoring API also runs dist/bin/migrate.js and dist/bin/rank-job.js (against a fresh database
// when DATABASE_URL is set); the gas quote API also runs dist/bin/feeder.js when REDIS_URL is set.
//
// Usage: node infra/smoke-prune.mjs [monitoring-api|gas-quote-api ...] [--keep]
// With DATABASE_URL / REDIS_URL set, the apps use those servers (a temporary database and a
// unique Redis key prefix); without them the monitoring API runs its embedded database.
import { execFile, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const repo = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const keep = args.includes('--keep');
const apps = args.filter((a) => !a.startsWith('--'));
const selected = apps.length > 0 ? apps : ['monitoring-api', 'gas-quote-api'];

const log = (msg) => console.log(`[smoke] ${msg}`);

/** Runs a command; resolves with its output, rejects with the output on a non-zero exit. */
function run(cmd, cmdArgs, options = {}) {
  const started = Date.now();
  return new Promise((ok, fail) => {
    execFile(cmd, cmdArgs, { maxBuffer: 64 * 1024 * 1024, ...options }, (error, stdout, stderr) => {
      const seconds = ((Date.now() - started) / 1000).toFixed(1);
      if (error) {
        fail(
          new Error(`${cmd} ${cmdArgs.join(' ')} failed after ${seconds}s:\n${stdout}\n${stderr}`),
        );
      } else {
        log(`  ${cmd} ${cmdArgs.join(' ')} (${seconds}s)`);
        ok({ stdout, stderr });
      }
    });
  });
}

function freePort() {
  return new Promise((ok, fail) => {
    const server = createServer();
    server.once('error', fail);
    server.listen(0, '127.0.0.1', () => {
      const { port } = /** @type {import('node:net').AddressInfo} */ (server.address());
      server.close(() => ok(port));
    });
  });
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** What the Dockerfile's runtime stage says: the files it copies, its CMD and HEALTHCHECK. */
function readDockerfile(app) {
  const text = readFileSync(join(repo, 'infra', 'docker', `${app}.Dockerfile`), 'utf8').replace(
    /\\\n\s*/g,
    ' ',
  );
  const runtime = text.slice(text.lastIndexOf('\nFROM '));
  const copies = [...runtime.matchAll(/^COPY --from=build \/prod\/app\/(\S+) \.\/(\S+)$/gm)].map(
    (m) => ({ from: m[1], to: m[2] }),
  );
  const cmd = JSON.parse(/^CMD (\[.*\])$/m.exec(runtime)[1]);
  const healthcheck = JSON.parse(/^HEALTHCHECK .*? CMD (\[.*\])$/m.exec(runtime)[1]);
  const turbo = /turbo@(\d+\.\d+\.\d+)/.exec(text)?.[1];
  const env = Object.fromEntries(
    [...runtime.matchAll(/^ENV (.+)$/gm)].flatMap((m) =>
      m[1].split(/\s+/).map((kv) => kv.split('=')),
    ),
  );
  return { copies, cmd, healthcheck, turbo, env };
}

/** Makes everything under `dir` read-only (like readOnlyRootFilesystem), or writable again. */
const makeReadOnly = (dir) => run('chmod', ['-R', 'a-w', dir]);
const makeWritable = (dir) =>
  existsSync(dir) ? run('chmod', ['-R', 'u+w', dir]) : Promise.resolve();

/** Starts a long-running process and collects its output. */
function start(cmd, cmdArgs, options) {
  const child = spawn(cmd, cmdArgs, { ...options, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (d) => (output += d));
  child.stderr.on('data', (d) => (output += d));
  const exited = new Promise((ok) => child.on('exit', (code, signal) => ok({ code, signal })));
  return { child, exited, output: () => output };
}

async function waitFor200(url, proc, timeoutMs) {
  const deadline = Date.now() + timeoutMs;
  let last = 'no answer';
  while (Date.now() < deadline) {
    if (proc.child.exitCode !== null)
      throw new Error(
        `process exited (${proc.child.exitCode}) before ${url} answered:\n${proc.output()}`,
      );
    try {
      const res = await fetch(url, { signal: AbortSignal.timeout(2000) });
      if (res.status === 200) return res;
      last = `HTTP ${res.status}`;
    } catch (e) {
      last = String(e.cause?.code ?? e.message);
    }
    await sleep(300);
  }
  throw new Error(
    `${url} did not answer 200 within ${timeoutMs / 1000}s (last: ${last}):\n${proc.output()}`,
  );
}

async function stop(proc, name) {
  proc.child.kill('SIGTERM');
  let timer;
  const timeout = new Promise((ok) => (timer = setTimeout(() => ok('timeout'), 20_000)));
  const result = await Promise.race([proc.exited, timeout]);
  clearTimeout(timer);
  if (result === 'timeout') {
    proc.child.kill('SIGKILL');
    throw new Error(`${name} did not exit within 20s of SIGTERM:\n${proc.output()}`);
  }
  if (result.code !== 0)
    throw new Error(
      `${name} exited with ${result.code ?? result.signal} after SIGTERM:\n${proc.output()}`,
    );
  log(`  ${name}: SIGTERM -> exit 0`);
}

/** Checks a running HTTP service the way the Dockerfile and the chart probe it. */
async function probeService(
  name,
  port,
  proc,
  runtimeDir,
  env,
  dockerfile,
  { healthcheck = true } = {},
) {
  const base = `http://127.0.0.1:${port}`;
  const health = await waitFor200(`${base}/health`, proc, 90_000);
  log(`  ${name}: GET /health -> 200 ${JSON.stringify(await health.json()).slice(0, 160)}`);
  if (healthcheck) {
    const [cmd, ...cmdArgs] = dockerfile.healthcheck;
    await run(cmd, cmdArgs, { cwd: runtimeDir, env });
    log(`  ${name}: Dockerfile HEALTHCHECK command -> exit 0`);
  }
  const ready = await fetch(`${base}/ready`);
  log(`  ${name}: GET /ready -> ${ready.status} ${(await ready.text()).slice(0, 160)}`);
  const metrics = await fetch(`${base}/metrics`);
  const text = await metrics.text();
  if (metrics.status !== 200 || !text.includes('# HELP'))
    throw new Error(`${name}: /metrics answered ${metrics.status}`);
  log(`  ${name}: GET /metrics -> 200 (Prometheus text)`);
  return { ready: ready.status };
}

/** A temporary database on the DATABASE_URL server, made with the deployed app's own `pg`. */
async function withTemporaryDatabase(runtimeDir, fn) {
  const { default: pg } = await import(join(runtimeDir, 'node_modules', 'pg', 'lib', 'index.js'));
  const name = `ctss_smoke_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: process.env.DATABASE_URL });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  const url = new URL(process.env.DATABASE_URL);
  url.pathname = `/${name}`;
  try {
    return await fn(url.toString());
  } finally {
    await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`).catch(() => undefined);
    await admin.end();
  }
}

async function smokeApp(app) {
  const t0 = Date.now();
  const pkg = `@ctss/${app}`;
  const dockerfile = readDockerfile(app);
  const work = mkdtempSync(join(tmpdir(), `ctss-smoke-${app}-`));
  const toolEnv = { ...process.env, CI: 'true', TURBO_TELEMETRY_DISABLED: '1', DO_NOT_TRACK: '1' };
  log(`${app}: working in ${work}`);
  try {
    const turboVersion = JSON.parse(
      readFileSync(join(repo, 'node_modules', 'turbo', 'package.json'), 'utf8'),
    ).version;
    if (dockerfile.turbo && dockerfile.turbo !== turboVersion) {
      log(
        `  note: the Dockerfile pins turbo@${dockerfile.turbo}, the workspace has ${turboVersion}`,
      );
    }
    // 1. prune
    await run('pnpm', ['exec', 'turbo', 'prune', pkg, '--docker', '--out-dir', join(work, 'out')], {
      cwd: repo,
      env: toolEnv,
    });
    // 2. install from the pruned lockfile (+ .npmrc, as the Dockerfile copies it)
    const build = join(work, 'repo');
    mkdirSync(build);
    cpSync(join(repo, '.npmrc'), join(build, '.npmrc'));
    cpSync(join(work, 'out', 'json'), build, { recursive: true });
    const extraInstallFlags = (process.env.SMOKE_INSTALL_FLAGS ?? '').split(/\s+/).filter(Boolean);
    await run('pnpm', ['install', '--frozen-lockfile', ...extraInstallFlags], {
      cwd: build,
      env: toolEnv,
    });
    // 3. sources + build
    cpSync(join(work, 'out', 'full'), build, { recursive: true });
    await run(
      'pnpm',
      ['exec', 'turbo', 'run', 'build', `--filter=${pkg}...`, '--output-logs=errors-only'],
      { cwd: build, env: toolEnv },
    );
    // 4. production dependencies
    const prod = join(work, 'prod');
    await run('pnpm', ['--filter', pkg, 'deploy', '--prod', ...extraInstallFlags, prod], {
      cwd: build,
      env: toolEnv,
    });
    // 5. the runtime stage's COPY lines, read-only
    const runtimeDir = join(work, 'app');
    mkdirSync(runtimeDir);
    for (const { from, to } of dockerfile.copies) {
      if (!existsSync(join(prod, from)))
        throw new Error(`the deploy output has no ${from} (the runtime stage copies it)`);
      cpSync(join(prod, from), join(runtimeDir, to), { recursive: true, verbatimSymlinks: true });
    }
    const devOnly = ['jest', 'typescript', 'eslint', 'supertest', '@swc/core'].filter((d) =>
      existsSync(join(runtimeDir, 'node_modules', d)),
    );
    if (devOnly.length > 0)
      throw new Error(`dev dependencies in the production output: ${devOnly.join(', ')}`);
    log(`  runtime: ${dockerfile.copies.map((c) => c.to).join(', ')} (no dev dependencies)`);
    await makeReadOnly(runtimeDir);
    const scratch = mkdtempSync(join(tmpdir(), `ctss-smoke-tmp-`));

    const prefix = `ctss-smoke-${randomBytes(4).toString('hex')}:`;
    const baseEnv = {
      PATH: process.env.PATH,
      HOME: scratch,
      TMPDIR: scratch,
      ...dockerfile.env,
      LOG_LEVEL: 'warn',
      REDIS_PREFIX: prefix,
    };
    if (process.env.REDIS_URL) baseEnv.REDIS_URL = process.env.REDIS_URL;
    const [cmd, ...cmdArgs] = dockerfile.cmd;

    if (app === 'monitoring-api') {
      const exercise = async (databaseUrl) => {
        const env = { ...baseEnv, ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}) };
        if (databaseUrl) {
          await run('node', ['dist/bin/migrate.js'], { cwd: runtimeDir, env });
          await run('node', ['dist/bin/migrate.js'], { cwd: runtimeDir, env }); // idempotent on upgrade
          await run('node', ['dist/bin/rank-job.js'], { cwd: runtimeDir, env });
        }
        const port = await freePort();
        const proc = start(cmd, cmdArgs, { cwd: runtimeDir, env: { ...env, PORT: String(port) } });
        try {
          const { ready } = await probeService(
            'monitoring-api',
            port,
            proc,
            runtimeDir,
            { ...env, PORT: String(port) },
            dockerfile,
          );
          if (ready !== 200) throw new Error(`/ready answered ${ready}:\n${proc.output()}`);
        } finally {
          await stop(proc, 'monitoring-api');
        }
      };
      if (process.env.DATABASE_URL) await withTemporaryDatabase(runtimeDir, exercise);
      else {
        log(
          '  DATABASE_URL not set: migrations and rank job skipped, the API runs its embedded database',
        );
        await exercise(undefined);
      }
    } else {
      const env = {
        ...baseEnv,
        // Throwaway keys for this run only; production reads them from the signer Secret.
        SIGNER_ECDSA_PRIVATE_KEY: `0x${randomBytes(32).toString('hex')}`,
        SIGNER_ED25519_PRIVATE_KEY: `0x${randomBytes(32).toString('hex')}`,
        // No chain RPC on this machine: production mode accepts the snapshot only when asked.
        PRICE_SOURCE: 'snapshot',
      };
      let feeder;
      if (process.env.REDIS_URL) {
        const feederPort = await freePort();
        feeder = start('node', ['dist/bin/feeder.js'], {
          cwd: runtimeDir,
          env: { ...env, FEEDER_PORT: String(feederPort), FEEDER_IN_PROCESS: 'false' },
        });
        const base = `http://127.0.0.1:${feederPort}`;
        await waitFor200(`${base}/health`, feeder, 90_000);
        log('  feeder: GET /health -> 200');
      } else {
        log('  REDIS_URL not set: the API runs the feeder in-process');
      }
      const port = await freePort();
      const apiEnv = {
        ...env,
        PORT: String(port),
        ...(feeder ? { FEEDER_IN_PROCESS: 'false' } : {}),
      };
      const proc = start(cmd, cmdArgs, { cwd: runtimeDir, env: apiEnv });
      try {
        await probeService('gas-quote-api', port, proc, runtimeDir, apiEnv, dockerfile);
        // The feeder (or the in-process one) fills prices: /ready turns 200 once they are fresh.
        await waitFor200(`http://127.0.0.1:${port}/ready`, proc, 60_000);
        log('  gas-quote-api: GET /ready -> 200 (fresh prices in the store)');
      } finally {
        await stop(proc, 'gas-quote-api');
        if (feeder) await stop(feeder, 'feeder');
      }
    }
    rmSync(scratch, { recursive: true, force: true });
    log(`${app}: OK in ${((Date.now() - t0) / 1000).toFixed(1)}s`);
  } finally {
    if (keep) log(`  kept ${work}`);
    else {
      await makeWritable(join(work, 'app'));
      // Hundreds of thousands of files: remove them in the background instead of waiting.
      spawn('rm', ['-rf', work], { detached: true, stdio: 'ignore' }).unref();
    }
  }
}

const started = Date.now();
let failed = false;
for (const app of selected) {
  try {
    await smokeApp(app);
  } catch (error) {
    failed = true;
    console.error(`[smoke] ${app}: FAILED\n${error.message ?? error}`);
  }
}
log(`${failed ? 'FAILED' : 'all OK'} (${((Date.now() - started) / 1000).toFixed(1)}s)`);
process.exitCode = failed ? 1 : 0;
