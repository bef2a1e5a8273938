/**
 * Bad input generated from a service's own OpenAPI document, sent over real HTTP, and the property
 * every answer must have: a 4xx RFC 9457 problem (`status` equal to the HTTP status, `code` from
 * ErrorCode) or a 2xx whose body the operation's response schema accepts; never a 5xx, never a
 * hang. The bad-input suite of each app (test/bad-input/openapi.int.test.ts) imports it.
 */
import { request as httpRequest, Agent, type IncomingHttpHeaders } from 'node:http';
import { maxHeaderSize } from 'node:http';
import {
  brotliCompressSync,
  brotliDecompressSync,
  deflateSync,
  gunzipSync,
  gzipSync,
  inflateSync,
} from 'node:zlib';
import fc from 'fast-check';
import { ErrorCode, PROBLEM_CONTENT_TYPE } from '@ctss/domain-types';

/** Default fast-check seed; `TEST_FUZZ_SEED` varies it. */
export const FUZZ_SEED = process.env.TEST_FUZZ_SEED ? Number(process.env.TEST_FUZZ_SEED) : 20261125;

/** Longest wait for one answer before the case counts as a hang (generous: the machine is shared). */
const REQUEST_TIMEOUT_MS = 15_000;

// ---------------------------------------------------------------------------------------------
// The document

/** A JSON schema object of the document (the subset zod-to-openapi writes). */
export type Schema = Record<string, unknown>;

/** One operation of the document with what the generators need. */
export interface Operation {
  method: string;
  path: string;
  params: Array<{ name: string; required: boolean; schema: Schema }>;
  /** Schema of an `application/json` request body, when the operation takes one. */
  body?: Schema;
  responses: Record<string, { content?: Record<string, { schema?: Schema }> }>;
}

/** The OpenAPI document as far as this file reads it. */
export interface OpenApiDocument {
  paths: Record<string, Record<string, Record<string, unknown>>>;
  components?: { schemas?: Record<string, Schema> };
}

/** Every operation of `doc` (query parameters, JSON body, responses). */
export function operationsOf(doc: OpenApiDocument): Operation[] {
  const ops: Operation[] = [];
  for (const [path, methods] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(methods)) {
      const params = ((op.parameters ?? []) as Array<Record<string, unknown>>)
        .filter((p) => p.in === 'query')
        .map((p) => ({
          name: String(p.name),
          required: p.required === true,
          schema: (p.schema ?? {}) as Schema,
        }));
      const content = (op.requestBody as { content?: Record<string, { schema?: Schema }> })
        ?.content;
      const body = content?.['application/json']?.schema;
      ops.push({
        method: method.toUpperCase(),
        path,
        params,
        ...(body ? { body } : {}),
        responses: (op.responses ?? {}) as Operation['responses'],
      });
    }
  }
  return ops;
}

/**
 * Checks `value` against a schema of the document: the keywords zod-to-openapi writes (`type`,
 * also as a 3.1 list, `nullable`, `enum`, `properties`, `required`, `additionalProperties`,
 * `items`, `anyOf`, `oneOf`, `allOf`, `$ref`, `minimum`, `maximum`, `minLength`, `maxLength`,
 * `pattern`, `format: date-time`). Returns the first mismatch, or undefined when it conforms.
 */
export function schemaMismatch(
  doc: OpenApiDocument,
  schema: Schema,
  value: unknown,
  at = '$',
): string | undefined {
  if (typeof schema.$ref === 'string') {
    const name = schema.$ref.replace('#/components/schemas/', '');
    const target = doc.components?.schemas?.[name];
    if (!target) return `${at}: unknown $ref ${schema.$ref}`;
    return schemaMismatch(doc, target, value, at);
  }
  if (value === null && schema.nullable === true) return undefined;
  for (const key of ['anyOf', 'oneOf'] as const) {
    const options = schema[key] as Schema[] | undefined;
    if (options && !options.some((s) => schemaMismatch(doc, s, value, at) === undefined)) {
      return `${at}: matches none of ${key}`;
    }
  }
  for (const part of (schema.allOf as Schema[] | undefined) ?? []) {
    const bad = schemaMismatch(doc, part, value, at);
    if (bad) return bad;
  }
  if (schema.enum && !(schema.enum as unknown[]).includes(value)) return `${at}: not in enum`;
  const types = schema.type === undefined ? [] : [schema.type].flat().map(String);
  if (types.length > 0 && !types.some((t) => hasType(t, value))) {
    return `${at}: not ${types.join('|')}`;
  }
  if (typeof value === 'number') {
    if (typeof schema.minimum === 'number' && value < schema.minimum) return `${at}: < minimum`;
    if (typeof schema.maximum === 'number' && value > schema.maximum) return `${at}: > maximum`;
  }
  if (typeof value === 'string') {
    if (typeof schema.minLength === 'number' && value.length < schema.minLength)
      return `${at}: shorter than minLength`;
    if (typeof schema.maxLength === 'number' && value.length > schema.maxLength)
      return `${at}: longer than maxLength`;
    if (typeof schema.pattern === 'string' && !new RegExp(schema.pattern, 'u').test(value))
      return `${at}: does not match ${schema.pattern}`;
    if (schema.format === 'date-time' && Number.isNaN(Date.parse(value)))
      return `${at}: not a date-time`;
  }
  if (Array.isArray(value) && schema.items) {
    for (const [i, item] of value.entries()) {
      const bad = schemaMismatch(doc, schema.items as Schema, item, `${at}[${i}]`);
      if (bad) return bad;
    }
  }
  if (typeof value === 'object' && value !== null && !Array.isArray(value)) {
    const record = value as Record<string, unknown>;
    for (const key of (schema.required as string[] | undefined) ?? []) {
      if (!(key in record)) return `${at}.${key}: required`;
    }
    const properties = (schema.properties ?? {}) as Record<string, Schema>;
    for (const [key, item] of Object.entries(record)) {
      const own = properties[key];
      const extra = schema.additionalProperties;
      const itemSchema = own ?? (typeof extra === 'object' ? (extra as Schema) : undefined);
      if (!own && extra === false) return `${at}.${key}: not allowed`;
      if (itemSchema) {
        const bad = schemaMismatch(doc, itemSchema, item, `${at}.${key}`);
        if (bad) return bad;
      }
    }
  }
  return undefined;
}

function hasType(type: string, value: unknown): boolean {
  switch (type) {
    case 'null':
      return value === null;
    case 'object':
      return typeof value === 'object' && value !== null && !Array.isArray(value);
    case 'array':
      return Array.isArray(value);
    case 'integer':
      return typeof value === 'number' && Number.isInteger(value);
    case 'number':
      return typeof value === 'number';
    default:
      return typeof value === type;
  }
}

// ---------------------------------------------------------------------------------------------
// Requests and the property

/** One generated request. */
export interface BadRequest {
  method: string;
  /** Path and query, already percent-encoded (ASCII only, as it goes on the request line). */
  target: string;
  headers: Record<string, string>;
  body?: Buffer;
  /** What was varied, for the failure report. */
  label: string;
}

/** One answer. */
export interface Answer {
  status: number;
  headers: IncomingHttpHeaders;
  text: string;
}

const agent = new Agent({ keepAlive: true, maxSockets: 8 });

/** Sends `req` to `base` (`http://host:port`); rejects on a transport error or after the timeout. */
export function send(base: string, req: BadRequest): Promise<Answer> {
  const url = new URL(base);
  return new Promise((resolve, reject) => {
    const out = httpRequest(
      {
        host: url.hostname,
        port: url.port,
        method: req.method,
        path: req.target,
        headers: {
          ...(req.body ? { 'Content-Length': String(req.body.length) } : {}),
          ...req.headers,
        },
        agent,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          try {
            resolve({
              status: res.statusCode ?? 0,
              headers: res.headers,
              text: decodeBody(Buffer.concat(chunks), res.headers['content-encoding']).toString(
                'utf8',
              ),
            });
          } catch (err) {
            reject(err instanceof Error ? err : new Error(String(err)));
          }
        });
        res.on('error', reject);
      },
    );
    out.setTimeout(REQUEST_TIMEOUT_MS, () =>
      out.destroy(new Error(`no answer within ${REQUEST_TIMEOUT_MS} ms (hang)`)),
    );
    out.on('error', reject);
    out.end(req.body);
  });
}

/**
 * The identity body of a response sent with `coding` (`gzip`, `br`, `deflate` or none).
 *
 * @throws the zlib error when the body does not decode as its Content-Encoding says.
 */
function decodeBody(body: Buffer, coding: string | undefined): Buffer {
  if (coding === 'gzip') return gunzipSync(body);
  if (coding === 'br') return brotliDecompressSync(body);
  if (coding === 'deflate') return inflateSync(body);
  return body;
}

/** Closes the shared keep-alive sockets. */
export function closeAgent(): void {
  agent.destroy();
}

/** Whether the request line and headers exceed Node's header limit (answered by the HTTP parser). */
function exceedsHeaderLimit(req: BadRequest): boolean {
  const headerBytes = Object.entries(req.headers).reduce(
    (n, [k, v]) => n + k.length + v.length + 4,
    0,
  );
  return req.target.length + headerBytes + 200 > maxHeaderSize;
}

/**
 * The property: throws (with the request and the answer) unless the answer is a 4xx problem body
 * or a 2xx the operation's response schema accepts. A request beyond Node's header limit
 * (`maxHeaderSize`, 16 KiB) is answered by the HTTP parser before the app: there it must be a 431
 * (with a problem body when it has a body at all).
 */
export function checkAnswer(
  doc: OpenApiDocument,
  op: Operation | undefined,
  req: BadRequest,
  answer: Answer,
): void {
  const fail = (why: string): never => {
    throw new Error(
      `${why}\n  case: ${req.label}\n  request: ${req.method} ${req.target.slice(0, 300)} ${JSON.stringify(req.headers)} body ${req.body ? `${req.body.length} bytes: ${req.body.subarray(0, 200).toString('latin1')}` : 'none'}\n  answer: ${answer.status} ${String(answer.headers['content-type'])} ${answer.text.slice(0, 500)}`,
    );
  };
  const { status } = answer;
  if (status === 304) {
    // A conditional GET (If-None-Match) of an operation that documents 304: no body, a validator.
    if (!op?.responses['304']) fail('304 from an operation that does not document it');
    if (req.headers['If-None-Match'] === undefined) fail('304 without If-None-Match');
    if (answer.text.length > 0 || answer.headers.etag === undefined) {
      fail('304 with a body or without an ETag');
    }
    return;
  }
  if (status >= 200 && status < 300) {
    if (!op) fail('2xx for a request outside the document');
    const content = op!.responses[String(status)]?.content;
    if (!op!.responses[String(status)]) fail(`status ${status} is not in the document`);
    const schema = content?.['application/json']?.schema;
    if (!schema) return;
    let body: unknown;
    try {
      body = JSON.parse(answer.text);
    } catch {
      fail('2xx body is not JSON');
    }
    const bad = schemaMismatch(doc, schema, body);
    if (bad) fail(`2xx body does not match the response schema: ${bad}`);
    return;
  }
  if (status === 431 && exceedsHeaderLimit(req) && answer.text.length === 0) return;
  if (status < 400 || status >= 500) fail(`status ${status} is neither 2xx nor 4xx`);
  if (!String(answer.headers['content-type']).startsWith(PROBLEM_CONTENT_TYPE)) {
    fail('4xx without an application/problem+json body');
  }
  let problem: { status?: unknown; code?: unknown };
  try {
    problem = JSON.parse(answer.text) as typeof problem;
  } catch {
    return fail('4xx problem body is not JSON');
  }
  if (problem.status !== status) fail('problem status differs from the HTTP status');
  if (!ErrorCode.safeParse(problem.code).success) fail('problem code is not an ErrorCode');
}

// ---------------------------------------------------------------------------------------------
// Values

/**
 * Percent-encodes `text` as UTF-8, and a lone surrogate as the three bytes a UTF-8 encoder would
 * give its code point (invalid UTF-8, e.g. `%ED%A0%80`), which `encodeURIComponent` refuses.
 */
export function encodeText(text: string): string {
  let out = '';
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    const next = text.charCodeAt(i + 1);
    if (unit >= 0xd800 && unit <= 0xdbff && next >= 0xdc00 && next <= 0xdfff) {
      out += encodeURIComponent(text.slice(i, i + 2));
      i++;
    } else if (unit >= 0xd800 && unit <= 0xdfff) {
      out +=
        `%${(0xe0 | (unit >> 12)).toString(16)}%${(0x80 | ((unit >> 6) & 0x3f)).toString(16)}%${(0x80 | (unit & 0x3f)).toString(16)}`.toUpperCase();
    } else {
      out += encodeURIComponent(text[i]!);
    }
  }
  return out;
}

/** A query value: `text` (percent-encoded when sent) or `raw` (sent as written). */
export type QueryValue = { text: string } | { raw: string };

const t = (text: string): QueryValue => ({ text });
const r = (raw: string): QueryValue => ({ raw });

/** The fixed catalogue of bad values tried for every parameter of every operation. */
export const VALUE_CATALOGUE: Array<{ kind: string; value: QueryValue }> = [
  ...['', 'true', 'false', 'null', 'undefined', '[]', '{}', 'NaN', 'Infinity', '-Infinity'].map(
    (v) => ({ kind: 'wrong type', value: t(v) }),
  ),
  ...[
    '0',
    '-1',
    '-0',
    '4294967295',
    '4294967296',
    '9007199254740991',
    '9007199254740992',
    '18446744073709551615',
    '18446744073709551616',
    '9'.repeat(400),
    '1'.repeat(5000),
  ].map((v) => ({ kind: 'boundary', value: t(v) })),
  ...['1.5', '0.0', '1e3', '1E+3', '-1e-7', '0x10', '0X1f', '0b1', '0o7', '1_000', '1,000'].map(
    (v) => ({ kind: 'float/exponent/hex', value: t(v) }),
  ),
  ...['007', '00', ' 1', '1 ', '\t1', '+1', '+0', '\u00a01', '1\n'].map((v) => ({
    kind: 'leading zeros/whitespace/sign',
    value: t(v),
  })),
  ...['%201', '1%20', '+1', '%2B1', '%', '%zz', '%E0%A4', '%C0%AF', '%FF'].map((v) => ({
    kind: 'raw encoding',
    value: r(v),
  })),
  ...[
    '😀',
    '\u202eevil',
    'e\u0301\u0301\u0301',
    '１２３',
    '١٢٣',
    '\ufeff0',
    '\u200b',
    '\ud800',
    '\udfff',
    'a\ud83d',
  ].map((v) => ({ kind: 'unicode', value: t(v) })),
  ...['%ED%A0%80', '%ED%BF%BF', 'a%ED%A0%BDb'].map((v) => ({
    kind: 'lone surrogate (percent-encoded)',
    value: r(v),
  })),
  ...['\u0000', 'a\u0000b', 'alice\u0000.ctss', '\u0001\u001f\u007f', '\r\nX-Injected: 1'].map(
    (v) => ({ kind: 'NUL/control', value: t(v) }),
  ),
  ...['%00', 'a%00', '%0d%0aSet-Cookie:%20x=1'].map((v) => ({ kind: 'NUL/CRLF raw', value: r(v) })),
  ...[
    "' OR '1'='1",
    '1; DROP TABLE users;--',
    "1' UNION SELECT NULL--",
    '%',
    '_',
    '\\',
    "\\'",
    '{"$gt":""}',
    '{"$ne":null}',
    '../../etc/passwd',
    '..%2f..%2fetc%2fpasswd',
    '<script>alert(1)</script>',
    '${jndi:ldap://x}',
    '*',
    'a.eth',
    'x.sol',
  ].map((v) => ({ kind: 'injection', value: t(v) })),
  ...[
    '0_0',
    '-1_1',
    '1_-1',
    '253402300800_1',
    '1700000000_9223372036854775807',
    '1700000000_9223372036854775808',
    '1700000000_' + '9'.repeat(30),
    '1e3_1',
    '0x10_0x10',
    '1_1_1',
    '_',
    ',',
    ',,,,',
    '0x52908400098527886e0f7030069857d2e4169ee7,' + '9'.repeat(300),
    'a,'.repeat(60),
    '0x52908400098527886e0f7030069857d2e4169ee7_evm',
    '0x52908400098527886E0F7030069857D2E4169EE7_EVM',
    '0xZZ908400098527886e0f7030069857d2e4169ee7_evm',
    '11111111111111111111111111111111_sol',
    '0x' + '0'.repeat(64) + '_aptos',
    '0x' + 'f'.repeat(64) + '_sui',
    '\u0000_evm',
    '_evm',
    'a_unknownchain',
    '0x52908400098527886e0f7030069857d2e4169ee7_evm,'.repeat(25),
  ].map((v) => ({ kind: 'compound', value: t(v) })),
  { kind: 'long', value: t('a'.repeat(10_000)) },
  { kind: 'long', value: t('0'.repeat(12_000)) },
  { kind: 'long', value: t('a'.repeat(100_000)) },
];

/** Arbitrary bad query values (fast-check): each category above plus generated strings. */
export const badValue: fc.Arbitrary<QueryValue> = fc.oneof(
  fc.constantFrom(...VALUE_CATALOGUE.map((c) => c.value)),
  fc.string({ unit: 'binary', maxLength: 40 }).map(t),
  fc.string({ unit: 'grapheme', maxLength: 20 }).map(t),
  fc.bigInt({ min: -(2n ** 70n), max: 2n ** 70n }).map((n) => t(n.toString())),
  fc.double().map((d) => t(String(d))),
  fc
    .tuple(
      fc.constantFrom('', '+', '-', ' ', '0', '00'),
      fc.nat(),
      fc.constantFrom('', ' ', '.0', 'e1'),
    )
    .map(([a, n, b]) => t(`${a}${n}${b}`)),
  fc.integer({ min: 0, max: 31 }).map((c) => t(`x${String.fromCharCode(c)}y`)),
  fc.integer({ min: 0xd800, max: 0xdfff }).map((c) => t(String.fromCharCode(c))),
  fc.integer({ min: 10_000, max: 100_000 }).map((n) => t('9'.repeat(n))),
);

/** Shapes of a query around one parameter: repetition, brackets, prototype keys, unknown names. */
export function shapedQueries(name: string, good: string): string[] {
  const v = encodeText(good);
  const n = encodeURIComponent(name);
  return [
    `${n}=${v}&${n}=${v}`,
    `${n}=${v}&${n}=x`,
    `${n}[]=${v}`,
    `${n}%5B%5D=${v}`,
    `${n}[0]=${v}`,
    `${n}[a]=${v}`,
    `${n}`,
    `${n}=`,
    `${n}==`,
    `${n}=${v}&__proto__[x]=1`,
    `__proto__[${n}]=1`,
    `constructor[prototype][${n}]=1`,
    `__proto__=1`,
    `constructor=1`,
    `hasOwnProperty=1`,
    `toString=1`,
    `${n.toUpperCase()}=${v}`,
    `%20${n}=${v}`,
    `${n}%00=${v}`,
    `unknown_param=1`,
    `&&&`,
    `=&=`,
    `a=1&`.repeat(500),
  ];
}

/** The query string of `values` (already-encoded `raw` values kept as written). */
export function queryString(values: Record<string, QueryValue | undefined>): string {
  const parts = Object.entries(values)
    .filter((e): e is [string, QueryValue] => e[1] !== undefined)
    .map(([k, v]) => `${encodeURIComponent(k)}=${'raw' in v ? v.raw : encodeText(v.text)}`);
  return parts.join('&');
}

// ---------------------------------------------------------------------------------------------
// Bodies

/** A body case: bytes and the headers that go with them. */
export interface BodyCase {
  label: string;
  headers: Record<string, string>;
  body: Buffer;
}

const JSON_TYPE = 'application/json';

function nested(depth: number, open: string, close: string): string {
  return open.repeat(depth) + close.repeat(depth);
}

/**
 * Content types sent with the operation's valid JSON body, by case label: JSON-like types other than
 * `application/json`, charsets other than UTF-8 or malformed ones, a type list, a wildcard, none.
 */
const OTHER_JSON_CONTENT_TYPES: readonly (readonly [label: string, contentType: string])[] = [
  ['json-ish type', 'application/jsonx'],
  ['+json type', 'application/vnd.api+json'],
  ['latin1 charset', 'application/json; charset=latin1'],
  ['unknown charset', 'application/json; charset=x-unknown'],
  ['utf-16 charset', 'application/json; charset=utf-16'],
  ['utf-32 charset', 'application/json; charset=utf-32'],
  ['empty charset', 'application/json; charset='],
  ['broken type', 'application/json;;;=='],
  ['unterminated quoted charset', 'application/json; charset="utf-8'],
  ['two charsets', 'application/json; charset=utf-8; charset=latin1'],
  ['type list', 'application/json, text/plain'],
  ['wildcard type', '*/*'],
  ['no type', ''],
];

/** The fixed catalogue of bad bodies, given one valid-looking JSON object of the operation. */
export function bodyCatalogue(good: Record<string, unknown>, limitBytes: number): BodyCase[] {
  const json = Buffer.from(JSON.stringify(good));
  const raw = (label: string, text: string | Buffer, type = JSON_TYPE): BodyCase => ({
    label,
    headers: { 'Content-Type': type },
    body: typeof text === 'string' ? Buffer.from(text) : text,
  });
  const encoded = (label: string, encoding: string, body: Buffer): BodyCase => ({
    label,
    headers: { 'Content-Type': JSON_TYPE, 'Content-Encoding': encoding },
    body,
  });
  const withField = (key: string, jsonValue: string) =>
    JSON.stringify({ ...good, [key]: '__X__' }).replace('"__X__"', jsonValue);
  const fields = Object.keys(good);
  return [
    ...[
      '',
      ' ',
      'null',
      'true',
      '1',
      '-1e999',
      '"text"',
      '[]',
      '[{}]',
      '[' + JSON.stringify(good) + ']',
    ].map((b) => raw(`not an object: ${b}`, b)),
    ...[
      '{',
      '{"a":',
      "{'a':1}",
      '{"a":1,}',
      'undefined',
      'NaN',
      '<xml/>',
      '\u0000',
      '{"a":"\u0000"}',
      '\ufeff{}',
    ].map((b) => raw(`not JSON: ${b}`, b)),
    raw(
      'raw NUL inside a JSON string',
      Buffer.concat([Buffer.from('{"username":"a'), Buffer.from([0]), Buffer.from('b"}')]),
    ),
    raw(
      'invalid UTF-8 bytes',
      Buffer.from([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xff, 0xfe, 0x22, 0x7d]),
    ),
    raw('nested arrays', nested(5_000, '[', ']')),
    raw('nested objects', nested(3_000, '{"a":', '}')),
    raw('nested arrays beyond the limit', nested(limitBytes, '[', ']')),
    raw('oversized', JSON.stringify({ ...good, pad: 'x'.repeat(limitBytes + 1) })),
    raw('oversized 200 kB', JSON.stringify({ ...good, pad: 'x'.repeat(200_000) })),
    raw('text/plain', json, 'text/plain'),
    raw('form', 'username=a&address=b', 'application/x-www-form-urlencoded'),
    raw('multipart', '--x\r\n\r\n--x--', 'multipart/form-data; boundary=x'),
    ...OTHER_JSON_CONTENT_TYPES.map(([label, type]) => raw(label, json, type)),
    encoded('gzip header, plain bytes', 'gzip', json),
    encoded('deflate header, plain bytes', 'deflate', json),
    encoded('br header, plain bytes', 'br', json),
    encoded('zstd header, plain bytes', 'zstd', json),
    encoded('x-unknown encoding', 'x-unknown', json),
    encoded('two encodings', 'gzip, gzip', gzipSync(gzipSync(json))),
    encoded('identity', 'identity', json),
    encoded('valid gzip', 'gzip', gzipSync(json)),
    encoded('valid deflate', 'deflate', deflateSync(json)),
    encoded('valid br', 'br', brotliCompressSync(json)),
    encoded('truncated gzip', 'gzip', gzipSync(json).subarray(0, 12)),
    encoded('gzip bomb', 'gzip', gzipSync(Buffer.alloc(5_000_000, 0x20))),
    encoded('gzip of invalid JSON', 'gzip', gzipSync(Buffer.from('{"a":'))),
    ...fields.flatMap((key) => [
      raw(`${key}: NUL`, withField(key, '"a\\u0000b"')),
      raw(`${key}: lone high surrogate`, withField(key, '"a\\ud800b"')),
      raw(`${key}: lone low surrogate`, withField(key, '"\\udc00"')),
      raw(`${key}: null`, withField(key, 'null')),
      raw(`${key}: number`, withField(key, '1e308')),
      raw(`${key}: array`, withField(key, '["a"]')),
      raw(`${key}: object`, withField(key, '{"$ne":null}')),
      raw(`${key}: long`, withField(key, JSON.stringify('a'.repeat(10_000)))),
    ]),
    raw('__proto__ key', JSON.stringify(good).replace('{', '{"__proto__":{"polluted":1},')),
    raw(
      'constructor key',
      JSON.stringify(good).replace('{', '{"constructor":{"prototype":{"x":1}},'),
    ),
    raw('NUL key', JSON.stringify(good).replace('{', '{"a\\u0000":1,')),
    raw('duplicate keys', JSON.stringify(good).replace('{', `{"${fields[0] ?? 'a'}":1,`)),
  ];
}

/** Arbitrary bad bodies: the catalogue plus generated JSON, text and field values. */
export function badBody(good: Record<string, unknown>, limitBytes: number): fc.Arbitrary<BodyCase> {
  const keys = Object.keys(good);
  const jsonCase = (label: string) => (text: string) =>
    ({ label, headers: { 'Content-Type': JSON_TYPE }, body: Buffer.from(text) }) as BodyCase;
  return fc.oneof(
    fc.constantFrom(...bodyCatalogue(good, limitBytes)),
    fc.jsonValue().map((v) => jsonCase('generated JSON')(JSON.stringify(v) ?? 'null')),
    fc.string({ unit: 'binary', maxLength: 200 }).map(jsonCase('generated text')),
    fc
      .tuple(fc.constantFrom(...keys), fc.jsonValue())
      .map(([key, v]) => jsonCase(`field ${key}`)(JSON.stringify({ ...good, [key]: v }))),
    fc
      .tuple(fc.constantFrom(...keys), fc.string({ unit: 'binary', maxLength: 60 }))
      .map(([key, v]) => jsonCase(`field ${key} text`)(JSON.stringify({ ...good, [key]: v }))),
    fc
      .tuple(fc.constantFrom(...keys), fc.integer({ min: 0xd800, max: 0xdfff }))
      .map(([key, c]) =>
        jsonCase(`field ${key} surrogate`)(
          JSON.stringify({ ...good, [key]: 'x' }).replace('"x"', `"\\u${c.toString(16)}"`),
        ),
      ),
    fc
      .dictionary(fc.string({ maxLength: 8 }), fc.jsonValue({ maxDepth: 2 }))
      .map((extra) => jsonCase('extra fields')(JSON.stringify({ ...extra, ...good }))),
  );
}

// ---------------------------------------------------------------------------------------------
// The run

/** What a run needs to know about one operation beyond the document. */
export interface OperationFixture {
  /** Query parameters of a valid request (texts, encoded when sent). */
  query?: Record<string, string>;
  /** Path parameters (`{name}` in the path) of a valid request (texts, encoded when sent). */
  path?: Record<string, string>;
  /** A valid-looking JSON body for operations that take one. */
  body?: Record<string, unknown>;
  /** The valid request is answered 2xx (checked before and after the bad input). */
  expect2xx?: boolean;
}

/** Options of {@link fuzzOperation}. */
export interface FuzzOptions {
  base: string;
  doc: OpenApiDocument;
  /** fast-check runs of generated cases for this operation (on top of the fixed catalogue). */
  numRuns: number;
  /** The JSON body limit of the app, in bytes. */
  bodyLimitBytes: number;
  /** Requests in flight at once during the catalogue sweep. */
  concurrency?: number;
  /** App-specific bad values tried for every parameter too (e.g. around a configured suffix). */
  extraValues?: string[];
}

/** Sends `req` and checks the answer (the property); resolves to 1 for counting. */
async function sendAndCheck(
  opts: FuzzOptions,
  op: Operation | undefined,
  req: BadRequest,
): Promise<number> {
  let answer: Answer;
  try {
    answer = await send(opts.base, req);
  } catch (err) {
    throw new Error(
      `${(err as Error).message}\n  case: ${req.label}\n  request: ${req.method} ${req.target.slice(0, 300)}`,
      { cause: err },
    );
  }
  checkAnswer(opts.doc, op, req, answer);
  return 1;
}

/** Runs `requests` with at most `concurrency` in flight; resolves to how many were checked. */
async function sweep(opts: FuzzOptions, op: Operation, requests: BadRequest[]): Promise<number> {
  let next = 0;
  let count = 0;
  const worker = async () => {
    while (next < requests.length) {
      const req = requests[next++]!;
      const checked = await sendAndCheck(opts, op, req);
      count += checked;
    }
  };
  await Promise.all(Array.from({ length: opts.concurrency ?? 8 }, worker));
  return count;
}

/** The request target of `op`: its path with the `{name}` parameters of `path` (encoded), and `query`. */
function targetOf(
  op: Operation,
  query: string,
  path: Record<string, QueryValue | undefined> = {},
): string {
  const filled = op.path.replace(/\{([^}]+)\}/g, (whole, name: string) => {
    const value = path[name];
    if (value === undefined) return whole;
    return 'raw' in value ? value.raw : encodeText(value.text);
  });
  return query ? `${filled}?${query}` : filled;
}

/** The path parameters of a fixture as values. */
const pathOf = (fixture: OperationFixture): Record<string, QueryValue | undefined> =>
  toValues(fixture.path ?? {});

/** The valid request of `op` with `fixture`. */
export function validRequest(op: Operation, fixture: OperationFixture): BadRequest {
  const query = queryString(
    Object.fromEntries(Object.entries(fixture.query ?? {}).map(([k, v]) => [k, { text: v }])),
  );
  return {
    method: op.method,
    target: targetOf(op, query, pathOf(fixture)),
    headers: fixture.body ? { 'Content-Type': JSON_TYPE } : {},
    ...(fixture.body ? { body: Buffer.from(JSON.stringify(fixture.body)) } : {}),
    label: 'valid request',
  };
}

/**
 * Checks that the valid request of `op` is answered as the property demands (and 2xx when the
 * fixture says so); resolves to 1 for counting.
 */
export async function checkValid(
  opts: FuzzOptions,
  op: Operation,
  fixture: OperationFixture,
): Promise<number> {
  const req = validRequest(op, fixture);
  const answer = await send(opts.base, req);
  checkAnswer(opts.doc, op, req, answer);
  if (fixture.expect2xx && (answer.status < 200 || answer.status >= 300)) {
    throw new Error(
      `valid request ${req.method} ${req.target} answered ${answer.status}: ${answer.text.slice(0, 300)}`,
    );
  }
  return 1;
}

/**
 * Every bad-input case of one operation: the value catalogue for each parameter (and an unknown
 * one), the query shapes, the body catalogue, then `numRuns` fast-check cases mixing them; then
 * the valid request again. Resolves to the number of requests checked; rejects on the first
 * answer that breaks the property (fast-check reports the seed and the shrunk case).
 */
export async function fuzzOperation(
  opts: FuzzOptions,
  op: Operation,
  fixture: OperationFixture,
): Promise<number> {
  let count = await checkValid(opts, op, fixture);
  const good = fixture.query ?? {};
  const names = [...op.params.map((p) => p.name), 'unknown_param'];
  const withBody = (req: Omit<BadRequest, 'headers'>): BadRequest =>
    fixture.body
      ? {
          ...req,
          headers: { 'Content-Type': JSON_TYPE },
          body: Buffer.from(JSON.stringify(fixture.body)),
        }
      : { ...req, headers: {} };
  const requests: BadRequest[] = [];
  for (const name of names) {
    const extra = (opts.extraValues ?? []).map((v) => ({ kind: 'app-specific', value: t(v) }));
    for (const { kind, value } of [...VALUE_CATALOGUE, ...extra]) {
      const query = queryString({ ...toValues(good), [name]: value });
      requests.push(
        withBody({
          method: op.method,
          target: targetOf(op, query, pathOf(fixture)),
          label: `${name}: ${kind}`,
        }),
      );
    }
    const others = queryString(
      toValues(Object.fromEntries(Object.entries(good).filter(([k]) => k !== name))),
    );
    for (const shaped of shapedQueries(name, good[name] ?? '1')) {
      const query = others ? `${others}&${shaped}` : shaped;
      requests.push(
        withBody({
          method: op.method,
          target: targetOf(op, query, pathOf(fixture)),
          label: `${name}: shape ${shaped.slice(0, 40)}`,
        }),
      );
    }
  }
  const goodQuery = queryString(toValues(good));
  // Each path parameter with every catalogue value, the other parameters valid.
  for (const name of Object.keys(fixture.path ?? {})) {
    for (const { kind, value } of VALUE_CATALOGUE) {
      const path = { ...pathOf(fixture), [name]: value };
      requests.push(
        withBody({
          method: op.method,
          target: targetOf(op, goodQuery, path),
          label: `path ${name}: ${kind}`,
        }),
      );
    }
  }
  // Headers and unexpected bodies meet the app-wide middleware only: sent once per run.
  const appWide = !fixture.body && !appWideDone.has(opts);
  if (appWide) appWideDone.add(opts);
  for (const [name, value] of appWide ? HEADER_CASES : []) {
    const req = withBody({
      method: op.method,
      target: targetOf(op, goodQuery, pathOf(fixture)),
      label: `header ${name}`,
    });
    requests.push({ ...req, headers: { ...req.headers, [name]: value } });
  }
  if (fixture.body) {
    for (const c of bodyCatalogue(fixture.body, opts.bodyLimitBytes)) {
      requests.push({
        method: op.method,
        target: targetOf(op, goodQuery, pathOf(fixture)),
        headers: c.headers,
        body: c.body,
        label: `body: ${c.label}`,
      });
    }
  } else if (appWide) {
    // A body where none is expected still goes through the body parser.
    for (const c of bodyCatalogue({ a: 'b' }, opts.bodyLimitBytes).filter(
      (c) => c.headers['Content-Encoding'] || c.label.startsWith('not JSON'),
    )) {
      requests.push({
        method: op.method,
        target: targetOf(op, goodQuery, pathOf(fixture)),
        headers: c.headers,
        body: c.body,
        label: `unexpected body: ${c.label}`,
      });
    }
  }
  count += await sweep(opts, op, requests);

  const values = opts.extraValues?.length
    ? fc.oneof(badValue, fc.constantFrom(...opts.extraValues).map(t))
    : badValue;
  const mutation = fc.array(fc.tuple(fc.constantFrom(...names), values), {
    minLength: 1,
    maxLength: 3,
  });
  const bodyArb = fixture.body
    ? badBody(fixture.body, opts.bodyLimitBytes)
    : fc.constant(undefined);
  await fc.assert(
    fc.asyncProperty(
      mutation,
      fc.subarray(Object.keys(good)),
      bodyArb,
      async (changes, dropped, bodyCase) => {
        const values: Record<string, QueryValue | undefined> = toValues(good);
        for (const name of dropped) values[name] = undefined;
        for (const [name, value] of changes) values[name] = value;
        const query = queryString(values);
        const req: BadRequest = bodyCase
          ? {
              method: op.method,
              target: targetOf(op, query, pathOf(fixture)),
              headers: bodyCase.headers,
              body: bodyCase.body,
              label: `generated, body: ${bodyCase.label}`,
            }
          : withBody({
              method: op.method,
              target: targetOf(op, query, pathOf(fixture)),
              label: 'generated',
            });
        const checked = await sendAndCheck(opts, op, req);
        count += checked;
      },
    ),
    { numRuns: opts.numRuns, seed: FUZZ_SEED, endOnFailure: true },
  );
  count += await checkValid(opts, op, fixture);
  return count;
}

/** The runs whose app-wide cases (headers, unexpected bodies) were sent already. */
const appWideDone = new WeakSet<FuzzOptions>();

/** Odd request headers the app reads or passes to its middleware (CORS, rate limit, API key). */
const HEADER_CASES: Array<[string, string]> = [
  ['X-API-Key', ''],
  ['X-API-Key', ' '],
  ['X-API-Key', 'a'.repeat(8_000)],
  ['X-API-Key', "' OR 1=1 --"],
  ['Origin', 'null'],
  ['Origin', 'http://'],
  ['Origin', 'https://evil.example'],
  ['X-Forwarded-For', 'not-an-ip, 999.999.999.999, ::ffff:1.2.3.4'],
  ['Forwarded', 'for=" unterminated'],
  ['Accept', 'application/xml'],
  ['Accept', '*/*;q=abc'],
  ['Accept-Encoding', 'gzip;q=x, br, x-unknown'],
  ['Range', 'bytes=0-1'],
  ['If-None-Match', '*'],
  ['If-Modified-Since', 'not a date'],
  ['Content-Type', 'application/json'],
  ['Cookie', '__proto__=1; constructor=2'],
];

function toValues(query: Record<string, string>): Record<string, QueryValue | undefined> {
  return Object.fromEntries(Object.entries(query).map(([k, v]) => [k, { text: v }]));
}

/** Requests outside the document: unknown paths and methods, which must be 4xx problems too. */
export async function fuzzOutsideDocument(opts: FuzzOptions): Promise<number> {
  const ops = operationsOf(opts.doc);
  const requests: Array<{ op?: Operation; req: BadRequest }> = [];
  for (const path of Object.keys(opts.doc.paths)) {
    for (const method of ['PUT', 'DELETE', 'PATCH']) {
      requests.push({ req: { method, target: path, headers: {}, label: `method ${method}` } });
    }
    // Express matches a trailing slash loosely, so these may reach the operation itself.
    const op = ops.find((o) => o.path === path && o.method === 'GET');
    for (const suffix of ['/', '/x', '%00', '/..%2f..%2fetc%2fpasswd', '%2e%2e', '//', '.json']) {
      requests.push({
        ...(op ? { op } : {}),
        req: { method: 'GET', target: `${path}${suffix}`, headers: {}, label: `path ${suffix}` },
      });
    }
  }
  for (const target of [
    '/%ED%A0%80',
    '/%',
    '/%zz',
    '/__proto__',
    '/constructor/prototype',
    '/' + 'a'.repeat(5000),
  ]) {
    requests.push({
      req: { method: 'GET', target, headers: {}, label: `path ${target.slice(0, 20)}` },
    });
  }
  let count = 0;
  for (const { op, req } of requests) count += await sendAndCheck(opts, op, req);
  return count;
}
