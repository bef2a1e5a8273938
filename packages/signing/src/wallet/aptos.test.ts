import { Account, Ed25519PrivateKey, Ed25519PublicKey, Ed25519Signature } from '@aptos-labs/ts-sdk';
import { base64 } from '@scure/base';
import { aptosAddressOf, buildAptosFullMessage, parseAptosFullMessage } from './aptos.js';
import { expectCode } from '../../test/support/expect-code.js';
import { verifyWalletSignature } from './verify.js';

const message = 'Wallet binding request: dave.ctss\nNonce: 5eed';
const utf8 = (s: string): Uint8Array => new TextEncoder().encode(s);
const hex = (b: Uint8Array): string => `0x${Buffer.from(b).toString('hex')}`;

function accountFrom(fill: number): Account {
  const key = Uint8Array.from({ length: 32 }, (_, i) => (fill * 3 + i) & 0xff);
  return Account.fromPrivateKey({ privateKey: new Ed25519PrivateKey(key) });
}
const account = accountFrom(1);
const address = account.accountAddress.toStringLong();
const publicKeyHex = hex(account.publicKey.toUint8Array());
// Account.sign(string) would treat 0x-looking text as hex, so sign the UTF-8 bytes explicitly.
const sign = (acct: Account, text: string): string => hex(acct.sign(utf8(text)).toUint8Array());

describe('Aptos helpers', () => {
  it('derives the same address as @aptos-labs/ts-sdk (sha3-256(pubkey || 0x00))', () => {
    for (const acct of [account, accountFrom(2), accountFrom(3), Account.generate()]) {
      expect(aptosAddressOf(acct.publicKey.toUint8Array())).toBe(
        acct.accountAddress.toStringLong(),
      );
    }
  });

  it('builds and parses the wallet full message, with a multi-line message', () => {
    const minimal = buildAptosFullMessage({ message, nonce: 'n1' });
    expect(minimal).toBe(`APTOS\nmessage: ${message}\nnonce: n1`);
    expect(parseAptosFullMessage(minimal)).toEqual({ message, nonce: 'n1' });
    const all =
      'APTOS\naddress: 0x1\napplication: https://app.example\nchainId: 1\nmessage: hi\nthere\nnonce: 42';
    expect(parseAptosFullMessage(all)).toEqual({
      address: '0x1',
      application: 'https://app.example',
      chainId: '1',
      message: 'hi\nthere',
      nonce: '42',
    });
    expect(buildAptosFullMessage(parseAptosFullMessage(all)!)).toBe(all);
    expect(
      parseAptosFullMessage(`APTOS\nchainId: 2\naddress: 0x1\nmessage: m\nnonce: 1`),
    ).toBeUndefined();
    expect(parseAptosFullMessage(`message: m\nnonce: 1`)).toBeUndefined();
    expect(parseAptosFullMessage(`APTOS\nmessage: m`)).toBeUndefined();
  });
});

describe('verifyWalletSignature (aptos)', () => {
  it('accepts an Account.sign signature over the message with hex or base64 key and signature', async () => {
    const sigHex = sign(account, message);
    const sigBytes = Buffer.from(sigHex.slice(2), 'hex');
    const inputs = [
      { publicKey: publicKeyHex, signature: sigHex },
      { publicKey: publicKeyHex.slice(2), signature: sigHex.slice(2) },
      {
        publicKey: base64.encode(account.publicKey.toUint8Array()),
        signature: base64.encode(sigBytes),
      },
    ];
    for (const input of inputs) {
      await expect(
        verifyWalletSignature({ chainType: 'aptos', address, message, ...input }),
      ).resolves.toEqual({ address, message, format: 'message' });
    }
    // And the SDK agrees with the signature we accepted.
    expect(
      new Ed25519PublicKey(publicKeyHex).verifySignature({
        message: utf8(message),
        signature: new Ed25519Signature(sigHex),
      }),
    ).toBe(true);
  });

  it('accepts the short address form and normalizes it', async () => {
    const short = account.accountAddress.toString();
    await expect(
      verifyWalletSignature({
        chainType: 'aptos',
        address: short.toUpperCase().replace('0X', '0x'),
        message,
        signature: sign(account, message),
        publicKey: publicKeyHex,
      }),
    ).resolves.toMatchObject({ address });
  });

  it.each([
    ['minimal', { message, nonce: '5eed' }],
    [
      'with address, application and chainId',
      { address, application: 'https://bridge.example', chainId: '1', message, nonce: 'abc123' },
    ],
    ['with the short address', { address: account.accountAddress.toString(), message, nonce: '1' }],
  ])('accepts a wallet full-message signature passed as fullMessage (%s)', async (_name, parts) => {
    const fullMessage = buildAptosFullMessage(parts);
    const signature = sign(account, fullMessage);
    await expect(
      verifyWalletSignature({
        chainType: 'aptos',
        address,
        message,
        signature,
        publicKey: publicKeyHex,
        fullMessage,
      }),
    ).resolves.toEqual({
      address,
      message,
      format: 'aptos-full-message',
    });
  });

  it('accepts a full message passed as message and returns the embedded message for the caller to compare', async () => {
    const fullMessage = `APTOS\napplication: https://bridge.example\nmessage: ${message}\nnonce: 77`;
    const signature = sign(account, fullMessage);
    await expect(
      verifyWalletSignature({
        chainType: 'aptos',
        address,
        message: fullMessage,
        signature,
        publicKey: publicKeyHex,
      }),
    ).resolves.toEqual({
      address,
      message,
      format: 'aptos-full-message',
    });
  });

  it('rejects a full message that embeds another message, names another address, or was not signed', async () => {
    const otherEmbedded = buildAptosFullMessage({
      message: 'Wallet binding request: eve.ctss\nNonce: 5eed',
      nonce: '1',
    });
    const otherAddress = buildAptosFullMessage({
      address: accountFrom(9).accountAddress.toStringLong(),
      message,
      nonce: '1',
    });
    const good = buildAptosFullMessage({ message, nonce: '1' });
    const refused = [
      [
        { message, signature: sign(account, otherEmbedded), fullMessage: otherEmbedded },
        'INVALID_SIGNATURE',
      ],
      [
        { message, signature: sign(account, otherAddress), fullMessage: otherAddress },
        'INVALID_SIGNATURE',
      ],
      [{ message: otherAddress, signature: sign(account, otherAddress) }, 'INVALID_SIGNATURE'],
      [{ message, signature: sign(account, message), fullMessage: good }, 'INVALID_SIGNATURE'],
      [{ message, signature: sign(account, good), fullMessage: 'APTOS message' }, 'INVALID_INPUT'],
    ] as const;
    for (const [input, code] of refused)
      await expectCode(
        verifyWalletSignature({ chainType: 'aptos', address, publicKey: publicKeyHex, ...input }),
        code,
      );
  });

  it('rejects a wrong message, a key of another address, and a forged or foreign signature', async () => {
    const signature = sign(account, message);
    const other = accountFrom(5);
    const forged = `${signature.slice(0, 20)}${signature[20] === 'f' ? 'e' : 'f'}${signature.slice(21)}`;
    const refused = [
      { message: `${message}!`, signature, publicKey: publicKeyHex },
      {
        message,
        signature: sign(other, message),
        publicKey: hex(other.publicKey.toUint8Array()),
      },
      { message, signature: sign(other, message), publicKey: publicKeyHex },
      { message, signature: forged, publicKey: publicKeyHex },
    ];
    for (const input of refused)
      await expectCode(
        verifyWalletSignature({ chainType: 'aptos', address, ...input }),
        'INVALID_SIGNATURE',
      );
  });

  it('rejects missing or malformed public keys, addresses and signatures as INVALID_INPUT', async () => {
    const signature = sign(account, message);
    const bad = [
      { address, signature },
      { address, signature, publicKey: '' },
      { address, signature, publicKey: publicKeyHex.slice(0, 40) },
      { address, signature, publicKey: 'zz' },
      { address: `${address}0`, signature, publicKey: publicKeyHex },
      { address: 'dave.apt', signature, publicKey: publicKeyHex },
      { address, signature: signature.slice(0, 120), publicKey: publicKeyHex },
      { address, signature: `${signature}00`, publicKey: publicKeyHex },
    ];
    for (const input of bad)
      await expectCode(
        verifyWalletSignature({ chainType: 'aptos', message, ...input }),
        'INVALID_INPUT',
      );
  });
});
