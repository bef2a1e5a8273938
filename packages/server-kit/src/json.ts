/**
 * JSON with exact big integers: amounts are bigint in memory and must be written as integer
 * literals, also above 2^53 (DESIGN.md "Monitoring API semantics"). Node 20 has no
 * JSON.rawJSON, so bigints are written through a per-process marker and unquoted afterwards.
 */
import { randomBytes } from 'node:crypto';
import type { Response } from 'express';

const MARKER = `__bigint_${randomBytes(6).toString('hex')}_`;
const MARKED = new RegExp(`"${MARKER}(-?[0-9]+)"`, 'g');

/** `JSON.stringify` that writes bigint values as exact integer literals. */
export function stringifyJson(value: unknown): string {
  const text = JSON.stringify(value, (_key, v: unknown) =>
    typeof v === 'bigint' ? `${MARKER}${v.toString()}` : v,
  );
  return (text ?? 'null').replace(MARKED, '$1');
}

/** Sends `value` as `application/json` with status `status`, bigints exact. */
export function sendJson(res: Response, status: number, value: unknown): void {
  res.status(status).type('application/json').send(stringifyJson(value));
}
