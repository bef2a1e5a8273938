import { describe, expect, it } from '@jest/globals';
import { checkServiceMonitor, validateManifest } from '../src/kube-schema.mjs';

const serviceMonitor = () => ({
  apiVersion: 'monitoring.coreos.com/v1',
  kind: 'ServiceMonitor',
  metadata: { name: 'api', labels: { release: 'prom' } },
  spec: {
    selector: { matchLabels: { app: 'api' } },
    namespaceSelector: { matchNames: ['ctss'] },
    endpoints: [{ port: 'http', path: '/metrics', interval: '30s', scrapeTimeout: '10s' }],
  },
});

describe('validateManifest', () => {
  it('accepts a valid HorizontalPodAutoscaler (autoscaling/v2)', async () => {
    const hpa = {
      apiVersion: 'autoscaling/v2',
      kind: 'HorizontalPodAutoscaler',
      metadata: { name: 'api' },
      spec: {
        scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'api' },
        minReplicas: 2,
        maxReplicas: 10,
        metrics: [
          {
            type: 'Resource',
            resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 70 } },
          },
        ],
      },
    };
    expect(await validateManifest(hpa)).toEqual({ via: 'schema', errors: [] });
  });

  it('reports wrong types and missing required fields with their paths', async () => {
    const pdb = {
      apiVersion: 'batch/v1',
      kind: 'Job',
      metadata: { name: 'migrate' },
      spec: { backoffLimit: 'one', template: { spec: { containers: [{ image: 'x:1' }] } } },
    };
    const { errors } = await validateManifest(pdb);
    expect(errors).toEqual(
      expect.arrayContaining([
        expect.stringContaining('/spec/backoffLimit'),
        expect.stringContaining('/spec/template/spec/containers/0 must have required property'),
      ]),
    );
  });

  it('refuses kinds it has no schema for (a typo in kind, or a non-Kubernetes API)', async () => {
    const { errors } = await validateManifest({
      apiVersion: 'apps/v1',
      kind: 'Deploymnet',
      metadata: { name: 'x' },
    });
    expect(errors).toEqual([
      expect.stringContaining('no Kubernetes schema for apps/v1 Deploymnet'),
    ]);
  });

  it('checks a ServiceMonitor structurally', async () => {
    expect(await validateManifest(serviceMonitor())).toEqual({ via: 'structural', errors: [] });
  });
});

describe('checkServiceMonitor', () => {
  it('names each structural problem', () => {
    /** @type {any} */
    const sm = serviceMonitor();
    sm.spec.endpoints[0] = { path: 'metrics', interval: 'thirty seconds' };
    sm.spec.selectr = {};
    delete sm.spec.selector;
    expect(checkServiceMonitor(sm)).toEqual([
      'unknown field spec.selectr',
      'spec.selector is required',
      'spec.endpoints[0] needs port (a Service port name) or targetPort',
      'spec.endpoints[0].path must start with /',
      'spec.endpoints[0].interval must be a Prometheus duration such as 30s',
    ]);
  });
});
