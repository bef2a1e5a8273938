/**
 * Quote verification against quotes signed by @ctss/signing (the Gas Quote API's signing code,
 * an implementation apart from the SDK's): digests and BCS messages agree byte for byte, and a
 * tampered field, another signer and an expired deadline are refused.
 */
import { describe, expect, it } from '@jest/globals';
import {
  encodeQuoteMessage,
  loadEd25519Signer,
  loadSecp256k1Signer,
  quoteDigest,
  signEd25519,
  signQuote,
} from '@ctss/signing';
import { bytesToHex } from 'viem';
import {
  QuoteRefusedError,
  ecdsaQuoteDigest,
  ed25519QuoteMessage,
  verifyEcdsaQuote,
  verifyEd25519Quote,
} from '../src/index.js';

const signer = loadSecp256k1Signer(
  '0x5de4111afa1a4b94908f83103eb1f1706367c2e68ca870fc3fb9a804cdab365a',
);
const other = loadSecp256k1Signer(
  '0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d',
);
const edSigner = loadEd25519Signer(`0x${'11'.repeat(32)}`);
const NOW_MS = 1_795_580_475_000;
const now = () => NOW_MS;
const deadline = 1_795_580_575n;
const request = { localDomain: 0, destinationDomain: 3, version: 2, isNative: false } as const;

function ecdsa(fee: bigint, key = signer, packing: 'spec' | 'compact' = 'compact') {
  const fields = {
    localDomain: 0,
    destinationDomain: 3,
    fee,
    deadline,
    isNative: false,
    cctpVersion: 2,
  } as const;
  return {
    fee: String(fee),
    deadline: String(deadline),
    signature: signQuote(fields, packing, key),
    isNative: false,
    cctpVersion: 2 as const,
  };
}

async function refusal(p: Promise<unknown> | (() => unknown)): Promise<string> {
  try {
    await (typeof p === 'function' ? p() : p);
  } catch (err) {
    expect(err).toBeInstanceOf(QuoteRefusedError);
    return (err as QuoteRefusedError).code;
  }
  throw new Error('not refused');
}

describe('ECDSA quotes', () => {
  it('digests as @ctss/signing does in both packings', () => {
    const f = { ...request, fee: 2_160_000n, deadline };
    const s = {
      localDomain: 0,
      destinationDomain: 3,
      fee: 2_160_000n,
      deadline,
      isNative: false,
      cctpVersion: 2,
    } as const;
    expect(ecdsaQuoteDigest(f, 'compact')).toBe(quoteDigest(s, 'compact'));
    expect(ecdsaQuoteDigest(f, 'spec')).toBe(quoteDigest(s, 'spec'));
  });

  it('accepts a quote of the pinned signer', async () => {
    const q = await verifyEcdsaQuote(ecdsa(80_000n), request, signer.address, 'compact', { now });
    expect(q).toMatchObject({ scheme: 'ecdsa', fee: 80_000n, deadline, signer: signer.address });
  });

  it('refuses a tampered fee, another signer, another packing, another version and an expired quote', async () => {
    const tampered = { ...ecdsa(80_000n), fee: '70000' };
    expect(
      await refusal(verifyEcdsaQuote(tampered, request, signer.address, 'compact', { now })),
    ).toBe('WRONG_SIGNER');
    expect(
      await refusal(
        verifyEcdsaQuote(ecdsa(80_000n, other), request, signer.address, 'compact', { now }),
      ),
    ).toBe('WRONG_SIGNER');
    expect(
      await refusal(
        verifyEcdsaQuote(ecdsa(80_000n, signer, 'spec'), request, signer.address, 'compact', {
          now,
        }),
      ),
    ).toBe('WRONG_SIGNER');
    expect(
      await refusal(
        verifyEcdsaQuote(ecdsa(80_000n), { ...request, version: 1 }, signer.address, 'compact', {
          now,
        }),
      ),
    ).toBe('FIELD_MISMATCH');
    const later = () => NOW_MS + 101_000;
    expect(
      await refusal(
        verifyEcdsaQuote(ecdsa(80_000n), request, signer.address, 'compact', { now: later }),
      ),
    ).toBe('EXPIRED');
    const close = () => NOW_MS + 90_000;
    expect(
      await refusal(
        verifyEcdsaQuote(ecdsa(80_000n), request, signer.address, 'compact', { now: close }),
      ),
    ).toBe('EXPIRED');
    const broken = { ...ecdsa(80_000n), signature: `0x${'00'.repeat(65)}` };
    expect(
      await refusal(verifyEcdsaQuote(broken, request, signer.address, 'compact', { now })),
    ).toBe('BAD_SIGNATURE');
  });
});

describe('Ed25519 quotes', () => {
  const solana = { localDomain: 5, destinationDomain: 0, version: 2, isNative: false } as const;
  const fields = {
    version: 2,
    localDomain: 5,
    destinationDomain: 0,
    fee: 2_160_000n,
    deadline,
    isNative: false,
  } as const;
  const message = encodeQuoteMessage(fields);
  const raw = {
    signature: bytesToHex(signEd25519(message, edSigner)),
    message: bytesToHex(message),
    publicKey: bytesToHex(edSigner.publicKey),
    destinationDomain: '0',
    fee: '2160000',
    deadline: String(deadline),
    isNative: false,
    version: 2,
  };

  it('rebuilds the BCS message as @ctss/signing encodes it, and verifies', () => {
    expect(bytesToHex(ed25519QuoteMessage({ ...solana, fee: 2_160_000n, deadline }))).toBe(
      raw.message,
    );
    expect(verifyEd25519Quote(raw, solana, raw.publicKey, { now })).toMatchObject({
      fee: 2_160_000n,
    });
  });

  it('refuses a tampered fee, another key, a bad signature and an expired quote', async () => {
    expect(
      await refusal(() => verifyEd25519Quote({ ...raw, fee: '1' }, solana, raw.publicKey, { now })),
    ).toBe('FIELD_MISMATCH');
    expect(
      await refusal(() => verifyEd25519Quote(raw, solana, `0x${'22'.repeat(32)}`, { now })),
    ).toBe('WRONG_SIGNER');
    const flipped = `${raw.signature.slice(0, -2)}${raw.signature.endsWith('00') ? '01' : '00'}`;
    expect(
      await refusal(() =>
        verifyEd25519Quote({ ...raw, signature: flipped }, solana, raw.publicKey, { now }),
      ),
    ).toBe('BAD_SIGNATURE');
    expect(
      await refusal(() =>
        verifyEd25519Quote(raw, solana, raw.publicKey, { now: () => NOW_MS + 200_000 }),
      ),
    ).toBe('EXPIRED');
  });
});
