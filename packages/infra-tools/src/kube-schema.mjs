// Validation of rendered manifests against the Kubernetes OpenAPI schemas shipped by the
// `kubernetes-models` package (one compiled JSON-schema validator per kind), plus a structural
// check for the Prometheus Operator ServiceMonitor CRD, which kubernetes-models does not cover.

/** Custom resources checked structurally instead of against a schema. */
const crdCheckers = {
  'monitoring.coreos.com/v1/ServiceMonitor': checkServiceMonitor,
};

/**
 * The kubernetes-models module of an apiVersion/kind: "v1" + Service -> kubernetes-models/v1/Service,
 * "apps/v1" + Deployment -> kubernetes-models/apps/v1/Deployment.
 */
function modelSpecifier(apiVersion, kind) {
  return `kubernetes-models/${apiVersion}/${kind}`;
}

/**
 * Validates one manifest.
 *
 * @param {Record<string, any>} doc a parsed manifest
 * @returns {Promise<{ via: 'schema' | 'structural', errors: string[] }>} an empty `errors` means valid;
 *   an unknown apiVersion/kind (neither a built-in kind nor a known CRD) is an error
 */
export async function validateManifest(doc) {
  const { apiVersion, kind } = doc ?? {};
  if (typeof apiVersion !== 'string' || typeof kind !== 'string') {
    return { via: 'schema', errors: ['apiVersion and kind must be strings'] };
  }
  const crd = crdCheckers[`${apiVersion}/${kind}`];
  if (crd) return { via: 'structural', errors: crd(doc) };
  let Model;
  try {
    const mod = await import(modelSpecifier(apiVersion, kind));
    Model = mod[kind];
  } catch {
    Model = undefined;
  }
  if (typeof Model !== 'function') {
    return {
      via: 'schema',
      errors: [`no Kubernetes schema for ${apiVersion} ${kind} (unknown or removed API)`],
    };
  }
  try {
    new Model(doc).validate();
    return { via: 'schema', errors: [] };
  } catch (error) {
    const details = Array.isArray(error?.errors)
      ? error.errors.map((e) => `${e.instancePath || '/'} ${e.message}`)
      : [String(error?.message ?? error)];
    return { via: 'schema', errors: details };
  }
}

const duration =
  /^(0|(([0-9]+)y)?(([0-9]+)w)?(([0-9]+)d)?(([0-9]+)h)?(([0-9]+)m)?(([0-9]+)s)?(([0-9]+)ms)?)$/;
const isObject = (v) => typeof v === 'object' && v !== null && !Array.isArray(v);
const isStringMap = (v) => isObject(v) && Object.values(v).every((x) => typeof x === 'string');

/**
 * Structural check of a ServiceMonitor (monitoring.coreos.com/v1) following the operator's CRD:
 * metadata.name, spec.selector (matchLabels string map), spec.endpoints with a port name or
 * targetPort, a path starting with "/", Prometheus durations, known scheme.
 */
export function checkServiceMonitor(doc) {
  const errors = [];
  const allowedTop = new Set(['apiVersion', 'kind', 'metadata', 'spec']);
  for (const key of Object.keys(doc))
    if (!allowedTop.has(key)) errors.push(`unknown top-level field ${key}`);
  if (
    !isObject(doc.metadata) ||
    typeof doc.metadata.name !== 'string' ||
    doc.metadata.name === ''
  ) {
    errors.push('metadata.name is required');
  }
  if (doc.metadata?.labels !== undefined && !isStringMap(doc.metadata.labels))
    errors.push('metadata.labels must map strings to strings');
  const spec = doc.spec;
  if (!isObject(spec)) return [...errors, 'spec is required'];
  const allowedSpec = new Set([
    'selector',
    'endpoints',
    'namespaceSelector',
    'jobLabel',
    'targetLabels',
    'podTargetLabels',
    'sampleLimit',
    'scrapeProtocols',
    'attachMetadata',
    'labelLimit',
  ]);
  for (const key of Object.keys(spec))
    if (!allowedSpec.has(key)) errors.push(`unknown field spec.${key}`);
  if (!isObject(spec.selector)) errors.push('spec.selector is required');
  else if (spec.selector.matchLabels !== undefined && !isStringMap(spec.selector.matchLabels)) {
    errors.push('spec.selector.matchLabels must map strings to strings');
  }
  if (spec.namespaceSelector !== undefined) {
    const ns = spec.namespaceSelector;
    if (
      !isObject(ns) ||
      (ns.matchNames !== undefined &&
        !(Array.isArray(ns.matchNames) && ns.matchNames.every((n) => typeof n === 'string')))
    ) {
      errors.push('spec.namespaceSelector.matchNames must be a list of strings');
    }
  }
  if (!Array.isArray(spec.endpoints) || spec.endpoints.length === 0) {
    errors.push('spec.endpoints must be a non-empty list');
  } else {
    spec.endpoints.forEach((ep, i) => {
      const at = `spec.endpoints[${i}]`;
      if (!isObject(ep)) return errors.push(`${at} must be an object`);
      if (typeof ep.port !== 'string' && ep.targetPort === undefined)
        errors.push(`${at} needs port (a Service port name) or targetPort`);
      if (ep.path !== undefined && !(typeof ep.path === 'string' && ep.path.startsWith('/')))
        errors.push(`${at}.path must start with /`);
      for (const field of ['interval', 'scrapeTimeout']) {
        if (
          ep[field] !== undefined &&
          !(typeof ep[field] === 'string' && duration.test(ep[field]))
        ) {
          errors.push(`${at}.${field} must be a Prometheus duration such as 30s`);
        }
      }
      if (ep.scheme !== undefined && !['http', 'https'].includes(ep.scheme))
        errors.push(`${at}.scheme must be http or https`);
      return undefined;
    });
  }
  return errors;
}
