import { ConfigError } from '@ctss/server-kit';
import { DEFAULT_FEE_ADJUSTMENT_BPS, loadConfig } from './config.js';

describe('loadConfig', () => {
  it('applies the documented defaults to an empty environment', () => {
    const c = loadConfig({});
    expect(c).toMatchObject({
      NODE_ENV: 'development',
      PORT: 3001,
      PRICE_MAX_AGE_SECONDS: 120,
      FEEDER_INTERVAL_SECONDS: 15,
      RATE_LIMIT_PER_MINUTE: 120,
      CORS_ORIGINS: ['*'],
      TRUST_PROXY: false,
      FEE_ADJUSTMENT_BPS: DEFAULT_FEE_ADJUSTMENT_BPS,
      GAS_PRICE_MULTIPLIER_BPS: 10_000n,
      priceSource: 'snapshot',
      feederInProcess: true,
    });
    expect(c.rpcUrls.size).toBe(0);
    expect(c.pythFeedIds.ETH).toMatch(/^0x[0-9a-f]{64}$/);
  });

  it('reads per-domain variables by domain id or chain key and keeps no other variables', () => {
    const c = loadConfig({
      RPC_URL_0: 'https://eth.example/rpc',
      RPC_URL_SOLANA: 'https://sol.example',
      QUOTE_PACKING_BASE: 'compact',
      REDEEM_GAS_3: '250000',
      FEE_ADJUSTMENT_BPS_ETHEREUM: '15000',
      REDIS_URL: 'redis://127.0.0.1:6379',
      HOME: '/root',
    });
    expect([...c.rpcUrls]).toEqual([
      [0, 'https://eth.example/rpc'],
      [5, 'https://sol.example'],
    ]);
    expect(c.quotePacking.get(6)).toBe('compact');
    expect(c.redeemGas.get(3)).toBe(250_000n);
    expect(c.feeAdjustmentBps.get(0)).toBe(15_000n);
    expect(c.priceSource).toBe('live');
    expect(c.feederInProcess).toBe(false);
    expect(Object.keys(c)).not.toContain('HOME');
  });

  it('lists every invalid variable at once without echoing values', () => {
    let error: unknown;
    try {
      loadConfig({
        PORT: 'eighty',
        QUOTE_PACKING_0: 'tight',
        RPC_URL_MARS: 'https://x.example',
        RPC_URL_0: 'not a url',
        REDEEM_GAS_ETHEREUM: '0',
        PYTH_FEED_IDS: '{oops',
      });
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const issues = (error as ConfigError).issues.join('\n');
    for (const name of [
      'PORT',
      'QUOTE_PACKING_0',
      'RPC_URL_MARS',
      'RPC_URL_0',
      'REDEEM_GAS_ETHEREUM',
      'PYTH_FEED_IDS',
    ]) {
      expect(issues).toContain(name);
    }
    expect(issues).not.toContain('not a url');
    expect(issues).not.toContain('tight');
  });

  it('rejects the same domain configured twice', () => {
    expect(() =>
      loadConfig({ RPC_URL_0: 'https://a.example', RPC_URL_ETHEREUM: 'https://b.example' }),
    ).toThrow(/configured twice/);
  });

  it('requires signing keys and live sources in production, and never echoes a key', () => {
    expect(() => loadConfig({ NODE_ENV: 'production', RPC_URL_0: 'https://a.example' })).toThrow(
      /SIGNER_ECDSA_PRIVATE_KEY.*\n.*SIGNER_ED25519_PRIVATE_KEY/s,
    );
    expect(() =>
      loadConfig({
        NODE_ENV: 'production',
        SIGNER_ECDSA_PRIVATE_KEY: 'k1-secret',
        SIGNER_ED25519_PRIVATE_KEY: 'k2-secret',
      }),
    ).toThrow(/RPC_URL_<DOMAIN>/);
    const explicit = loadConfig({
      NODE_ENV: 'production',
      SIGNER_ECDSA_PRIVATE_KEY: 'a',
      SIGNER_ED25519_PRIVATE_KEY: 'b',
      PRICE_SOURCE: 'snapshot',
    });
    expect(explicit.priceSource).toBe('snapshot');
  });

  it('refuses PRICE_SOURCE=live without any RPC URL', () => {
    expect(() => loadConfig({ PRICE_SOURCE: 'live' })).toThrow(/PRICE_SOURCE/);
  });

  it('reads TRANSFER_CONTRACT_<DOMAIN> for an EVM domain with an RPC URL, and refuses the rest', () => {
    const address = '0xD156fFB54871F4562744d6Be5d6321B5BffCa3B6';
    const c = loadConfig({
      RPC_URL_0: 'http://127.0.0.1:8545',
      TRANSFER_CONTRACT_ETHEREUM: address,
    });
    expect([...c.transferContracts]).toEqual([[0, address]]);
    expect(() => loadConfig({ TRANSFER_CONTRACT_0: address })).toThrow(
      /TRANSFER_CONTRACT_0: needs RPC_URL_0/,
    );
    expect(() =>
      loadConfig({ RPC_URL_5: 'http://127.0.0.1:8899', TRANSFER_CONTRACT_5: address }),
    ).toThrow(/TRANSFER_CONTRACT_5: not an EVM domain/);
    expect(() =>
      loadConfig({ RPC_URL_0: 'http://127.0.0.1:8545', TRANSFER_CONTRACT_0: '0x1234' }),
    ).toThrow(/TRANSFER_CONTRACT_0: must be a 0x-prefixed 20-byte contract address/);
  });

  it('parses TRUST_PROXY as boolean, hop count or address list', () => {
    expect(loadConfig({ TRUST_PROXY: 'true' }).TRUST_PROXY).toBe(true);
    expect(loadConfig({ TRUST_PROXY: '2' }).TRUST_PROXY).toBe(2);
    expect(loadConfig({ TRUST_PROXY: '10.0.0.0/8' }).TRUST_PROXY).toBe('10.0.0.0/8');
  });
});
