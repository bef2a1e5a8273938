import { Ed25519Keypair } from '@mysten/sui/keypairs/ed25519';
import { Secp256k1Keypair } from '@mysten/sui/keypairs/secp256k1';
import { Secp256r1Keypair } from '@mysten/sui/keypairs/secp256r1';
import { messageWithIntent } from '@mysten/sui/cryptography';
import { bcs } from '@mysten/sui/bcs';
import { verifyPersonalMessageSignature } from '@mysten/sui/verify';
import { blake2b } from '@noble/hashes/blake2.js';
import { base64 } from '@scure/base';
import { suiAddressOf, suiPersonalMessageDigest } from './sui.js';
import { expectCode } from '../../test/support/expect-code.js';
import { flipBits } from '../../test/support/flip-bits.js';
import { verifyWalletSignature } from './verify.js';

const message = 'Wallet binding request: carol.ctss\nNonce: 0c0ffee';
const bytes = new TextEncoder().encode(message);
const seed = (fill: number): Uint8Array =>
  Uint8Array.from({ length: 32 }, (_, i) => (fill + i) & 0xff);

const keypairs = {
  ED25519: Ed25519Keypair.fromSecretKey(seed(10)),
  Secp256k1: Secp256k1Keypair.fromSecretKey(seed(40)),
  Secp256r1: Secp256r1Keypair.fromSecretKey(seed(70)),
};

describe('Sui personal message helpers', () => {
  it('digest equals blake2b-256 of @mysten/sui messageWithIntent(PersonalMessage, bcs vector<u8>)', () => {
    const intentMessage = messageWithIntent(
      'PersonalMessage',
      bcs.byteVector().serialize(bytes).toBytes(),
    );
    expect(
      Buffer.from(suiPersonalMessageDigest(bytes)).equals(
        Buffer.from(blake2b(intentMessage, { dkLen: 32 })),
      ),
    ).toBe(true);
  });

  it.each(Object.entries(keypairs))(
    'address derivation matches @mysten/sui toSuiAddress (%s)',
    (_scheme, kp) => {
      expect(suiAddressOf(kp.getPublicKey().flag(), kp.getPublicKey().toRawBytes())).toBe(
        kp.toSuiAddress(),
      );
    },
  );
});

describe('verifyWalletSignature (sui)', () => {
  it.each(Object.entries(keypairs))(
    'accepts @mysten/sui signPersonalMessage signatures (%s), also checked by @mysten/sui',
    async (_scheme, kp) => {
      const { signature } = await kp.signPersonalMessage(bytes);
      const address = kp.toSuiAddress();
      const suiPublicKey = await verifyPersonalMessageSignature(bytes, signature, { address });
      expect(suiPublicKey.toSuiAddress()).toBe(address);
      await expect(
        verifyWalletSignature({ chainType: 'sui', address, message, signature }),
      ).resolves.toEqual({ address, message, format: 'message' });
    },
  );

  it('also accepts the serialized signature as hex', async () => {
    for (const kp of Object.values(keypairs)) {
      const { signature } = await kp.signPersonalMessage(bytes);
      const asHex = `0x${Buffer.from(base64.decode(signature)).toString('hex')}`;
      await expect(
        verifyWalletSignature({
          chainType: 'sui',
          address: kp.toSuiAddress(),
          message,
          signature: asHex,
        }),
      ).resolves.toMatchObject({
        address: kp.toSuiAddress(),
      });
    }
  });

  it('normalizes short and upper-case addresses to 0x + 64 lowercase hex digits', async () => {
    // Search a key whose address starts with a zero nibble, so the short form is really shorter.
    let kp = keypairs.ED25519;
    for (let i = 0; !kp.toSuiAddress().startsWith('0x0'); i++)
      kp = Ed25519Keypair.fromSecretKey(seed(100 + i));
    const { signature } = await kp.signPersonalMessage(bytes);
    const full = kp.toSuiAddress();
    const short = `0x${full.slice(2).replace(/^0+/, '')}`;
    for (const address of [short, full.toUpperCase().replace('0X', '0x'), full.slice(2)]) {
      await expect(
        verifyWalletSignature({ chainType: 'sui', address, message, signature }),
      ).resolves.toMatchObject({ address: full });
    }
  });

  it('rejects a wrong message, another address, a forged signature and a swapped public key', async () => {
    const kp = keypairs.ED25519;
    const address = kp.toSuiAddress();
    const { signature } = await kp.signPersonalMessage(bytes);
    const raw = base64.decode(signature);
    // Signature by kp, public key and address of another key: the address matches but the signature does not.
    const otherKp = Ed25519Keypair.fromSecretKey(seed(200));
    const swapped = Uint8Array.from([
      ...raw.subarray(0, 65),
      ...otherKp.getPublicKey().toRawBytes(),
    ]);
    const refused = [
      { address, message: `${message} `, signature },
      { address: keypairs.Secp256k1.toSuiAddress(), message, signature },
      { address, message, signature: base64.encode(flipBits(raw, 10, 1)) },
      { address: otherKp.toSuiAddress(), message, signature: base64.encode(swapped) },
    ];
    for (const input of refused)
      await expectCode(verifyWalletSignature({ chainType: 'sui', ...input }), 'INVALID_SIGNATURE');
  });

  it('rejects a signature over the raw message (no intent) and a transaction-intent signature', async () => {
    const kp = keypairs.ED25519;
    const address = kp.toSuiAddress();
    const rawSig = await kp.sign(bytes);
    const serialized = base64.encode(
      Uint8Array.from([0, ...rawSig, ...kp.getPublicKey().toRawBytes()]),
    );
    await expectCode(
      verifyWalletSignature({ chainType: 'sui', address, message, signature: serialized }),
      'INVALID_SIGNATURE',
    );
    const { signature: txSig } = await kp.signWithIntent(
      bcs.byteVector().serialize(bytes).toBytes(),
      'TransactionData',
    );
    await expectCode(
      verifyWalletSignature({ chainType: 'sui', address, message, signature: txSig }),
      'INVALID_SIGNATURE',
    );
  });

  it('rejects malformed input as INVALID_INPUT', async () => {
    const kp = keypairs.ED25519;
    const address = kp.toSuiAddress();
    const { signature } = await kp.signPersonalMessage(bytes);
    const raw = base64.decode(signature);
    const bad = [
      { address: `${address}00`, signature },
      { address: 'sui:alice', signature },
      { address, signature: base64.encode(raw.subarray(0, 96)) },
      { address, signature: base64.encode(Uint8Array.from([5, ...raw.subarray(1)])) },
      { address, signature: base64.encode(Uint8Array.from([3, ...raw.subarray(1)])) },
      { address, signature: base64.encode(Uint8Array.from([9, ...raw.subarray(1)])) },
      { address, signature: '!!!' },
    ];
    for (const input of bad)
      await expectCode(
        verifyWalletSignature({ chainType: 'sui', message, ...input }),
        'INVALID_INPUT',
      );
  });
});
