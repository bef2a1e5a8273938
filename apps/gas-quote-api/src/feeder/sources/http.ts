/** Small HTTP helpers for the feeder's sources: JSON GET and JSON-RPC 2.0 over POST, with timeouts. */
import { z } from '@ctss/domain-types';

/** Raised when an upstream answers with an error, a bad status or a body of the wrong shape. */
class UpstreamError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'UpstreamError';
  }
}

/**
 * GETs `url` and validates the JSON body with `schema`.
 * @throws UpstreamError on a non-2xx status, non-JSON body or schema mismatch; network errors pass through.
 */
export async function getJson<T>(url: string, schema: z.ZodType<T>, timeoutMs: number): Promise<T> {
  const res = await fetch(url, {
    headers: { accept: 'application/json' },
    signal: AbortSignal.timeout(timeoutMs),
  });
  if (!res.ok) throw new UpstreamError(`GET ${redactUrl(url)}: HTTP ${res.status}`);
  return parse(
    await res
      .json()
      .catch((e: unknown) => Promise.reject(new UpstreamError('invalid JSON', { cause: e }))),
    schema,
    url,
  );
}

const RpcResponse = z.union([
  z.object({ jsonrpc: z.literal('2.0'), result: z.unknown(), id: z.unknown() }),
  z.object({
    jsonrpc: z.literal('2.0'),
    error: z.object({ code: z.number(), message: z.string() }),
    id: z.unknown(),
  }),
]);

/**
 * Calls JSON-RPC 2.0 `method` at `url` and validates `result` with `schema`.
 * @throws UpstreamError on an RPC error, non-2xx status or result mismatch.
 */
export async function rpcCall<T>(
  url: string,
  method: string,
  params: unknown[],
  schema: z.ZodType<T>,
  timeoutMs: number,
): Promise<T> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
    signal: AbortSignal.timeout(timeoutMs),
  });
  if (!res.ok) throw new UpstreamError(`${method} at ${redactUrl(url)}: HTTP ${res.status}`);
  const body = parse(await res.json(), RpcResponse, url);
  if ('error' in body)
    throw new UpstreamError(`${method}: RPC error ${body.error.code} ${body.error.message}`);
  return parse(body.result, schema, url);
}

function parse<T>(value: unknown, schema: z.ZodType<T>, url: string): T {
  const r = schema.safeParse(value);
  if (!r.success)
    throw new UpstreamError(
      `unexpected response from ${redactUrl(url)}: ${r.error.issues[0]?.message ?? 'invalid'}`,
    );
  return r.data;
}

/** An RPC URL without its path and query, which often carry API keys; for logs and errors. */
function redactUrl(url: string): string {
  try {
    const u = new URL(url);
    return `${u.protocol}//${u.host}`;
  } catch {
    return '<invalid url>';
  }
}
