import { describe, expect, it } from '@jest/globals';
import { parseWalletAddress } from './address.js';
import { bindingMessage, nonceOfMessage } from './nonces.js';
import { escapeLike } from './repository.js';

describe('parseWalletAddress', () => {
  it('when an EVM address comes in any case, then the key is lower case and the display EIP-55', () => {
    expect(parseWalletAddress('evm', '0x8BA1F109551BD432803012645AC136DDD64DBA72')).toEqual({
      chainType: 'evm',
      key: '0x8ba1f109551bd432803012645ac136ddd64dba72',
      display: '0x8ba1f109551bD432803012645Ac136ddd64DBA72',
    });
  });

  it('when an Aptos address is in short form, then it is padded to 64 digits', () => {
    expect(parseWalletAddress('aptos', '0xA')?.key).toBe(`0x${'0'.repeat(63)}a`);
  });

  it('when a Solana address is base58 of 32 bytes, then it is kept exactly', () => {
    expect(parseWalletAddress('solana', '9WzDXwBbmkg8ZTbNMqUxvQRAyrZzDsGYdLVL9zYtAWWM')?.key).toBe(
      '9WzDXwBbmkg8ZTbNMqUxvQRAyrZzDsGYdLVL9zYtAWWM',
    );
  });

  it.each([
    ['evm', '0x123'],
    ['evm', '8ba1f109551bd432803012645ac136ddd64dba72'],
    ['solana', '0OIl0OIl0OIl0OIl0OIl0OIl0OIl0OIl'],
    ['solana', '1111'],
    ['sui', `0x${'g'.repeat(64)}`],
    ['sui', '0x1'],
    ['aptos', `0x${'a'.repeat(65)}`],
    ['aptos', '0x'],
  ] as const)('when a %s address is %s, then it is refused', (chain, address) => {
    expect(parseWalletAddress(chain, address)).toBeUndefined();
  });
});

describe('escapeLike', () => {
  it('when a term holds LIKE metacharacters, then each is escaped with a backslash', () => {
    expect(escapeLike('a_b%c\\d')).toBe('a\\_b\\%c\\\\d');
  });
});

describe('binding message', () => {
  it('when built and parsed, then the nonce round-trips; other texts have no nonce', () => {
    const nonce = 'ab'.repeat(16);
    expect(nonceOfMessage(bindingMessage('alice.ctss', nonce))).toBe(nonce);
    expect(nonceOfMessage(`${bindingMessage('alice.ctss', nonce)}\n`)).toBeUndefined();
    expect(nonceOfMessage(`Please sign this message\nnonce: ${nonce}`)).toBeUndefined();
    expect(nonceOfMessage(`Wallet binding request: a\nb\nNonce: ${nonce}`)).toBeUndefined();
  });
});
