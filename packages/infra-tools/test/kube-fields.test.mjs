import { describe, expect, it } from '@jest/globals';
import { unknownFields } from '../src/kube-fields.mjs';

/** A small valid Deployment; `patch` edits a copy. */
function deployment(patch = (d) => d) {
  const doc = {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'api', labels: { app: 'api' }, annotations: { note: 'x' } },
    spec: {
      replicas: 2,
      selector: { matchLabels: { app: 'api' } },
      template: {
        metadata: { labels: { app: 'api' } },
        spec: {
          securityContext: { runAsNonRoot: true, seccompProfile: { type: 'RuntimeDefault' } },
          containers: [
            {
              name: 'api',
              image: 'ghcr.io/x/api:1.0.0',
              ports: [{ name: 'http', containerPort: 3000 }],
              env: [
                { name: 'DATABASE_URL', valueFrom: { secretKeyRef: { name: 'db', key: 'url' } } },
              ],
              readinessProbe: { httpGet: { path: '/ready', port: 'http' }, periodSeconds: 5 },
              resources: {
                requests: { cpu: '100m', memory: '128Mi' },
                limits: { memory: '256Mi' },
              },
              securityContext: { readOnlyRootFilesystem: true, capabilities: { drop: ['ALL'] } },
            },
          ],
        },
      },
    },
  };
  patch(doc);
  return doc;
}

describe('unknownFields', () => {
  it('accepts a Deployment that uses only declared fields, maps included', () => {
    expect(unknownFields(deployment())).toEqual([]);
  });

  it('names a misspelt field deep in the pod template, with its path', () => {
    const doc = deployment((d) => {
      const c = d.spec.template.spec.containers[0];
      c.readinesProbe = c.readinessProbe;
      delete c.readinessProbe;
      c.securityContext.capabilities.dorp = ['ALL'];
    });
    expect(unknownFields(doc)).toEqual([
      'spec.template.spec.containers[0].securityContext.capabilities.dorp',
      'spec.template.spec.containers[0].readinesProbe',
    ]);
  });

  it('checks inside list items and secret references', () => {
    const doc = deployment((d) => {
      d.spec.template.spec.containers[0].env[0].valueFrom.secretKeyRef.optinal = true;
      d.metadata.lables = {};
    });
    expect(unknownFields(doc)).toEqual([
      'metadata.lables',
      'spec.template.spec.containers[0].env[0].valueFrom.secretKeyRef.optinal',
    ]);
  });

  it('covers core/v1 kinds too', () => {
    const svc = {
      apiVersion: 'v1',
      kind: 'Service',
      metadata: { name: 'api' },
      spec: {
        selector: { app: 'api' },
        ports: [{ name: 'http', port: 80, targetPort: 'http', protocl: 'TCP' }],
      },
    };
    expect(unknownFields(svc)).toEqual(['spec.ports[0].protocl']);
  });

  it('leaves custom resources to other checks', () => {
    expect(
      unknownFields({
        apiVersion: 'monitoring.coreos.com/v1',
        kind: 'ServiceMonitor',
        anything: 1,
      }),
    ).toEqual([]);
  });
});
