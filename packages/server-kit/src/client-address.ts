/**
 * The client address of a request that never reaches express (a WebSocket upgrade), derived as
 * express 5 derives `req.ip`: proxy-addr over the socket address and `X-Forwarded-For`, trusting
 * the same `trust proxy` setting (express `lib/utils.js` compileTrust, `lib/request.js` req.ip).
 */
import type { IncomingMessage } from 'node:http';
import proxyaddr from 'proxy-addr';

/** A compiled `trust proxy` test: whether to trust the address at hop `index` (0 = the socket peer). */
export type TrustProxyFn = (address: string, index: number) => boolean;

/**
 * Compiles a `trust proxy` value as express does: `true` trusts every hop, a number that many hops,
 * a string a comma-separated list of addresses, subnets or proxy-addr names (`loopback`, ...),
 * `false` none.
 * @throws TypeError (from proxy-addr) for an address or subnet it cannot parse.
 */
export function compileTrustProxy(value: boolean | number | string): TrustProxyFn {
  if (value === true) return () => true;
  if (typeof value === 'number') return (_address, index) => index < value;
  if (typeof value === 'string') return proxyaddr.compile(value.split(',').map((v) => v.trim()));
  return proxyaddr.compile([]);
}

/**
 * The client address of `req` under `trust` (see {@link compileTrustProxy}): what `req.ip` would
 * be in express, e.g. `203.0.113.7` or `::ffff:127.0.0.1`; undefined when the socket has no
 * remote address (already closed).
 */
export function clientAddress(req: IncomingMessage, trust: TrustProxyFn): string | undefined {
  if (!req.socket.remoteAddress) return undefined;
  return proxyaddr(req, trust);
}
