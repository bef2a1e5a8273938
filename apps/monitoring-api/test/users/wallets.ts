/**
 * Test wallets of the four chains, signing with each chain's own SDK: viem (EIP-191
 * personal_sign), tweetnacl (Solana ed25519 over the UTF-8 text), @mysten/sui
 * (`signPersonalMessage`), @aptos-labs/ts-sdk (`Account.sign`, raw or the wallet full message).
 */
import { Account } from '@aptos-labs/ts-sdk';
import type { ChainType } from '@ctss/domain-types';
import { buildAptosFullMessage } from '@ctss/signing';
import { Ed25519Keypair } from '@mysten/sui/keypairs/ed25519';
import { base58, base64 } from '@scure/base';
import nacl from 'tweetnacl';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';

/** A wallet that can sign a binding message the way its chain's wallets do. */
export interface TestWallet {
  chainType: ChainType;
  address: string;
  /** Aptos: base64 public key (docs/api.md "Wallet binding": public_key base64); undefined elsewhere. */
  publicKey?: string;
  /** Signs `message`; returns the signature text to send and the `message` field to send. */
  sign(message: string): Promise<{ signature: string; message: string }>;
}

const utf8 = (text: string) => new TextEncoder().encode(text);

/** An EVM EOA (viem `signMessage`, 0x hex). */
export function evmWallet(): TestWallet {
  const account = privateKeyToAccount(generatePrivateKey());
  return {
    chainType: 'evm',
    address: account.address,
    sign: async (message) => ({ signature: await account.signMessage({ message }), message }),
  };
}

/** A Solana keypair (tweetnacl detached signature, base58). */
export function solanaWallet(): TestWallet {
  const keys = nacl.sign.keyPair();
  return {
    chainType: 'solana',
    address: base58.encode(keys.publicKey),
    sign: (message) =>
      Promise.resolve({
        signature: base58.encode(nacl.sign.detached(utf8(message), keys.secretKey)),
        message,
      }),
  };
}

/** A Sui Ed25519 keypair (`signPersonalMessage`, serialized base64 signature). */
export function suiWallet(): TestWallet {
  const keypair = Ed25519Keypair.generate();
  return {
    chainType: 'sui',
    address: keypair.toSuiAddress(),
    sign: async (message) => ({
      signature: (await keypair.signPersonalMessage(utf8(message))).signature,
      message,
    }),
  };
}

/**
 * An Aptos Ed25519 account. `fullMessage: true` signs what Petra-style wallets sign for
 * `signMessage` (`APTOS\nmessage: ...\nnonce: ...`) and sends that envelope as `message`.
 */
export function aptosWallet(options: { fullMessage?: boolean } = {}): TestWallet {
  const account = Account.generate();
  return {
    chainType: 'aptos',
    address: account.accountAddress.toString(),
    publicKey: base64.encode(account.publicKey.toUint8Array()),
    sign: (message) => {
      const signed = options.fullMessage
        ? buildAptosFullMessage({ message, nonce: 'wallet-nonce-1' })
        : message;
      return Promise.resolve({ signature: account.sign(utf8(signed)).toString(), message: signed });
    },
  };
}
