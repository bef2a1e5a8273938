import { Writable } from 'node:stream';
import { describe, expect, it } from '@jest/globals';
import express from 'express';
import { pino } from 'pino';
import request from 'supertest';
import { clientKey } from '../src/client-address.js';
import { requestLogMiddleware } from '../src/request-log.js';

function capture(level: pino.LevelWithSilent) {
  const lines: Array<Record<string, unknown>> = [];
  const stream = new Writable({
    write(chunk: Buffer, _enc, done) {
      lines.push(JSON.parse(chunk.toString()) as Record<string, unknown>);
      done();
    },
  });
  const app = express();
  app.use(requestLogMiddleware(pino({ level }, stream)));
  app.get('/ok', (_req, res) => res.json({ ok: true }));
  app.get('/health', (_req, res) => res.json({ ok: true }));
  app.get('/bad', (_req, res) => res.status(400).json({}));
  app.get('/fail', (_req, res) => res.status(500).json({}));
  app.get('/unavailable', (_req, res) => res.status(503).json({}));
  return { app, lines };
}

describe('requestLogMiddleware', () => {
  it('logs one line per request at the level of its status, probes only when they fail', async () => {
    const { app, lines } = capture('info');
    for (const path of ['/ok?x=1', '/health', '/bad', '/fail', '/unavailable'])
      await request(app).get(path);
    await new Promise((r) => setImmediate(r));
    expect(
      lines.map((l) => [
        l.level,
        (l.req as { url: string }).url,
        (l.res as { statusCode: number }).statusCode,
      ]),
    ).toEqual([
      [30, '/ok?x=1', 200],
      [40, '/bad', 400],
      [50, '/fail', 500],
      [40, '/unavailable', 503],
    ]);
    expect(typeof lines[0]?.responseTime).toBe('number');
  });

  it('writes nothing below the configured level', async () => {
    const { app, lines } = capture('error');
    for (const path of ['/ok', '/bad', '/fail', '/unavailable']) await request(app).get(path);
    await new Promise((r) => setImmediate(r));
    expect(lines).toHaveLength(1);
    expect(lines[0]?.level).toBe(50);
  });
});

describe('clientKey', () => {
  it('keys an IPv4-mapped IPv6 address as the IPv4 client', () => {
    expect(clientKey('::ffff:203.0.113.7')).toBe(clientKey('203.0.113.7'));
    expect(clientKey('203.0.113.7')).toBe('ip:203.0.113.7');
  });

  it('groups IPv6 clients by their /56 and keeps distinct networks apart', () => {
    expect(clientKey('2001:db8:0:1::1')).toBe(clientKey('2001:db8:0:1::2'));
    expect(clientKey('2001:db8:0:1::1')).not.toBe(clientKey('2001:db8:1:1::1'));
    expect(clientKey(undefined)).toBe('ip:unknown');
  });
});
