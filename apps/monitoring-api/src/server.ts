/**
 * Wires the running Monitoring API from configuration: the databases (or the embedded PGlite with
 * demo data when DATABASE_URL is unset), migrations, the KV store, the app, one HTTP server and
 * the metrics server. Used by src/bin/main.ts through server-kit `runProcess`; SIGTERM drains
 * HTTP, then closes the pools, Redis and the embedded database.
 */
import {
  connectionLimitsFromConfig,
  connectionMetricHooks,
  createEdgeServer,
  createKvStore,
  createMetrics,
  listen,
  onDrainStart,
  startMetricsServer,
  type Logger,
  type RunningService,
} from '@ctss/server-kit';
import { createApp } from './app.js';
import type { Clock } from './clock.js';
import { databaseTimeouts, pipelineLanes, type AppConfig } from './config.js';
import {
  createAdminKnex,
  createDatabases,
  createWriterDatabase,
  WRITER_STATEMENT_TIMEOUTS_MS,
} from './db/connect.js';
import { startEmbeddedPostgres, type EmbeddedPostgres } from './db/embedded.js';
import type { AppResources } from './deps.js';
import { migrateLatest } from './migrations/index.js';
import { createNameResolver } from './names/resolver.js';
import { seedDemoData } from './seed/index.js';
import { createLiveFeed, streamLimitsFromConfig } from './transactions/live-feed.js';

/** Demo data loaded into the embedded database. */
const EMBEDDED_DEMO = { transactions: 10_000, users: 1_000, seed: 42 };

/** The started service: what runService needs, plus the bound port. */
export interface StartedMonitoringService extends RunningService {
  readonly port: number;
}

/**
 * Starts the Monitoring API on `config.PORT` (0 picks a free port).
 *
 * @throws when the embedded database does not start, a migration fails or the port is taken.
 */
export async function startMonitoringService(
  config: AppConfig,
  logger: Logger,
  clock: Clock = Date.now,
): Promise<StartedMonitoringService> {
  let embedded: EmbeddedPostgres | undefined;
  let primaryUrl = config.DATABASE_URL;
  if (!primaryUrl) {
    embedded = await startEmbeddedPostgres();
    primaryUrl = embedded.url;
    logger.warn(
      { url: embedded.url },
      'DATABASE_URL is not set: using an EMBEDDED in-memory PostgreSQL (PGlite) with demo data; data is lost at exit',
    );
  }
  const dbs = createDatabases(
    {
      primaryUrl,
      readUrls: embedded ? [] : config.DATABASE_READ_URLS,
      poolMax: embedded ? 1 : config.DATABASE_POOL_MAX,
      // The embedded PGlite serves one statement at a time: nothing to pipeline.
      pipelineLanes: embedded ? 0 : pipelineLanes(config),
      timeouts: databaseTimeouts(config),
      // The embedded server serves every connection from PGlite's one session: no named statements.
      sessionShared: embedded !== undefined,
    },
    logger,
  );
  await dbs.refreshReplicaHealth();
  // The migrations and the demo load run on connections of their own, without the pools'
  // statement timeout.
  const admin = createAdminKnex(primaryUrl, { poolMax: 1, logger });
  try {
    const applied = await migrateLatest(admin);
    logger.info({ applied }, 'database migrated');
  } finally {
    await admin.destroy();
  }
  if (embedded && config.EMBEDDED_SEED) {
    const load = createWriterDatabase(
      primaryUrl,
      { poolMax: 1, timeouts: { statementTimeoutMs: WRITER_STATEMENT_TIMEOUTS_MS.seed } },
      logger,
    );
    try {
      const seeded = await seedDemoData(load, {
        ...EMBEDDED_DEMO,
        now: new Date(clock()),
        method: 'insert',
        usernameSuffix: config.USERNAME_SUFFIX,
      });
      logger.info({ seeded }, 'embedded database loaded with demo data');
    } finally {
      await load.close();
    }
  }
  const kv = createKvStore({ redisUrl: config.REDIS_URL, prefix: config.REDIS_PREFIX, logger });
  if (!config.REDIS_URL)
    logger.warn(
      'REDIS_URL is not set: cache, rate limits and nonces are in-process (single replica only)',
    );
  // The live feed's own connection to the primary (transactions/changes.ts); with Redis, one
  // replica LISTENs and fans the changes out (transactions/change-relay.ts).
  const live = createLiveFeed({
    url: primaryUrl,
    logger,
    limits: streamLimitsFromConfig(config),
    kv,
    leaseSeconds: config.STREAM_LEADER_LEASE_SECONDS,
    sessionShared: embedded !== undefined,
    connectTimeoutMs: config.DATABASE_CONNECT_TIMEOUT_MS,
    statementTimeoutMs: config.DATABASE_STATEMENT_TIMEOUT_MS,
  });
  await live.start();
  const metrics = createMetrics({ prefix: 'monitoring_' });
  dbs.health.registerMetrics(metrics.registry, 'monitoring_');
  const deps: AppResources = {
    config,
    db: { primary: dbs.primary, read: dbs.read, health: dbs.health },
    kv,
    clock,
    logger,
    metrics,
    names: createNameResolver(config),
    live,
  };
  const server = createEdgeServer(createApp(deps), {
    logger,
    limits: connectionLimitsFromConfig(config),
    ...connectionMetricHooks(deps.metrics),
  });
  // A drain ends the open streams at once: their clients reconnect to another replica.
  onDrainStart(server, () => live.endStreams());
  const port = await listen(server, config.PORT);
  const metricsServer =
    config.METRICS_PORT === undefined
      ? undefined
      : (await startMetricsServer(deps.metrics.registry, config.METRICS_PORT, logger)).server;
  logger.info(
    { port, embedded: embedded !== undefined, cache: kv.kind },
    'monitoring-api listening',
  );
  return {
    server,
    metricsServer,
    port,
    close: async () => {
      await Promise.allSettled([live.close(), dbs.close(), kv.close()]);
      await embedded?.stop();
    },
  };
}
