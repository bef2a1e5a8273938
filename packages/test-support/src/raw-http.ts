/**
 * Raw-socket HTTP for bad-input tests: write exact bytes (malformed request lines, headers, bodies,
 * upgrades) to a listening server and read the first response as sent, which HTTP clients
 * would refuse to produce or parse.
 */
import { connect } from 'node:net';

/** The first response read from a raw connection (RFC 9112 message syntax). */
export interface RawResponse {
  /** Status code of the status line; undefined when nothing parseable arrived. */
  readonly status: number | undefined;
  /** Header fields, names lower-cased (the last one wins). */
  readonly headers: Readonly<Record<string, string>>;
  /** Body as UTF-8 text (by Content-Length, else whatever arrived before the close). */
  readonly body: string;
  /** Every byte received, as latin1 text. */
  readonly raw: string;
  /** How the exchange ended: the peer closed, the response was complete, or the timeout hit. */
  readonly ended: 'closed' | 'complete' | 'timeout';
  /** Socket error code, if one occurred (e.g. ECONNRESET). */
  readonly error: string | undefined;
}

function parse(raw: Buffer): Omit<RawResponse, 'ended' | 'error'> & { complete: boolean } {
  const text = raw.toString('latin1');
  const end = text.indexOf('\r\n\r\n');
  if (end < 0) return { status: undefined, headers: {}, body: '', raw: text, complete: false };
  const [statusLine = '', ...fields] = text.slice(0, end).split('\r\n');
  const status = /^HTTP\/1\.[01] (\d{3})/.exec(statusLine)?.[1];
  const headers: Record<string, string> = {};
  for (const field of fields) {
    const colon = field.indexOf(':');
    if (colon > 0)
      headers[field.slice(0, colon).trim().toLowerCase()] = field.slice(colon + 1).trim();
  }
  const bodyBytes = raw.subarray(Buffer.byteLength(text.slice(0, end + 4), 'latin1'));
  const length =
    headers['content-length'] === undefined ? undefined : Number(headers['content-length']);
  const complete = length !== undefined && bodyBytes.length >= length;
  const body = (length === undefined ? bodyBytes : bodyBytes.subarray(0, length)).toString('utf8');
  return {
    status: status === undefined ? undefined : Number(status),
    headers,
    body,
    raw: text,
    complete,
  };
}

/**
 * Connects to `host:port`, writes `payload` (all at once, or chunk by chunk when an array is
 * given), and resolves with the first response: once its Content-Length is complete, when the
 * server closes, or after `timeoutMs` (default 5000). Never rejects; the socket is destroyed.
 */
export function rawExchange(
  port: number,
  payload: string | Buffer | readonly (string | Buffer)[],
  opts: { host?: string; timeoutMs?: number } = {},
): Promise<RawResponse> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let error: string | undefined;
    let done = false;
    const socket = connect(port, opts.host ?? '127.0.0.1');
    const finish = (ended: RawResponse['ended']): void => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      socket.destroy();
      const { complete: _complete, ...response } = parse(Buffer.concat(chunks));
      resolve({ ...response, ended, error });
    };
    const timer = setTimeout(() => finish('timeout'), opts.timeoutMs ?? 5000);
    socket.on('connect', () => {
      const parts: readonly (string | Buffer)[] =
        typeof payload === 'string' || Buffer.isBuffer(payload) ? [payload] : payload;
      for (const part of parts) {
        socket.write(typeof part === 'string' ? Buffer.from(part, 'latin1') : part);
      }
    });
    socket.on('data', (chunk: Buffer) => {
      chunks.push(chunk);
      if (parse(Buffer.concat(chunks)).complete) finish('complete');
    });
    socket.on('error', (err: NodeJS.ErrnoException) => {
      error = err.code ?? err.message;
    });
    socket.on('close', () => finish('closed'));
  });
}

/** One malformed request of {@link malformedRequests}. */
export interface MalformedRequest {
  readonly name: string;
  readonly bytes: string | Buffer;
}

/**
 * Requests Node's HTTP parser (llhttp) refuses or a server must refuse (RFC 9112): bad method,
 * version and target, junk and NUL bytes, oversized and too many header fields, malformed and
 * duplicate framing headers, bad chunked bodies. Each targets `/no-such-path`, so one the
 * parser lets through still gets a 4xx.
 */
export function malformedRequests(): MalformedRequest[] {
  const host = 'Host: localhost\r\n';
  const manyHeaders = Array.from({ length: 3000 }, (_, i) => `X-Filler-${i}: ${i}\r\n`).join('');
  const someHeaders = Array.from({ length: 500 }, (_, i) => `X-Filler-${i}: ${i}\r\n`).join('');
  return [
    { name: 'bad method token', bytes: `G@T /no-such-path HTTP/1.1\r\n${host}\r\n` },
    { name: 'lower-case method', bytes: `get /no-such-path HTTP/1.1\r\n${host}\r\n` },
    { name: 'bad version', bytes: `GET /no-such-path HTTP/9.9\r\n${host}\r\n` },
    { name: 'junk version', bytes: `GET /no-such-path HTTX/1.1\r\n${host}\r\n` },
    { name: 'HTTP/0.9 request line', bytes: 'GET /no-such-path\r\n\r\n' },
    { name: 'no target', bytes: `GET  HTTP/1.1\r\n${host}\r\n` },
    { name: 'space in target', bytes: `GET /no such path HTTP/1.1\r\n${host}\r\n` },
    { name: 'TLS hello to the HTTP port', bytes: Buffer.from('16030100a5010000a10303', 'hex') },
    {
      name: 'junk bytes',
      bytes: Buffer.from([0xff, 0xfe, 0x00, 0x01, 0x80, 0x0d, 0x0a, 0x0d, 0x0a]),
    },
    { name: 'NUL in the request line', bytes: `GET /no-such\0path HTTP/1.1\r\n${host}\r\n` },
    {
      name: 'NUL in a header value',
      bytes: `GET /no-such-path HTTP/1.1\r\n${host}X-A: a\0b\r\n\r\n`,
    },
    { name: 'header without colon', bytes: `GET /no-such-path HTTP/1.1\r\n${host}NoColon\r\n\r\n` },
    {
      name: 'space in a header name',
      bytes: `GET /no-such-path HTTP/1.1\r\n${host}Bad Name: x\r\n\r\n`,
    },
    {
      name: 'obsolete line folding',
      bytes: `GET /no-such-path HTTP/1.1\r\n${host}X-A: a\r\n b\r\n\r\n`,
    },
    {
      name: 'too long header',
      bytes: `GET /no-such-path HTTP/1.1\r\n${host}X-Long: ${'a'.repeat(20_000)}\r\n\r\n`,
    },
    { name: 'too long target', bytes: `GET /${'a'.repeat(20_000)} HTTP/1.1\r\n${host}\r\n` },
    { name: 'too many headers', bytes: `GET /no-such-path HTTP/1.1\r\n${host}${manyHeaders}\r\n` },
    {
      name: 'many headers within the size limit',
      bytes: `GET /no-such-path HTTP/1.1\r\n${host}${someHeaders}\r\n`,
    },
    { name: 'missing Host on HTTP/1.1', bytes: 'GET /no-such-path HTTP/1.1\r\n\r\n' },
    {
      name: 'bad chunk size',
      bytes: `POST /no-such-path HTTP/1.1\r\n${host}Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n{}\r\n0\r\n\r\n`,
    },
    {
      name: 'chunk without its CRLF',
      bytes: `POST /no-such-path HTTP/1.1\r\n${host}Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n2\r\n{}XX0\r\n\r\n`,
    },
    {
      name: 'duplicate Content-Length',
      bytes: `POST /no-such-path HTTP/1.1\r\n${host}Content-Type: application/json\r\nContent-Length: 2\r\nContent-Length: 3\r\n\r\n{}`,
    },
    {
      name: 'Content-Length with Transfer-Encoding',
      bytes: `POST /no-such-path HTTP/1.1\r\n${host}Content-Type: application/json\r\nContent-Length: 2\r\nTransfer-Encoding: chunked\r\n\r\n2\r\n{}\r\n0\r\n\r\n`,
    },
    {
      name: 'non-numeric Content-Length',
      bytes: `POST /no-such-path HTTP/1.1\r\n${host}Content-Type: application/json\r\nContent-Length: 2x\r\n\r\n{}`,
    },
    {
      name: 'unknown Transfer-Encoding',
      bytes: `POST /no-such-path HTTP/1.1\r\n${host}Transfer-Encoding: gzip\r\n\r\n{}`,
    },
    { name: 'CONNECT', bytes: `CONNECT localhost:22 HTTP/1.1\r\n${host}\r\n` },
    { name: 'unmet Expect', bytes: `GET /no-such-path HTTP/1.1\r\n${host}Expect: magic\r\n\r\n` },
    { name: 'HTTP/2 preface', bytes: 'PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n' },
    { name: 'odd method', bytes: `PROPFIND /no-such-path HTTP/1.1\r\n${host}\r\n` },
    {
      name: 'absolute-form to an unknown path',
      bytes: `GET http://localhost/no-such-path HTTP/1.1\r\n${host}\r\n`,
    },
    { name: 'absolute-form without a path', bytes: `GET http://localhost HTTP/1.1\r\n${host}\r\n` },
    { name: 'absolute-form, other scheme', bytes: `GET mailto:someone HTTP/1.1\r\n${host}\r\n` },
    { name: 'authority-form on GET', bytes: `GET localhost:80 HTTP/1.1\r\n${host}\r\n` },
    { name: 'asterisk-form on GET', bytes: `GET * HTTP/1.1\r\n${host}\r\n` },
    { name: 'bad percent-encoding', bytes: `GET /%ZZ%ff HTTP/1.1\r\n${host}\r\n` },
    {
      name: 'unknown file under /docs',
      bytes: `GET /docs/no-such-file.js HTTP/1.1\r\n${host}\r\n`,
    },
    { name: 'manifest under /docs', bytes: `GET /docs/package.json HTTP/1.1\r\n${host}\r\n` },
    {
      name: 'dot segments under /docs',
      bytes: `GET /docs/../../etc/passwd HTTP/1.1\r\n${host}\r\n`,
    },
  ];
}

/**
 * A WebSocket upgrade request for `target` (RFC 6455 section 4.1 handshake fields); `target` is
 * written as is, so it may be unparseable.
 */
export function upgradeRequest(target: string): string {
  return (
    `GET ${target} HTTP/1.1\r\nHost: localhost\r\nConnection: Upgrade\r\nUpgrade: websocket\r\n` +
    'Sec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n'
  );
}

/**
 * What keeps `res` from being a 4xx RFC 9457 problem answer (docs/api.md "Errors"): a socket
 * error, a status outside 400-499 (or outside `statuses`, when given), another content type, a body
 * that is not JSON, a body `status` unlike the status line, a `code` that is not an upper-case
 * constant. An empty list means it is one.
 */
export function rawProblemFaults(res: RawResponse, statuses?: readonly number[]): string[] {
  const faults: string[] = [];
  if (res.error !== undefined) faults.push(`socket error ${res.error}`);
  const status = res.status ?? 0;
  if (status < 400 || status > 499) faults.push(`status ${String(res.status)} is not a 4xx`);
  if (statuses && !statuses.includes(status))
    faults.push(`status ${status} not in ${statuses.join(',')}`);
  const type = res.headers['content-type'] ?? '';
  if (!/^application\/problem\+json/.test(type)) faults.push(`content type ${type}`);
  let body: { status?: unknown; code?: unknown };
  try {
    body = JSON.parse(res.body) as { status?: unknown; code?: unknown };
  } catch {
    return [...faults, `body is not JSON: ${res.body.slice(0, 80)}`];
  }
  if (body.status !== res.status) faults.push(`body status ${String(body.status)} differs`);
  if (typeof body.code !== 'string' || !/^[A-Z_]+$/.test(body.code))
    faults.push(`code ${String(body.code)} is not a stable code`);
  return faults;
}
