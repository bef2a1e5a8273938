import { inspect } from 'node:util';
import { base58, base64 } from '@scure/base';
import nacl from 'tweetnacl';
import { privateKeyToAccount } from 'viem/accounts';
import { KeyFormatError } from './errors.js';
import { keyIdOf, loadEd25519Signer, loadSecp256k1Signer } from './keys.js';

const SECP_KEY_HEX = '4c0883a69102937d6231471b5dbb6204fe5129617082792ae468d01a3f362318';
const SEED = Uint8Array.from({ length: 32 }, (_, i) => (i * 7 + 3) & 0xff);
const naclPair = nacl.sign.keyPair.fromSeed(SEED);
const hex = (b: Uint8Array): string => Buffer.from(b).toString('hex');

function expectKeyFormatErrorWithout(act: () => unknown, secretText: string): void {
  let caught: unknown;
  try {
    act();
  } catch (err) {
    caught = err;
  }
  expect(caught).toBeInstanceOf(KeyFormatError);
  const message = (caught as Error).message;
  expect(message).not.toContain(secretText);
  expect(message.length).toBeGreaterThan(10);
}

describe('loadSecp256k1Signer', () => {
  it.each([
    ['0x-prefixed hex', `0x${SECP_KEY_HEX}`],
    ['plain hex', SECP_KEY_HEX],
    ['upper-case hex with a trailing newline', `${SECP_KEY_HEX.toUpperCase()}\n`],
  ])('reads %s and derives the same address as viem', (_name, value) => {
    const signer = loadSecp256k1Signer(value);
    expect(signer.address).toBe(privateKeyToAccount(`0x${SECP_KEY_HEX}`).address);
    expect(signer.keyId).toMatch(/^[0-9a-f]{16}$/);
  });

  it('never exposes the private key through JSON, inspect, String or own properties', () => {
    const signer = loadSecp256k1Signer(SECP_KEY_HEX);
    const views = [
      JSON.stringify(signer),
      inspect(signer, { showHidden: true, depth: 5 }),
      (signer as unknown as { toString(): string }).toString(),
      JSON.stringify(Object.getOwnPropertyNames(signer)),
    ];
    for (const view of views) {
      expect(view.toLowerCase()).not.toContain(SECP_KEY_HEX);
    }
    expect(JSON.parse(JSON.stringify(signer))).toEqual({
      address: signer.address,
      keyId: signer.keyId,
    });
    expect(Object.isFrozen(signer)).toBe(true);
  });

  it('gives a stable key id that differs between keys', () => {
    const a = loadSecp256k1Signer(SECP_KEY_HEX);
    expect(loadSecp256k1Signer(`0x${SECP_KEY_HEX}`).keyId).toBe(a.keyId);
    expect(loadSecp256k1Signer('11'.repeat(32)).keyId).not.toBe(a.keyId);
  });

  it.each([
    ['31 bytes', SECP_KEY_HEX.slice(2)],
    ['33 bytes', `${SECP_KEY_HEX}aa`],
    ['non-hex', `${SECP_KEY_HEX.slice(0, 62)}zz`],
    ['zero', '00'.repeat(32)],
    ['the curve order', 'fffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141'],
    ['empty', ''],
  ])('rejects %s with KeyFormatError that does not echo the value', (_name, value) => {
    expectKeyFormatErrorWithout(() => loadSecp256k1Signer(value), value || 'never-matches');
  });

  it('signDigest rejects a digest that is not 32 bytes of 0x hex', () => {
    const signer = loadSecp256k1Signer(SECP_KEY_HEX);
    expect(() => signer.signDigest('0x1234')).toThrow(TypeError);
    expect(() => signer.signDigest(`0x${'zz'.repeat(32)}`)).toThrow(TypeError);
  });
});

describe('loadEd25519Signer', () => {
  const keypair64 = naclPair.secretKey; // tweetnacl layout: seed || publicKey, as Solana keypairs
  const forms: [string, string][] = [
    ['hex seed', hex(SEED)],
    ['0x hex seed', `0x${hex(SEED)}`],
    ['hex 64-byte keypair', hex(keypair64)],
    ['base58 64-byte keypair (Solana CLI / Phantom export)', base58.encode(keypair64)],
    ['base58 32-byte seed', base58.encode(SEED)],
    ['base64 64-byte keypair', base64.encode(keypair64)],
    ['base64 seed', base64.encode(SEED)],
    ['solana-keygen JSON array', JSON.stringify(Array.from(keypair64))],
    ['solana-keygen JSON file with newline', `${JSON.stringify(Array.from(keypair64))}\n`],
  ];

  it.each(forms)('reads %s and derives the tweetnacl public key', (_name, value) => {
    const signer = loadEd25519Signer(value);
    expect(hex(signer.publicKey)).toBe(hex(naclPair.publicKey));
    expect(signer.keyId).toBe(keyIdOf(naclPair.publicKey));
  });

  it('signs like tweetnacl (RFC 8032 is deterministic)', () => {
    const signer = loadEd25519Signer(hex(SEED));
    const message = new TextEncoder().encode('quote');
    expect(hex(signer.sign(message))).toBe(hex(nacl.sign.detached(message, naclPair.secretKey)));
  });

  it('returns a copy of the public key', () => {
    const signer = loadEd25519Signer(hex(SEED));
    signer.publicKey.fill(0);
    expect(hex(signer.publicKey)).toBe(hex(naclPair.publicKey));
  });

  it('never exposes the seed through JSON, inspect or String', () => {
    const signer = loadEd25519Signer(base58.encode(keypair64));
    for (const view of [
      JSON.stringify(signer),
      inspect(signer, { showHidden: true, depth: 5 }),
      (signer as unknown as { toString(): string }).toString(),
    ]) {
      expect(view).not.toContain(hex(SEED));
      expect(view).not.toContain(base58.encode(keypair64));
    }
    expect(JSON.parse(JSON.stringify(signer))).toEqual({
      publicKey: `0x${hex(naclPair.publicKey)}`,
      keyId: signer.keyId,
    });
  });

  it('rejects a 64-byte keypair whose public half does not match its seed', () => {
    const bad = Uint8Array.from(keypair64);
    bad[40] = bad[40]! ^ 1;
    expectKeyFormatErrorWithout(() => loadEd25519Signer(hex(bad)), hex(bad));
    expectKeyFormatErrorWithout(
      () => loadEd25519Signer(JSON.stringify(Array.from(bad))),
      JSON.stringify(Array.from(bad)),
    );
  });

  it.each([
    ['16-byte hex', 'ab'.repeat(16)],
    ['JSON with values above 255', JSON.stringify(Array.from({ length: 64 }, () => 300))],
    ['JSON of the wrong length', JSON.stringify([1, 2, 3])],
    ['broken JSON', '[1,2,'],
    ['a JSON object', '{"secretKey":1}'],
    ['text', 'not a key at all!'],
    ['empty', ''],
  ])('rejects %s with KeyFormatError', (_name, value) => {
    expectKeyFormatErrorWithout(() => loadEd25519Signer(value), value || 'never-matches');
  });
});
