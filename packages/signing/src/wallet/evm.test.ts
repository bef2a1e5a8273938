import { privateKeyToAccount } from 'viem/accounts';
import { expectCode } from '../../test/support/expect-code.js';
import { verifyWalletSignature } from './verify.js';

const account = privateKeyToAccount(
  '0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d',
);
const other = privateKeyToAccount(
  '0x5de4111afa1a4b94908f83103eb1f1706367c2e68ca870fc3fb9a804cdab365a',
);
const message = 'Wallet binding request: alice.ctss\nNonce: 6f1c2a';

/** verifyWalletSignature for `account` (evm), of `text` (the binding message by default). */
const verifyEvm = (signature: string, text: string = message) =>
  verifyWalletSignature({ chainType: 'evm', address: account.address, message: text, signature });

describe('verifyWalletSignature (evm, EIP-191 personal_sign)', () => {
  it('accepts a viem signMessage signature and returns the checksummed address', async () => {
    const signature = await account.signMessage({ message });
    for (const address of [
      account.address,
      account.address.toLowerCase(),
      `0x${account.address.slice(2).toUpperCase()}`,
    ]) {
      await expect(
        verifyWalletSignature({ chainType: 'evm', address, message, signature }),
      ).resolves.toEqual({
        address: account.address,
        message,
        format: 'message',
      });
    }
  });

  it('accepts a signature without 0x', async () => {
    const signature = await account.signMessage({ message });
    await expect(verifyEvm(signature.slice(2))).resolves.toMatchObject({
      address: account.address,
    });
  });

  it('accepts the 64-byte EIP-2098 compact form of the signature', async () => {
    const { parseSignature, serializeCompactSignature, signatureToCompactSignature } =
      await import('viem');
    const signature = await account.signMessage({ message });
    const compact = serializeCompactSignature(
      signatureToCompactSignature(parseSignature(signature)),
    );
    expect(compact).toHaveLength(130);
    await expect(verifyEvm(compact)).resolves.toMatchObject({
      address: account.address,
    });
  });

  it('rejects a wrong message, a wrong address and a forged signature as INVALID_SIGNATURE', async () => {
    const signature = await account.signMessage({ message });
    await expectCode(verifyEvm(signature, `${message}x`), 'INVALID_SIGNATURE');
    await expectCode(
      verifyWalletSignature({ chainType: 'evm', address: other.address, message, signature }),
      'INVALID_SIGNATURE',
    );
    const forged = `${signature.slice(0, 10)}${signature[10] === 'a' ? 'b' : 'a'}${signature.slice(11)}`;
    await expectCode(verifyEvm(forged), 'INVALID_SIGNATURE');
    const badV = `${signature.slice(0, 130)}05`;
    await expectCode(verifyEvm(badV), 'INVALID_SIGNATURE');
    const zero = `0x${'00'.repeat(65)}`;
    await expectCode(verifyEvm(zero), 'INVALID_SIGNATURE');
  });

  it('rejects a raw-digest signature (no EIP-191 prefix)', async () => {
    const { hashMessage, keccak256, toBytes } = await import('viem');
    const raw = await account.sign({ hash: keccak256(toBytes(message)) });
    expect(raw).not.toBe(await account.sign({ hash: hashMessage(message) }));
    await expectCode(verifyEvm(raw), 'INVALID_SIGNATURE');
  });

  it('rejects malformed addresses and signature encodings as INVALID_INPUT', async () => {
    const signature = await account.signMessage({ message });
    const bad = [
      { address: account.address.slice(0, 41), signature },
      { address: `${account.address}00`, signature },
      { address: 'vitalik.eth', signature },
      { address: account.address, signature: signature.slice(0, 120) },
      { address: account.address, signature: `${signature}00` },
      {
        address: account.address,
        signature: Buffer.from(signature.slice(2), 'hex').toString('base64'),
      },
      { address: account.address, signature: '' },
    ];
    for (const input of bad)
      await expectCode(
        verifyWalletSignature({ chainType: 'evm', message, ...input }),
        'INVALID_INPUT',
      );
  });

  it('rejects an unknown chain type and non-string fields as INVALID_INPUT', async () => {
    const signature = await account.signMessage({ message });
    await expectCode(
      verifyWalletSignature({
        chainType: 'bitcoin' as 'evm',
        address: account.address,
        message,
        signature,
      }),
      'INVALID_INPUT',
    );
    await expectCode(verifyEvm(signature, 42 as unknown as string), 'INVALID_INPUT');
    await expectCode(
      verifyWalletSignature({ chainType: 'evm', address: account.address, message: '', signature }),
      'INVALID_INPUT',
    );
  });
});
