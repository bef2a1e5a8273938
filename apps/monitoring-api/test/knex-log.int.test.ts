/**
 * knex's own log lines (its "Acquire connection error: ..." warning on every failed pool acquire,
 * knex lib/client.js) go through the JSON logger, never to the console as plain text: with a
 * logger given, as a JSON line of that logger; without one, through a JSON logger named `knex`.
 */
import { Writable } from 'node:stream';
import { describe, expect, it, jest } from '@jest/globals';
import { pino } from 'pino';
import { createKnex } from '../src/db/connect.js';

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
    const knex = createKnex(REFUSING, { poolMax: 1, connectTimeoutMs: 1_000, logger });
    const unnamed = createKnex(REFUSING, { poolMax: 1, connectTimeoutMs: 1_000 });
    try {
      await expect(knex.raw('select 1')).rejects.toThrow(/ECONNREFUSED/);
      await expect(unnamed.raw('select 1')).rejects.toThrow(/ECONNREFUSED/);
      const parsed = lines.map((l) => JSON.parse(l) as { msg: string; knex?: string });
      expect(
        parsed.some(
          (l) => l.msg === 'knex warning' && /Acquire connection error/.test(l.knex ?? ''),
        ),
      ).toBe(true);
      expect(consoleLog).not.toHaveBeenCalled();
    } finally {
      consoleLog.mockRestore();
      await Promise.all([knex.destroy(), unnamed.destroy()]);
    }
  });
});
