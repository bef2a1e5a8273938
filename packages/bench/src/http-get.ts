/**
 * One plain HTTP/1.1 GET with exactly the given request headers (node:http; unlike fetch, it adds
 * no Accept-Encoding and decodes nothing), for reading pages and validators from a running API
 * before a workload is measured.
 */
import http, { type IncomingHttpHeaders } from 'node:http';

/** A response as received: status, headers (lower-case names) and the body's bytes as sent. */
export interface RawResponse {
  readonly status: number;
  readonly headers: IncomingHttpHeaders;
  readonly body: Buffer;
}

/**
 * GETs `url` with `headers` only (plus Host and Connection, which node:http adds).
 * @throws Error on a connection error or when no response arrives within `timeoutMs` (default 10 s)
 */
export function httpGet(
  url: string,
  headers: Readonly<Record<string, string>> = {},
  timeoutMs = 10_000,
): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const req = http.get(url, { headers, timeout: timeoutMs }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.once('error', reject);
      res.once('end', () =>
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }),
      );
    });
    req.once('timeout', () => req.destroy(new Error(`GET ${url}: no response in ${timeoutMs} ms`)));
    req.once('error', reject);
  });
}
