// Value types shared by both charts' values.schema.json (JSON Schema draft-07, which Helm 3 and
// Helm 4 both read). Objects are closed (additionalProperties: false) so a misspelt key fails
// at install time instead of being ignored.

/** A closed object with the given properties; `required` lists the mandatory ones. */
export function object(properties, required = [], extra = {}) {
  return { type: 'object', additionalProperties: false, properties, required, ...extra };
}

export const str = (description, extra = {}) => ({ type: 'string', description, ...extra });
export const int = (description, minimum = 0, extra = {}) => ({
  type: 'integer',
  minimum,
  description,
  ...extra,
});
export const bool = (description) => ({ type: 'boolean', description });

/** Kubernetes quantity such as 100m, 0.5, 256Mi, 1Gi. */
const quantity = {
  oneOf: [
    { type: 'string', pattern: '^[0-9]+(\\.[0-9]+)?(m|k|M|G|T|P|E|Ki|Mi|Gi|Ti|Pi|Ei)?$' },
    { type: 'number', minimum: 0 },
  ],
};

/** Env var names (POSIX-ish, as Kubernetes accepts them). */
const envName = '^[A-Za-z_][A-Za-z0-9_]*$';

/**
 * Names that never go into a ConfigMap: signer keys, passwords, tokens, API keys, and the
 * connection URLs that usually embed credentials. Those come from secretEnv / signer.
 */
const secretLookingName =
  '(PRIVATE_KEY|PASSWORD|SECRET|TOKEN|API_KEYS|^DATABASE_URL$|^DATABASE_READ_URLS$|^REDIS_URL$|^PORT$)';

/** `config`: non-secret settings rendered into a ConfigMap; empty/null = app default. */
export function configMap(description) {
  return {
    type: 'object',
    description,
    propertyNames: { pattern: envName, not: { pattern: secretLookingName } },
    additionalProperties: {
      anyOf: [{ type: 'string' }, { type: 'integer' }, { type: 'boolean' }, { type: 'null' }],
    },
  };
}

/** A reference to a key of an existing Secret. */
export const secretKeyRef = object(
  {
    secretName: str('Name of an existing Secret in the release namespace.', {
      minLength: 1,
      pattern: '^[a-z0-9]([-a-z0-9.]*[a-z0-9])?$',
    }),
    key: str('Key inside that Secret.', { minLength: 1, pattern: '^[-._a-zA-Z0-9]+$' }),
    optional: bool('When true the pod starts even if the Secret or key is missing.'),
  },
  ['secretName', 'key'],
);

/** `secretEnv`: env var name -> secretKeyRef (null drops an inherited entry). */
export function secretEnvMap(description, required = []) {
  return {
    type: 'object',
    description,
    propertyNames: { pattern: envName },
    additionalProperties: { oneOf: [secretKeyRef, { type: 'null' }] },
    required,
    properties: Object.fromEntries(required.map((name) => [name, secretKeyRef])),
  };
}

const image = object(
  {
    repository: str('Image repository.', { minLength: 1 }),
    tag: str('Image tag; empty = Chart appVersion.', {
      pattern: '^$|^[A-Za-z0-9_][A-Za-z0-9_.-]{0,127}$',
    }),
    digest: str('Image digest; wins over tag.', { pattern: '^$|^sha256:[a-f0-9]{64}$' }),
    pullPolicy: { enum: ['IfNotPresent', 'Always', 'Never'] },
  },
  ['repository', 'pullPolicy'],
);

export const resources = object(
  {
    requests: object({ cpu: quantity, memory: quantity, 'ephemeral-storage': quantity }, [
      'cpu',
      'memory',
    ]),
    limits: object({ cpu: quantity, memory: quantity, 'ephemeral-storage': quantity }, ['memory']),
  },
  ['requests', 'limits'],
  { description: 'Container resources: requests (cpu, memory) and a memory limit are required.' },
);

export const httpProbe = object(
  {
    path: str('HTTP path probed on the container port.', { pattern: '^/' }),
    initialDelaySeconds: int('Seconds before the first probe.'),
    periodSeconds: int('Seconds between probes.', 1),
    timeoutSeconds: int('Probe timeout, seconds.', 1),
    failureThreshold: int('Failures before acting.', 1),
  },
  ['path', 'periodSeconds', 'timeoutSeconds', 'failureThreshold'],
);

export const probes = object(
  {
    liveness: { ...httpProbe, properties: { ...httpProbe.properties, path: { const: '/health' } } },
    readiness: { ...httpProbe, properties: { ...httpProbe.properties, path: { const: '/ready' } } },
    startup: httpProbe,
  },
  ['liveness', 'readiness', 'startup'],
);

const seccompProfile = object(
  {
    type: { enum: ['RuntimeDefault', 'Localhost'] },
    localhostProfile: { type: 'string' },
  },
  ['type'],
);

/** Pod security context: non-root and a seccomp profile are mandatory. */
const podSecurityContext = object(
  {
    runAsNonRoot: { const: true },
    runAsUser: int('UID; not 0.', 1),
    runAsGroup: int('GID.', 0),
    fsGroup: int('Group owning mounted volumes.', 0),
    fsGroupChangePolicy: { enum: ['OnRootMismatch', 'Always'] },
    supplementalGroups: { type: 'array', items: { type: 'integer' } },
    seccompProfile,
  },
  ['runAsNonRoot', 'seccompProfile'],
);

/** Container security context: the restrictive settings are fixed by `const`. */
const containerSecurityContext = object(
  {
    runAsNonRoot: { const: true },
    runAsUser: int('UID; not 0.', 1),
    runAsGroup: int('GID.', 0),
    readOnlyRootFilesystem: { const: true },
    allowPrivilegeEscalation: { const: false },
    privileged: { const: false },
    capabilities: object(
      {
        drop: { type: 'array', contains: { const: 'ALL' }, items: { type: 'string' } },
        add: { type: 'array', maxItems: 0 },
      },
      ['drop'],
    ),
    seccompProfile,
  },
  [
    'runAsNonRoot',
    'readOnlyRootFilesystem',
    'allowPrivilegeEscalation',
    'capabilities',
    'seccompProfile',
  ],
);

export const service = object(
  {
    type: { enum: ['ClusterIP', 'NodePort', 'LoadBalancer'] },
    port: int('Service port.', 1, { maximum: 65535 }),
    annotations: { type: 'object', additionalProperties: { type: 'string' } },
  },
  ['type', 'port'],
);

const ingressHost = object(
  {
    host: str('Host name.', { minLength: 1 }),
    paths: {
      type: 'array',
      minItems: 1,
      items: object(
        {
          path: str('URL path.', { pattern: '^/' }),
          pathType: { enum: ['Prefix', 'Exact', 'ImplementationSpecific'] },
        },
        ['path', 'pathType'],
      ),
    },
  },
  ['host', 'paths'],
);

/** Ingress values; `extra` adds chart-specific keys (the gas quote chart's websocket block). */
export function ingress(extra = {}) {
  return object(
    {
      enabled: bool('Create an Ingress.'),
      className: { type: ['string', 'null'] },
      annotations: { type: 'object', additionalProperties: { type: 'string' } },
      hosts: { type: 'array', items: ingressHost },
      tls: {
        type: 'array',
        items: object(
          {
            secretName: str('TLS Secret.', { minLength: 1 }),
            hosts: { type: 'array', items: { type: 'string' } },
          },
          ['secretName', 'hosts'],
        ),
      },
      ...extra,
    },
    ['enabled'],
    {
      if: { properties: { enabled: { const: true } } },
      then: { properties: { hosts: { minItems: 1 } } },
    },
  );
}

export const autoscaling = object(
  {
    enabled: bool('Create a HorizontalPodAutoscaler.'),
    minReplicas: int('Lower bound.', 1),
    maxReplicas: int('Upper bound.', 1),
    targetCPUUtilizationPercentage: int('CPU target, percent of requests.', 1, { maximum: 1000 }),
    targetMemoryUtilizationPercentage: {
      oneOf: [{ type: 'integer', minimum: 1, maximum: 1000 }, { type: 'null' }],
    },
    behavior: { type: 'object' },
  },
  ['enabled', 'minReplicas', 'maxReplicas', 'targetCPUUtilizationPercentage'],
);

const intOrPercent = {
  oneOf: [
    { type: 'integer', minimum: 0 },
    { type: 'string', pattern: '^[0-9]+%$' },
  ],
};

/** PDB: minAvailable, when set, wins over maxUnavailable (the template renders only one). */
export const podDisruptionBudget = object(
  {
    enabled: bool('Create a PodDisruptionBudget.'),
    maxUnavailable: intOrPercent,
    minAvailable: { oneOf: [intOrPercent, { type: 'null' }] },
  },
  ['enabled', 'maxUnavailable'],
);

export const serviceMonitor = object(
  {
    enabled: bool('Create a Prometheus Operator ServiceMonitor.'),
    labels: { type: 'object', additionalProperties: { type: 'string' } },
    interval: str('Scrape interval.', { pattern: '^[0-9]+(ms|s|m|h)$' }),
    scrapeTimeout: str('Scrape timeout.', { pattern: '^[0-9]+(ms|s|m|h)$' }),
    path: str('Metrics path.', { pattern: '^/' }),
  },
  ['enabled', 'interval', 'scrapeTimeout', 'path'],
);

/** A label selector (matchLabels / matchExpressions), as Kubernetes takes it. */
const labelSelector = {
  type: 'object',
  additionalProperties: false,
  properties: {
    matchLabels: { type: 'object', additionalProperties: { type: 'string' } },
    matchExpressions: { type: 'array', items: { type: 'object' } },
  },
};

/** Who may connect to the pods: the ingress controller and the metrics scraper. */
export const networkPolicy = object(
  {
    enabled: bool('Create a NetworkPolicy admitting only the ingress controller and the scraper.'),
    ingressController: object({ namespaceSelector: labelSelector, podSelector: labelSelector }, [
      'namespaceSelector',
      'podSelector',
    ]),
    metricsScraper: object({ namespaceSelector: labelSelector, podSelector: labelSelector }, [
      'namespaceSelector',
      'podSelector',
    ]),
  },
  ['enabled', 'ingressController', 'metricsScraper'],
);

export const command = { type: 'array', minItems: 1, items: { type: 'string', minLength: 1 } };
const stringMap = { type: 'object', additionalProperties: { type: 'string' } };

/** Keys every chart has at the top level. */
export const topLevelCommon = {
  nameOverride: { type: 'string', maxLength: 40 },
  fullnameOverride: { type: 'string', maxLength: 52 },
  commonLabels: stringMap,
  image,
  imagePullSecrets: {
    type: 'array',
    items: object({ name: { type: 'string', minLength: 1 } }, ['name']),
  },
  serviceAccount: object(
    {
      name: str('Existing ServiceAccount; empty = default.'),
      automountToken: bool('Mount a ServiceAccount token.'),
    },
    ['automountToken'],
  ),
  podSecurityContext,
  securityContext: containerSecurityContext,
  tmpSizeLimit: quantity,
  extraEnv: { type: 'array', items: { type: 'object', required: ['name'] } },
  extraEnvFrom: { type: 'array', items: { type: 'object' } },
  podAnnotations: stringMap,
  podLabels: stringMap,
  priorityClassName: { type: 'string' },
  nodeSelector: stringMap,
  tolerations: { type: 'array', items: { type: 'object' } },
  affinity: { type: 'object' },
  topologySpread: object(
    { enabled: bool('Spread pods over nodes and zones.'), maxSkew: int('Max skew.', 1) },
    ['enabled'],
  ),
};
