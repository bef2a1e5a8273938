#!/usr/bin/env node
/**
 * Checks that every `docs/<file>.md` and every `"Heading"` after it cited in code exists, that a
 * bare document name (`FINDINGS.md`) is one in a folder above the citing file and that no code cites
 * `../shared`: source
 * comments cite sections as `docs/api.md "Transaction feeds", "Pagination"` (docs/architecture.md
 * "Docs that cannot drift"). Scans the tracked source files (`git ls-files`), joins comment
 * continuation lines so a heading broken over two lines is read whole, and compares each cited
 * heading with the `#` headings of the cited file. Exits 1 listing every citation that does not
 * resolve.
 *
 * Usage: node scripts/check-doc-refs.mjs
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const SOURCE = /\.(ts|mts|cts|js|mjs|cjs|sol|ya?ml|tpl|sh)$|Dockerfile$/;

/** Headings of a Markdown file, without their `#` marks (fenced code blocks skipped). */
function headingsOf(file) {
  const headings = new Set();
  let fenced = false;
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    if (/^\s*(```|~~~)/.test(line)) fenced = !fenced;
    const match = !fenced && /^#{1,6}\s+(.+?)\s*#*\s*$/.exec(line);
    if (match) headingsOf.strip(match[1]).forEach((h) => headings.add(h));
  }
  return headings;
}
/** A heading as cited: the text itself and the text without inline code marks. */
headingsOf.strip = (text) => [text, text.replace(/`/g, '')];

/** Comment text with continuation lines joined (` * `, `//`, `#` prefixes dropped). */
const joined = (text) => text.replace(/\s*\n\s*(\*(?!\/)|\/\/+|#+(?!\w))?\s*/g, ' ');

/** The folders from `file`'s own up to the repository root (relative paths, root as ''). */
function foldersAbove(file) {
  const dirs = [];
  for (let dir = path.dirname(file); dir !== '.'; dir = path.dirname(dir)) dirs.push(dir);
  return [...dirs, ''];
}

const files = execFileSync('git', ['ls-files', '-z'], { cwd: root, encoding: 'utf8' })
  .split('\0')
  .filter((f) => SOURCE.test(f) && !f.startsWith('docs/') && existsSync(path.join(root, f)))
  // This file names the patterns it looks for.
  .filter((f) => f !== 'scripts/check-doc-refs.mjs');
const cache = new Map();
const problems = [];
let citations = 0;
for (const file of files) {
  const text = joined(readFileSync(path.join(root, file), 'utf8'));
  const cite = /docs\/([\w.-]+\.md)((?:(?:,\s*|\s+and\s+|\s+)"[^"\n]{1,120}")*)/g;
  for (const match of text.matchAll(cite)) {
    const doc = `docs/${match[1]}`;
    const target = path.join(root, doc);
    citations += 1;
    if (!existsSync(target)) {
      problems.push(`${file}: ${doc} does not exist`);
      continue;
    }
    if (!cache.has(doc)) cache.set(doc, headingsOf(target));
    for (const [, heading] of match[2].matchAll(/"([^"]+)"/g)) {
      if (!cache.get(doc).has(heading))
        problems.push(`${file}: ${doc} has no heading "${heading}"`);
    }
  }
  // A bare upper-case document name (README.md, FINDINGS.md) is one in a folder above the file.
  for (const [, name] of text.matchAll(/(?<![\w/.-])([A-Z][A-Z0-9_-]*\.md)\b/g)) {
    citations += 1;
    if (!foldersAbove(file).some((dir) => existsSync(path.join(root, dir, name))))
      problems.push(`${file}: ${name} does not exist in any folder above it`);
  }
  if (/\.\.\/shared\b/.test(text)) problems.push(`${file}: cites ../shared (cite docs/ instead)`);
}
if (problems.length > 0) {
  console.error(`${problems.length} citation(s) of docs/ that do not resolve:`);
  for (const p of problems) console.error(`  ${p}`);
  process.exit(1);
}
console.log(`docs citations: ${citations} checked, all resolve`);
