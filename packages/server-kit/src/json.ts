/**
 * JSON with exact big integers: amounts are bigint in memory and must be written as integer
 * literals, also above 2^53 (docs/decisions.md "D8. Large amounts as exact JSON
 * integers"). Node 20 has no
 * JSON.rawJSON, so bigints are written through a per-process marker and unquoted afterwards.
 */
import { randomBytes } from 'node:crypto';
import type { Response } from 'express';

const MARKER = `__bigint_${randomBytes(6).toString('hex')}_`;
const MARKED = new RegExp(`"${MARKER}(-?[0-9]+)"`, 'g');

/**
 * `JSON.stringify` that writes bigint values as exact integer literals. Values without bigints
 * take the plain fast path (no replacer); JSON.stringify throws at the first bigint it meets, so
 * the failed attempt costs little before the marker path runs.
 */
export function stringifyJson(value: unknown): string {
  try {
    return JSON.stringify(value) ?? 'null';
  } catch (err) {
    if (!(err instanceof TypeError)) throw err;
  }
  const text = JSON.stringify(value, (_key, v: unknown) =>
    typeof v === 'bigint' ? `${MARKER}${v.toString()}` : v,
  );
  return (text ?? 'null').replace(MARKED, '$1');
}

/**
 * An amount as a JSON-ready value: a number when it is a safe integer (exact in every JSON
 * reader), else the bigint itself (written exactly by {@link stringifyJson}). Records built with
 * it serialize on the fast path in the common case.
 */
export function exactInteger(value: bigint): number | bigint {
  return value <= MAX_SAFE && value >= -MAX_SAFE ? Number(value) : value;
}
const MAX_SAFE = BigInt(Number.MAX_SAFE_INTEGER);

/** The Content-Type of every JSON body (RFC 8259 section 8.1: UTF-8). */
export const JSON_CONTENT_TYPE = 'application/json; charset=utf-8';

/**
 * Sends an already serialized body with status `status` (default `application/json`).
 *
 * Unlike express's `res.send`, which turns a body of 1,000 characters or more into a Buffer and so
 * has Node write the header block and the body with two-buffer `writev`, this hands Node the
 * string, which it writes together with the header block in one `write` (no Buffer copy; measured
 * in packages/bench/FINDINGS.md). A body already held as UTF-8 bytes (a kept page read from Redis)
 * is sent as it is, without decoding and encoding it again. A HEAD request gets the headers only (RFC 9110 section 9.3.2).
 */
export function sendJsonText(
  res: Response,
  status: number,
  body: string | Buffer,
  contentType: string = JSON_CONTENT_TYPE,
): void {
  res.statusCode = status;
  res.setHeader('Content-Type', contentType);
  res.setHeader('Content-Length', Buffer.byteLength(body, 'utf8'));
  if (res.req.method === 'HEAD') res.end();
  else if (typeof body === 'string') res.end(body, 'utf8');
  else res.end(body);
}

/** Sends `value` as `application/json` with status `status`, bigints exact. */
export function sendJson(res: Response, status: number, value: unknown): void {
  sendJsonText(res, status, stringifyJson(value));
}
