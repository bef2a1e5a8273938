/**
 * Which database errors are "unavailable" (503 DEPENDENCY_UNAVAILABLE) and which count towards
 * the circuit breaker (src/db/unavailable.ts, src/db/circuit-breaker.ts), from errors a real
 * PostgreSQL server, node-postgres and pg-pool raise: a statement timeout, a terminated backend, a
 * refused connection, a busy pool, a syntax error.
 */
import { describe, expect, it } from '@jest/globals';
import { DependencyUnavailableError } from '@ctss/server-kit';
import pg from 'pg';
import { CircuitBreaker } from '../src/db/circuit-breaker.js';
import { createDatabase } from '../src/db/connect.js';
import {
  classifyDatabaseError,
  isConnectionLost,
  isDatabaseUnavailable,
} from '../src/db/unavailable.js';
import { useTestDatabase } from './support/database.js';

const REFUSING = 'postgres://postgres@127.0.0.1:1/none';
const real = Boolean(process.env.DATABASE_URL);
if (!real)
  console.info(
    'database error tests skipped: DATABASE_URL is not set (PGlite has no statement timeout)',
  );

/** The error `promise` rejects with. */
async function failure(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (err) {
    return err;
  }
  throw new Error('expected a failure');
}

(real ? describe : describe.skip)('database errors', () => {
  const db = useTestDatabase({ migrate: false });

  it('when a statement runs past the statement timeout, then it is a 503 but not a lost connection', async () => {
    const knex = createDatabase(db.url, { poolMax: 1, statementTimeoutMs: 100 });
    try {
      const err = await failure(knex.execute('select pg_sleep(2)'));
      expect((err as { code?: string }).code).toBe('57014');
      expect(classifyDatabaseError(err)).toBeInstanceOf(DependencyUnavailableError);
      expect(classifyDatabaseError(err)?.headers['Retry-After']).toBe('1');
      expect(isConnectionLost(err)).toBe(false);
      // The connection is still good.
      expect((await knex.execute('select 1')).rows).toHaveLength(1);
    } finally {
      await knex.close();
    }
  });

  it('when the server terminates the backend, then it is a 503 and a lost connection', async () => {
    const victim = new pg.Client({ connectionString: db.url });
    await victim.connect();
    victim.on('error', () => undefined);
    const pid = (await victim.query<{ pid: number }>('select pg_backend_pid() as pid')).rows[0]!
      .pid;
    await db.knex.raw('select pg_terminate_backend(?)', [pid]);
    const err = await failure(victim.query('select 1'));
    await victim.end().catch(() => undefined);
    expect(isConnectionLost(err)).toBe(true);
    expect(classifyDatabaseError(err)?.status).toBe(503);
  });

  it('when the server refuses connections, then it is a 503 and a lost connection', async () => {
    const knex = createDatabase(REFUSING, { poolMax: 1, connectTimeoutMs: 1_000 });
    try {
      const err = await failure(knex.execute('select 1'));
      expect(isConnectionLost(err)).toBe(true);
      expect(classifyDatabaseError(err)?.code).toBe('DEPENDENCY_UNAVAILABLE');
    } finally {
      await knex.close();
    }
  });

  it('when a statement is wrong, then it is not a database outage (the default 500)', async () => {
    const err = await failure(db.database.execute('selec 1'));
    expect((err as { code?: string }).code).toBe('42601');
    expect(isDatabaseUnavailable(err)).toBe(false);
    expect(classifyDatabaseError(err)).toBeUndefined();
    expect(classifyDatabaseError(new Error('bug'))).toBeUndefined();
  });

  it('when the pool is busy past the acquire timeout, then it is a 503 and the breaker stays closed', async () => {
    const breaker = new CircuitBreaker({ name: 'database' });
    const knex = createDatabase(db.url, { poolMax: 1, acquireTimeoutMs: 100, breaker });
    // The pool's one connection, held by a transaction until the test ends.
    let release!: () => void;
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    let holding!: () => void;
    const holds = new Promise<void>((resolve) => {
      holding = resolve;
    });
    const held = knex.transaction(async () => {
      holding();
      await released;
    });
    await holds;
    try {
      for (let i = 0; i < 5; i += 1) {
        const err = await failure(knex.execute('select 1'));
        expect(isConnectionLost(err)).toBe(false);
        expect(classifyDatabaseError(err)?.status).toBe(503);
      }
      expect(breaker.state).toBe('closed');
    } finally {
      release();
      await held;
      await knex.close();
    }
  });

  it('when connections fail three times in a row, then the breaker opens and requests fail without connecting', async () => {
    const breaker = new CircuitBreaker({ name: 'database', openMs: 60_000 });
    const knex = createDatabase(REFUSING, { poolMax: 2, connectTimeoutMs: 1_000, breaker });
    try {
      for (let i = 0; i < 3; i += 1) await failure(knex.execute('select 1'));
      expect(breaker.state).toBe('open');
      const started = performance.now();
      const err = await failure(knex.execute('select 1'));
      expect(err).toBeInstanceOf(DependencyUnavailableError);
      expect(performance.now() - started).toBeLessThan(500);
    } finally {
      await knex.close();
    }
  });

  it('when the breaker lets its probe through to a live server, then it closes', async () => {
    const breaker = new CircuitBreaker({ name: 'database', openMs: 0 });
    for (let i = 0; i < 3; i += 1) breaker.failed();
    expect(breaker.state).toBe('open');
    const knex = createDatabase(db.url, { poolMax: 1, breaker });
    try {
      await knex.execute('select 1');
      expect(breaker.state).toBe('closed');
    } finally {
      await knex.close();
    }
  });
});

describe('circuit breaker states', () => {
  let now = 0;
  const breaker = () =>
    new CircuitBreaker({ name: 'database', openMs: 500, probeTimeoutMs: 2_000, now: () => now });

  it('when open, then it refuses until openMs, then admits one probe at a time', () => {
    const b = breaker();
    b.failed();
    b.failed();
    expect(b.state).toBe('closed');
    b.failed();
    expect(b.state).toBe('open');
    expect(() => b.admit()).toThrow(DependencyUnavailableError);
    now += 500;
    expect(() => b.admit()).not.toThrow();
    expect(b.state).toBe('half-open');
    expect(() => b.admit()).toThrow(DependencyUnavailableError);
    b.failed();
    expect(b.state).toBe('open');
    now += 500;
    b.admit();
    b.succeeded();
    expect(b.state).toBe('closed');
    expect(() => b.admit()).not.toThrow();
  });

  it('when a probe reports nothing within probeTimeoutMs, then the next one is admitted', () => {
    const b = breaker();
    for (let i = 0; i < 3; i += 1) b.failed();
    now += 500;
    b.admit();
    now += 1_999;
    expect(() => b.admit()).toThrow(DependencyUnavailableError);
    now += 1;
    expect(() => b.admit()).not.toThrow();
  });

  it('when it has a probe function, then while open every request is refused and the probe closes it in the background', async () => {
    const answers = [false, true];
    let probes = 0;
    const b = new CircuitBreaker({
      name: 'database',
      openMs: 20,
      probe: () => {
        probes += 1;
        return Promise.resolve(answers.shift() ?? true);
      },
    });
    for (let i = 0; i < 3; i += 1) b.failed();
    try {
      for (let i = 0; i < 5; i += 1) expect(() => b.admit()).toThrow(DependencyUnavailableError);
      const started = Date.now();
      while (b.state !== 'closed' && Date.now() - started < 5_000)
        await new Promise((r) => setTimeout(r, 10));
      expect(b.state).toBe('closed');
      expect(probes).toBe(2);
      expect(() => b.admit()).not.toThrow();
    } finally {
      b.stop();
    }
  });

  it('when an answer comes between failures, then the count starts again', () => {
    const b = breaker();
    b.failed();
    b.failed();
    b.succeeded();
    b.failed();
    b.failed();
    expect(b.state).toBe('closed');
  });
});
