/**
 * Ed25519 quotes from the app: the BCS message decodes (with @mysten/bcs) to the quote's own
 * fields, the signature verifies with @noble/curves, and Solana's Ed25519 signature-verification
 * precompile (run in litesvm) accepts the quote's signature, public key and message in an
 * instruction built like the Solana client builds it, and rejects a tampered message.
 */
import { bcs } from '@mysten/bcs';
import { ed25519 } from '@noble/curves/ed25519.js';
import {
  address,
  appendTransactionMessageInstruction,
  createTransactionMessage,
  generateKeyPairSigner,
  lamports,
  pipe,
  setTransactionMessageFeePayerSigner,
  setTransactionMessageLifetimeUsingBlockhash,
  signTransactionMessageWithSigners,
  type KeyPairSigner,
} from '@solana/kit';
import { FailedTransactionMetadata, LiteSVM } from 'litesvm';
import request from 'supertest';
import { Ed25519Quote } from '@ctss/domain-types';
import { buildTestApp, T0, type TestApp } from './support/app.js';

const VersionedMessage = bcs.struct('VersionedQuoteMessage', {
  version: bcs.u8(),
  localDomain: bcs.u32(),
  destinationDomain: bcs.u32(),
  fee: bcs.u64(),
  deadline: bcs.u64(),
  isNative: bcs.bool(),
});
const Message = bcs.struct('QuoteMessage', {
  localDomain: bcs.u32(),
  destinationDomain: bcs.u32(),
  fee: bcs.u64(),
  deadline: bcs.u64(),
  isNative: bcs.bool(),
});

const ED25519_PROGRAM = address('Ed25519SigVerify111111111111111111111111111');
/** Instruction index meaning "this instruction" in Ed25519SignatureOffsets. */
const THIS_INSTRUCTION = 0xffff;

/**
 * Ed25519 program instruction data for one signature (solana-sdk ed25519_instruction layout):
 * u8 count, u8 padding, then seven little-endian u16 offsets (signature offset/instruction index,
 * public key offset/index, message offset/size/index), then public key, signature and message.
 */
function ed25519Instruction(
  publicKey: Uint8Array,
  signature: Uint8Array,
  message: Uint8Array,
): Uint8Array {
  const headerEnd = 2 + 14;
  const publicKeyOffset = headerEnd;
  const signatureOffset = publicKeyOffset + 32;
  const messageOffset = signatureOffset + 64;
  const data = new Uint8Array(messageOffset + message.length);
  const view = new DataView(data.buffer);
  data[0] = 1;
  data[1] = 0;
  const offsets = [
    signatureOffset,
    THIS_INSTRUCTION,
    publicKeyOffset,
    THIS_INSTRUCTION,
    messageOffset,
    message.length,
    THIS_INSTRUCTION,
  ];
  offsets.forEach((v, i) => view.setUint16(2 + i * 2, v, true));
  data.set(publicKey, publicKeyOffset);
  data.set(signature, signatureOffset);
  data.set(message, messageOffset);
  return data;
}

const bytes = (hex: string) => Uint8Array.from(Buffer.from(hex.slice(2), 'hex'));

let t: TestApp;
let svm: LiteSVM;
let payer: KeyPairSigner;

/** Sends a transaction with the Ed25519 verification instruction; resolves to whether it succeeded. */
async function precompileAccepts(
  publicKey: Uint8Array,
  signature: Uint8Array,
  message: Uint8Array,
): Promise<boolean> {
  svm.expireBlockhash();
  const tx = await signTransactionMessageWithSigners(
    pipe(
      createTransactionMessage({ version: 0 }),
      (m) => setTransactionMessageFeePayerSigner(payer, m),
      (m) =>
        setTransactionMessageLifetimeUsingBlockhash(
          { blockhash: svm.latestBlockhash(), lastValidBlockHeight: 1_000_000n },
          m,
        ),
      (m) =>
        appendTransactionMessageInstruction(
          {
            programAddress: ED25519_PROGRAM,
            data: ed25519Instruction(publicKey, signature, message),
          },
          m,
        ),
    ),
  );
  const result = svm.sendTransaction(tx);
  return !(result instanceof FailedTransactionMetadata);
}

async function quote(query: string): Promise<Ed25519Quote> {
  const res = await request(t.gas.app).get(`/getEd25519Sig_native?${query}`);
  expect(res.status).toBe(200);
  return Ed25519Quote.parse(res.body);
}

beforeAll(async () => {
  t = buildTestApp();
  await t.snapshotFeeder.refresh();
  svm = new LiteSVM();
  payer = await generateKeyPairSigner();
  svm.airdrop(payer.address, lamports(10_000_000_000n));
});
afterAll(async () => {
  await t.close();
});

describe('a Solana v2 quote (version=2)', () => {
  it('decodes with @mysten/bcs to the fields of the response', async () => {
    const q = await quote('localDomain=5&destinationDomain=6&isNative=true&version=2');
    const decoded = VersionedMessage.parse(bytes(q.message));
    expect(decoded).toEqual({
      version: 2,
      localDomain: 5,
      destinationDomain: 6,
      fee: q.fee,
      deadline: String(T0 / 1000 + 100),
      isNative: true,
    });
    expect(q.version).toBe(2);
  });

  it('verifies with @noble/curves and passes the Ed25519 precompile in litesvm', async () => {
    const q = await quote('localDomain=5&destinationDomain=0&isNative=false&version=2');
    const [sig, msg, pub] = [bytes(q.signature), bytes(q.message), bytes(q.publicKey)];
    expect(ed25519.verify(sig, msg, pub)).toBe(true);
    await expect(precompileAccepts(pub, sig, msg)).resolves.toBe(true);
  });

  it('fails the precompile when the message is tampered (fee, isNative) or the key is another', async () => {
    const q = await quote('localDomain=5&destinationDomain=0&isNative=false&version=2');
    const [sig, msg, pub] = [bytes(q.signature), bytes(q.message), bytes(q.publicKey)];
    const higherFee = msg.slice();
    higherFee[9] = (higherFee[9]! + 1) & 0xff; // first byte of the u64 fee (after u8 + u32 + u32)
    await expect(precompileAccepts(pub, sig, higherFee)).resolves.toBe(false);
    const flipped = msg.slice();
    flipped[25] = 1;
    await expect(precompileAccepts(pub, sig, flipped)).resolves.toBe(false);
    const other = ed25519.getPublicKey(ed25519.utils.randomSecretKey());
    await expect(precompileAccepts(other, sig, msg)).resolves.toBe(false);
  });
});

describe('Aptos and Sui quotes (no version)', () => {
  it.each([
    [9, 3, false],
    [8, 0, true],
  ])('from %i to %i decode as the 25-byte message and verify', async (local, dest, isNative) => {
    const q = await quote(`localDomain=${local}&destinationDomain=${dest}&isNative=${isNative}`);
    expect(q.version).toBeUndefined();
    expect(Message.parse(bytes(q.message))).toEqual({
      localDomain: local,
      destinationDomain: dest,
      fee: q.fee,
      deadline: q.deadline,
      isNative,
    });
    expect(ed25519.verify(bytes(q.signature), bytes(q.message), bytes(q.publicKey))).toBe(true);
  });
});
