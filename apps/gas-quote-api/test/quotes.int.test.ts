/**
 * The quote endpoints over HTTP: when a client asks for a quote, then it gets the documented fields
 * (docs/api.md "ECDSA quote", "Ed25519 quote"),
 * priced by the fee formula from the stored data, signed by the configured key (checked with
 * viem's independent recovery and @noble/curves), and every bad input is a 400 problem.
 */
import { ed25519 } from '@noble/curves/ed25519.js';
import request from 'supertest';
import { encodePacked, keccak256, recoverAddress, type Hex } from 'viem';
import { EcdsaQuote, Ed25519Quote } from '@ctss/domain-types';
import { computeRouteFee } from '../src/pricing/fee.js';
import { parseDecimal, USD_DECIMALS } from '../src/fixed-point.js';
import { loadSnapshot } from '../src/feeder/sources/snapshot.js';
import {
  buildTestApp,
  ecdsaV2Quote,
  T0,
  testEcdsaSigner,
  testEd25519Signer,
  type TestApp,
} from './support/app.js';

let t: TestApp;
const snapshot = loadSnapshot();
const usd = (symbol: string) => parseDecimal(snapshot.usd[symbol]!, USD_DECIMALS);

/** The fee the formula gives for a route from the snapshot data (independent of the route code). */
function expectedFee(local: number, dest: number, isNative: boolean): bigint {
  const origin = t.registry.require(local);
  const target = t.registry.require(dest);
  const gas = snapshot.gas[String(dest)]!;
  const fee = computeRouteFee({
    destGasPrice: { price: BigInt(gas.price), decimals: gas.decimals },
    destRedeemGas: target.redeemGas,
    destPriceUsd: usd(target.nativeSymbol),
    adjustmentBps: 12_000n,
    minFee: target.minRelayerFee,
    originPriceUsd: usd(origin.nativeSymbol),
    originDecimals: origin.nativeDecimals,
  });
  return isNative ? fee.feeNative : fee.feeBase;
}

/**
 * The routes whose quotes are checked against the signing key: ECDSA from EVM origins, Ed25519
 * from Solana (5), Sui (8) and Aptos (9). CCTP v2 is asked with `isV2=true` (ECDSA) or `version=2`
 * (Ed25519); v1 with `isV2=false` or no `version`.
 */
const SIGNED_ROUTES: readonly {
  readonly scheme: 'ecdsa' | 'ed25519';
  readonly local: number;
  readonly dest: number;
  readonly isNative: boolean;
  readonly cctpVersion: 1 | 2;
}[] = [
  { scheme: 'ecdsa', local: 0, dest: 3, isNative: false, cctpVersion: 2 },
  { scheme: 'ecdsa', local: 0, dest: 3, isNative: true, cctpVersion: 1 },
  { scheme: 'ecdsa', local: 6, dest: 5, isNative: true, cctpVersion: 2 },
  { scheme: 'ecdsa', local: 3, dest: 0, isNative: false, cctpVersion: 1 },
  { scheme: 'ecdsa', local: 6, dest: 11, isNative: false, cctpVersion: 2 },
  { scheme: 'ed25519', local: 5, dest: 0, isNative: true, cctpVersion: 2 },
  { scheme: 'ed25519', local: 5, dest: 6, isNative: false, cctpVersion: 2 },
  { scheme: 'ed25519', local: 5, dest: 3, isNative: false, cctpVersion: 1 },
  { scheme: 'ed25519', local: 8, dest: 0, isNative: true, cctpVersion: 1 },
  { scheme: 'ed25519', local: 9, dest: 3, isNative: false, cctpVersion: 1 },
];

beforeEach(async () => {
  t = buildTestApp();
  await t.snapshotFeeder.refresh();
});
afterEach(async () => {
  await t.close();
});

describe('GET /getEcdsaSig_native', () => {
  it.each(SIGNED_ROUTES.filter((route) => route.scheme === 'ecdsa'))(
    'from $local to $dest (CCTP v$cctpVersion, isNative=$isNative) returns a quote signed by the configured key',
    async ({ local, dest, isNative, cctpVersion }) => {
      const isV2 = cctpVersion === 2;
      const res = await request(t.gas.app)
        .get('/getEcdsaSig_native')
        .query({ localDomain: local, destinationDomain: dest, isV2, isNative });
      expect(res.status).toBe(200);
      const quote = EcdsaQuote.parse(res.body);
      expect(quote.isNative).toBe(isNative);
      expect(quote.cctpVersion).toBe(isV2 ? 2 : 1);
      expect(quote.deadline).toBe(String(T0 / 1000 + 100));
      expect(BigInt(quote.fee)).toBe(expectedFee(local, dest, isNative));
      const hash = keccak256(
        encodePacked(
          ['uint32', 'uint32', 'uint256', 'uint256', 'bool', 'uint8'],
          [local, dest, BigInt(quote.fee), BigInt(quote.deadline), isNative, isV2 ? 2 : 1],
        ),
      );
      await expect(recoverAddress({ hash, signature: quote.signature as Hex })).resolves.toBe(
        testEcdsaSigner.address,
      );
    },
  );

  it('applies the destination minimum (Ethereum 200000) and converts it to native units with the origin price', async () => {
    const res = await ecdsaV2Quote(t, 3, 0, false);
    // Snapshot: 3 gwei x 200000 gas = 0.0006 ETH = 1.80 USD, x1.2 = 2.16 USD > 0.20 minimum.
    expect(res.body.fee).toBe('2160000');
    const toArbitrum = await ecdsaV2Quote(t, 0, 3, true);
    // Arbitrum gas is cheap: the 80000 minimum (0.08 USD) applies; at 3000 USD/ETH that is 26666666666667 wei (rounded up).
    expect(toArbitrum.body.fee).toBe('26666666666667');
  });

  it('signs with the compact packing when the origin is configured for it', async () => {
    await t.close();
    t = buildTestApp({ env: { QUOTE_PACKING_BASE: 'compact' } });
    await t.snapshotFeeder.refresh();
    const res = await ecdsaV2Quote(t, 6, 3, false);
    expect(res.status).toBe(200);
    const hash = keccak256(
      encodePacked(
        ['uint32', 'uint32', 'uint128', 'uint64', 'bool', 'uint8'],
        [6, 3, BigInt(res.body.fee), BigInt(res.body.deadline), false, 2],
      ),
    );
    await expect(recoverAddress({ hash, signature: res.body.signature })).resolves.toBe(
      testEcdsaSigner.address,
    );
  });

  it('reuses the signature within the same second and counts the reuse', async () => {
    const url = '/getEcdsaSig_native?localDomain=0&destinationDomain=3&isV2=true&isNative=false';
    const a = await request(t.gas.app).get(url);
    const b = await request(t.gas.app).get(url);
    expect(b.body).toEqual(a.body);
    const metrics = await t.metrics.registry.getSingleMetricAsString(
      'gas_quote_quotes_signed_total',
    );
    expect(metrics).toContain('gas_quote_quotes_signed_total{scheme="ecdsa",cached="true"} 1');
    expect(metrics).toContain('gas_quote_quotes_signed_total{scheme="ecdsa",cached="false"} 1');
    t.clock.advance(1000);
    const c = await request(t.gas.app).get(url);
    expect(c.body.deadline).toBe(String(BigInt(a.body.deadline) + 1n));
  });

  it.each([
    [
      'a missing parameter',
      'localDomain=0&destinationDomain=3&isV2=true',
      'INVALID_QUERY',
      'isNative',
    ],
    [
      'a non-numeric domain',
      'localDomain=abc&destinationDomain=3&isV2=true&isNative=false',
      'INVALID_QUERY',
      'localDomain',
    ],
    [
      'a negative domain',
      'localDomain=-1&destinationDomain=3&isV2=true&isNative=false',
      'INVALID_QUERY',
      'localDomain',
    ],
    [
      'a domain above uint32',
      'localDomain=4294967296&destinationDomain=3&isV2=true&isNative=false',
      'INVALID_QUERY',
      'localDomain',
    ],
    [
      'a boolean other than true/false',
      'localDomain=0&destinationDomain=3&isV2=yes&isNative=false',
      'INVALID_QUERY',
      'isV2',
    ],
    [
      'a repeated parameter',
      'localDomain=0&localDomain=1&destinationDomain=3&isV2=true&isNative=false',
      'INVALID_QUERY',
      'localDomain',
    ],
    [
      'an unknown parameter',
      'localDomain=0&destinationDomain=3&isV2=true&isNative=false&extra=1',
      'INVALID_QUERY',
      'extra',
    ],
    [
      'an unknown domain',
      'localDomain=0&destinationDomain=4&isV2=true&isNative=false',
      'UNSUPPORTED_ROUTE',
      'destinationDomain 4',
    ],
    [
      'local equal to destination',
      'localDomain=3&destinationDomain=3&isV2=true&isNative=false',
      'UNSUPPORTED_ROUTE',
      'differ',
    ],
    [
      'a non-EVM origin',
      'localDomain=5&destinationDomain=0&isV2=true&isNative=false',
      'UNSUPPORTED_ROUTE',
      'EVM origins',
    ],
    [
      'a v1 route to a v2-only chain (Linea)',
      'localDomain=0&destinationDomain=11&isV2=false&isNative=false',
      'UNSUPPORTED_ROUTE',
      'v1',
    ],
    [
      'a v2 route to Sui',
      'localDomain=0&destinationDomain=8&isV2=true&isNative=false',
      'UNSUPPORTED_ROUTE',
      'v2',
    ],
  ])('answers 400 for %s', async (_name, query, code, mention) => {
    const res = await request(t.gas.app).get(`/getEcdsaSig_native?${query}`);
    expect(res.status).toBe(400);
    expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(res.body).toMatchObject({ status: 400, code });
    expect(res.body.detail).toContain(mention);
  });

  it('answers a repeated query string the same way each time: bad ones 400, good ones quoted for the route asked', async () => {
    const bad = '/getEcdsaSig_native?localDomain=abc&destinationDomain=3&isV2=true&isNative=false';
    for (let i = 0; i < 3; i++) {
      const res = await request(t.gas.app).get(bad);
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ code: 'INVALID_QUERY' });
    }
    for (const [local, dest, isNative] of [
      [0, 3, false],
      [6, 5, true],
      [0, 3, false],
      [6, 5, true],
    ] as const) {
      const res = await request(t.gas.app).get(
        `/getEcdsaSig_native?localDomain=${local}&destinationDomain=${dest}&isV2=true&isNative=${isNative}`,
      );
      expect(res.status).toBe(200);
      expect(BigInt(res.body.fee)).toBe(expectedFee(local, dest, isNative));
      expect(res.body.isNative).toBe(isNative);
    }
  });
});

describe('GET /getEd25519Sig_native', () => {
  it.each(SIGNED_ROUTES.filter((route) => route.scheme === 'ed25519'))(
    'from $local to $dest (CCTP v$cctpVersion, isNative=$isNative) returns a verifiable BCS quote',
    async ({ local, dest, isNative, cctpVersion }) => {
      const version = cctpVersion === 2 ? 2 : undefined;
      const res = await request(t.gas.app)
        .get('/getEd25519Sig_native')
        .query({
          localDomain: local,
          destinationDomain: dest,
          isNative,
          ...(version ? { version } : {}),
        });
      expect(res.status).toBe(200);
      const quote = Ed25519Quote.parse(res.body);
      expect(quote.publicKey).toBe(`0x${Buffer.from(testEd25519Signer.publicKey).toString('hex')}`);
      expect(quote.destinationDomain).toBe(String(dest));
      expect(quote.version).toBe(version);
      expect(BigInt(quote.fee)).toBe(expectedFee(local, dest, isNative));
      const message = Buffer.from(quote.message.slice(2), 'hex');
      expect(message.length).toBe(version ? 26 : 25);
      const verified = ed25519.verify(
        Buffer.from(quote.signature.slice(2), 'hex'),
        message,
        Buffer.from(quote.publicKey.slice(2), 'hex'),
      );
      expect(verified).toBe(true);
    },
  );

  it.each([
    ['a missing isNative', 'localDomain=5&destinationDomain=0', 'INVALID_QUERY'],
    [
      'a version other than 1 or 2',
      'localDomain=5&destinationDomain=0&isNative=false&version=3',
      'INVALID_QUERY',
    ],
    ['an EVM origin', 'localDomain=0&destinationDomain=5&isNative=false', 'UNSUPPORTED_ROUTE'],
    ['an unknown origin', 'localDomain=12&destinationDomain=0&isNative=false', 'UNSUPPORTED_ROUTE'],
    [
      'local equal to destination',
      'localDomain=5&destinationDomain=5&isNative=false',
      'UNSUPPORTED_ROUTE',
    ],
    [
      'a v2 quote from Aptos',
      'localDomain=9&destinationDomain=0&isNative=false&version=2',
      'UNSUPPORTED_ROUTE',
    ],
    [
      'a v2 quote from Solana to Sui',
      'localDomain=5&destinationDomain=8&isNative=false&version=2',
      'UNSUPPORTED_ROUTE',
    ],
  ])('answers 400 for %s', async (_name, query, code) => {
    const res = await request(t.gas.app).get(`/getEd25519Sig_native?${query}`);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ status: 400, code });
  });
});

describe('missing or stale price data', () => {
  it('answers 500 MISSING_PRICE_DATA and signs nothing once the data is older than PRICE_MAX_AGE_SECONDS', async () => {
    t.clock.advance(121_000);
    const before = await t.metrics.registry.getSingleMetricAsString(
      'gas_quote_quotes_signed_total',
    );
    for (const path of [
      '/getEcdsaSig_native?localDomain=0&destinationDomain=3&isV2=true&isNative=false',
      '/getEd25519Sig_native?localDomain=5&destinationDomain=0&isNative=false&version=2',
      '/tokenPrices',
    ]) {
      const res = await request(t.gas.app).get(path);
      expect(res.status).toBe(500);
      expect(res.body).toMatchObject({ code: 'MISSING_PRICE_DATA', status: 500 });
      expect(res.body.detail).toMatch(/old|no fresh/);
    }
    expect(await t.metrics.registry.getSingleMetricAsString('gas_quote_quotes_signed_total')).toBe(
      before,
    );
  });

  it('answers 500 MISSING_PRICE_DATA when the destination gas price was never stored', async () => {
    await t.close();
    t = buildTestApp();
    await t.store.putUsd('ETH', 3000n * 10n ** 8n, T0, 'test');
    const res = await ecdsaV2Quote(t, 0, 3, false);
    expect(res.status).toBe(500);
    expect(res.body).toMatchObject({ code: 'MISSING_PRICE_DATA' });
    expect(res.body.detail).toContain('gas price of domain 3');
  });

  it('answers 500 MISSING_PRICE_DATA when a stored entry is corrupt', async () => {
    await t.kv.set('gas:3', '{"price":"x"}');
    const res = await ecdsaV2Quote(t, 0, 3, false);
    expect(res.status).toBe(500);
    expect(res.body.code).toBe('MISSING_PRICE_DATA');
  });
});

describe('GET /tokenPrices', () => {
  it('maps every served domain to its native token USD price', async () => {
    const res = await request(t.gas.app).get('/tokenPrices');
    expect(res.status).toBe(200);
    expect(
      Object.keys(res.body)
        .map(Number)
        .sort((a, b) => a - b),
    ).toEqual(t.registry.all().map((c) => c.domain));
    expect(res.body['0']).toBe(Number(snapshot.usd.ETH));
    expect(res.body['5']).toBe(Number(snapshot.usd.SOL));
    expect(res.body['7']).toBe(Number(snapshot.usd.POL));
  });

  it('leaves out a token whose price went stale while others are fresh', async () => {
    t.clock.advance(60_000);
    await t.store.putUsd('SOL', 151n * 10n ** 8n, t.clock(), 'test');
    t.clock.advance(61_000);
    const res = await request(t.gas.app).get('/tokenPrices');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ '5': 151 });
  });

  it('answers 400 to query parameters', async () => {
    const res = await request(t.gas.app).get('/tokenPrices?domain=0');
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('INVALID_QUERY');
  });
});
