import { bcs } from '@mysten/bcs';
import { ed25519 } from '@noble/curves/ed25519.js';
import nacl from 'tweetnacl';
import {
  type Ed25519QuoteFields,
  decodeQuoteMessage,
  encodeQuoteMessage,
  signEd25519,
  verifyEd25519,
} from './ed25519-quote.js';
import { QuoteFieldError } from './errors.js';
import { loadEd25519Signer } from './keys.js';
import { quoteBuilder } from '../test/support/quote-builder.js';

const SEED = Uint8Array.from({ length: 32 }, (_, i) => 255 - i);
const signer = loadEd25519Signer(Buffer.from(SEED).toString('hex'));
const naclPair = nacl.sign.keyPair.fromSeed(SEED);
const ED25519_L = 2n ** 252n + 27742317777372353535851937790883648493n;

/** Solana -> Ethereum at Solana's minimum fee, no version byte; the known-answer bytes are of it. */
const aQuote = quoteBuilder<Ed25519QuoteFields>({
  localDomain: 5,
  destinationDomain: 0,
  fee: 590_000n,
  deadline: 1_700_000_100n,
  isNative: false,
});

/** Independent little-endian layout with Buffer. */
function layoutByHand(f: Ed25519QuoteFields): Buffer {
  const body = Buffer.alloc(25);
  body.writeUInt32LE(f.localDomain, 0);
  body.writeUInt32LE(f.destinationDomain, 4);
  body.writeBigUInt64LE(f.fee, 8);
  body.writeBigUInt64LE(f.deadline, 16);
  body.writeUInt8(f.isNative ? 1 : 0, 24);
  return f.version === undefined ? body : Buffer.concat([Buffer.of(f.version), body]);
}

describe('encodeQuoteMessage', () => {
  it('is 26 bytes with a version and 25 without, little-endian in BCS order', () => {
    const versioned = aQuote({ version: 2, isNative: true, fee: 18_446_744_073_709_551_615n });
    const plain = aQuote({ localDomain: 9, destinationDomain: 3 });
    expect(encodeQuoteMessage(versioned)).toHaveLength(26);
    expect(encodeQuoteMessage(plain)).toHaveLength(25);
    expect(Buffer.from(encodeQuoteMessage(versioned)).equals(layoutByHand(versioned))).toBe(true);
    expect(Buffer.from(encodeQuoteMessage(plain)).equals(layoutByHand(plain))).toBe(true);
  });

  it('matches the known-answer bytes', () => {
    expect(Buffer.from(encodeQuoteMessage(aQuote({ version: 2 }))).toString('hex')).toBe(
      // version | localDomain 5 | destinationDomain 0 | fee 590000 = 0x900b0 | deadline 0x6553f164 | false
      '02' + '05000000' + '00000000' + 'b000090000000000' + '64f1536500000000' + '00',
    );
  });

  it('decodes with an independent @mysten/bcs struct definition', () => {
    const Versioned = bcs.struct('Q', {
      v: bcs.u8(),
      l: bcs.u32(),
      d: bcs.u32(),
      f: bcs.u64(),
      t: bcs.u64(),
      n: bcs.bool(),
    });
    const Plain = bcs.struct('P', {
      l: bcs.u32(),
      d: bcs.u32(),
      f: bcs.u64(),
      t: bcs.u64(),
      n: bcs.bool(),
    });
    const v = Versioned.parse(encodeQuoteMessage(aQuote({ version: 1, isNative: true })));
    expect(v).toEqual({ v: 1, l: 5, d: 0, f: '590000', t: '1700000100', n: true });
    const p = Plain.parse(encodeQuoteMessage(aQuote({ destinationDomain: 0xffffffff })));
    expect(p).toEqual({ l: 5, d: 0xffffffff, f: '590000', t: '1700000100', n: false });
  });

  it.each<[string, Partial<Ed25519QuoteFields>, string]>([
    ['fee above u64', { fee: 1n << 64n }, 'fee'],
    ['negative deadline', { deadline: -1n }, 'deadline'],
    ['domain above u32', { destinationDomain: 2 ** 32 }, 'destinationDomain'],
    ['version 3', { version: 3 as 2 }, 'version'],
  ])('throws QuoteFieldError for %s', (_name, override, field) => {
    expect(() => encodeQuoteMessage(aQuote(override))).toThrow(
      expect.objectContaining({ field }) as Error,
    );
    expect(() => encodeQuoteMessage(aQuote(override))).toThrow(QuoteFieldError);
  });
});

describe('decodeQuoteMessage', () => {
  it('round-trips with and without version', () => {
    const a = aQuote({ version: 2, isNative: true, fee: (1n << 64n) - 1n });
    expect(decodeQuoteMessage(encodeQuoteMessage(a), { hasVersion: true })).toEqual(a);
    const b = aQuote();
    expect(decodeQuoteMessage(encodeQuoteMessage(b), { hasVersion: false })).toEqual(b);
  });

  it('throws on the wrong length, a bad version byte or a bad bool byte', () => {
    const versioned = encodeQuoteMessage(aQuote({ version: 2 }));
    expect(() => decodeQuoteMessage(versioned, { hasVersion: false })).toThrow(RangeError);
    expect(() => decodeQuoteMessage(versioned.subarray(1), { hasVersion: true })).toThrow(
      RangeError,
    );
    expect(() => decodeQuoteMessage(new Uint8Array(0), { hasVersion: false })).toThrow(RangeError);
    const badVersion = Uint8Array.from(versioned);
    badVersion[0] = 7;
    expect(() => decodeQuoteMessage(badVersion, { hasVersion: true })).toThrow(RangeError);
    const badBool = Uint8Array.from(versioned);
    badBool[25] = 2;
    expect(() => decodeQuoteMessage(badBool, { hasVersion: true })).toThrow(RangeError);
  });
});

describe('signEd25519 / verifyEd25519', () => {
  const message = encodeQuoteMessage(aQuote({ version: 2 }));

  it('produces 64-byte signatures that tweetnacl verifies, identical to tweetnacl', () => {
    const sig = signEd25519(message, signer);
    expect(sig).toHaveLength(64);
    expect(nacl.sign.detached.verify(message, sig, naclPair.publicKey)).toBe(true);
    expect(
      Buffer.from(sig).equals(Buffer.from(nacl.sign.detached(message, naclPair.secretKey))),
    ).toBe(true);
  });

  it('accepts tweetnacl signatures', () => {
    expect(
      verifyEd25519(nacl.sign.detached(message, naclPair.secretKey), message, naclPair.publicKey),
    ).toBe(true);
  });

  it('rejects a wrong message, a wrong key and a flipped bit', () => {
    const sig = signEd25519(message, signer);
    const other = encodeQuoteMessage(aQuote({ version: 2, isNative: true }));
    expect(verifyEd25519(sig, other, signer.publicKey)).toBe(false);
    expect(verifyEd25519(sig, message, nacl.sign.keyPair().publicKey)).toBe(false);
    for (const i of [0, 31, 32, 63]) {
      const forged = Uint8Array.from(sig);
      forged[i] = forged[i]! ^ 0x01;
      expect(verifyEd25519(forged, message, signer.publicKey)).toBe(false);
    }
  });

  it('rejects the malleable form S + L (non-canonical S) that strict verification forbids', () => {
    const sig = signEd25519(message, signer);
    const s = BigInt(`0x${Buffer.from(sig.subarray(32)).reverse().toString('hex')}`) + ED25519_L;
    const sBytes = Buffer.from(s.toString(16).padStart(64, '0'), 'hex').reverse();
    const malleated = Uint8Array.from([...sig.subarray(0, 32), ...sBytes]);
    expect(verifyEd25519(malleated, message, signer.publicKey)).toBe(false);
  });

  it('rejects a small-order public key (identity point) and non-canonical key encodings', () => {
    const identity = new Uint8Array(32);
    identity[0] = 1;
    // With A = identity and R = identity, S = 0 satisfies the cofactorless equation for any message.
    const trivial = Uint8Array.from([...identity, ...new Uint8Array(32)]);
    expect(verifyEd25519(trivial, message, identity)).toBe(false);
    const nonCanonical = new Uint8Array(32).fill(0xff);
    nonCanonical[31] = 0x7f; // y = 2^255 - 1 >= p
    expect(verifyEd25519(signEd25519(message, signer), message, nonCanonical)).toBe(false);
    expect(ed25519.verify(trivial, message, identity, { zip215: true })).toBe(true);
  });

  it('returns false instead of throwing on malformed input', () => {
    const sig = signEd25519(message, signer);
    expect(verifyEd25519(sig.subarray(0, 63), message, signer.publicKey)).toBe(false);
    expect(verifyEd25519(sig, message, signer.publicKey.subarray(0, 31))).toBe(false);
    expect(verifyEd25519(new Uint8Array(0), message, signer.publicKey)).toBe(false);
    expect(verifyEd25519('00' as unknown as Uint8Array, message, signer.publicKey)).toBe(false);
    expect(verifyEd25519(sig, null as unknown as Uint8Array, signer.publicKey)).toBe(false);
    expect(verifyEd25519(sig, message, undefined as unknown as Uint8Array)).toBe(false);
  });
});
