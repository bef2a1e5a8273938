/**
 * The published package as a developer outside the repository gets it (docs/decisions.md "D190.
 * @ctss/sdk and @ctss/domain-types are published together"): `pnpm pack` of @ctss/sdk and of the
 * workspace package it depends on, the tarballs' manifests checked (an `exports` map with types
 * and ESM, `files`, no `workspace:` ranges, no dependency on an app or an unpublished workspace
 * package), then both installed into a temporary directory outside the repository without the
 * network, as npm lays out an install (each tarball's `package/` under `node_modules/<name>`, the
 * third-party dependencies linked to the workspace's installed copies after checking their
 * versions against the ranges), and the package imported there by name: with Node's ESM loader
 * (a transfer's costs computed, to show the code runs) and with the TypeScript compiler under
 * `moduleResolution: nodenext` (the types entry resolves and types a consumer's code; the
 * README's cost example, as packed, compiles and prints the figures it states).
 * Needs `pnpm build` first (the tarballs hold `dist`).
 */
import { execFileSync } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  realpathSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';

const SDK_DIR = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const REPO = resolve(SDK_DIR, '../..');
/** The workspace packages published with the SDK (D190), by name. */
const PUBLISHED: Record<string, string> = {
  '@ctss/sdk': SDK_DIR,
  '@ctss/domain-types': join(REPO, 'packages/domain-types'),
};

interface Manifest {
  name: string;
  version: string;
  private?: boolean;
  type?: string;
  main?: string;
  types?: string;
  files?: string[];
  exports?: Record<string, unknown>;
  dependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
}

const readManifest = (dir: string) =>
  JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as Manifest;

/** Every workspace package (apps and packages) by name, with whether it is private. */
function workspacePackages(): Map<string, Manifest> {
  const out = new Map<string, Manifest>();
  for (const group of ['apps', 'packages']) {
    const listing = execFileSync('ls', [join(REPO, group)], { encoding: 'utf8' }).split('\n');
    for (const name of listing.filter(Boolean)) {
      const dir = join(REPO, group, name);
      if (existsSync(join(dir, 'package.json'))) {
        const m = readManifest(dir);
        out.set(m.name, m);
      }
    }
  }
  return out;
}

/** The runtime dependencies a consumer installs. */
const runtimeDeps = (m: Manifest): Record<string, string> => ({
  ...m.dependencies,
  ...m.optionalDependencies,
  ...m.peerDependencies,
});

/** Whether `version` satisfies `range`, for the forms the manifests use: exact or `^x.y.z`. */
function satisfies(version: string, range: string): boolean {
  const parse = (v: string) => v.split('.').map((n) => Number.parseInt(n, 10));
  if (/^[0-9]+\.[0-9]+\.[0-9]+$/.test(range)) return version === range;
  const m = /^\^([0-9]+\.[0-9]+\.[0-9]+)$/.exec(range);
  if (!m) throw new Error(`range form not handled: ${range}`);
  const [want, have] = [parse(m[1]!), parse(version)];
  // ^0.y.z keeps the minor; ^x.y.z (x > 0) the major.
  const fixed = want[0] === 0 ? 2 : 1;
  for (let i = 0; i < fixed; i++) if (have[i] !== want[i]) return false;
  for (let i = 0; i < 3; i++) if (have[i] !== want[i]) return have[i]! > want[i]!;
  return true;
}

let tmp: string;
let app: string;
const packed = new Map<string, Manifest>();

const run = (cmd: string, args: string[], cwd: string) =>
  execFileSync(cmd, args, {
    cwd,
    encoding: 'utf8',
    env: { ...process.env, NODE_OPTIONS: '' },
    maxBuffer: 64 * 1024 * 1024,
  });

beforeAll(() => {
  tmp = realpathSync(mkdtempSync(join(tmpdir(), 'ctss-sdk-pack-')));
  app = join(tmp, 'app');
  mkdirSync(join(app, 'node_modules', '@ctss'), { recursive: true });
  for (const [name, dir] of Object.entries(PUBLISHED)) {
    const out = join(tmp, 'tarballs', name.replace('/', '-'));
    mkdirSync(out, { recursive: true });
    run('pnpm', ['pack', '--pack-destination', out], dir);
    const tarball = run('ls', [out], out).trim();
    const target = join(app, 'node_modules', name);
    mkdirSync(target, { recursive: true });
    // npm installs a tarball's `package/` directory as node_modules/<name>.
    run('tar', ['-xzf', join(out, tarball), '-C', target, '--strip-components=1'], tmp);
    packed.set(name, readManifest(target));
  }
  // Third-party dependencies: the workspace's installed copies (no network).
  const linked = new Set<string>(Object.keys(PUBLISHED));
  for (const [name, manifest] of packed) {
    for (const [dep, range] of Object.entries(runtimeDeps(manifest))) {
      if (linked.has(dep)) continue;
      const installed = realpathSync(join(PUBLISHED[name]!, 'node_modules', dep));
      const version = readManifest(installed).version;
      if (!satisfies(version, range))
        throw new Error(`${dep}@${version} installed does not satisfy ${name}'s ${range}`);
      mkdirSync(dirname(join(app, 'node_modules', dep)), { recursive: true });
      symlinkSync(installed, join(app, 'node_modules', dep), 'dir');
      linked.add(dep);
    }
  }
  writeFileSync(
    join(app, 'package.json'),
    JSON.stringify({ name: 'widget', private: true, type: 'module' }),
  );
}, 120_000);

afterAll(() => {
  if (tmp) rmSync(tmp, { recursive: true, force: true });
});

describe('the packed @ctss/sdk', () => {
  it('is installed outside the repository', () => {
    expect(relative(REPO, app).startsWith('..')).toBe(true);
  });

  it('has an exports map with types and ESM, and ships what it names', () => {
    for (const [name, m] of packed) {
      const dir = join(app, 'node_modules', name);
      expect(m.private).toBeUndefined();
      expect(m.type).toBe('module');
      expect(m.files).toEqual(expect.arrayContaining(['dist', 'README.md', 'CHANGELOG.md']));
      expect(m.exports?.['.']).toEqual({
        types: './dist/index.d.ts',
        import: './dist/index.js',
        default: './dist/index.js',
      });
      for (const file of [m.main!, m.types!, 'README.md', 'CHANGELOG.md'])
        expect(existsSync(join(dir, file))).toBe(true);
      // Only what `files` names: no tests, no configuration.
      expect(existsSync(join(dir, 'test'))).toBe(false);
      expect(existsSync(join(dir, 'tsconfig.json'))).toBe(false);
    }
  });

  it('depends on no app, no unpublished workspace package and no workspace: range', () => {
    const workspace = workspacePackages();
    for (const m of packed.values()) {
      for (const [dep, range] of Object.entries(runtimeDeps(m))) {
        expect(range).not.toMatch(/^(workspace|file|link):/);
        const local = workspace.get(dep);
        if (!local) continue;
        expect({ dep, private: local.private ?? false }).toEqual({ dep, private: false });
        expect(Object.keys(PUBLISHED)).toContain(dep);
        // Released together: the exact version packed alongside.
        expect(range).toBe(packed.get(dep)!.version);
      }
    }
  });

  it('imports by name with ESM and runs', () => {
    const script = `
      import * as sdk from '@ctss/sdk';
      const quote = { scheme: 'ecdsa', localDomain: 0, destinationDomain: 3, version: 1, isNative: false,
        fee: 80000n, deadline: 1n, signature: '0x', signer: '0x0000000000000000000000000000000000000001', packing: 'compact' };
      const costs = sdk.transferCosts(quote, { amount: 467080000n },
        { contractFeeBps: 10n, circleFeeMilliBps: 0n, circleFeeSource: 'none' });
      console.log(JSON.stringify({
        resolved: import.meta.resolve('@ctss/sdk'),
        domainTypes: import.meta.resolve('@ctss/domain-types', import.meta.resolve('@ctss/sdk')),
        functions: ['createCtssClient', 'getQuote', 'buildTransfer', 'quoteTransfer', 'sendTransfer', 'trackTransfer']
          .filter((f) => typeof sdk[f] === 'function'),
        feesUsdc: costs.feesUsdc.toString(),
      }));`;
    const out = JSON.parse(run('node', ['--input-type=module', '-e', script], app)) as {
      resolved: string;
      domainTypes: string;
      functions: string[];
      feesUsdc: string;
    };
    expect(fileURLToPath(out.resolved)).toBe(join(app, 'node_modules/@ctss/sdk/dist/index.js'));
    expect(fileURLToPath(out.domainTypes)).toBe(
      join(app, 'node_modules/@ctss/domain-types/dist/index.js'),
    );
    expect(out.functions).toHaveLength(6);
    expect(out.feesUsdc).toBe('547080');
  });

  it("types a consumer's code through the types entry (moduleResolution nodenext), and runs the README's example", () => {
    writeFileSync(
      join(app, 'index.ts'),
      `import { createCtssClient, type TransferCosts, type TransferQuote } from '@ctss/sdk';
const ctss = createCtssClient({ gasQuoteUrl: 'http://127.0.0.1:3001', monitoringUrl: 'http://127.0.0.1:3000' });
export async function cost(): Promise<bigint> {
  const q: TransferQuote = await ctss.quote({ localDomain: 0, destinationDomain: 3, version: 2, isNative: false }, { amount: 10_000_000n });
  const c: TransferCosts = q.costs;
  return c.userPaysUsdc - c.recipientGetsMin;
}
// @ts-expect-error amounts are bigint, not number
export const wrong: TransferCosts['feesUsdc'] = 1;
type Route = NonNullable<TransferQuote['quote']['route']>;
// @ts-expect-error a number by the @ctss/domain-types schema (would be any if it did not resolve)
export const bps: NonNullable<Route['contractFeeBps']> = 'ten';
`,
    );
    writeFileSync(
      join(app, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          target: 'ES2022',
          lib: ['ES2023', 'DOM'],
          module: 'NodeNext',
          moduleResolution: 'NodeNext',
          strict: true,
          outDir: 'out',
          skipLibCheck: true,
          types: [],
        },
        files: ['index.ts', 'readme.ts'],
      }),
    );
    // The README's cost example, as the installed package ships it, compiled and run.
    const readme = readFileSync(join(app, 'node_modules/@ctss/sdk/README.md'), 'utf8');
    const example = [...readme.matchAll(/```ts\n([\s\S]*?)```/g)]
      .map((m) => m[1]!)
      .find((code) => code.includes('transferCosts('));
    writeFileSync(join(app, 'readme.ts'), example!);
    const tsc = join(realpathSync(join(REPO, 'node_modules/typescript')), 'bin/tsc');
    const files = run('node', [tsc, '-p', '.', '--listFiles'], app).split('\n');
    // The types come from the installed packages' types entries.
    for (const name of Object.keys(PUBLISHED)) {
      expect(files).toContain(join(app, 'node_modules', name, 'dist/index.d.ts'));
    }
    expect(run('node', ['out/readme.js'], app).trim()).toBe('547080n 466532920n');
  }, 120_000);
});
