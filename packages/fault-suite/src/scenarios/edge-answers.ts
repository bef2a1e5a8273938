/**
 * Scenario 10: answers at the edge of the running services, over real sockets at their default
 * limits (docs/operations.md "Connection limits", "Client addresses"): `/ready` of both APIs,
 * `Range` on a `/docs` file (206 with `Content-Range`, an unsatisfiable range a 416 problem), and a
 * spoofed `X-Forwarded-For` on a direct connection, which must not escape the per-address
 * connection cap (the services trust no proxy by default); and requests with an API key of
 * `API_KEYS`, after which the key appears in no Redis key name and no log line, only its SHA-256
 * digest (docs/decisions.md "D89. API keys kept as digests").
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import path from 'node:path';
import { check, figure } from '../report.js';
import { GAS_URL, MONITORING_URL } from '../services.js';
import { API_KEY, LOG_DIR, PORTS, REDIS_PASSWORD } from '../settings.js';

const NAME = '10 edge answers';
/** The monitoring API's default per-address connection cap (server-kit DEFAULT_CONNECTION_LIMITS). */
const PER_ADDRESS_CAP = 256;
/** The client address that fills its cap and then claims another address. */
const SPOOFER = '127.0.0.4';

interface Answer {
  readonly status: number;
  readonly headers: http.IncomingHttpHeaders;
  readonly text: string;
}

/** GET `url` on a new connection from `localAddress` with `headers`; status 0 on a socket error. */
function get(url: string, headers: Record<string, string> = {}, localAddress?: string) {
  return new Promise<Answer>((resolve) => {
    const req = http.get(
      url,
      { agent: false, headers, timeout: 5000, ...(localAddress ? { localAddress } : {}) },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (c: string) => (text += c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text }));
        res.on('error', () => resolve({ status: 0, headers: {}, text: '' }));
      },
    );
    req.on('timeout', () => req.destroy(new Error('timeout')));
    req.on('error', () => resolve({ status: 0, headers: {}, text: '' }));
  });
}

/** The `code` of a problem body, or '' when the body is not one. */
function problemCode(a: Answer): string {
  try {
    const { code } = JSON.parse(a.text) as { code?: unknown };
    return typeof code === 'string' ? code : '';
  } catch {
    return '';
  }
}

/** `count` idle connections to the monitoring API from `localAddress`. */
async function openIdle(count: number, localAddress: string): Promise<net.Socket[]> {
  const sockets: net.Socket[] = [];
  await Promise.all(
    Array.from(
      { length: count },
      () =>
        new Promise<void>((resolve) => {
          const s = net.connect({ port: PORTS.monitoring, host: '127.0.0.1', localAddress });
          s.on('error', () => undefined);
          s.once('connect', () => resolve());
          s.once('close', () => resolve());
          sockets.push(s);
        }),
    ),
  );
  return sockets;
}

/** Every key name in the suite's Redis (`redis-cli --scan`). */
function redisKeys(): string[] {
  const out = execFileSync(
    'redis-cli',
    ['-p', String(PORTS.redis), '-a', REDIS_PASSWORD, '--no-auth-warning', '--scan'],
    { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 },
  );
  return out.split('\n').filter(Boolean);
}

/** Requests with `X-API-Key` on both APIs, then the key is looked for in Redis and the logs. */
async function apiKeyAsDigest(): Promise<void> {
  const answers = [];
  for (const url of [`${MONITORING_URL}/stats/mainnet/volumes`, `${GAS_URL}/tokenPrices`]) {
    for (let i = 0; i < 5; i += 1) answers.push(await get(url, { 'X-API-Key': API_KEY }));
  }
  const digest = createHash('sha256').update(API_KEY, 'utf8').digest('hex');
  const keys = redisKeys();
  const plain = keys.filter((k) => k.includes(API_KEY));
  const hashed = keys.filter((k) => k.includes(digest));
  const logHits = readdirSync(LOG_DIR)
    .filter((f) => f.endsWith('.log'))
    .filter((f) => readFileSync(path.join(LOG_DIR, f), 'utf8').includes(API_KEY));
  figure(
    NAME,
    'requests with X-API-Key / Redis keys / of them under the digest / with the key itself',
    `${answers.filter((a) => a.status === 200).length} of ${answers.length} 200 / ${keys.length} / ${hashed.length} / ${plain.length}`,
  );
  // Both APIs count these requests in Redis under the digest, also after the earlier scenarios'
  // Redis losses: the rate limiter returns to Redis once it answers again.
  check(
    NAME,
    'no Redis key name holds an API key; the rate limit counts it in Redis under its SHA-256 digest',
    `${plain.length} with the key, ${hashed.length} under the digest`,
    plain.length === 0 && hashed.length >= 2 && answers.every((a) => a.status === 200),
  );
  check(
    NAME,
    'no log line holds an API key',
    logHits.length ? logHits.join(', ') : 'none',
    logHits.length === 0,
  );
}

/** Runs the scenario against the running monitoring and gas quote APIs. */
export async function edgeAnswers(): Promise<void> {
  await apiKeyAsDigest();
  for (const [name, base] of [
    ['monitoring API', MONITORING_URL],
    ['gas quote API', GAS_URL],
  ] as const) {
    const ready = await get(`${base}/ready`);
    figure(NAME, `${name} /ready`, `${ready.status} ${ready.text.slice(0, 120)}`);
    check(
      NAME,
      `${name} /ready answers 200 while its backends are up`,
      ready.status,
      ready.status === 200,
    );
  }

  const file = `${MONITORING_URL}/docs/swagger-ui.css`;
  const part = await get(file, { Range: 'bytes=0-9' });
  const past = await get(file, { Range: 'bytes=999999999-' });
  figure(
    NAME,
    '/docs/swagger-ui.css with Range bytes=0-9 / bytes=999999999-',
    `${part.status} ${part.headers['content-range'] ?? '-'} (${part.text.length} bytes) / ${past.status} ${past.headers['content-range'] ?? '-'} ${problemCode(past)}`,
  );
  check(
    NAME,
    '/docs Range: 206 with Content-Range for bytes=0-9',
    `${part.status} ${part.headers['content-range'] ?? '-'}`,
    part.status === 206 &&
      /^bytes 0-9\/\d+$/.test(part.headers['content-range'] ?? '') &&
      part.text.length === 10,
  );
  check(
    NAME,
    '/docs Range: unsatisfiable range is a 416 problem',
    `${past.status} ${String(past.headers['content-type'] ?? '')} ${problemCode(past)}`,
    past.status === 416 &&
      String(past.headers['content-type'] ?? '').startsWith('application/problem+json') &&
      problemCode(past) === 'RANGE_NOT_SATISFIABLE',
  );

  const idle = await openIdle(PER_ADDRESS_CAP, SPOOFER);
  try {
    const spoofed = await get(
      `${MONITORING_URL}/health`,
      { 'X-Forwarded-For': '198.51.100.23' },
      SPOOFER,
    );
    const other = await get(`${MONITORING_URL}/health`, {}, '127.0.0.5');
    figure(
      NAME,
      `spoofed X-Forwarded-For from ${SPOOFER} holding ${idle.length} connections / another address`,
      `${spoofed.status} ${problemCode(spoofed)} / ${other.status}`,
    );
    check(
      NAME,
      'a spoofed X-Forwarded-For on a direct connection does not escape the per-address cap',
      `${spoofed.status} ${problemCode(spoofed)}`,
      spoofed.status === 429 && problemCode(spoofed) === 'RATE_LIMITED',
    );
    check(NAME, 'another address is still served meanwhile', other.status, other.status === 200);
  } finally {
    for (const s of idle) s.destroy();
  }
}
