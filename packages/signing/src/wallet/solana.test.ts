import { base58, base64 } from '@scure/base';
import nacl from 'tweetnacl';
import { expectCode } from '../../test/support/expect-code.js';
import { flipBits } from '../../test/support/flip-bits.js';
import { verifyWalletSignature } from './verify.js';

const pair = nacl.sign.keyPair.fromSeed(Uint8Array.from({ length: 32 }, (_, i) => i + 1));
const address = base58.encode(pair.publicKey);
const message = 'Wallet binding request: bob.ctss\nNonce: 9a8b7c — ünïcode ✓';
const sigBytes = nacl.sign.detached(new TextEncoder().encode(message), pair.secretKey);

describe('verifyWalletSignature (solana, ed25519 over UTF-8)', () => {
  it.each([
    ['base58', base58.encode(sigBytes)],
    ['hex', Buffer.from(sigBytes).toString('hex')],
    ['0x hex', `0x${Buffer.from(sigBytes).toString('hex')}`],
    ['base64', base64.encode(sigBytes)],
  ])('accepts a tweetnacl signature encoded as %s', async (_name, signature) => {
    await expect(
      verifyWalletSignature({ chainType: 'solana', address, message, signature }),
    ).resolves.toEqual({ address, message, format: 'message' });
  });

  it('rejects a wrong message, a wrong address and a forged signature as INVALID_SIGNATURE', async () => {
    const signature = base58.encode(sigBytes);
    const refused = [
      { address, message: message.replace('9a8b7c', '9a8b7d'), signature },
      { address: base58.encode(nacl.sign.keyPair().publicKey), message, signature },
      { address, message, signature: base58.encode(flipBits(sigBytes, 5, 0x80)) },
    ];
    for (const input of refused)
      await expectCode(
        verifyWalletSignature({ chainType: 'solana', ...input }),
        'INVALID_SIGNATURE',
      );
  });

  it('rejects malformed addresses and signature encodings as INVALID_INPUT', async () => {
    const signature = base58.encode(sigBytes);
    const bad = [
      { address: `0x${Buffer.from(pair.publicKey).toString('hex')}`, signature },
      { address: base58.encode(pair.publicKey.subarray(0, 31)), signature },
      { address: `${address}O`, signature },
      { address, signature: base58.encode(sigBytes.subarray(0, 63)) },
      { address, signature: Buffer.from(sigBytes.subarray(0, 60)).toString('hex') },
      { address, signature: 'not a signature' },
    ];
    for (const input of bad)
      await expectCode(
        verifyWalletSignature({ chainType: 'solana', message, ...input }),
        'INVALID_INPUT',
      );
  });
});
