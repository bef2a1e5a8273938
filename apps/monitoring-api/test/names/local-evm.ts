/**
 * A local Ethereum JSON-RPC endpoint (node http) backed by @ethereumjs/evm: `eth_chainId`,
 * `eth_blockNumber` and `eth_call` (executed in the EVM, reverts answered as JSON-RPC error 3 with
 * the revert data, as geth does). Enough for viem's read actions; nothing leaves the machine.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createEVM, type EVM } from '@ethereumjs/evm';
import { createAddressFromString, hexToBytes, bytesToHex } from '@ethereumjs/util';

const GAS_LIMIT = 30_000_000n;
const DEPLOYER = createAddressFromString('0x1000000000000000000000000000000000000001');

/** A running local chain. */
export interface LocalEvm {
  url: string;
  evm: EVM;
  /** Deploys creation code; returns the contract address (0x hex). */
  deploy(bytecode: `0x${string}`): Promise<`0x${string}`>;
  /** Executes a state-changing call (committed). */
  send(to: `0x${string}`, data: `0x${string}`): Promise<void>;
  close(): Promise<void>;
}

interface RpcRequest {
  id: number | string | null;
  method: string;
  params?: unknown[];
}

/** Starts the EVM and its JSON-RPC server on 127.0.0.1, port 0. */
export async function startLocalEvm(): Promise<LocalEvm> {
  const evm = await createEVM();

  async function answer(request: RpcRequest): Promise<Record<string, unknown>> {
    const base = { jsonrpc: '2.0', id: request.id };
    switch (request.method) {
      case 'eth_chainId':
        return { ...base, result: '0x1' };
      case 'eth_blockNumber':
        return { ...base, result: '0x1' };
      case 'eth_call': {
        const call = (request.params?.[0] ?? {}) as { to?: string; data?: string; from?: string };
        if (!call.to) return { ...base, error: { code: -32602, message: 'to is required' } };
        const result = await evm.runCall({
          to: createAddressFromString(call.to),
          caller: call.from ? createAddressFromString(call.from) : DEPLOYER,
          data: hexToBytes((call.data ?? '0x') as `0x${string}`),
          gasLimit: GAS_LIMIT,
          skipBalance: true,
        });
        const returned = bytesToHex(result.execResult.returnValue);
        if (result.execResult.exceptionError) {
          return { ...base, error: { code: 3, message: 'execution reverted', data: returned } };
        }
        return { ...base, result: returned };
      }
      default:
        return { ...base, error: { code: -32601, message: `method ${request.method} not found` } };
    }
  }

  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as RpcRequest | RpcRequest[];
      const replies = Array.isArray(body) ? Promise.all(body.map(answer)) : answer(body);
      replies
        .then((reply) => {
          res.writeHead(200, { 'content-type': 'application/json' });
          res.end(JSON.stringify(reply));
        })
        .catch((err: unknown) => {
          res.writeHead(500);
          res.end(String(err));
        });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}`,
    evm,
    async deploy(bytecode) {
      const result = await evm.runCall({
        caller: DEPLOYER,
        data: hexToBytes(bytecode),
        gasLimit: GAS_LIMIT,
        skipBalance: true,
      });
      if (result.execResult.exceptionError || !result.createdAddress)
        throw new Error('deployment failed');
      return result.createdAddress.toString();
    },
    async send(to, data) {
      const result = await evm.runCall({
        caller: DEPLOYER,
        to: createAddressFromString(to),
        data: hexToBytes(data),
        gasLimit: GAS_LIMIT,
        skipBalance: true,
      });
      if (result.execResult.exceptionError) throw new Error('call reverted');
    },
    close: () =>
      new Promise<void>((resolve, reject) =>
        server.close((err) => (err ? reject(err) : resolve())),
      ),
  };
}
