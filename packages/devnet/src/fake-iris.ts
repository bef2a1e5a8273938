/**
 * A local stand-in for Circle's Iris API speaking its response format: `GET /v2/messages/
 * {sourceDomain}?transactionHash=`, `GET /v1/messages/{sourceDomain}/{txHash}` and
 * `GET /v1/attestations/{messageHash}` (shapes and status values as in Circle's CCTP API
 * reference, https://developers.circle.com/api-reference/cctp/all/get-messages-v2 and
 * .../get-attestation; 404 until Iris has observed the burn,
 * https://developers.circle.com/cctp/howtos/resolve-stuck-attestation). It reads the
 * `MessageSent` logs of the transaction from the source chain's RPC (as Iris observes chains),
 * answers 404 for an unknown transaction, `pending_confirmations` / `PENDING` until it is
 * completed (by `complete`, or `attestAfterMs` after Iris first saw it), then the attested message
 * (v2: with the assigned nonce, the finality threshold executed and the fee executed). It also
 * serves Circle's fee table `GET /v2/burn/USDC/fees/{sourceDomainId}/{destDomainId}` as
 * `[{ finalityThreshold: 1000, minimumFee }, { finalityThreshold: 2000, minimumFee: 0 }]`, fees in
 * basis points (https://developers.circle.com/api-reference/cctp/all/get-burn-usdc-fees).
 */
import { createServer, type Server } from 'node:http';
import { randomBytes } from 'node:crypto';
import { createPublicClient, http, keccak256, parseEventLogs, type Hex } from 'viem';
import { MESSAGE_SENT } from './cctp-chain.js';

/** The fake Iris server and its controls. */
export interface FakeIris {
  readonly url: string;
  /** Requests received, by path. */
  readonly requests: string[];
  /** Arrival time of each request (ms since epoch), in the order of {@link requests}. */
  readonly requestTimes: number[];
  /** Attests a transaction's messages from now on. */
  complete(txHash: string): void;
  /** Answers the next `count` requests with `status` (e.g. 429, 503). */
  failNext(count: number, status: number): void;
  /** Fee executed written into v2 messages (base units). */
  feeExecuted: bigint;
  /**
   * Circle's fast-transfer fee served by `GET /v2/burn/USDC/fees/{src}/{dst}`, basis points (a
   * JSON number, fractional allowed, as Iris writes it; default 1). Standard transfers: 0.
   */
  fastFeeBps: number;
  close(): Promise<void>;
}

/** Options of {@link startFakeIris}. */
export interface FakeIrisOptions {
  /** Attest a transaction this many ms after its first lookup found it; absent = only `complete`. */
  readonly attestAfterMs?: number;
  /**
   * Source chains that are not EVM (Sui, Aptos): CCTP domain -> the `MessageSent` messages of a
   * transaction (Sui digest in base58, Aptos hash), undefined when the chain does not know it.
   */
  readonly messagesByDomain?: Record<number, (txHash: string) => Hex[] | undefined>;
  /**
   * JSON-RPC URL of the Solana cluster of domain 5 (a local one, solana-cluster.ts): a
   * transaction's messages are the CCTP messages of the `MessageSent` accounts it references
   * (Circle's MessageTransmitter v1 layout `rent_payer, message`, v2 `rent_payer, created_at,
   * message`, after the account discriminator), read as Iris reads the cluster.
   */
  readonly solanaRpcUrl?: string;
}

/** Anchor's account discriminator of Circle's `MessageSent`: sha256("account:MessageSent")[..8]. */
const MESSAGE_SENT_ACCOUNT = '83648538a6e1973c';

const solanaRpc = async (url: string, method: string, params: unknown[]): Promise<unknown> => {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  });
  const body = (await res.json()) as { result?: unknown; error?: { message: string } };
  if (body.error) throw new Error(body.error.message);
  return body.result;
};

/** The CCTP messages of a Solana transaction's `MessageSent` accounts, in account order. */
async function solanaMessages(url: string, signature: string): Promise<Hex[] | undefined> {
  const tx = (await solanaRpc(url, 'getTransaction', [
    signature,
    { encoding: 'json', commitment: 'confirmed', maxSupportedTransactionVersion: 0 },
  ])) as { transaction: { message: { accountKeys: string[] } } } | null;
  if (!tx) return undefined;
  const keys = tx.transaction.message.accountKeys;
  const accounts = (await solanaRpc(url, 'getMultipleAccounts', [
    keys,
    { encoding: 'base64', commitment: 'confirmed' },
  ])) as { value: ({ data: [string, string] } | null)[] };
  const messages: Hex[] = [];
  for (const account of accounts.value) {
    if (!account) continue;
    const data = Buffer.from(account.data[0], 'base64');
    if (data.subarray(0, 8).toString('hex') !== MESSAGE_SENT_ACCOUNT) continue;
    // v1: 8 + 32, then u32 length; v2: 8 + 32 + 8, then u32 length (the account is sized exactly).
    for (const at of [40, 48]) {
      if (data.length >= at + 4 && data.readUInt32LE(at) === data.length - at - 4) {
        messages.push(`0x${data.subarray(at + 4).toString('hex')}`);
        break;
      }
    }
  }
  return messages;
}

/**
 * Starts the local Iris on 127.0.0.1:`port` (0 = a free port), reading source chains from
 * `rpcByDomain` (CCTP domain -> JSON-RPC URL).
 */
export async function startFakeIris(
  port: number,
  rpcByDomain: Record<number, string>,
  options: FakeIrisOptions = {},
): Promise<FakeIris> {
  const completed = new Set<string>();
  const firstSeen = new Map<string, number>();
  const nonces = new Map<string, Hex[]>();
  const requests: string[] = [];
  const requestTimes: number[] = [];
  /** keccak256 of each message served (v1 `/v1/attestations` key) -> its transaction. */
  const txOfMessageHash = new Map<string, string>();
  let failures: { count: number; status: number } = { count: 0, status: 0 };
  const fees = { fastFeeBps: 1 };
  const clients = new Map(
    Object.entries(rpcByDomain).map(([d, url]) => [
      Number(d),
      createPublicClient({ transport: http(url) }),
    ]),
  );
  const state = { feeExecuted: 0n };

  const withNonce = (message: Hex, nonce: Hex): Hex => {
    const hex = message.slice(2);
    const fee = state.feeExecuted.toString(16).padStart(64, '0');
    // Iris attests a message asking for 1000 or less at the confirmed level (fast: 1000), any
    // other at finalized (2000).
    const minThreshold = Number.parseInt(hex.slice(2 * 140, 2 * 144), 16);
    const executed = (minThreshold <= 1000 ? 1000 : 2000).toString(16).padStart(8, '0');
    // nonce @12 (32 bytes); finalityThresholdExecuted @144 (4 bytes); body @148, feeExecuted
    // @148+164 (32 bytes).
    return `0x${hex.slice(0, 24)}${nonce.slice(2)}${hex.slice(88, 2 * 144)}${executed}${hex.slice(2 * 148, 2 * 312)}${fee}${hex.slice(2 * 344)}`;
  };

  const lookup = async (domain: number, txHash: string) => {
    const other = options.messagesByDomain?.[domain];
    if (other) return other(txHash);
    if (domain === 5 && options.solanaRpcUrl) {
      try {
        return await solanaMessages(options.solanaRpcUrl, txHash);
      } catch {
        return undefined;
      }
    }
    const client = clients.get(domain);
    if (!client) return undefined;
    try {
      const receipt = await client.getTransactionReceipt({ hash: txHash as Hex });
      return parseEventLogs({ abi: [MESSAGE_SENT], logs: receipt.logs }).map((l) => l.args.message);
    } catch {
      return undefined;
    }
  };

  const server: Server = createServer((req, res) => {
    void (async () => {
      const url = new URL(req.url ?? '/', 'http://x');
      requests.push(url.pathname + url.search);
      requestTimes.push(Date.now());
      const send = (status: number, body: unknown) => {
        res.writeHead(status, { 'content-type': 'application/json' });
        res.end(JSON.stringify(body));
      };
      if (failures.count > 0) {
        failures.count--;
        res.writeHead(failures.status, {
          'content-type': 'application/json',
          ...(failures.status === 429 ? { 'retry-after': '1' } : {}),
        });
        res.end(JSON.stringify({ error: 'injected' }));
        return;
      }
      const isDone = (txHash: string) =>
        completed.has(txHash) ||
        (options.attestAfterMs !== undefined &&
          Date.now() - firstSeen.get(txHash)! >= options.attestAfterMs);
      if (/^\/v2\/burn\/USDC\/fees\/\d+\/\d+$/.test(url.pathname)) {
        return send(200, [
          { finalityThreshold: 1000, minimumFee: fees.fastFeeBps },
          { finalityThreshold: 2000, minimumFee: 0 },
        ]);
      }
      const byHash = /^\/v1\/attestations\/(0x[0-9a-fA-F]{64})$/.exec(url.pathname);
      if (byHash) {
        const txHash = txOfMessageHash.get(byHash[1]!.toLowerCase());
        if (!txHash) return send(404, { error: 'Message hash not found' });
        const done = isDone(txHash);
        return send(200, {
          attestation: done ? `0x${'ab'.repeat(65)}` : 'PENDING',
          status: done ? 'complete' : 'pending_confirmations',
        });
      }
      const v2 = /^\/v2\/messages\/(\d+)$/.exec(url.pathname);
      // An EVM transaction hash (0x hex, compared lower case), a Sui digest (base58, 32-44
      // characters) or a Solana signature (base58, 64-88 characters); base58 keeps its case.
      const v1 =
        /^\/v1\/messages\/(\d+)\/(0x[0-9a-fA-F]{64}|[1-9A-HJ-NP-Za-km-z]{32,44}|[1-9A-HJ-NP-Za-km-z]{64,88})$/.exec(
          url.pathname,
        );
      const domain = Number((v2 ?? v1)?.[1]);
      const txHash = caseOf(v2 ? url.searchParams.get('transactionHash') : v1?.[2]);
      if ((!v2 && !v1) || !txHash) return send(400, { error: 'bad request' });
      const messages = await lookup(domain, txHash);
      if (!messages || messages.length === 0) return send(404, { error: 'Message not found' });
      if (!firstSeen.has(txHash)) firstSeen.set(txHash, Date.now());
      for (const m of messages) txOfMessageHash.set(keccak256(m), txHash);
      const done = isDone(txHash);
      if (v1) {
        return send(200, {
          messages: messages.map((m) => ({
            attestation: done ? `0x${'ab'.repeat(65)}` : 'PENDING',
            message: m,
            eventNonce: BigInt(`0x${m.slice(2 + 24, 2 + 40)}`).toString(),
          })),
        });
      }
      const assigned: Hex[] =
        nonces.get(txHash) ?? messages.map((): Hex => `0x${randomBytes(32).toString('hex')}`);
      nonces.set(txHash, assigned);
      return send(200, {
        messages: messages.map((m, i) => ({
          message: done ? withNonce(m, assigned[i]!) : m,
          eventNonce: assigned[i],
          attestation: done ? `0x${'cd'.repeat(65)}` : 'PENDING',
          cctpVersion: 2,
          status: done ? 'complete' : 'pending_confirmations',
          delayReason: null,
          decodedMessage: null,
        })),
      });
    })().catch(() => {
      res.writeHead(500).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  const address = server.address();
  return {
    url: `http://127.0.0.1:${typeof address === 'object' && address ? address.port : port}`,
    requests,
    requestTimes,
    complete: (txHash) => completed.add(caseOf(txHash)!),
    failNext: (count, status) => {
      failures = { count, status };
    },
    get fastFeeBps() {
      return fees.fastFeeBps;
    },
    set fastFeeBps(value: number) {
      fees.fastFeeBps = value;
    },
    get feeExecuted() {
      return state.feeExecuted;
    },
    set feeExecuted(value: bigint) {
      state.feeExecuted = value;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A transaction hash as the fake keys it: 0x hex in lower case, base58 as it is. */
function caseOf(txHash: string | null | undefined): string | undefined {
  return txHash?.startsWith('0x') ? txHash.toLowerCase() : (txHash ?? undefined);
}

/**
 * The attested message of `txHash` read from an Iris API at `irisUrl` (local or Circle's) as a
 * relayer reads it (`txHash`: 0x hex, or a base58 signature or digest): v2 `GET /v2/messages/{domain}?transactionHash=` (its message then carries
 * the nonce Iris assigned), v1 `GET /v1/messages/{domain}/{txHash}`; undefined while Iris does
 * not know the transaction (404) or has not attested it (`PENDING`).
 *
 * @throws when Iris answers with another error or the request fails.
 */
export async function attestedMessage(
  irisUrl: string,
  domain: number,
  txHash: string,
  version: 1 | 2,
): Promise<Hex | undefined> {
  const url =
    version === 2
      ? `${irisUrl}/v2/messages/${domain}?transactionHash=${txHash}`
      : `${irisUrl}/v1/messages/${domain}/${txHash}`;
  const res = await fetch(url);
  if (res.status === 404) {
    await res.arrayBuffer();
    return undefined;
  }
  if (!res.ok) throw new Error(`Iris ${res.status} for ${url}`);
  const body = (await res.json()) as { messages: { message: Hex; attestation: string }[] };
  const m = body.messages[0];
  if (!m || m.attestation === 'PENDING') return undefined;
  return m.message;
}
