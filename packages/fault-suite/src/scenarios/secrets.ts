/**
 * Scenario 5: no signer key (ECDSA or Ed25519, in hex, base64 or base58, seed or 64-byte keypair),
 * database password or Redis password appears in any log line of any process, and every line the
 * services wrote (every log but redis-server's and PostgreSQL's) is one JSON object.
 */
import { createPrivateKey, createPublicKey } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { base58 } from '@scure/base';
import { check, figure } from '../report.js';
import {
  DB_PASSWORD,
  LOG_DIR,
  REDIS_PASSWORD,
  SIGNER_ECDSA_PRIVATE_KEY,
  SIGNER_ED25519_SEED_HEX,
} from '../settings.js';

const NAME = '5 secrets in logs';

/** Every textual form of the secrets the suite gave the services, with a name for each. */
function secretForms(): Map<string, string> {
  const ecdsa = Buffer.from(SIGNER_ECDSA_PRIVATE_KEY.slice(2), 'hex');
  const seed = Buffer.from(SIGNER_ED25519_SEED_HEX, 'hex');
  // PKCS#8 prefix of an Ed25519 private key (RFC 8410), to derive the public half with node:crypto.
  const der = Buffer.concat([Buffer.from('302e020100300506032b657004220420', 'hex'), seed]);
  const pub = createPublicKey(createPrivateKey({ key: der, format: 'der', type: 'pkcs8' }))
    .export({ format: 'der', type: 'spki' })
    .subarray(-32);
  const keypair = Buffer.concat([seed, pub]);
  const forms = new Map<string, string>();
  for (const [name, bytes] of [
    ['ECDSA key', ecdsa],
    ['Ed25519 seed', seed],
    ['Ed25519 keypair', keypair],
  ] as const) {
    forms.set(`${name} hex`, bytes.toString('hex'));
    forms.set(`${name} base64`, bytes.toString('base64'));
    forms.set(`${name} base64url`, bytes.toString('base64url'));
    forms.set(`${name} base58`, base58.encode(bytes));
    forms.set(`${name} JSON byte array`, JSON.stringify([...bytes]));
  }
  forms.set('database password', DB_PASSWORD);
  forms.set('Redis password', REDIS_PASSWORD);
  return forms;
}

/** Scans every log file in LOG_DIR (hex compared case-insensitively). */
export function secretsScan(): void {
  const files = readdirSync(LOG_DIR).filter((f) => f.endsWith('.log'));
  const forms = secretForms();
  let lines = 0;
  const hits: string[] = [];
  for (const file of files) {
    const text = readFileSync(path.join(LOG_DIR, file), 'utf8');
    const lower = text.toLowerCase();
    lines += text.split('\n').length - 1;
    for (const [name, form] of forms) {
      const found = name.endsWith(' hex') ? lower.includes(form) : text.includes(form);
      if (found) hits.push(`${name} in ${file}`);
    }
  }
  figure(NAME, 'scanned', `${files.length} log files, ${lines} lines, ${forms.size} secret forms`);
  jsonLogs(files);
  check(
    NAME,
    'no secret in any log line',
    hits.length ? hits.join('; ') : 'none found',
    hits.length === 0 && files.length > 0,
  );
}

/** Whether `line` is one JSON object. */
function isJsonObject(line: string): boolean {
  try {
    const value = JSON.parse(line) as unknown;
    return typeof value === 'object' && value !== null && !Array.isArray(value);
  } catch {
    return false;
  }
}

/** Checks that every line of the services' logs among `files` (in LOG_DIR) is a JSON object. */
function jsonLogs(files: readonly string[]): void {
  const services = files.filter((f) => !f.startsWith('redis') && !f.startsWith('postgres'));
  let lines = 0;
  const bad: string[] = [];
  for (const file of services) {
    for (const line of readFileSync(path.join(LOG_DIR, file), 'utf8').split('\n')) {
      if (line === '') continue;
      lines += 1;
      if (!isJsonObject(line)) bad.push(`${file}: ${line.slice(0, 80)}`);
    }
  }
  figure(
    NAME,
    'service logs read as JSON',
    `${services.length} files (${services.join(', ')}), ${lines} lines`,
  );
  check(
    NAME,
    'every service log line is one JSON object',
    bad.length ? `${bad.length} not: ${bad.slice(0, 3).join('; ')}` : `${lines} lines`,
    bad.length === 0 && lines > 0,
  );
}
