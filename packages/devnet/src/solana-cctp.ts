/**
 * Solana transactions of the transfer program and of Circle's CCTP programs, built as a node
 * would return them (docs/indexer.md "Solana"), for the local cluster (solana-cluster.ts):
 * messages compiled and signed with `@solana/kit` (real ed25519 signatures, base58 accounts,
 * v0 messages), instruction data, events and accounts encoded with the programs' codecs
 * (`@ctss/solana-layouts`, the indexer's own), and the execution written as a node writes it:
 * the log (`Program <id> invoke [n]`, `Program log: Instruction: ...`, `Program data: <base64>`,
 * `Program <id> consumed ...`, `Program <id> success`) and the inner instructions (with
 * `stackHeight`) in execution order.
 *
 * - A transfer (cashmere-prod/contracts-prod `solana/programs/cashmere_cctp`
 *   `transfer_ix.rs` / `transfer_v2_ix.rs`): the USDC fee to the fee collector, the rest to the
 *   custody account, `deposit_for_burn` of TokenMessengerMinter v1/v2 (the burn, the
 *   MessageTransmitter's `send_message` writing the `MessageSent` account, the
 *   `DepositForBurn` event by `emit_cpi!`), then `TransferEvent` by `emit!` and the custody
 *   account closed. The `MessageSent` account holds the CCTP message (v1 with its nonce, v2
 *   with nonce 0).
 * - A receive (circlefin/solana-cctp-contracts `receive_message.rs`): `receive_message` of
 *   MessageTransmitter v1/v2 creating the used-nonce account, the TokenMessengerMinter's
 *   handler minting to the recipient (and v2's fee to the fee recipient) and emitting
 *   `MintAndWithdraw`, then `MessageReceived`; both events by `emit_cpi!`.
 */
import { randomBytes } from 'node:crypto';
import {
  EVENT_IX_TAG,
  anchorDiscriminator as disc,
  firstNonceOf,
  messageReceivedV1Codec,
  messageReceivedV2Codec,
  messageSentV1Codec,
  messageSentV2Codec,
  mintAndWithdrawV1Codec,
  mintAndWithdrawV2Codec,
  receiveMessageParamsCodec,
  transferArgsCodec,
  transferEventCodec,
  transferV2ArgsCodec,
  usedNonceAddress,
  usedNonceV2Codec,
  usedNoncesV1Codec,
  vecU8,
} from '@ctss/solana-layouts';
import {
  AccountRole,
  appendTransactionMessageInstruction,
  compileTransactionMessage,
  createTransactionMessage,
  generateKeyPairSigner,
  getAddressCodec,
  getAddressDecoder,
  getBase58Decoder,
  getBase64Decoder,
  getProgramDerivedAddress,
  getSignatureFromTransaction,
  getStructCodec,
  getU64Codec,
  getU8Codec,
  pipe,
  setTransactionMessageFeePayerSigner,
  setTransactionMessageLifetimeUsingBlockhash,
  signTransactionMessageWithSigners,
  address,
  blockhash,
  type Instruction,
  type TransactionSigner,
} from '@solana/kit';
import type { StoredTransaction } from './solana-cluster.js';

/** The Solana programs of a cluster (base58). */
export interface SolanaCctpPrograms {
  readonly transferProgram: string;
  readonly messageTransmitterV1: string;
  readonly tokenMessengerMinterV1: string;
  readonly messageTransmitterV2: string;
  readonly tokenMessengerMinterV2: string;
  readonly usdcMint: string;
}

/**
 * Mainnet's addresses (cashmere-prod/cashmere-agent-sdk `src/constants.ts`,
 * circlefin/solana-cctp-contracts `Anchor.toml`).
 */
export const SOLANA_MAINNET_PROGRAMS: SolanaCctpPrograms = {
  transferProgram: '5RsvKL6LFq6yEFiAXEwgYHAN3aLFypeB4AaafdeDnHqM',
  messageTransmitterV1: 'CCTPmbSD7gX1bxKPAmg77w8oFzNFpaQiQUWD43TKaecd',
  tokenMessengerMinterV1: 'CCTPiPYPc6AsJuwueEnWgSgucamXDZwBd53dQ11YiKX3',
  messageTransmitterV2: 'CCTPV2Sm4AdWt5296sk4P66VBZ7bEhcARwFaaS9YPbeC',
  tokenMessengerMinterV2: 'CCTPV2vPZJS2u2BBsUoscuikbYjnpFmbFsvVuJdgUMQe',
  usdcMint: 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v',
};

const TOKEN_PROGRAM = 'TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA';
const SYSTEM_PROGRAM = '11111111111111111111111111111111';
const SYSVAR_INSTRUCTIONS = 'Sysvar1nstructions1111111111111111111111111';

const addressCodec = getAddressCodec();
const base58 = getBase58Decoder();
const base64 = getBase64Decoder();
const tokenAmount = getStructCodec([
  ['instruction', getU8Codec()],
  ['amount', getU64Codec()],
]);

const concat = (...parts: ArrayLike<number>[]) =>
  Uint8Array.from(parts.flatMap((p) => Array.from(p)));

/** A random base58 address (an account this stand-in does not model). */
export function randomSolanaAddress(): string {
  return getAddressDecoder().decode(randomBytes(32));
}

/** One program invocation in the execution tree of a transaction. */
interface Call {
  readonly program: string;
  readonly accounts: readonly string[];
  readonly data: Uint8Array;
  /** Log lines and nested invocations, in order. */
  readonly body: readonly (string | Call)[];
}

const emitCpi = (
  program: string,
  authority: string,
  event: string,
  data: ArrayLike<number>,
): Call => ({
  program,
  accounts: [authority],
  data: concat(EVENT_IX_TAG, disc('event', event), data),
  body: [],
});

const token = (instruction: number, amount: bigint, accounts: string[], name: string): Call => ({
  program: TOKEN_PROGRAM,
  accounts,
  data: Uint8Array.from(tokenAmount.encode({ instruction, amount })),
  body: [`Program log: Instruction: ${name}`],
});

const eventAuthority = async (program: string) =>
  (
    await getProgramDerivedAddress({
      programAddress: address(program),
      seeds: ['__event_authority'],
    })
  )[0];

/**
 * Compiles and signs a v0 transaction of one top-level call whose account list holds every
 * account of the calls below it, and writes the node's `json` answer for it.
 */
async function finish(
  payer: TransactionSigner,
  extraSigners: readonly TransactionSigner[],
  root: Call,
  writes: Map<string, { owner: string; data: Uint8Array }>,
): Promise<StoredTransaction> {
  const signers = new Map<string, TransactionSigner>(
    [payer, ...extraSigners].map((s) => [s.address, s]),
  );
  const writable = new Set(writes.keys());
  const instruction: Instruction = {
    programAddress: address(root.program),
    accounts: root.accounts.map((a) => {
      const signer = signers.get(a);
      const role = signer
        ? AccountRole.WRITABLE_SIGNER
        : writable.has(a)
          ? AccountRole.WRITABLE
          : AccountRole.READONLY;
      return signer ? { address: address(a), role, signer } : { address: address(a), role };
    }),
    data: root.data,
  };
  const message = pipe(
    createTransactionMessage({ version: 0 }),
    (m) => setTransactionMessageFeePayerSigner(payer, m),
    (m) =>
      setTransactionMessageLifetimeUsingBlockhash(
        { blockhash: blockhash(base58.decode(randomBytes(32))), lastValidBlockHeight: 1_000_000n },
        m,
      ),
    (m) => appendTransactionMessageInstruction(instruction, m),
  );
  const signed = await signTransactionMessageWithSigners(message);
  const compiled = compileTransactionMessage(message);
  const keys = compiled.staticAccounts.map(String);
  const index = (a: string) => {
    const i = keys.indexOf(a);
    if (i < 0) throw new Error(`account ${a} is not in the transaction`);
    return i;
  };
  const logs: string[] = [];
  const inner: unknown[] = [];
  let units = 0;
  const run = (call: Call, depth: number) => {
    if (depth > 1) {
      inner.push({
        programIdIndex: index(call.program),
        accounts: call.accounts.map(index),
        data: base58.decode(call.data),
        stackHeight: depth,
      });
    }
    logs.push(`Program ${call.program} invoke [${depth}]`);
    const before = units;
    for (const part of call.body) {
      if (typeof part === 'string') logs.push(part);
      else run(part, depth + 1);
    }
    units += 3_000;
    if (call.program !== SYSTEM_PROGRAM) {
      logs.push(
        `Program ${call.program} consumed ${units - before} of ${200_000 - before} compute units`,
      );
    }
    logs.push(`Program ${call.program} success`);
  };
  run(root, 1);
  const top = compiled.instructions[0]!;
  const signature = getSignatureFromTransaction(signed);
  return {
    signature,
    accounts: keys,
    version: 0,
    writes,
    transaction: {
      signatures: [signature],
      message: {
        accountKeys: keys,
        // The RPC's names for the compiled header (kit calls them numSignerAccounts, ...).
        header: {
          numRequiredSignatures: compiled.header.numSignerAccounts,
          numReadonlySignedAccounts: compiled.header.numReadonlySignerAccounts,
          numReadonlyUnsignedAccounts: compiled.header.numReadonlyNonSignerAccounts,
        },
        recentBlockhash: message.lifetimeConstraint.blockhash,
        instructions: [
          {
            programIdIndex: top.programAddressIndex,
            accounts: top.accountIndices ?? [],
            data: base58.decode(top.data ?? new Uint8Array()),
            stackHeight: null,
          },
        ],
        addressTableLookups: [],
      },
    },
    meta: {
      err: null,
      status: { Ok: null },
      fee: 5_000,
      preBalances: keys.map(() => 1_000_000_000),
      postBalances: keys.map(() => 1_000_000_000),
      preTokenBalances: [],
      postTokenBalances: [],
      innerInstructions: [{ index: 0, instructions: inner }],
      logMessages: logs,
      rewards: [],
      loadedAddresses: { writable: [], readonly: [] },
      computeUnitsConsumed: units,
    },
  };
}

/** What a transfer sends (amounts in base units). */
export interface SolanaTransferInput {
  readonly programs?: SolanaCctpPrograms;
  readonly version: 1 | 2;
  /** USDC the user commits (fee included). */
  readonly usdcAmount: bigint;
  /** The USDC fee kept by the program (fixed + basis points); burned = usdcAmount - fee. */
  readonly usdcFee: bigint;
  readonly destinationDomain: number;
  /** The mint recipient on the destination, 32 bytes (an EVM address left-padded). */
  readonly recipient: Uint8Array;
  readonly solanaOwner?: Uint8Array;
  readonly gasDropAmount?: bigint;
  readonly feeIsNative?: boolean;
  /** v2 only. */
  readonly maxFee?: bigint;
  /** v2 only (1000 fast, 2000 standard). */
  readonly minFinalityThreshold?: number;
  /** v1: the CCTP nonce MessageTransmitter v1 assigns. */
  readonly cctpNonce?: bigint;
  /** The transfer program's counter after this transfer. */
  readonly programNonce?: bigint;
  /** The destination TokenMessenger, 32 bytes (the message's recipient). */
  readonly destinationTokenMessenger?: Uint8Array;
  /** The user; a new key pair when absent. */
  readonly user?: TransactionSigner;
}

/** A built transfer. */
export interface SolanaTransfer {
  readonly transaction: StoredTransaction;
  readonly user: string;
  readonly messageAccount: string;
  /** The CCTP message in the `MessageSent` account (v2: nonce 0). */
  readonly message: Uint8Array;
}

const u32be = (n: number) => {
  const b = Buffer.alloc(4);
  b.writeUInt32BE(n);
  return b;
};
const u256be = (n: bigint) => Buffer.from(n.toString(16).padStart(64, '0'), 'hex');
const u64be = (n: bigint) => Buffer.from(n.toString(16).padStart(16, '0'), 'hex');

/**
 * The CCTP burn message a Solana deposit writes (docs/indexer.md "Events" layouts; Solana's
 * source domain 5, sender = the TokenMessengerMinter, messageSender = the depositor).
 */
function burnMessage(
  version: 1 | 2,
  input: SolanaTransferInput,
  programs: SolanaCctpPrograms,
  burned: bigint,
  depositor: string,
): Uint8Array {
  const messenger = addressCodec.encode(
    address(version === 1 ? programs.tokenMessengerMinterV1 : programs.tokenMessengerMinterV2),
  );
  const remote = input.destinationTokenMessenger ?? new Uint8Array(32);
  const burnToken = addressCodec.encode(address(programs.usdcMint));
  const sender = addressCodec.encode(address(depositor));
  if (version === 1) {
    return concat(
      u32be(0),
      u32be(5),
      u32be(input.destinationDomain),
      u64be(input.cctpNonce ?? 1n),
      messenger,
      remote,
      new Uint8Array(32),
      u32be(0),
      burnToken,
      input.recipient,
      u256be(burned),
      sender,
    );
  }
  return concat(
    u32be(1),
    u32be(5),
    u32be(input.destinationDomain),
    new Uint8Array(32),
    messenger,
    remote,
    new Uint8Array(32),
    u32be(input.minFinalityThreshold ?? 2000),
    u32be(0),
    u32be(1),
    burnToken,
    input.recipient,
    u256be(burned),
    sender,
    u256be(input.maxFee ?? 0n),
    u256be(0n),
    u256be(0n),
  );
}

/**
 * A transfer of the transfer program as a node returns it (module comment).
 *
 * @throws when the fee exceeds the amount.
 */
export async function buildSolanaTransfer(input: SolanaTransferInput): Promise<SolanaTransfer> {
  const programs = input.programs ?? SOLANA_MAINNET_PROGRAMS;
  if (input.usdcFee > input.usdcAmount) throw new Error('fee exceeds the amount');
  const v = input.version;
  const user = input.user ?? (await generateKeyPairSigner());
  const messageSigner = await generateKeyPairSigner();
  const burned = input.usdcAmount - input.usdcFee;
  const tmm = v === 1 ? programs.tokenMessengerMinterV1 : programs.tokenMessengerMinterV2;
  const mt = v === 1 ? programs.messageTransmitterV1 : programs.messageTransmitterV2;
  const [custodian] = await getProgramDerivedAddress({
    programAddress: address(programs.transferProgram),
    seeds: ['emitter'],
  });
  const [custody] = await getProgramDerivedAddress({
    programAddress: address(programs.transferProgram),
    seeds: ['__custody'],
  });
  const [config] = await getProgramDerivedAddress({
    programAddress: address(programs.transferProgram),
    seeds: ['config'],
  });
  const [transmitterState] = await getProgramDerivedAddress({
    programAddress: address(mt),
    seeds: ['message_transmitter'],
  });
  const tmmAuthority = await eventAuthority(tmm);
  const ownerToken = randomSolanaAddress();
  const feeSol = randomSolanaAddress();
  const feeUsdc = randomSolanaAddress();
  const gasSol = randomSolanaAddress();
  const gasUsdc = randomSolanaAddress();
  const rest = [
    randomSolanaAddress(),
    randomSolanaAddress(),
    randomSolanaAddress(),
    randomSolanaAddress(),
  ];
  const message = burnMessage(v, input, programs, burned, custodian);
  const eventAccount =
    v === 1
      ? messageSentV1Codec.encode({ rent_payer: user.address, message })
      : messageSentV2Codec.encode({
          rent_payer: user.address,
          created_at: BigInt(Math.floor(Date.now() / 1000)),
          message,
        });
  const args = {
    usdc_amount: input.usdcAmount,
    destination_domain: input.destinationDomain,
    recipient: input.recipient,
    solana_owner: input.solanaOwner ?? new Uint8Array(32),
    fee: input.usdcFee,
    deadline: BigInt(Math.floor(Date.now() / 1000) + 600),
    gas_drop_amount: input.gasDropAmount ?? 0n,
    fee_is_native: input.feeIsNative ?? false,
  };
  const data =
    v === 1
      ? concat(disc('global', 'transfer'), transferArgsCodec.encode(args))
      : concat(
          disc('global', 'transfer_v2'),
          transferV2ArgsCodec.encode({
            ...args,
            max_fee: input.maxFee ?? 0n,
            min_finality_threshold: input.minFinalityThreshold ?? 2000,
          }),
        );
  const event = transferEventCodec.encode({
    destination_domain: input.destinationDomain,
    nonce: input.programNonce ?? 1n,
    recipient: input.recipient,
    solana_owner: args.solana_owner,
    user: user.address,
    amount: burned,
    gas_drop_amount: args.gas_drop_amount,
    fee_is_native: args.fee_is_native,
    cctp_nonce: v === 1 ? -1n : -2n,
    cctp_message: messageSigner.address,
  });
  const accounts = [
    config,
    ownerToken,
    messageSigner.address,
    user.address,
    feeSol,
    feeUsdc,
    gasSol,
    gasUsdc,
    TOKEN_PROGRAM,
    SYSTEM_PROGRAM,
    custodian,
    programs.usdcMint,
    custody,
    ...rest,
    tmm,
    mt,
    tmmAuthority,
    transmitterState,
    SYSVAR_INSTRUCTIONS,
  ];
  const root: Call = {
    program: programs.transferProgram,
    accounts,
    data,
    body: [
      `Program log: Instruction: ${v === 1 ? 'Transfer' : 'TransferV2'}`,
      token(3, input.usdcFee, [ownerToken, feeUsdc, user.address], 'Transfer'),
      token(3, burned, [ownerToken, custody, user.address], 'Transfer'),
      {
        program: tmm,
        accounts: [
          custodian,
          user.address,
          custody,
          transmitterState,
          programs.usdcMint,
          messageSigner.address,
          mt,
          tmm,
          TOKEN_PROGRAM,
          SYSTEM_PROGRAM,
          tmmAuthority,
        ],
        data: concat(disc('global', 'deposit_for_burn'), getU64Codec().encode(burned)),
        body: [
          'Program log: Instruction: DepositForBurn',
          token(8, burned, [custody, programs.usdcMint, custodian], 'Burn'),
          {
            program: mt,
            accounts: [
              user.address,
              custodian,
              transmitterState,
              messageSigner.address,
              SYSTEM_PROGRAM,
            ],
            data: concat(disc('global', 'send_message'), vecU8.encode(message)),
            body: [
              'Program log: Instruction: SendMessage',
              {
                program: SYSTEM_PROGRAM,
                accounts: [user.address, messageSigner.address],
                data: new Uint8Array(52),
                body: [],
              },
            ],
          },
          emitCpi(tmm, tmmAuthority, 'DepositForBurn', new Uint8Array(0)),
        ],
      },
      `Program data: ${base64.decode(concat(disc('event', 'TransferEvent'), event))}`,
      token(9, 0n, [custody, user.address, custodian], 'CloseAccount'),
    ],
  };
  const writes = new Map([
    [
      messageSigner.address,
      { owner: mt, data: concat(disc('account', 'MessageSent'), eventAccount) },
    ],
  ]);
  const transaction = await finish(user, [messageSigner], root, writes);
  return { transaction, user: user.address, messageAccount: messageSigner.address, message };
}

/**
 * v1's `UsedNonces` account after a receive of `nonce` from `sourceDomain`: the account of
 * the nonce's 6,400 with the nonce's bit set (circlefin/solana-cctp-contracts `state.rs`
 * `UsedNonces::use_nonce`).
 */
function usedNoncesV1(sourceDomain: number, nonce: bigint): Uint8Array {
  const first = firstNonceOf(nonce);
  const position = nonce - first;
  const used_nonces = Array.from({ length: 100 }, (_, word) =>
    BigInt(word) === position / 64n ? 1n << (position % 64n) : 0n,
  );
  return Uint8Array.from(
    usedNoncesV1Codec.encode({ remote_domain: sourceDomain, first_nonce: first, used_nonces }),
  );
}

/** A built receive. */
export interface SolanaReceive {
  readonly transaction: StoredTransaction;
  /** The used-nonce account it created (v1: the shared bitmap account). */
  readonly usedNonceAccount: string;
  /** Minted to the recipient, base units. */
  readonly minted: bigint;
}

/**
 * A `receive_message` of an attested message (v1 or v2 layout, docs/indexer.md "Events") into
 * Solana, as a node returns it (module comment): the recipient's token account is the burn
 * body's mintRecipient; v2 mints amount - feeExecuted to it and the fee to a fee recipient.
 */
export async function buildSolanaReceive(
  version: 1 | 2,
  attestedMessage: Uint8Array,
  programs: SolanaCctpPrograms = SOLANA_MAINNET_PROGRAMS,
): Promise<SolanaReceive> {
  const m = Buffer.from(attestedMessage);
  const sourceDomain = m.readUInt32BE(4);
  const bodyAt = version === 1 ? 116 : 148;
  const body = m.subarray(bodyAt);
  const recipient = getAddressDecoder().decode(body.subarray(36, 68));
  const amount = BigInt(`0x${body.subarray(68, 100).toString('hex')}`);
  const fee = version === 2 ? BigInt(`0x${body.subarray(164, 196).toString('hex')}`) : 0n;
  const mt = version === 1 ? programs.messageTransmitterV1 : programs.messageTransmitterV2;
  const tmm = version === 1 ? programs.tokenMessengerMinterV1 : programs.tokenMessengerMinterV2;
  const payer = await generateKeyPairSigner();
  const nonceV1 = version === 1 ? m.readBigUInt64BE(12) : 0n;
  const usedNonce = await usedNonceAddress(
    mt,
    version === 2
      ? { version: 2, nonce: m.subarray(12, 44) }
      : { version: 1, sourceDomain, nonce: nonceV1 },
  );
  const mtAuthority = await eventAuthority(mt);
  const tmmAuthority = await eventAuthority(tmm);
  const [authorityPda] = await getProgramDerivedAddress({
    programAddress: address(mt),
    seeds: ['message_transmitter_authority', getAddressCodec().encode(address(tmm))],
  });
  const [transmitterState] = await getProgramDerivedAddress({
    programAddress: address(mt),
    seeds: ['message_transmitter'],
  });
  const feeRecipient = randomSolanaAddress();
  const custody = randomSolanaAddress();
  const sender = getAddressDecoder().decode(
    m.subarray(version === 1 ? 20 : 44, version === 1 ? 52 : 76),
  );
  const received =
    version === 1
      ? messageReceivedV1Codec.encode({
          caller: payer.address,
          source_domain: sourceDomain,
          nonce: nonceV1,
          sender: address(sender),
          message_body: body,
        })
      : messageReceivedV2Codec.encode({
          caller: payer.address,
          source_domain: sourceDomain,
          nonce: m.subarray(12, 44),
          sender: address(sender),
          finality_threshold_executed: m.readUInt32BE(144),
          message_body: body,
        });
  const mint =
    version === 1
      ? mintAndWithdrawV1Codec.encode({
          mint_recipient: address(recipient),
          amount,
          mint_token: address(programs.usdcMint),
        })
      : mintAndWithdrawV2Codec.encode({
          mint_recipient: address(recipient),
          amount: amount - fee,
          mint_token: address(programs.usdcMint),
          fee_collected: fee,
        });
  const root: Call = {
    program: mt,
    accounts: [
      payer.address,
      payer.address,
      authorityPda,
      transmitterState,
      usedNonce,
      tmm,
      SYSTEM_PROGRAM,
      mtAuthority,
      mt,
      tmmAuthority,
      recipient,
      feeRecipient,
      custody,
      programs.usdcMint,
      TOKEN_PROGRAM,
    ],
    data: concat(
      disc('global', 'receive_message'),
      receiveMessageParamsCodec.encode({
        message: attestedMessage,
        attestation: new Uint8Array(65),
      }),
    ),
    body: [
      'Program log: Instruction: ReceiveMessage',
      {
        program: SYSTEM_PROGRAM,
        accounts: [payer.address, usedNonce],
        data: new Uint8Array(52),
        body: [],
      },
      {
        program: tmm,
        accounts: [
          authorityPda,
          recipient,
          feeRecipient,
          custody,
          programs.usdcMint,
          TOKEN_PROGRAM,
          tmmAuthority,
          tmm,
        ],
        data: concat(
          disc(
            'global',
            version === 1 ? 'handle_receive_message' : 'handle_receive_finalized_message',
          ),
          new Uint8Array(8),
        ),
        body: [
          `Program log: Instruction: ${version === 1 ? 'HandleReceiveMessage' : 'HandleReceiveFinalizedMessage'}`,
          token(7, amount - fee, [programs.usdcMint, recipient, custody], 'MintTo'),
          ...(fee > 0n
            ? [token(7, fee, [programs.usdcMint, feeRecipient, custody], 'MintTo')]
            : []),
          emitCpi(tmm, tmmAuthority, 'MintAndWithdraw', mint),
        ],
      },
      emitCpi(mt, mtAuthority, 'MessageReceived', received),
    ],
  };
  const usedData =
    version === 2
      ? concat(disc('account', 'UsedNonce'), usedNonceV2Codec.encode({ is_used: true }))
      : concat(disc('account', 'UsedNonces'), usedNoncesV1(sourceDomain, nonceV1));
  const writes = new Map([[usedNonce, { owner: mt, data: usedData }]]);
  const transaction = await finish(payer, [], root, writes);
  return { transaction, usedNonceAccount: usedNonce, minted: amount - fee };
}

/** An EVM address as the 32-byte recipient of a Solana transfer (left-padded). */
export function evmRecipient32(evmAddress: string): Uint8Array {
  return Uint8Array.from(Buffer.from(evmAddress.slice(2).toLowerCase().padStart(64, '0'), 'hex'));
}

/** A base58 Solana address as the 32-byte recipient of a transfer into Solana. */
export function solanaRecipient32(value: string): Uint8Array {
  return Uint8Array.from(addressCodec.encode(address(value)));
}
