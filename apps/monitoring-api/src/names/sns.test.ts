import { describe, expect, it } from '@jest/globals';
import { base58, base64 } from '@scure/base';
import { getSolDomainKey, readNameOwner } from './sns.js';
import { isOnCurve } from './solana-pda.js';

// Name-account keys published with the Bonfida SNS SDK tests and documentation (mainnet accounts).
const PUBLISHED_KEYS: [name: string, key: string][] = [
  ['bonfida.sol', 'Crf8hzfthWGbGbLTVCiqRqV5MVnbpHB1L9KQMd6gsinb'],
  ['toly.sol', 'FX1APjKbFu6M8GKb3dGXcZLXjxX4fGaYwvHqb5Vaee8q'],
  ['a.sol', 'ELoM9Yo5jdNE64uV7y9oQNG5yB9Npk6S518rRWDJ5hxy'],
  ['solana-explorer.sol', 'BkoGi4aGyaEiS2Zt4WaWjeko2adtFZt5oHrfETBYJo8b'],
  ['ünïcödé.sol', 'GxqfK8AMUK6GSiPcFi3eFuPEUJLqr2TQJm8nPrDvyVkT'],
  ['dex.bonfida.sol', 'HoFfFXqFHAC8RP3duuQNzag1ieUwJRBv1HtRNiWFq4Qu'],
];

describe('SNS name-account derivation', () => {
  it.each(PUBLISHED_KEYS)(
    'when %s is derived, then it is the published account %s',
    (name, key) => {
      expect(getSolDomainKey(name)).toBe(key);
    },
  );

  it('when a derived account is checked, then it is off the ed25519 curve (a PDA)', () => {
    expect(isOnCurve(base58.decode(getSolDomainKey('bonfida.sol')))).toBe(false);
    // A real public key (the .sol TLD authority is a PDA too, so use a wallet key: the name program id is not).
    expect(isOnCurve(base58.decode('9WzDXwBbmkg8ZTbNMqUxvQRAyrZzDsGYdLVL9zYtAWWM'))).toBe(true);
  });

  it('when a name has an empty label or three labels, then derivation refuses it', () => {
    expect(() => getSolDomainKey('.sol')).toThrow(RangeError);
    expect(() => getSolDomainKey('a..sol')).toThrow(RangeError);
    expect(() => getSolDomainKey('a.b.c.sol')).toThrow(RangeError);
  });
});

describe('readNameOwner', () => {
  const owner = base58.decode('9WzDXwBbmkg8ZTbNMqUxvQRAyrZzDsGYdLVL9zYtAWWM');
  const account = (ownerBytes: Uint8Array, size = 96) => {
    const data = new Uint8Array(size);
    data.fill(7, 0, 32);
    data.set(ownerBytes, 32);
    return base64.encode(data);
  };

  it('when the header holds an owner, then bytes 32..64 are returned as base58', () => {
    expect(readNameOwner(account(owner, 200))).toBe('9WzDXwBbmkg8ZTbNMqUxvQRAyrZzDsGYdLVL9zYtAWWM');
  });

  it('when the owner is all zeros or the data is shorter than the header, then there is no owner', () => {
    expect(readNameOwner(account(new Uint8Array(32)))).toBeUndefined();
    expect(readNameOwner(base64.encode(new Uint8Array(50)))).toBeUndefined();
  });
});
