// Writes the environment-variable tables of the READMEs from the zod config schemas, or checks
// them (`--check`, part of `pnpm lint`): each app's built `dist/bin/env-tables.js` prints its
// tables as JSON (server-kit `envVariableRows`: description, type and default of every
// variable), and each table goes between `<!-- env-table:NAME -->` and `<!-- /env-table:NAME -->`
// in the files below, formatted by prettier. Needs `pnpm build` first. Exits 1 when a table is
// stale (check mode), a marker names no table, a table has no marker, or a variable has no
// description.
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as prettier from 'prettier';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const check = process.argv.includes('--check');
const generators = ['apps/monitoring-api', 'apps/gas-quote-api'];
const files = [
  'README.md',
  'apps/monitoring-api/README.md',
  'apps/gas-quote-api/README.md',
  'docs/indexer.md',
];

const tables = {};
for (const app of generators) {
  const out = execFileSync(process.execPath, [join(root, app, 'dist/bin/env-tables.js')], {
    encoding: 'utf8',
  });
  Object.assign(tables, JSON.parse(out));
}

const problems = [];
const placed = new Set();
const marker = /(<!-- env-table:([a-z-]+) -->\n)[\s\S]*?(<!-- \/env-table:\2 -->)/g;
for (const file of files) {
  const path = join(root, file);
  const text = readFileSync(path, 'utf8');
  const options = { ...(await prettier.resolveConfig(path)), parser: 'markdown' };
  const formatted = {};
  for (const [, , name] of text.matchAll(marker)) {
    if (!(name in tables)) {
      problems.push(`${file}: no table named ${name}`);
      continue;
    }
    formatted[name] = await prettier.format(tables[name], options);
    placed.add(name);
  }
  const next = text.replace(marker, (whole, open, name, close) =>
    name in formatted ? `${open}\n${formatted[name]}\n${close}` : whole,
  );
  if (next === text) continue;
  if (check)
    problems.push(`${file}: an environment table is stale (run: node scripts/env-tables.mjs)`);
  else writeFileSync(path, next);
}
for (const name of Object.keys(tables)) {
  if (!placed.has(name)) problems.push(`table ${name}: no <!-- env-table:${name} --> marker`);
}
if (problems.length > 0) {
  console.error(problems.join('\n'));
  process.exit(1);
}
console.log(`environment tables ${check ? 'up to date' : 'written'}: ${[...placed].join(', ')}`);
