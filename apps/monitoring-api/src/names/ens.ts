/**
 * `.eth` names through ENS: viem's `getEnsAddress`, which calls the Universal Resolver's
 * `resolveWithGateways(bytes dnsName, bytes addrCall, string[] gateways)` with `eth_call`
 * (ENSIP-10 / ENSIP-19). The resolver address is configuration so tests can deploy their own.
 */
import { createPublicClient, http, type Address, type PublicClient } from 'viem';
import { getEnsAddress } from 'viem/actions';

/** Options of {@link createEnsLookup}. */
export interface EnsLookupOptions {
  /** Ethereum JSON-RPC URL. */
  rpcUrl: string;
  /** Universal Resolver contract address. */
  universalResolver: Address;
  /** Per-request timeout, milliseconds. */
  timeoutMs: number;
}

/**
 * Builds `lookup(normalizedName)` returning the name's ETH address (checksummed) or null when the
 * name has no resolver or no address. Transport and unexpected contract errors are thrown (viem
 * errors), so callers can tell "does not resolve" from "could not ask".
 */
export function createEnsLookup(
  options: EnsLookupOptions,
): (normalizedName: string) => Promise<Address | null> {
  const client: PublicClient = createPublicClient({
    transport: http(options.rpcUrl, { timeout: options.timeoutMs, retryCount: 1 }),
  });
  return (name) =>
    getEnsAddress(client, { name, universalResolverAddress: options.universalResolver });
}
