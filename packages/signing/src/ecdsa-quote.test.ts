import { keccak_256 } from '@noble/hashes/sha3.js';
import { type Hex, hexToBytes, recoverAddress } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import {
  type EcdsaQuoteFields,
  quoteDigest,
  recoverQuoteSigner,
  signQuote,
} from './ecdsa-quote.js';
import { QuoteFieldError } from './errors.js';
import { loadSecp256k1Signer } from './keys.js';
import { quoteBuilder } from '../test/support/quote-builder.js';

const KEY = '0x4c0883a69102937d6231471b5dbb6204fe5129617082792ae468d01a3f362318' as const;
const SECP256K1_HALF_N = 0x7fffffffffffffffffffffffffffffff5d576e7357a4501ddfe92f46681b20a0n;

/** Ethereum -> Arbitrum over CCTP v2, a 0.2 fee in the bridge asset; the vectors below are of it. */
const aQuote = quoteBuilder<EcdsaQuoteFields>({
  localDomain: 0,
  destinationDomain: 3,
  fee: 200_000n,
  deadline: 1_700_000_100n,
  isNative: false,
  cctpVersion: 2,
});

/** Independent big-endian packing with Buffer, to check viem's encodePacked use. */
function packByHand(f: EcdsaQuoteFields, feeBytes: number, deadlineBytes: number): Uint8Array {
  const buf = Buffer.alloc(4 + 4 + feeBytes + deadlineBytes + 2);
  buf.writeUInt32BE(f.localDomain, 0);
  buf.writeUInt32BE(f.destinationDomain, 4);
  Buffer.from(f.fee.toString(16).padStart(feeBytes * 2, '0'), 'hex').copy(buf, 8);
  Buffer.from(f.deadline.toString(16).padStart(deadlineBytes * 2, '0'), 'hex').copy(
    buf,
    8 + feeBytes,
  );
  buf.writeUInt8(f.isNative ? 1 : 0, 8 + feeBytes + deadlineBytes);
  buf.writeUInt8(f.cctpVersion, 9 + feeBytes + deadlineBytes);
  return buf;
}

describe('quoteDigest', () => {
  it('hashes the 74-byte spec packing (uint256 fee and deadline)', () => {
    const f = aQuote({ fee: 123_456_789_012_345_678_901n, isNative: true });
    const packed = packByHand(f, 32, 32);
    expect(packed.length).toBe(74);
    expect(quoteDigest(f, 'spec')).toBe(`0x${Buffer.from(keccak_256(packed)).toString('hex')}`);
  });

  it('hashes the 34-byte compact packing (uint128 fee, uint64 deadline)', () => {
    const f = aQuote({ cctpVersion: 1 });
    const packed = packByHand(f, 16, 8);
    expect(packed.length).toBe(34);
    expect(quoteDigest(f, 'compact')).toBe(`0x${Buffer.from(keccak_256(packed)).toString('hex')}`);
  });

  it('matches the known-answer vectors', () => {
    // Pinned from viem keccak256(encodePacked(...)) run separately; a drift here breaks deployed contracts.
    expect(quoteDigest(aQuote(), 'spec')).toBe(
      '0xda48e04179afa87cdb4885983ead4e139bfef34a3a510bdaabb96a7aa5807873',
    );
    expect(quoteDigest(aQuote(), 'compact')).toBe(
      '0xbe7c2de7fae66c76add30fd62d3da3cc9005b02e8555386faee6dfa675979f7d',
    );
  });

  it('changes with every field', () => {
    const base = quoteDigest(aQuote(), 'spec');
    const variants: Partial<EcdsaQuoteFields>[] = [
      { localDomain: 3, destinationDomain: 0 },
      { fee: 200_001n },
      { deadline: 1_700_000_101n },
      { isNative: true },
      { cctpVersion: 1 },
    ];
    for (const v of variants) expect(quoteDigest(aQuote(v), 'spec')).not.toBe(base);
    expect(quoteDigest(aQuote(), 'compact')).not.toBe(base);
  });

  it('accepts the largest values each packing can hold', () => {
    const max128 = (1n << 128n) - 1n;
    const max64 = (1n << 64n) - 1n;
    expect(
      quoteDigest(aQuote({ fee: max128, deadline: max64, localDomain: 0xffffffff }), 'compact'),
    ).toMatch(/^0x[0-9a-f]{64}$/);
    expect(
      quoteDigest(aQuote({ fee: (1n << 256n) - 1n, deadline: (1n << 256n) - 1n }), 'spec'),
    ).toMatch(/^0x[0-9a-f]{64}$/);
  });

  it.each<[string, Partial<EcdsaQuoteFields>, 'spec' | 'compact', string]>([
    ['fee above uint128 in compact', { fee: 1n << 128n }, 'compact', 'fee'],
    ['deadline above uint64 in compact', { deadline: 1n << 64n }, 'compact', 'deadline'],
    ['fee above uint256 in spec', { fee: 1n << 256n }, 'spec', 'fee'],
    ['negative fee', { fee: -1n }, 'spec', 'fee'],
    ['negative deadline', { deadline: -5n }, 'compact', 'deadline'],
    ['domain above uint32', { localDomain: 2 ** 32 }, 'spec', 'localDomain'],
    ['fractional domain', { destinationDomain: 1.5 }, 'spec', 'destinationDomain'],
    ['cctpVersion 3', { cctpVersion: 3 as 2 }, 'spec', 'cctpVersion'],
  ])('throws QuoteFieldError (a RangeError) for %s', (_name, override, packing, field) => {
    const act = (): Hex => quoteDigest(aQuote(override), packing);
    expect(act).toThrow(QuoteFieldError);
    expect(act).toThrow(RangeError);
    try {
      act();
    } catch (err) {
      expect((err as QuoteFieldError).field).toBe(field);
      expect((err as QuoteFieldError).code).toBe('QUOTE_FIELD_OUT_OF_RANGE');
    }
  });
});

describe('signQuote', () => {
  const signer = loadSecp256k1Signer(KEY);
  const viemAccount = privateKeyToAccount(KEY);

  it.each(['spec', 'compact'] as const)(
    'produces the same signature as viem account.sign over the raw digest (%s)',
    async (packing) => {
      const f = aQuote();
      const ours = signQuote(f, packing, signer);
      const theirs = await viemAccount.sign({ hash: quoteDigest(f, packing) });
      expect(ours).toBe(theirs);
    },
  );

  it('is recovered by viem recoverAddress to the signer address', async () => {
    for (const isNative of [false, true]) {
      const f = aQuote({ isNative });
      const sig = signQuote(f, 'spec', signer);
      await expect(recoverAddress({ hash: quoteDigest(f, 'spec'), signature: sig })).resolves.toBe(
        viemAccount.address,
      );
    }
  });

  it('returns 65 bytes r||s||v with v in {27,28} and low s, deterministically', () => {
    const vs = new Set<number>();
    for (let i = 0; i < 16; i++) {
      const f = aQuote({ fee: BigInt(1_000 + i) });
      const sig = signQuote(f, 'spec', signer);
      const bytes = hexToBytes(sig);
      expect(bytes.length).toBe(65);
      vs.add(bytes[64]!);
      expect(
        BigInt(`0x${Buffer.from(bytes.subarray(32, 64)).toString('hex')}`) <= SECP256K1_HALF_N,
      ).toBe(true);
      expect(signQuote(f, 'spec', signer)).toBe(sig);
    }
    expect([...vs].every((v) => v === 27 || v === 28)).toBe(true);
    expect(vs.size).toBe(2);
  });

  it('matches the known-answer signatures (web3.js documentation key)', () => {
    // Pinned from viem privateKeyToAccount(KEY).sign({ hash }) run separately (RFC 6979 is deterministic).
    expect(signer.address).toBe('0x2c7536E3605D9C16a7a3D7b1898e529396a65c23');
    expect(signQuote(aQuote(), 'spec', signer)).toBe(
      '0x0e5d13b60802bf3c770cadff0a9f87f5f6e395109b5520f92513597252185af518234f6246d500f89d78c89017ff1967f13b2216f6f673b0f6857ce22b50481b1b',
    );
    expect(signQuote(aQuote(), 'compact', signer)).toBe(
      '0xa0c64b6a4b4d926c3fe92b0b4b9566dca2ad1cad35c2e1a47f0a2d62434190b6595330852cbc37c517c3015c163df5b19fa7d591cc60af60a35ef318b3fc21b41c',
    );
  });
});

describe('recoverQuoteSigner', () => {
  const signer = loadSecp256k1Signer(KEY);

  it('recovers the checksummed signer for both packings', () => {
    for (const packing of ['spec', 'compact'] as const) {
      const f = aQuote();
      expect(recoverQuoteSigner(f, packing, signQuote(f, packing, signer))).toBe(signer.address);
    }
  });

  it('recovers a different address when a field or the packing differs', () => {
    const f = aQuote();
    const sig = signQuote(f, 'spec', signer);
    expect(recoverQuoteSigner({ ...f, cctpVersion: 1 }, 'spec', sig)).not.toBe(signer.address);
    expect(recoverQuoteSigner({ ...f, isNative: true }, 'spec', sig)).not.toBe(signer.address);
    expect(
      recoverQuoteSigner({ ...f, localDomain: 3, destinationDomain: 0 }, 'spec', sig),
    ).not.toBe(signer.address);
    expect(recoverQuoteSigner(f, 'compact', sig)).not.toBe(signer.address);
  });

  it('accepts v as 0/1 and rejects malformed signatures with TypeError', () => {
    const f = aQuote();
    const sig = signQuote(f, 'spec', signer);
    const v01 =
      `${sig.slice(0, 130)}${(parseInt(sig.slice(130), 16) - 27).toString(16).padStart(2, '0')}` as Hex;
    expect(recoverQuoteSigner(f, 'spec', v01)).toBe(signer.address);
    expect(() => recoverQuoteSigner(f, 'spec', sig.slice(0, 128) as Hex)).toThrow(TypeError);
    expect(() => recoverQuoteSigner(f, 'spec', `${sig.slice(0, 130)}1d` as Hex)).toThrow(TypeError);
    expect(() => recoverQuoteSigner(f, 'spec', `0x${'00'.repeat(64)}1b`)).toThrow(TypeError);
    expect(() => recoverQuoteSigner(f, 'spec', 'nothex' as Hex)).toThrow(TypeError);
  });
});
