/**
 * Bad input on the raw socket: malformed request lines and headers, broken framing, upgrades on
 * every path of the OpenAPI document (the API has no WebSocket endpoint) and on unknown or
 * unparseable targets, absolute-form targets. Every answer is a 4xx problem body with a `code`,
 * and the server, made as main.ts makes it, keeps serving.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { Server } from 'node:http';
import { createEdgeServer, listen } from '@ctss/server-kit';
import {
  malformedRequests,
  rawExchange,
  rawProblemFaults,
  upgradeRequest,
  type RawResponse,
} from '@ctss/test-support';
import { buildOpenApiDocument } from '../../src/openapi.js';
import { startTestApp, type TestApp } from '../support/app.js';

let t: TestApp;
let server: Server;
let port = 0;

beforeAll(async () => {
  t = await startTestApp();
  server = createEdgeServer(t.app, { logger: t.deps.logger });
  port = await listen(server, 0, '127.0.0.1');
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  await t.close();
});

/** A 4xx problem body with a stable code (test-support `rawProblemFaults` names what is wrong). */
function expectProblem(res: RawResponse, statuses?: readonly number[]): void {
  expect(rawProblemFaults(res, statuses)).toEqual([]);
}

async function expectServing(): Promise<void> {
  const res = await fetch(`http://127.0.0.1:${port}/health`);
  expect(res.status).toBe(200);
}

describe('malformed requests', () => {
  it.each(malformedRequests().map((r) => [r.name, r.bytes] as const))(
    '%s: a 4xx problem, and the server still serves',
    async (_name, bytes) => {
      expectProblem(await rawExchange(port, bytes));
      await expectServing();
    },
  );

  it('a parser error is answered with Connection: close', async () => {
    const res = await rawExchange(port, 'GET / HTTP/1.1\r\nHost: x\r\nBad Name: y\r\n\r\n');
    expectProblem(res, [400]);
    expect(res.headers['connection']).toBe('close');
  });

  it('unknown paths under /stats and /users, in any case, are 404 problems', async () => {
    for (const target of ['/stats/no-such', '/STATS/NO-SUCH', '/users/x/y/z', 'http://h/STATS']) {
      const res = await rawExchange(port, `GET ${target} HTTP/1.1\r\nHost: x\r\n\r\n`);
      expectProblem(res, [400, 404]);
    }
  });

  it('HEAD of an unknown path: 404 with the problem media type and no body', async () => {
    const res = await rawExchange(port, 'HEAD /no-such-path HTTP/1.1\r\nHost: x\r\n\r\n', {
      timeoutMs: 1000,
    });
    expect(res.status).toBe(404);
    expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
  });

  it('OPTIONS and odd methods never get a 5xx or a non-problem error', async () => {
    for (const method of ['OPTIONS', 'DELETE', 'PUT', 'PATCH', 'TRACE', 'FOO', 'M-SEARCH']) {
      const res = await rawExchange(
        port,
        `${method} /stats/mainnet/transactions HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`,
      );
      expect(res.status).toBeDefined();
      expect(res.status).toBeLessThan(500);
      if (res.status! >= 400) expectProblem(res);
    }
  });

  it('an absolute-form target names the same resource as its path (RFC 9112 section 3.2.2)', async () => {
    const res = await rawExchange(
      port,
      'GET http://localhost/health HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n',
    );
    expect(res.status).toBe(200);
  });
});

describe('upgrades', () => {
  const documented = Object.keys(
    (buildOpenApiDocument() as { paths: Record<string, unknown> }).paths,
  ).map((p) => p.replace(/\{[^}]+\}/g, 'x'));

  it('the OpenAPI document lists the HTTP paths', () => {
    expect(documented.length).toBeGreaterThan(5);
    expect(documented).toEqual(expect.arrayContaining(['/health', '/ready']));
  });

  it.each([...documented, '/no-such-path', '//[', 'http://[', 'http://localhost/health', '*'])(
    'an upgrade on %s gets a 4xx problem',
    async (target) => {
      expectProblem(await rawExchange(port, upgradeRequest(target)));
      await expectServing();
    },
  );
});
