import * as api from './index.js';

describe('@ctss/signing public API', () => {
  it('exports the functions and classes the apps code against', () => {
    const functions = [
      'quoteDigest',
      'signQuote',
      'recoverQuoteSigner',
      'encodeQuoteMessage',
      'decodeQuoteMessage',
      'signEd25519',
      'verifyEd25519',
      'loadSecp256k1Signer',
      'loadEd25519Signer',
      'verifyWalletSignature',
      'parseAptosFullMessage',
      'KeyFormatError',
      'WalletSignatureError',
      'QuoteFieldError',
    ] as const;
    for (const name of functions) expect(typeof api[name]).toBe('function');
    expect(api.WALLET_CHAIN_TYPES).toEqual(['evm', 'solana', 'sui', 'aptos']);
  });

  it('WalletSignatureError and KeyFormatError carry stable codes', () => {
    expect(new api.WalletSignatureError('INVALID_INPUT', 'x').code).toBe('INVALID_INPUT');
    expect(new api.WalletSignatureError('INVALID_SIGNATURE', 'x')).toBeInstanceOf(Error);
    expect(new api.KeyFormatError('x').code).toBe('KEY_FORMAT');
    expect(new api.QuoteFieldError('fee', 'too big')).toBeInstanceOf(RangeError);
  });
});
