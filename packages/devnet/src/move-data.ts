/**
 * CCTP v1 messages of a Move source chain as Circle's packages serialize them
 * (circlefin/sui-cctp `message_transmitter::message`, circlefin/aptos-cctp
 * `message_transmitter::message`; docs/indexer.md "Event order" gives the byte offsets): version,
 * source and destination domain (uint32), nonce (uint64), sender, recipient, destination caller
 * (32 bytes each), then the burn body (version, burn token, mint recipient, amount uint256,
 * message sender).
 */
import { encodePacked, type Hex } from 'viem';

/**
 * A v1 burn message (addresses as 0x hex, left-padded to 32 bytes; amount in USDC base units)
 * and its body.
 */
export function v1BurnMessage(m: {
  source: number;
  destination: number;
  nonce: bigint;
  sender: Hex;
  recipient: Hex;
  burnToken: Hex;
  mintRecipient: Hex;
  amount: bigint;
  messageSender: Hex;
}): { message: Hex; body: Hex } {
  const pad = (v: Hex): Hex => `0x${v.slice(2).padStart(64, '0')}`;
  const body = encodePacked(
    ['uint32', 'bytes32', 'bytes32', 'uint256', 'bytes32'],
    [0, pad(m.burnToken), pad(m.mintRecipient), m.amount, pad(m.messageSender)],
  );
  const message = encodePacked(
    ['uint32', 'uint32', 'uint32', 'uint64', 'bytes32', 'bytes32', 'bytes32', 'bytes'],
    [0, m.source, m.destination, m.nonce, pad(m.sender), pad(m.recipient), pad('0x0'), body],
  );
  return { message, body };
}
