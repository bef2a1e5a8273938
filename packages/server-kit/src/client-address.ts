/**
 * The client address of a request that never reaches express (a WebSocket upgrade), derived as
 * express 5 derives `req.ip`: proxy-addr over the socket address and `X-Forwarded-For`, trusting
 * the same `trust proxy` setting (express `lib/utils.js` compileTrust, `lib/request.js` req.ip),
 * and the key a client address is counted under (rate limits, per-address connection caps).
 */
import type { IncomingMessage } from 'node:http';
import { ipKeyGenerator } from 'express-rate-limit';
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

/**
 * The rate-limit key of a client address. An IPv4-mapped IPv6 address (`::ffff:1.2.3.4`, what a
 * dual-stack listener reports for IPv4 clients) is the IPv4 client itself: keyed as such, it also
 * skips parsing the address as IPv6 on every request. Other IPv6 clients are keyed by their /56,
 * as express-rate-limit's `ipKeyGenerator` does.
 */
export function clientKey(ip: string | undefined): string {
  if (!ip) return 'ip:unknown';
  if (ip.startsWith('::ffff:') && ip.includes('.')) return `ip:${ip.slice(7)}`;
  return ip.includes(':') ? `ip:${ipKeyGenerator(ip)}` : `ip:${ip}`;
}
