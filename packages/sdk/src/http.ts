/**
 * The HTTP layer both API clients share: GET with a lossless JSON read, problem details turned
 * into {@link ApiProblemError}, and retries only for answers the APIs mark retryable (429, or a
 * 5xx with `Retry-After`; docs/api.md "Errors" and "Rate limits"), waiting what `Retry-After`
 * says.
 */
import { ErrorCode, type z } from '@ctss/domain-types';
import { ApiProblemError, NetworkError, ResponseValidationError } from './errors.js';
import { JsonReadError, parseJson } from './json.js';

/** Options every API client takes. */
export interface HttpOptions {
  /** `fetch` to use (default the global one); e.g. one with a proxy agent. */
  readonly fetch?: typeof fetch;
  /** Retries of a retryable answer (default 2; 0 turns retries off). */
  readonly maxRetries?: number;
  /** Longest wait honoured for one `Retry-After`, seconds (default 30); a longer one is thrown. */
  readonly maxRetryAfterSeconds?: number;
  /** Headers added to every request, e.g. `{ 'X-API-Key': ... }` for the higher rate-limit tier. */
  readonly headers?: Readonly<Record<string, string>>;
}

/** Per-call options. */
export interface CallOptions {
  readonly signal?: AbortSignal;
}

function retryAfterSeconds(res: Response): number | undefined {
  const raw = res.headers.get('retry-after');
  if (raw === null) return undefined;
  if (/^[0-9]+$/.test(raw.trim())) return Number(raw.trim());
  const at = Date.parse(raw);
  return Number.isNaN(at) ? undefined : Math.max(0, Math.ceil((at - Date.now()) / 1000));
}

const sleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason as Error);
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal!.reason as Error);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });

async function problemOf(res: Response, url: string): Promise<ApiProblemError> {
  const text = await res.text();
  let code: ErrorCode | 'UNKNOWN' = 'UNKNOWN';
  let detail = text.slice(0, 200) || res.statusText;
  try {
    const body = JSON.parse(text) as { code?: unknown; detail?: unknown };
    const parsed = ErrorCode.safeParse(body.code);
    if (parsed.success) code = parsed.data;
    if (typeof body.detail === 'string') detail = body.detail;
  } catch {
    // Not a problem body (a proxy's page); status and text are reported as they are.
  }
  return new ApiProblemError(res.status, code, detail, url, retryAfterSeconds(res));
}

/**
 * GETs `url`, reads the body losslessly and validates it with `schema`.
 *
 * @returns the parsed, validated body.
 * @throws {ApiProblemError} for a non-2xx answer (after the retries a retryable one is given).
 * @throws {ResponseValidationError} when the body is not JSON or does not match `schema`.
 * @throws {NetworkError} when no HTTP answer arrives.
 * @throws the signal's reason when `signal` aborts.
 */
export async function getJson<S extends z.ZodType>(
  url: string,
  schema: S,
  options: HttpOptions,
  call: CallOptions = {},
): Promise<z.infer<S>> {
  const doFetch = options.fetch ?? fetch;
  const maxRetries = options.maxRetries ?? 2;
  const maxWait = options.maxRetryAfterSeconds ?? 30;
  for (let attempt = 0; ; attempt++) {
    let res: Response;
    try {
      res = await doFetch(url, {
        headers: { accept: 'application/json', ...options.headers },
        ...(call.signal ? { signal: call.signal } : {}),
      });
    } catch (cause) {
      if (call.signal?.aborted) throw call.signal.reason as Error;
      throw new NetworkError(url, { cause });
    }
    if (!res.ok) {
      const problem = await problemOf(res, url);
      const wait = problem.retryAfterSeconds ?? 1;
      if (problem.retryable && attempt < maxRetries && wait <= maxWait) {
        await sleep(wait * 1000, call.signal);
        continue;
      }
      throw problem;
    }
    const text = await res.text();
    let body: unknown;
    try {
      body = parseJson(text);
    } catch (err) {
      throw new ResponseValidationError(url, (err as JsonReadError).message, { cause: err });
    }
    const parsed = schema.safeParse(body);
    if (!parsed.success) {
      const issues = parsed.error.issues
        .slice(0, 5)
        .map((i) => `${i.path.join('.') || '(body)'}: ${i.message}`)
        .join('; ');
      throw new ResponseValidationError(url, issues);
    }
    return parsed.data;
  }
}

/** `base` without a trailing slash, validated as an http(s) URL. @throws {TypeError} otherwise. */
export function normalizeBase(base: string): string {
  const url = new URL(base);
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new TypeError(`API base URL must be http(s): ${base}`);
  }
  return base.replace(/\/+$/, '');
}
