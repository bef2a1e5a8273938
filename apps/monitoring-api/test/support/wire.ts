/**
 * A GET as it goes over the wire: node:http sends only the headers it is given (supertest adds
 * `Accept-Encoding: gzip, deflate`) and hands back the body's bytes undecoded, for the tests of
 * compression and conditional requests.
 */
import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';

/** One answer: status, headers and the body bytes as they came over the wire. */
export interface Wire {
  status: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

/**
 * GET (or `method`) `path` from `base` with `headers`, without decoding the body.
 * @throws the request's connection error
 */
export function getWire(
  base: string,
  path: string,
  headers: Record<string, string> = {},
  method = 'GET',
): Promise<Wire> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(`${base}${path}`, { headers, method }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }),
      );
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}
