/**
 * `GET /routes` over real HTTP (docs/api.md "Routes"): when an integrator lists the routes, then
 * every listed route and version is one the quote endpoints accept, at the fee they charge for it
 * at the same price snapshot, every unlisted one is refused; filters select, bad filters are 404
 * or 400 problems, stale prices make a fee unavailable (500 for a single route), and quote
 * responses carry `Cache-Control: no-store`.
 */
import { RoutesResponse, type RouteInfo } from '@ctss/domain-types';
import { buildTestApp, testEcdsaSigner, testEd25519Signer, type TestApp } from './support/app.js';

let t: TestApp;
let base: string;

async function get(path: string, query: Record<string, string | number | boolean> = {}) {
  const params = new URLSearchParams(
    Object.entries(query).map(([k, v]): [string, string] => [k, String(v)]),
  );
  const qs = params.size > 0 ? `?${params.toString()}` : '';
  const res = await fetch(`${base}${path}${qs}`);
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: JSON.parse(text) as unknown };
}

async function routes(query: Record<string, string | number> = {}): Promise<RoutesResponse> {
  const res = await get('/routes', query);
  expect(res.status).toBe(200);
  expect(res.headers.get('cache-control')).toBe('no-store');
  return RoutesResponse.parse(res.body);
}

/** The quote for `route` in `version`, paid in native or base units, through its quote endpoint. */
function quote(
  route: { localDomain: number; destinationDomain: number },
  evm: boolean,
  version: number,
  isNative: boolean,
) {
  const common = {
    localDomain: route.localDomain,
    destinationDomain: route.destinationDomain,
    isNative,
  };
  return evm
    ? get('/getEcdsaSig_native', { ...common, isV2: version === 2 })
    : get('/getEd25519Sig_native', { ...common, version });
}

beforeEach(async () => {
  t = buildTestApp({
    env: { RATE_LIMIT_PER_MINUTE: '1000000', QUOTE_PACKING_6: 'compact' },
  });
  await t.snapshotFeeder.refresh();
  base = await t.listen();
});
afterEach(async () => {
  await t.close();
});

describe('GET /routes', () => {
  it('lists exactly the routes and versions the quote endpoints accept, at the fees they charge', async () => {
    const body = await routes();
    expect(body.signers).toEqual({
      ecdsaAddress: testEcdsaSigner.address,
      ed25519PublicKey: `0x${Buffer.from(testEd25519Signer.publicKey).toString('hex')}`,
    });
    const listed = new Map(body.routes.map((r) => [`${r.localDomain}:${r.destinationDomain}`, r]));
    expect(listed.size).toBe(body.routes.length);
    let accepted = 0;
    for (const origin of t.registry.all()) {
      const evm = origin.vm === 'evm';
      for (const target of t.registry.all()) {
        const pair = { localDomain: origin.domain, destinationDomain: target.domain };
        const route = listed.get(`${origin.domain}:${target.domain}`);
        for (const version of [1, 2]) {
          const res = await quote(pair, evm, version, false);
          if (!route?.cctpVersions.includes(version as 1 | 2)) {
            expect([pair, version, res.status]).toEqual([pair, version, 400]);
            expect((res.body as { code: string }).code).toBe('UNSUPPORTED_ROUTE');
            continue;
          }
          accepted += 1;
          expect(res.status).toBe(200);
          expect(res.headers.get('cache-control')).toBe('no-store');
          expect((res.body as { fee: string }).fee).toBe(route.fee!.base);
          const native = await quote(pair, evm, version, true);
          expect(native.status).toBe(200);
          expect((native.body as { fee: string }).fee).toBe(route.fee!.native);
        }
      }
    }
    expect(accepted).toBeGreaterThan(body.routes.length);
  }, 120_000);

  it('describes each route: scheme, packing from config, limits and the fee parts', async () => {
    const body = await routes();
    for (const r of body.routes) {
      const origin = t.registry.require(r.localDomain);
      const target = t.registry.require(r.destinationDomain);
      expect(r.signatureScheme).toBe(origin.vm === 'evm' ? 'ecdsa' : 'ed25519');
      expect(r.quotePath).toBe(
        origin.vm === 'evm' ? '/getEcdsaSig_native' : '/getEd25519Sig_native',
      );
      expect(r.ecdsaPacking).toBe(
        origin.vm !== 'evm' ? null : origin.domain === 6 ? 'compact' : 'spec',
      );
      expect(r.minFee).toBe(target.minRelayerFee.toString());
      expect(r.quoteValiditySeconds).toBe(100);
      const fee = r.fee!;
      expect(BigInt(fee.base)).toBeGreaterThanOrEqual(target.minRelayerFee);
      if (fee.parts.minFeeApplied) expect(fee.base).toBe(r.minFee);
      expect(fee.parts.redeemGas).toBe(target.redeemGas.toString());
      expect(fee.parts.adjustmentBps).toBe(12_000);
      expect(fee.parts.priceAgeSeconds).toBe(0);
    }
    // The fixed clock's snapshot data: Ethereum's minimum is 0.20 USDC and applies to cheap gas.
    expect(body.routes.some((r) => r.fee!.parts.minFeeApplied)).toBe(true);
  });

  it('filters by origin, by destination, and by both (one route)', async () => {
    const all = (await routes()).routes;
    const key = (r: RouteInfo) => `${r.localDomain}:${r.destinationDomain}`;
    const fromSolana = await routes({ localDomain: 5 });
    expect(fromSolana.routes.map(key)).toEqual(all.filter((r) => r.localDomain === 5).map(key));
    expect(fromSolana.routes.length).toBeGreaterThan(0);
    const toBase = await routes({ destinationDomain: 6 });
    expect(toBase.routes.map(key)).toEqual(all.filter((r) => r.destinationDomain === 6).map(key));
    const one = await routes({ localDomain: 0, destinationDomain: 3 });
    expect(one.routes).toEqual(all.filter((r) => key(r) === '0:3'));
    expect(one.routes[0]!.cctpVersions).toEqual([1, 2]);
  });

  it.each([
    [{ localDomain: 4 }, /localDomain 4 is not a served domain/],
    [{ destinationDomain: 99 }, /destinationDomain 99 is not a served domain/],
    [{ localDomain: 0, destinationDomain: 0 }, /must differ/],
    // Linea has no CCTP v1 and Sui no v2: no route between them.
    [{ localDomain: 11, destinationDomain: 8 }, /no CCTP route/],
  ])('answers %j with a 404 UNSUPPORTED_ROUTE problem', async (query, detail) => {
    const res = await get('/routes', query);
    expect(res.status).toBe(404);
    expect(res.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    expect(res.body).toMatchObject({ status: 404, code: 'UNSUPPORTED_ROUTE' });
    expect((res.body as { detail: string }).detail).toMatch(detail);
  });

  it.each([
    'localDomain=abc',
    'localDomain=01',
    'localDomain=-1',
    'foo=1',
    'localDomain=0&localDomain=1',
    'destinationDomain=',
  ])('answers ?%s with a 400 INVALID_QUERY problem', async (qs) => {
    const res = await fetch(`${base}/routes?${qs}`);
    expect(res.status).toBe(400);
    expect(res.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    expect(await res.json()).toMatchObject({ status: 400, code: 'INVALID_QUERY' });
  });

  it('reports fees as unavailable when prices are stale, 500 MISSING_PRICE_DATA for one route, and recovers', async () => {
    const fresh = await routes();
    t.clock.advance(30_000);
    const older = await routes();
    for (const r of older.routes) expect(r.fee!.parts.priceAgeSeconds).toBe(30);

    t.clock.advance((t.config.PRICE_MAX_AGE_SECONDS + 1) * 1000);
    const stale = await routes();
    expect(stale.routes.map((r) => r.localDomain)).toEqual(fresh.routes.map((r) => r.localDomain));
    for (const r of stale.routes) {
      expect(r.fee).toBeNull();
      expect(r.feeUnavailable).toMatch(/old \(max \d+ s\)/);
    }
    const single = await get('/routes', { localDomain: 0, destinationDomain: 3 });
    expect(single.status).toBe(500);
    expect(single.body).toMatchObject({ code: 'MISSING_PRICE_DATA' });
    expect(single.headers.get('retry-after')).toBe('5');

    await t.snapshotFeeder.refresh();
    t.store.invalidate();
    const again = await routes();
    for (const r of again.routes) expect(r.fee).not.toBeNull();
  });
});

describe('GET /routes as prices change', () => {
  it('lists a route whose one price is stale without a fee, and others as before', async () => {
    const maxAgeMs = t.config.PRICE_MAX_AGE_SECONDS * 1000;
    await t.store.putGas(
      0,
      { price: 9_000_000_000n, decimals: 18 },
      t.clock() - maxAgeMs - 10_000,
      'test',
    );
    const body = await routes();
    for (const r of body.routes) {
      if (r.destinationDomain === 0) {
        expect(r.fee).toBeNull();
        expect(r.feeUnavailable).toMatch(/gas price of domain 0 data is \d+ s old/);
      } else {
        expect(r.fee).not.toBeNull();
        expect(r.feeUnavailable).toBeUndefined();
      }
    }
    const toEthereum = await quote({ localDomain: 3, destinationDomain: 0 }, true, 2, false);
    expect(toEthereum.status).toBe(500);
    expect(toEthereum.body).toMatchObject({ code: 'MISSING_PRICE_DATA' });
  });

  it('prices from the new snapshot after a price update, as the quotes do', async () => {
    const before = (await routes({ localDomain: 0, destinationDomain: 3 })).routes[0]!.fee!;
    const gas = BigInt(before.parts.destGasPrice) * 50n;
    await t.store.putGas(3, { price: gas, decimals: 18 }, t.clock(), 'test');
    const after = (await routes({ localDomain: 0, destinationDomain: 3 })).routes[0]!.fee!;
    expect(after.parts.destGasPrice).toBe(gas.toString());
    expect(BigInt(after.base)).toBeGreaterThan(BigInt(before.base));
    const res = await quote({ localDomain: 0, destinationDomain: 3 }, true, 2, false);
    expect((res.body as { fee: string }).fee).toBe(after.base);
  });
});

describe('Cache-Control on quotes', () => {
  it('marks both quote responses no-store', async () => {
    const ecdsa = await get('/getEcdsaSig_native', {
      localDomain: 0,
      destinationDomain: 3,
      isV2: true,
      isNative: false,
    });
    expect(ecdsa.status).toBe(200);
    expect(ecdsa.headers.get('cache-control')).toBe('no-store');
    const ed = await get('/getEd25519Sig_native', {
      localDomain: 5,
      destinationDomain: 0,
      isNative: true,
      version: 2,
    });
    expect(ed.status).toBe(200);
    expect(ed.headers.get('cache-control')).toBe('no-store');
  });
});
