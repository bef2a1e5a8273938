/**
 * Every `curl` of docs/api.md, run against both services as `pnpm start` runs them: the built
 * entry points (`node dist/bin/main.js` of each app, paths from `@ctss/devnet` entries.ts) with
 * the embedded defaults (no DATABASE_URL, no REDIS_URL: embedded PostgreSQL with the demo data,
 * the bundled price snapshot, ephemeral keys). Each answer must have the status the page says
 * (the `# 400 ...` / `# HTTP/1.1 304 ...` comment after the command, else 200), the problem `code`
 * it names, and a body that validates against the OpenAPI response schema of that operation and
 * status in the document the service serves (`/openapi.json`; the bad-input suite's checker of the
 * keywords zod-to-openapi writes, test-support `schemaMismatch`). The
 * page's example response bodies (a ```json block right after a one-command ```sh block) must
 * validate against the same schema.
 *
 * The one command that cannot be copied as it stands is `POST /users/verify`: its nonce is issued
 * per request and its signature made by the wallet. The test fetches a nonce for a wallet whose
 * key it holds (GET /users/messages, as the page says), signs it (EIP-191 personal_sign, viem)
 * and sends the page's body with that address, message and signature.
 */
import { readFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { brotliDecompressSync, gunzipSync, inflateSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { gasQuoteApiEntry, monitoringApiEntry, type ChildService } from '@ctss/devnet';
import { startListeningService } from './support/child-service.js';
import { ErrorCode } from '@ctss/domain-types';
import { schemaMismatch, type OpenApiDocument, type Schema } from '@ctss/test-support/openapi-fuzz';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';

const API_MD = new URL('../../../docs/api.md', import.meta.url);
const START_TIMEOUT_MS = 300_000;

/** One `curl` command of the page, with what the page says it answers. */
interface DocCurl {
  /** The command as written (continuation lines joined). */
  readonly command: string;
  /** The status the page gives (the comment's leading status, `HTTP/1.1 <status>`, else 200). */
  readonly status: number;
  /** The problem code the comment names, if any. */
  readonly code: string | undefined;
  /** The example response body the page shows right after the command's block, if any. */
  readonly example: unknown;
  /** Line number in docs/api.md (1-based), for the failure message. */
  readonly line: number;
}

/** Splits `text` at the first `#` outside quotes: [command, comment]. */
function splitComment(text: string): [string, string] {
  let quote: string | undefined;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quote) {
      if (c === '\\' && quote === '"') i++;
      else if (c === quote) quote = undefined;
    } else if (c === "'" || c === '"') quote = c;
    else if (c === '#' && (i === 0 || /\s/.test(text[i - 1]!))) {
      return [text.slice(0, i).trimEnd(), text.slice(i + 1).trim()];
    }
  }
  return [text.trimEnd(), ''];
}

/** Whether `text` leaves a quote open (the command goes on on the next line). */
function quoteOpen(text: string): boolean {
  let quote: string | undefined;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quote) {
      if (c === '\\' && quote === '"') i++;
      else if (c === quote) quote = undefined;
    } else if (c === "'" || c === '"') quote = c;
  }
  return quote !== undefined;
}

/** The status and code a comment states: `400 INVALID_QUERY`, `HTTP/1.1 304 ...`, `{...}` (200). */
function expectation(comment: string): { status: number; code: string | undefined } {
  const status = /^(?:HTTP\/[\d.]+ )?([1-5]\d\d)\b/.exec(comment);
  const code = ErrorCode.options.find((c) => new RegExp(`\\b${c}\\b`).test(comment));
  return { status: status ? Number(status[1]) : 200, code };
}

/** Every curl command of docs/api.md's ```sh blocks. */
function docCurls(markdown: string): DocCurl[] {
  const lines = markdown.split('\n');
  const found: DocCurl[] = [];
  for (let i = 0; i < lines.length; i++) {
    if (lines[i] !== '```sh') continue;
    const block: DocCurl[] = [];
    let j = i + 1;
    for (; j < lines.length && lines[j] !== '```'; j++) {
      if (!lines[j]!.startsWith('curl ')) continue;
      const start = j;
      let text = lines[j]!;
      while (quoteOpen(text) && j + 1 < lines.length) text += `\n${lines[++j]}`;
      const [command, sameLine] = splitComment(text);
      // A comment line right below the command states its answer when its own line does not.
      const below = lines[j + 1]?.startsWith('# ') ? lines[j + 1]!.slice(2) : '';
      const comment = /^(HTTP\/|[1-5]\d\d\b)/.test(sameLine) || !below ? sameLine : below;
      block.push({ command, ...expectation(comment), example: undefined, line: start + 1 });
    }
    // A ```json block right after a block of one command is that command's example answer.
    if (block.length === 1 && lines[j + 1] === '' && lines[j + 2] === '```json') {
      const end = lines.indexOf('```', j + 3);
      block[0] = { ...block[0]!, example: JSON.parse(lines.slice(j + 3, end).join('\n')) };
    }
    found.push(...block);
    i = j;
  }
  return found;
}

/** Shell words of `command` up to a pipe: quotes removed, `$NAME` expanded from `vars`. */
function shellWords(command: string, vars: Record<string, string>): string[] {
  const words: string[] = [];
  let word: string | undefined;
  const expand = (text: string) =>
    text.replace(/\$([A-Z_]+)/g, (_, name: string) => {
      const value = vars[name];
      if (value === undefined) throw new Error(`unknown shell variable $${name}`);
      return value;
    });
  for (let i = 0; i < command.length; i++) {
    const c = command[i]!;
    if (c === "'") {
      const end = command.indexOf("'", i + 1);
      word = (word ?? '') + command.slice(i + 1, end);
      i = end;
    } else if (c === '"') {
      let text = '';
      for (i++; command[i] !== '"'; i++) text += command[i] === '\\' ? command[++i] : command[i];
      word = (word ?? '') + expand(text);
    } else if (/\s/.test(c)) {
      if (word !== undefined) words.push(word);
      word = undefined;
    } else if (c === '|') {
      break;
    } else if (c === '$') {
      const name = /^\$[A-Z_]+/.exec(command.slice(i))![0];
      word = (word ?? '') + expand(name);
      i += name.length - 1;
    } else {
      word = (word ?? '') + c;
    }
  }
  if (word !== undefined) words.push(word);
  return words;
}

/** The request a curl command makes (`-X`, `-H`, `-d`; other flags change only the output). */
function curlRequest(command: string, vars: Record<string, string>) {
  const words = shellWords(command, vars).slice(1);
  let method: string | undefined;
  let url: string | undefined;
  let body: string | undefined;
  const headers: Record<string, string> = {};
  for (let i = 0; i < words.length; i++) {
    const w = words[i]!;
    if (w === '-X') method = words[++i];
    else if (w === '-H') {
      const [name, ...value] = words[++i]!.split(':');
      headers[name!.trim()] = value.join(':').trim();
    } else if (w === '-d') body = words[++i];
    else if (w.startsWith('-')) continue;
    else url = w;
  }
  if (!url) throw new Error(`no URL in ${command}`);
  return { method: method ?? (body === undefined ? 'GET' : 'POST'), url, headers, body };
}

/** The response of `method path` answering `status`: whether it is declared, and its `contentType` schema. */
function responseSchema(
  doc: OpenApiDocument,
  method: string,
  path: string,
  status: number,
  contentType: string,
): { schema: Schema | undefined; declared: boolean } | undefined {
  for (const [template, operations] of Object.entries(doc.paths)) {
    const pattern = new RegExp(`^${template.replace(/\{[^}]+\}/g, '[^/]+')}$`);
    if (!pattern.test(path)) continue;
    const operation = operations[method.toLowerCase()] as
      { responses: Record<string, { content?: Record<string, { schema?: Schema }> }> } | undefined;
    if (!operation) continue;
    const response = operation.responses[String(status)];
    return { schema: response?.content?.[contentType]?.schema, declared: response !== undefined };
  }
  return undefined;
}

let mon: ChildService | undefined;
let gas: ChildService | undefined;
const vars: Record<string, string> = {};
const documents: Record<string, OpenApiDocument> = {};

/** Starts `entry` as `pnpm start` does, on a free port; resolves with its base URL. */
const startService = (name: string, entry: string): Promise<[ChildService, string]> =>
  startListeningService(
    name,
    entry,
    {
      LOG_LEVEL: 'info',
      NODE_OPTIONS: '',
      // The embedded defaults of a fresh clone: no database, no Redis, no metrics port.
      DATABASE_URL: '',
      DATABASE_READ_URLS: '',
      REDIS_URL: '',
      METRICS_PORT: '',
    },
    START_TIMEOUT_MS,
  );

beforeAll(async () => {
  const [[monChild, monUrl], [gasChild, gasUrl]] = await Promise.all([
    startService('monitoring-api', monitoringApiEntry('main.js')),
    startService('gas-quote-api', gasQuoteApiEntry()),
  ]);
  [mon, gas] = [monChild, gasChild];
  Object.assign(vars, { MON: monUrl, GAS: gasUrl });
  for (const url of [monUrl, gasUrl]) {
    documents[url] = (await (await fetch(`${url}/openapi.json`)).json()) as OpenApiDocument;
  }
}, START_TIMEOUT_MS + 10_000);

afterAll(async () => {
  await Promise.all([mon?.stop(), gas?.stop()]);
});

/** The body of the page's `POST /users/verify`, with a live nonce signed by a key this test holds. */
async function signedVerifyBody(pageBody: string): Promise<string> {
  const fields = JSON.parse(pageBody) as Record<string, string>;
  const account = privateKeyToAccount(generatePrivateKey());
  const query = new URLSearchParams({
    username: fields.username!,
    address: account.address,
    chain_type: 'evm',
  });
  const res = await fetch(`${vars.MON}/users/messages?${query.toString()}`);
  expect(res.status).toBe(200);
  const { message } = (await res.json()) as { message: string };
  const signature = await account.signMessage({ message });
  return JSON.stringify({ ...fields, address: account.address, message, signature });
}

/** The identity body of an answer sent with `coding` (curl without --compressed keeps it coded). */
function decode(body: Buffer, coding: string | undefined): string {
  const decoded =
    coding === 'br'
      ? brotliDecompressSync(body)
      : coding === 'gzip'
        ? gunzipSync(body)
        : coding === 'deflate'
          ? inflateSync(body)
          : body;
  return decoded.toString('utf8');
}

/**
 * Sends a request as curl does: exactly the given headers plus curl's defaults (`Accept: *\/*`,
 * a curl User-Agent), nothing a browser-like client adds (`fetch` adds `Cache-Control: no-cache`
 * to a conditional request, Fetch standard "HTTP-network-or-cache fetch", which turns a 304 into
 * a 200).
 */
function curlLike(
  method: string,
  url: string,
  headers: Record<string, string>,
  body: string | undefined,
): Promise<{ status: number; contentType: string; text: string }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      url,
      {
        method,
        headers: {
          Accept: '*/*',
          'User-Agent': 'curl/8',
          ...headers,
          ...(body === undefined ? {} : { 'Content-Length': Buffer.byteLength(body) }),
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('error', reject);
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            contentType: (res.headers['content-type'] ?? '').split(';')[0]!.trim(),
            text: decode(Buffer.concat(chunks), res.headers['content-encoding']),
          }),
        );
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

describe('docs/api.md curl commands against pnpm start', () => {
  const curls = docCurls(readFileSync(API_MD, 'utf8'));

  it('finds the page examples', () => {
    expect(curls.length).toBeGreaterThan(30);
  });

  it.each(curls.map((c) => [`api.md:${c.line} ${c.command.split('\n')[0]}`, c] as const))(
    '%s',
    async (_name, curl) => {
      const request = curlRequest(curl.command, vars);
      const body =
        request.method === 'POST' && request.url.endsWith('/users/verify') && request.body
          ? await signedVerifyBody(request.body)
          : request.body;
      const res = await curlLike(request.method, request.url, request.headers, body);
      const text = res.text;
      const contentType = res.contentType;
      const where = `api.md:${curl.line} answered ${res.status} ${text.slice(0, 300)}`;
      expect({ where, status: res.status }).toEqual({ where, status: curl.status });
      const body_ = text === '' ? undefined : (JSON.parse(text) as unknown);
      if (curl.code !== undefined) {
        expect({ where, code: (body_ as { code?: unknown }).code }).toEqual({
          where,
          code: curl.code,
        });
      }
      const base = Object.keys(documents).find((u) => request.url.startsWith(u))!;
      const doc = documents[base]!;
      const path = new URL(request.url).pathname;
      const operation = responseSchema(doc, request.method, path, res.status, contentType);
      expect({ where, declared: operation?.declared }).toEqual({ where, declared: true });
      if (res.status === 304) return;
      expect({ where, schema: operation?.schema !== undefined }).toEqual({ where, schema: true });
      expect({ where, errors: schemaMismatch(doc, operation!.schema!, body_) }).toEqual({
        where,
        errors: undefined,
      });
      if (curl.example !== undefined) {
        const example = responseSchema(doc, request.method, path, 200, 'application/json');
        expect({ where, example: schemaMismatch(doc, example!.schema!, curl.example) }).toEqual({
          where,
          example: undefined,
        });
      }
    },
  );
});
