/**
 * Fills a local anvil chain with transfers fast: each transaction is signed here (fixed gas and
 * fees, explicit nonces), a block's worth is sent as one batched JSON-RPC request of
 * `eth_sendRawTransaction`, then the block is mined with `evm_mine` (automine off).
 */
import { DEVNET_QUOTE_PACKING, cashmereCctpAbi, quoteSigner, type CctpChain } from '@ctss/devnet';
import { signQuote } from '@ctss/signing';
import { encodeFunctionData, type Hex } from 'viem';

const RECIPIENT = `0x${'0'.repeat(24)}${'ab'.repeat(20)}` as Hex;
const FEE = 100_000n;

/** Builds signed v1 `transfer` transactions of the chain's user (amounts in base units). */
export class TransferSigner {
  private readonly deadline = BigInt(Math.floor(Date.now() / 1000) + 7 * 86_400);
  private readonly signature: Hex;
  private nonce = 0;

  private constructor(
    private readonly chain: CctpChain,
    startNonce: number,
  ) {
    this.nonce = startNonce;
    this.signature = signQuote(
      {
        localDomain: chain.domain,
        destinationDomain: 3,
        fee: FEE,
        deadline: this.deadline,
        isNative: false,
        cctpVersion: 1,
      },
      DEVNET_QUOTE_PACKING,
      quoteSigner,
    );
  }

  /** A signer continuing from the user's pending nonce. */
  static async create(chain: CctpChain): Promise<TransferSigner> {
    const nonce = await chain.client.getTransactionCount({
      address: chain.userAccount.address,
      blockTag: 'pending',
    });
    return new TransferSigner(chain, nonce);
  }

  /** The next signed transaction (serialized, `0x` hex) transferring `amount` base units. */
  async next(amount: bigint): Promise<Hex> {
    const data = encodeFunctionData({
      abi: cashmereCctpAbi,
      functionName: 'transfer',
      args: [
        {
          amount,
          fee: FEE,
          deadline: this.deadline,
          gasDropAmount: 0n,
          destinationDomain: 3,
          recipient: RECIPIENT,
          solanaOwner: `0x${'0'.repeat(64)}`,
          isNative: false,
          signature: this.signature,
        },
      ],
    });
    return this.chain.userAccount.signTransaction({
      to: this.chain.cashmere,
      data,
      nonce: this.nonce++,
      gas: 300_000n,
      maxFeePerGas: 10n ** 10n,
      maxPriorityFeePerGas: 1n,
      chainId: this.chain.chain.id,
      type: 'eip1559',
    });
  }
}

/**
 * Sends raw transactions as one JSON-RPC batch and returns their hashes.
 *
 * @throws when any of them is refused.
 */
export async function sendRawBatch(url: string, raws: readonly Hex[]): Promise<Hex[]> {
  if (raws.length === 0) return [];
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(
      raws.map((raw, id) => ({
        jsonrpc: '2.0',
        id,
        method: 'eth_sendRawTransaction',
        params: [raw],
      })),
    ),
  });
  const answers = (await res.json()) as { id: number; result?: Hex; error?: { message: string } }[];
  return answers
    .sort((a, b) => a.id - b.id)
    .map((a) => {
      if (a.error) throw new Error(`eth_sendRawTransaction: ${a.error.message}`);
      return a.result!;
    });
}

/**
 * Mines `blocks` blocks holding `transfers` transfers between them (spread evenly), reporting
 * progress every 10 %.
 */
export async function seedTransfers(
  chain: CctpChain,
  rpc: (method: string, params?: unknown[]) => Promise<unknown>,
  transfers: number,
  blocks: number,
  log: (line: string) => void,
): Promise<void> {
  const signer = await TransferSigner.create(chain);
  let sent = 0;
  for (let b = 0; b < blocks; b++) {
    const upTo = Math.round(((b + 1) * transfers) / blocks);
    const raws: Hex[] = [];
    for (; sent < upTo; sent++) raws.push(await signer.next(1_000_000n + BigInt(sent)));
    await sendRawBatch(chain.url, raws);
    await rpc('evm_mine');
    if ((b + 1) % Math.max(1, Math.floor(blocks / 10)) === 0)
      log(`seeded ${sent} transfers in ${b + 1} blocks`);
  }
}
