/**
 * A local stand-in for a Solana cluster's JSON-RPC API (https://solana.com/docs/rpc/http), for
 * the indexer's tests and the demo: a ledger of slots, each `confirmed`, then `finalized`, or
 * dropped (a fork that never finalizes), or skipped (no block), holding transactions built and
 * signed with `@solana/kit` (solana-cctp.ts) and the accounts they wrote. It answers the
 * methods the indexer and the local Iris call, with the shapes of Solana's RPC reference:
 * `getSlot`, `getSignaturesForAddress` (newest first; `before`, `until`, `limit`,
 * `commitment`), `getTransaction` (`json` encoding: `slot`, `blockTime`, `meta` with `err`,
 * `logMessages`, `innerInstructions`, `loadedAddresses`, `status`, and `transaction` with
 * `signatures` and `message` with `accountKeys`, `header`, `instructions`, `recentBlockhash`;
 * `version`), `getMultipleAccounts` / `getAccountInfo` (`base64`), `getBlockTime` (error -32009
 * for a skipped slot), `getLatestBlockhash`, `getHealth`. `solana-cluster.test.ts` pins them.
 */
import { createServer, type Server } from 'node:http';

/** A commitment the cluster answers at. */
type Commitment = 'processed' | 'confirmed' | 'finalized';

/** One transaction as stored: the `getTransaction` (`json`) answer without its slot. */
export interface StoredTransaction {
  readonly signature: string;
  /** Every account the transaction references (static and loaded), base58. */
  readonly accounts: readonly string[];
  /** The `transaction` object of the answer. */
  readonly transaction: unknown;
  /** The `meta` object of the answer. */
  readonly meta: { readonly err: unknown } & Record<string, unknown>;
  readonly version: 0 | 'legacy';
  /** Accounts the transaction created or wrote: address -> owner and data. */
  readonly writes?: ReadonlyMap<string, { owner: string; data: Uint8Array }>;
}

interface Slot {
  readonly number: number;
  readonly time: number;
  status: 'confirmed' | 'finalized' | 'dropped' | 'skipped';
  readonly transactions: StoredTransaction[];
}

/** The local cluster and its controls. */
export interface LocalSolana {
  readonly url: string;
  /**
   * Lands transactions in a new slot at `confirmed` commitment (in order).
   *
   * @returns the slot.
   */
  land(...transactions: StoredTransaction[]): number;
  /** Leaves `count` slots without a block (skipped). */
  skip(count: number): void;
  /** Finalizes every confirmed slot up to `slot` (default: all). */
  finalize(slot?: number): void;
  /** Drops a confirmed slot: its transactions and writes disappear (a fork that died). */
  drop(slot: number): void;
  /** Sets an account as existing from the genesis (finalized). */
  setAccount(address: string, owner: string, data: Uint8Array): void;
  /** The highest slot so far. */
  readonly slot: number;
  /** Requests received, by method. */
  readonly calls: string[];
  close(): Promise<void>;
}

/** A JSON-RPC error answer. */
class RpcError extends Error {
  constructor(
    readonly code: number,
    message: string,
  ) {
    super(message);
  }
}

const rpcError = (code: number, message: string) => new RpcError(code, message);

/**
 * Starts the local cluster on 127.0.0.1:`port` (0 = a free port). Slot 0 is a finalized genesis
 * block; each landed slot's time is `startTime` + 1 s per slot (UNIX seconds, the default now).
 */
export async function startLocalSolana(
  port = 0,
  startTime = Math.floor(Date.now() / 1000),
): Promise<LocalSolana> {
  const slots: Slot[] = [{ number: 0, time: startTime, status: 'finalized', transactions: [] }];
  const accounts = new Map<string, { owner: string; data: Uint8Array; slot: number }>();
  const calls: string[] = [];
  const visible = (slot: Slot, commitment: Commitment) =>
    commitment === 'finalized'
      ? slot.status === 'finalized'
      : slot.status === 'confirmed' || slot.status === 'finalized';
  const head = (commitment: Commitment) =>
    [...slots].reverse().find((s) => visible(s, commitment))?.number ?? 0;
  const slotOf = new Map<string, Slot>();
  const accountAt = (address: string, commitment: Commitment) => {
    const account = accounts.get(address);
    if (!account) return undefined;
    const slot = slots[account.slot];
    return slot && visible(slot, commitment) ? account : undefined;
  };
  const accountJson = (account: { owner: string; data: Uint8Array } | undefined) =>
    account
      ? {
          data: [Buffer.from(account.data).toString('base64'), 'base64'],
          executable: false,
          lamports: 1_000_000,
          owner: account.owner,
          rentEpoch: Number.MAX_SAFE_INTEGER,
          space: account.data.length,
        }
      : null;

  const handle = (method: string, params: unknown[]): unknown => {
    const config = (params.find((p) => typeof p === 'object' && p !== null && !Array.isArray(p)) ??
      {}) as Record<string, unknown>;
    const commitment = (config.commitment as Commitment | undefined) ?? 'finalized';
    const context = { context: { apiVersion: '2.2.0', slot: head(commitment) } };
    switch (method) {
      case 'getHealth':
        return 'ok';
      case 'getSlot':
        return head(commitment);
      case 'getLatestBlockhash':
        return {
          ...context,
          value: {
            blockhash: '4sGjMW1sUnHzSxGspuhpqLDx6wiyjNtZAMdL4VZHirAn',
            lastValidBlockHeight: head(commitment) + 150,
          },
        };
      case 'getBlockTime': {
        const slot = slots[Number(params[0])];
        if (!slot || slot.status === 'skipped' || slot.status === 'dropped') {
          throw rpcError(
            -32009,
            `Slot ${String(params[0])} was skipped, or missing in long-term storage`,
          );
        }
        return slot.time;
      }
      case 'getAccountInfo':
        return { ...context, value: accountJson(accountAt(String(params[0]), commitment)) };
      case 'getMultipleAccounts':
        return {
          ...context,
          value: (params[0] as string[]).map((a) => accountJson(accountAt(a, commitment))),
        };
      case 'getSignaturesForAddress': {
        const address = String(params[0]);
        const limit = Number(config.limit ?? 1000);
        if (limit < 1 || limit > 1000) throw rpcError(-32602, 'Invalid limit; max 1000');
        const list: { tx: StoredTransaction; slot: Slot }[] = [];
        for (const slot of [...slots].reverse()) {
          if (!visible(slot, commitment)) continue;
          for (const tx of [...slot.transactions].reverse()) {
            if (tx.accounts.includes(address)) list.push({ tx, slot });
          }
        }
        let start = 0;
        if (typeof config.before === 'string') {
          const at = list.findIndex((e) => e.tx.signature === config.before);
          start = at < 0 ? list.length : at + 1;
        }
        const out: unknown[] = [];
        for (const { tx, slot } of list.slice(start)) {
          if (tx.signature === config.until || out.length >= limit) break;
          out.push({
            signature: tx.signature,
            slot: slot.number,
            err: tx.meta.err,
            memo: null,
            blockTime: slot.time,
            confirmationStatus: slot.status,
          });
        }
        return out;
      }
      case 'getTransaction': {
        const signature = String(params[0]);
        if (config.encoding !== undefined && config.encoding !== 'json') {
          throw rpcError(-32602, 'this stand-in serves the json encoding only');
        }
        const slot = slotOf.get(signature);
        if (!slot || !visible(slot, commitment)) return null;
        const tx = slot.transactions.find((t) => t.signature === signature)!;
        if (tx.version !== 'legacy' && config.maxSupportedTransactionVersion === undefined) {
          throw rpcError(
            -32015,
            'Transaction version (0) is not supported by the requesting client. Please try the request again with the following configuration parameter: "maxSupportedTransactionVersion": 0',
          );
        }
        return {
          slot: slot.number,
          blockTime: slot.time,
          meta: tx.meta,
          transaction: tx.transaction,
          version: tx.version,
        };
      }
      default:
        throw rpcError(-32601, 'Method not found');
    }
  };

  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const answer = (request: { id?: unknown; method?: string; params?: unknown[] }) => {
        calls.push(String(request.method));
        try {
          return {
            jsonrpc: '2.0',
            id: request.id ?? null,
            result: handle(String(request.method), request.params ?? []),
          };
        } catch (error) {
          const e = error as { code?: number; message?: string };
          return {
            jsonrpc: '2.0',
            id: request.id ?? null,
            error: { code: e.code ?? -32603, message: e.message ?? 'internal error' },
          };
        }
      };
      let body: unknown;
      try {
        const parsed = JSON.parse(Buffer.concat(chunks).toString('utf8')) as unknown;
        body = Array.isArray(parsed)
          ? parsed.map((r) => answer(r as Record<string, never>))
          : answer(parsed as Record<string, never>);
      } catch {
        body = { jsonrpc: '2.0', id: null, error: { code: -32700, message: 'Parse error' } };
      }
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    });
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  const address = server.address();
  const nextSlot = () => slots.length;
  return {
    url: `http://127.0.0.1:${typeof address === 'object' && address ? address.port : port}`,
    calls,
    get slot() {
      return slots.length - 1;
    },
    land(...transactions) {
      const slot: Slot = {
        number: nextSlot(),
        time: startTime + nextSlot(),
        status: 'confirmed',
        transactions: [...transactions],
      };
      slots.push(slot);
      for (const tx of transactions) {
        slotOf.set(tx.signature, slot);
        for (const [a, w] of tx.writes ?? []) accounts.set(a, { ...w, slot: slot.number });
      }
      return slot.number;
    },
    skip(count) {
      for (let i = 0; i < count; i++) {
        slots.push({
          number: nextSlot(),
          time: startTime + nextSlot(),
          status: 'skipped',
          transactions: [],
        });
      }
    },
    finalize(upTo = slots.length - 1) {
      for (const slot of slots)
        if (slot.number <= upTo && slot.status === 'confirmed') slot.status = 'finalized';
    },
    drop(number) {
      const slot = slots[number];
      if (!slot || slot.status !== 'confirmed')
        throw new Error(`slot ${number} is not a confirmed slot`);
      slot.status = 'dropped';
      for (const tx of slot.transactions) {
        slotOf.delete(tx.signature);
        for (const a of tx.writes?.keys() ?? []) accounts.delete(a);
      }
    },
    setAccount(address, owner, data) {
      accounts.set(address, { owner, data, slot: 0 });
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
