/**
 * Bad input on the raw socket: malformed request lines and headers, broken framing, upgrades on
 * every path of the OpenAPI document and on unknown or unparseable targets, absolute-form
 * targets. Every answer is a 4xx problem body with a `code` and `Connection: close`, and the
 * service (started as main.ts starts it) keeps serving.
 */
import { createLogger } from '@ctss/server-kit';
import {
  malformedRequests,
  rawProblemFaults,
  rawExchange,
  upgradeRequest,
  type RawResponse,
} from '@ctss/test-support';
import { buildOpenApiDocument } from '../../src/openapi.js';
import { SUBSCRIBE_PATH } from '../../src/feed/router.js';
import { uniquePrefix } from '../support/app.js';
import { mainConfig, removePrefix, startAsMain } from '../support/main-service.js';

const prefix = uniquePrefix('raw-socket');
let port = 0;
let shutdown: ((reason: string) => Promise<void>) | undefined;

beforeAll(async () => {
  const logger = createLogger({ name: 'raw-socket-test', level: 'silent' });
  ({ port, shutdown } = await startAsMain(mainConfig(prefix), logger));
});

afterAll(async () => {
  await shutdown?.('test');
  await removePrefix(prefix);
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
    '%s: a 4xx problem, and the service still serves',
    async (_name, bytes) => {
      const res = await rawExchange(port, bytes);
      expectProblem(res);
      await expectServing();
    },
  );

  it('a parser error is answered with Connection: close, and the connection is closed', async () => {
    const res = await rawExchange(port, 'G@T / HTTP/1.1\r\nHost: x\r\n\r\n', {
      timeoutMs: 3000,
    });
    expectProblem(res, [400]);
    expect(res.headers['connection']).toBe('close');
    expect(JSON.parse(res.body)).toMatchObject({ code: 'BAD_REQUEST' });
  });

  it('oversized headers get 431 HEADERS_TOO_LARGE', async () => {
    const res = await rawExchange(
      port,
      `GET /health HTTP/1.1\r\nHost: x\r\nX-Long: ${'a'.repeat(40_000)}\r\n\r\n`,
    );
    expectProblem(res, [431]);
    expect(JSON.parse(res.body)).toMatchObject({ code: 'HEADERS_TOO_LARGE' });
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
        `${method} /tokenPrices HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`,
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
  )
    .filter((p) => p !== SUBSCRIBE_PATH)
    .map((p) => p.replace(/\{[^}]+\}/g, 'x'));

  it('the OpenAPI document lists the HTTP paths', () => {
    expect(documented).toEqual(expect.arrayContaining(['/tokenPrices', '/health', '/ready']));
  });

  it.each([
    ...documented,
    '/no-such-path',
    '/SUBSCRIBE',
    '/subscribe/x',
    '//[',
    'http://[',
    '//x/subscribe',
    'http://localhost/no-such-path',
    '*',
  ])('an upgrade on %s gets a 4xx problem', async (target) => {
    const res = await rawExchange(port, upgradeRequest(target));
    expectProblem(res);
    await expectServing();
  });

  it('the upgrade from the report (unparseable target) does not stop the process', async () => {
    const res = await rawExchange(
      port,
      'GET //[ HTTP/1.1\r\nHost: x\r\nConnection: Upgrade\r\nUpgrade: websocket\r\n\r\n',
    );
    expectProblem(res, [400, 404]);
    await expectServing();
  });

  it('an upgrade on /subscribe, also in absolute form, still switches protocols', async () => {
    for (const target of ['/subscribe', 'http://localhost/subscribe', '/subscribe?x=1']) {
      const res = await rawExchange(port, upgradeRequest(target), { timeoutMs: 1000 });
      expect(res.status).toBe(101);
    }
  });
});
