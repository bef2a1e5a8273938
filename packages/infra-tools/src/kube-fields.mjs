// Unknown-field check for rendered manifests. kubernetes-models' validators check types and
// required fields but accept unknown keys, so a template typo such as `readinesProbe` would pass.
// This walks a manifest along the TypeScript declarations that kubernetes-models ships (one
// `export interface` per Kubernetes type, with `"field"?: Type;` lines) and reports every key the
// declared type does not have — what the API server's strict field validation rejects.
import { existsSync, readFileSync, realpathSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

const require = createRequire(import.meta.url);
const modelsDir = dirname(realpathSync(require.resolve('kubernetes-models/package.json')));
const scopeDir = join(modelsDir, '..', '@kubernetes-models');

/** Parsed interfaces by declaration file: file -> { props: Map<name, typeText>, imports: Map<ident, file> } | null. */
const cache = new Map();

/** The .d.ts file an import specifier of `fromFile` points to. */
function resolveImport(specifier, fromFile) {
  if (specifier.startsWith('.'))
    return join(dirname(fromFile), specifier.replace(/\.js$/, '.d.ts'));
  const m = /^@kubernetes-models\/([^/]+)\/(.+)$/.exec(specifier);
  if (m) return join(scopeDir, m[1], `${m[2].replace(/\.js$/, '')}.d.ts`);
  return undefined;
}

/** Reads the first `export interface` of a declaration file (its own type), or null (a type alias). */
function parseFile(file) {
  if (cache.has(file)) return cache.get(file);
  let result = null;
  if (existsSync(file)) {
    const text = readFileSync(file, 'utf8');
    const imports = new Map();
    for (const m of text.matchAll(/^import \{ ([^}]+) \} from "([^"]+)";$/gm)) {
      const target = resolveImport(m[2], file);
      for (const ident of m[1].split(',').map((s) => s.trim()))
        if (target) imports.set(ident, target);
    }
    const start = text.search(/^export interface \w+/m);
    if (start >= 0) {
      const lines = text.slice(start).split('\n');
      const props = new Map();
      for (let i = 1; i < lines.length; i++) {
        const line = lines[i];
        if (line === '}') break;
        const m = /^ {4}"([^"]+)"\??: (.*)$/.exec(line);
        if (!m) continue;
        let type = m[2];
        if (type === '{') {
          // Inline object type: collect up to the closing brace at the same indent.
          const body = [];
          while (!/^ {4}\};?$/.test(lines[++i])) body.push(lines[i].trim());
          type = `{ ${body.join(' ')} }`;
        }
        props.set(m[1], type.replace(/;$/, ''));
      }
      result = { props, imports };
    }
  }
  cache.set(file, result);
  return result;
}

const isObject = (v) => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Checks `value` against `type` (text of a declaration) declared in `file`; pushes unknown paths. */
function walk(value, type, file, path, unknown) {
  if (value === null || value === undefined) return;
  type = type.trim();
  let m;
  if ((m = /^Array<(.+)>$/.exec(type))) {
    if (Array.isArray(value))
      value.forEach((v, i) => walk(v, m[1], file, `${path}[${i}]`, unknown));
    return;
  }
  if ((m = /^\{ \[key: string\]: (.+?);? \}$/.exec(type))) {
    if (isObject(value))
      for (const [k, v] of Object.entries(value)) walk(v, m[1], file, `${path}.${k}`, unknown);
    return;
  }
  if (/^I[A-Z]\w*$/.test(type)) {
    const target = parseFile(file)?.imports.get(type);
    if (!target) return;
    checkObject(value, target, path, unknown);
  }
  // Primitives, string-literal unions and type aliases (IntOrString, Quantity, Time) end here.
}

function checkObject(value, file, path, unknown) {
  const decl = parseFile(file);
  if (!decl || !isObject(value)) return;
  for (const [key, v] of Object.entries(value)) {
    const type = decl.props.get(key);
    if (type === undefined) unknown.push(`${path ? `${path}.` : ''}${key}`);
    else walk(v, type, file, `${path ? `${path}.` : ''}${key}`, unknown);
  }
}

/**
 * Field paths of `doc` that its Kubernetes type does not declare, e.g.
 * ["spec.template.spec.containers[0].readinesProbe"]. Kinds without a declaration in
 * kubernetes-models (custom resources) give [].
 *
 * @param {Record<string, any>} doc a parsed manifest with apiVersion and kind
 * @returns {string[]} unknown field paths
 */
export function unknownFields(doc) {
  const file = join(modelsDir, doc.apiVersion, `${doc.kind}.d.ts`);
  if (!existsSync(file)) return [];
  const unknown = [];
  checkObject(doc, file, '', unknown);
  return unknown;
}
