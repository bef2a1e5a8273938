/**
 * HTTP as a real keep-alive client sees it (node's http Agent): one request, timed, with what
 * the fault scenarios look at (status, problem `code`, content type, `Retry-After`,
 * `Connection: close`, `Cache-Status`), or the socket error when there was no response.
 */
import http from 'node:http';

/** One request's outcome. Times are `Date.now()` ms; `status` 0 = no response (see `error`). */
export interface Sample {
  readonly label: string;
  readonly startedAt: number;
  readonly endedAt: number;
  readonly latencyMs: number;
  readonly status: number;
  /** Socket or timeout error code when there was no response. */
  readonly error?: string;
  /** `code` of a problem body. */
  readonly code?: string;
  readonly problemBody: boolean;
  readonly retryAfter?: string;
  readonly connectionClose: boolean;
  readonly cacheStatus?: string;
  /** Parsed JSON body (kept small: only the routes that need it read it). */
  readonly body?: unknown;
}

/** A request to make. */
export interface RequestSpec {
  readonly label: string;
  readonly url: string;
  readonly method?: 'GET' | 'POST';
  readonly body?: unknown;
}

/** A keep-alive agent with one socket, as one client connection. */
export const keepAliveAgent = () => new http.Agent({ keepAlive: true, maxSockets: 1 });

/** Sends `spec` through `agent`; never throws (errors become `status: 0`). */
export function send(
  agent: http.Agent | false,
  spec: RequestSpec,
  timeoutMs = 5000,
): Promise<Sample> {
  const startedAt = Date.now();
  const t0 = performance.now();
  return new Promise((resolve) => {
    const body = spec.body === undefined ? undefined : JSON.stringify(spec.body);
    const finish = (fields: Omit<Sample, 'label' | 'startedAt' | 'endedAt' | 'latencyMs'>) =>
      resolve({
        label: spec.label,
        startedAt,
        endedAt: Date.now(),
        latencyMs: performance.now() - t0,
        ...fields,
      });
    /** A request or response error: `status: 0` with the error's code (or message). */
    const failed = (err: NodeJS.ErrnoException) =>
      finish({
        status: 0,
        error: err.code ?? err.message,
        problemBody: false,
        connectionClose: false,
      });
    const req = http.request(
      spec.url,
      {
        method: spec.method ?? 'GET',
        agent,
        headers: body
          ? { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) }
          : {},
        timeout: timeoutMs,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('error', failed);
        res.on('end', () => {
          const type = String(res.headers['content-type'] ?? '');
          let parsed: unknown;
          try {
            parsed = type.includes('json')
              ? (JSON.parse(Buffer.concat(chunks).toString('utf8')) as unknown)
              : undefined;
          } catch {
            parsed = undefined;
          }
          const code =
            parsed && typeof parsed === 'object' && 'code' in parsed
              ? String(parsed.code)
              : undefined;
          const header = (name: string) => {
            const v = res.headers[name];
            return v === undefined ? undefined : String(v);
          };
          finish({
            status: res.statusCode ?? 0,
            ...(code !== undefined ? { code } : {}),
            problemBody: type.startsWith('application/problem+json') && code !== undefined,
            ...(header('retry-after') !== undefined ? { retryAfter: header('retry-after') } : {}),
            connectionClose: /\bclose\b/i.test(header('connection') ?? ''),
            ...(header('cache-status') !== undefined
              ? { cacheStatus: header('cache-status') }
              : {}),
            body: parsed,
          });
        });
      },
    );
    req.on('timeout', () => req.destroy(Object.assign(new Error('timeout'), { code: 'TIMEOUT' })));
    req.on('error', failed);
    req.end(body);
  });
}

/** Whether a sample is a 2xx. */
export const ok = (s: Sample) => s.status >= 200 && s.status < 300;
