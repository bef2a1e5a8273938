/**
 * Log lines of the database layer go through the JSON logger, never to the console as plain
 * text: a failed connection of a database handle (db/database.ts) as a debug line of its logger,
 * and knex's own lines of the start-up knex (its "Acquire connection error: ..." warning on every
 * failed pool acquire, knex lib/client.js) as JSON lines of the given logger or, without one, of
 * a JSON logger named `knex`.
 */
import { Writable } from 'node:stream';
import { describe, expect, it, jest } from '@jest/globals';
import { pino } from 'pino';
import { createAdminKnex, createDatabase } from '../src/db/connect.js';

/** A port nothing listens on: a real, refused connection. */
const REFUSING = 'postgres://postgres@127.0.0.1:1/none';

describe('knex log lines', () => {
  it('are JSON lines of the given logger, never console output, when the database refuses', async () => {
    const lines: string[] = [];
    const sink = new Writable({
      write(chunk: Buffer, _encoding, done) {
        lines.push(...chunk.toString('utf8').split('\n').filter(Boolean));
        done();
      },
    });
    const logger = pino({ level: 'debug' }, sink);
    const consoleLog = jest.spyOn(console, 'log');
    const knex = createAdminKnex(REFUSING, { poolMax: 1, logger });
    const unnamed = createAdminKnex(REFUSING, { poolMax: 1 });
    const database = createDatabase(REFUSING, { poolMax: 1, connectTimeoutMs: 1_000, logger });
    const unlogged = createDatabase(REFUSING, { poolMax: 1, connectTimeoutMs: 1_000 });
    try {
      await expect(knex.raw('select 1')).rejects.toThrow(/ECONNREFUSED/);
      await expect(unnamed.raw('select 1')).rejects.toThrow(/ECONNREFUSED/);
      await expect(database.execute('select 1')).rejects.toThrow(/ECONNREFUSED/);
      await expect(unlogged.execute('select 1')).rejects.toThrow(/ECONNREFUSED/);
      const parsed = lines.map(
        (l) =>
          JSON.parse(l) as {
            msg: string;
            knex?: string;
            level: number;
            err?: { message?: string };
          },
      );
      expect(
        parsed.some(
          (l) =>
            l.msg === 'database connection failed' &&
            l.level === 20 &&
            /ECONNREFUSED/.test(l.err?.message ?? ''),
        ),
      ).toBe(true);
      expect(
        parsed.some(
          (l) => l.msg === 'knex warning' && /Acquire connection error/.test(l.knex ?? ''),
        ),
      ).toBe(true);
      expect(consoleLog).not.toHaveBeenCalled();
    } finally {
      consoleLog.mockRestore();
      await Promise.all([knex.destroy(), unnamed.destroy(), database.close(), unlogged.close()]);
    }
  });
});
