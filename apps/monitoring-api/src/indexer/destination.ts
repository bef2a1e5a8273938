/**
 * Destination receipts (docs/indexer.md "Destination"): each `MessageReceived` of a configured
 * MessageTransmitter, with the amount minted by the TokenMessenger's `MintAndWithdraw` that
 * follows it in the same transaction.
 */
import { decodeEventLog, type Hex, type Log } from 'viem';
import { INDEXER_ABI, TOPIC0 } from './events.js';
import type { ReceivedRow } from './store.js';

/**
 * The receipts of one destination transaction's logs.
 *
 * @param logs every log of the transaction's receipt.
 * @param transmitters MessageTransmitter addresses (lower case) whose events count.
 */
export function decodeReceived(
  logs: readonly Log[],
  network: 'mainnet' | 'testnet',
  domain: number,
  transmitters: ReadonlySet<string>,
): ReceivedRow[] {
  const sorted = [...logs].sort((a, b) => (a.logIndex ?? 0) - (b.logIndex ?? 0));
  const rows: ReceivedRow[] = [];
  sorted.forEach((log, i) => {
    const topic0 = log.topics[0];
    if (topic0 !== TOPIC0.messageReceivedV1 && topic0 !== TOPIC0.messageReceivedV2) return;
    if (!transmitters.has(log.address.toLowerCase())) return;
    const decoded = decodeEventLog({ abi: INDEXER_ABI, data: log.data, topics: log.topics });
    const args = decoded.args as { sourceDomain: number; nonce: bigint | Hex };
    const version: 1 | 2 = topic0 === TOPIC0.messageReceivedV1 ? 1 : 2;
    let mint: bigint | null = null;
    for (const next of sorted.slice(i + 1)) {
      const t = next.topics[0];
      if (t === TOPIC0.messageReceivedV1 || t === TOPIC0.messageReceivedV2) break;
      if (t === TOPIC0.mintAndWithdrawV1 || t === TOPIC0.mintAndWithdrawV2) {
        const m = decodeEventLog({ abi: INDEXER_ABI, data: next.data, topics: next.topics });
        mint = (m.args as { amount: bigint }).amount;
        break;
      }
    }
    rows.push({
      network,
      destination_domain: domain,
      source_domain: Number(args.sourceDomain),
      version,
      nonce: version === 1 ? String(args.nonce) : String(args.nonce).toLowerCase(),
      tx_hash: String(log.transactionHash).toLowerCase(),
      log_index: log.logIndex ?? 0,
      block_number: log.blockNumber ?? 0n,
      block_hash: String(log.blockHash).toLowerCase(),
      mint_amount: mint,
    });
  });
  return rows;
}
