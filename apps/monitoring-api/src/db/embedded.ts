/**
 * The embedded default database (docs/architecture.md "Embedded
 * defaults"): PGlite (PostgreSQL compiled to WASM) served
 * over the PostgreSQL wire protocol on a local port (db/session-server.ts), so the same `pg`
 * driver and SQL run as against a real server. Every client connection shares PGlite's ONE
 * session: pools over it must be told so (db/connect.ts `sessionShared`). In memory unless a data
 * directory is given.
 */
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { serveSession } from './session-server.js';

/** A running embedded PostgreSQL. */
export interface EmbeddedPostgres {
  /** `postgres://postgres@127.0.0.1:<port>/postgres`. */
  readonly url: string;
  /** A gzipped tarball of the data directory (load it with `loadDataDir`); close clients first. */
  dumpDataDir(): Promise<Blob>;
  /** Stops the socket server and closes the database. */
  stop(): Promise<void>;
}

/** Options of {@link startEmbeddedPostgres}. */
export interface EmbeddedPostgresOptions {
  /** Directory for durable data; absent = in memory (lost at exit). */
  readonly dataDir?: string;
  /** A data directory tarball (from `dumpDataDir`) to start from instead of a fresh initdb. */
  readonly loadDataDir?: Blob;
  /** Port to listen on; 0 (default) picks a free one. */
  readonly port?: number;
  /**
   * Client connections accepted (default 8). PGlite runs one batch at a time and the server
   * hands its one session from connection to connection; keep each pool at one connection.
   */
  readonly maxConnections?: number;
}

/**
 * Starts PGlite and serves it on 127.0.0.1.
 *
 * @example const pg = await startEmbeddedPostgres(); const db = createDatabase(pg.url, { poolMax: 1, sessionShared: true });
 */
export async function startEmbeddedPostgres(
  options: EmbeddedPostgresOptions = {},
): Promise<EmbeddedPostgres> {
  const db = await PGlite.create({
    // pg_trgm backs the leaderboard's substring search index, as on a real server.
    extensions: { pg_trgm },
    ...(options.dataDir === undefined ? {} : { dataDir: options.dataDir }),
    ...(options.loadDataDir === undefined ? {} : { loadDataDir: options.loadDataDir }),
  });
  const server = await serveSession(db, options.port ?? 0, options.maxConnections ?? 8);
  const url = `postgres://postgres@${server.address}/postgres`;
  return {
    url,
    dumpDataDir: () => db.dumpDataDir('gzip'),
    async stop() {
      await server.stop();
      await db.close();
    },
  };
}
