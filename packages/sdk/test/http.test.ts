/**
 * The HTTP boundary against a local server: problem details become typed errors with their code,
 * only retryable answers (429, 5xx with Retry-After) are retried, bodies are validated; Circle's
 * fee table (Iris `/v2/burn/USDC/fees/{src}/{dst}`: `[{ finalityThreshold, minimumFee }]`, bps,
 * possibly fractional, per developers.circle.com "Get USDC transfer fees") is read, with the local
 * fallback when Iris fails.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import {
  ApiProblemError,
  GasQuoteClient,
  ResponseValidationError,
  circleFeeRate,
} from '../src/index.js';

let server: Server;
let base: string;
const hits = new Map<string, number>();
const problem = (code: string, status: number) =>
  JSON.stringify({
    type: `urn:ctss:problem:${code.toLowerCase()}`,
    title: code,
    status,
    detail: `a ${code}`,
    code,
  });

beforeAll(async () => {
  server = createServer((req, res) => {
    const path = req.url ?? '/';
    const n = (hits.get(path) ?? 0) + 1;
    hits.set(path, n);
    const send = (status: number, body: string, headers: Record<string, string> = {}) => {
      res.writeHead(status, {
        'content-type': status >= 400 ? 'application/problem+json' : 'application/json',
        ...headers,
      });
      res.end(body);
    };
    if (path.startsWith('/tokenPrices')) {
      if (n === 1) return send(429, problem('RATE_LIMITED', 429), { 'retry-after': '0' });
      return send(200, '{"0":3000,"5":150}');
    }
    if (path.startsWith('/getEcdsaSig_native')) return send(400, problem('UNSUPPORTED_ROUTE', 400));
    if (path.startsWith('/routes')) {
      if (path.includes('localDomain=9')) return send(500, problem('INTERNAL', 500));
      return send(200, '{"signers":{},"routes":[]}');
    }
    if (path === '/v2/burn/USDC/fees/0/3') {
      return send(
        200,
        '[{"finalityThreshold":1000,"minimumFee":1.3},{"finalityThreshold":2000,"minimumFee":0}]',
      );
    }
    return send(404, problem('NOT_FOUND', 404));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise((r) => server.close(r));
});

describe('API clients', () => {
  it('retries a 429 after Retry-After and returns the validated body', async () => {
    expect(await new GasQuoteClient(base).tokenPrices()).toEqual({ 0: 3000, 5: 150 });
    expect(hits.get('/tokenPrices')).toBe(2);
  });

  it('turns a problem into ApiProblemError with its code, without retrying a 400 or a 500 without Retry-After', async () => {
    const gas = new GasQuoteClient(base);
    const err = await gas
      .ecdsaQuote({ localDomain: 5, destinationDomain: 3, version: 2, isNative: false })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiProblemError);
    expect(err).toMatchObject({
      status: 400,
      code: 'UNSUPPORTED_ROUTE',
      detail: 'a UNSUPPORTED_ROUTE',
      retryable: false,
    });
    await expect(gas.routes({ localDomain: 9 })).rejects.toMatchObject({ code: 'INTERNAL' });
    expect(hits.get('/routes?localDomain=9')).toBe(1);
  });

  it('refuses a body that is not the documented shape', async () => {
    await expect(new GasQuoteClient(base).routes()).rejects.toBeInstanceOf(ResponseValidationError);
  });
});

describe("Circle's fee table", () => {
  it('reads the fast rate exactly and falls back when Iris has no answer', async () => {
    expect(await circleFeeRate(base, 0, 3, 1000)).toEqual({ milliBps: 1300n, source: 'iris' });
    expect(await circleFeeRate(base, 0, 3, 2000)).toEqual({ milliBps: 0n, source: 'iris' });
    expect(await circleFeeRate(base, 6, 3, 1000)).toEqual({
      milliBps: 14_000n,
      source: 'fallback',
    });
    expect(await circleFeeRate(undefined, 6, 3, 1000)).toEqual({
      milliBps: 14_000n,
      source: 'fallback',
    });
  });
});
