/**
 * The requests the scenarios send, by what they depend on: the monitoring API's reads (feeds,
 * leaderboard, statistics, users: PostgreSQL), its wallet binding (nonce issue and binding:
 * Redis and PostgreSQL), and the gas quote API's quotes and token prices (in-process price copy).
 */
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { keepAliveAgent, send, type RequestSpec } from './http.js';
import { GAS_URL, MONITORING_URL } from './services.js';

/** Cycles through `specs`, one per call. */
export function cycle(specs: readonly RequestSpec[]): () => RequestSpec {
  let i = 0;
  return () => specs[i++ % specs.length]!;
}

/** Monitoring API reads served from PostgreSQL (and its cache). */
export function monitoringReads(username: string): RequestSpec[] {
  return [
    { label: 'feed', url: `${MONITORING_URL}/transactionsmainnet?limit=10` },
    { label: 'leaderboard', url: `${MONITORING_URL}/users/leaderboard?limit=10` },
    { label: 'stats', url: `${MONITORING_URL}/stats/mainnet/volumes/daily` },
    { label: 'users', url: `${MONITORING_URL}/users?domains=${encodeURIComponent(username)}` },
  ];
}

/** Gas quote API requests served from the in-process price copy. */
export const GAS_REQUESTS: readonly RequestSpec[] = [
  {
    label: 'quote-ecdsa',
    url: `${GAS_URL}/getEcdsaSig_native?localDomain=0&destinationDomain=3&isV2=true&isNative=true`,
  },
  {
    label: 'quote-ed25519',
    url: `${GAS_URL}/getEd25519Sig_native?localDomain=5&destinationDomain=0&isNative=true`,
  },
  { label: 'tokenPrices', url: `${GAS_URL}/tokenPrices` },
];

/** A fresh EVM wallet (viem, EIP-191 personal_sign). */
export function evmWallet() {
  return privateKeyToAccount(generatePrivateKey());
}

/** `GET /users/messages` for `username` and an EVM `address`. */
export const nonceRequest = (username: string, address: string): RequestSpec => ({
  label: 'nonce',
  url: `${MONITORING_URL}/users/messages?username=${encodeURIComponent(username)}&address=${address}&chain_type=evm`,
});

/**
 * Asks a nonce for `username` and a fresh EVM wallet and signs its message: the body of a
 * `POST /users/verify` that binds them.
 * @throws Error when the nonce is refused.
 */
export async function signedBind(username: string): Promise<{ address: string; body: unknown }> {
  const wallet = evmWallet();
  const agent = keepAliveAgent();
  const res = await send(agent, nonceRequest(username, wallet.address));
  agent.destroy();
  const message = (res.body as { message?: string } | undefined)?.message;
  if (res.status !== 200 || !message)
    throw new Error(`GET /users/messages answered ${res.status} ${res.code ?? res.error ?? ''}`);
  return {
    address: wallet.address,
    body: {
      username,
      address: wallet.address,
      chain_type: 'evm',
      type: 'bind',
      signature: await wallet.signMessage({ message }),
      message,
    },
  };
}

/** `POST /users/verify` with `body`. */
export const verifyRequest = (body: unknown): RequestSpec => ({
  label: 'bind',
  url: `${MONITORING_URL}/users/verify`,
  method: 'POST',
  body,
});
