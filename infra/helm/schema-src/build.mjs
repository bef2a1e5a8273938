// Builds each chart's values.schema.json from the shared value types in common.mjs.
// Run: node infra/helm/schema-src/build.mjs        (writes the files)
//      node infra/helm/schema-src/build.mjs --check (exit 1 when a committed file is stale)
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as prettier from 'prettier';
import * as c from './common.mjs';

const helmDir = join(dirname(fileURLToPath(import.meta.url)), '..');

const workloadBasics = {
  revisionHistoryLimit: c.int('Old ReplicaSets kept.', 0),
  terminationGracePeriodSeconds: c.int('Seconds between SIGTERM and SIGKILL.', 1),
  preStopSleepSeconds: c.int('preStop sleep before SIGTERM, seconds (0 = none).', 0, {
    maximum: 120,
  }),
};

const jobBasics = {
  command: c.command,
  backoffLimit: c.int('Retries.', 0),
  activeDeadlineSeconds: c.int('Upper bound on one run, seconds.', 1),
  resources: c.resources,
};

/**
 * The indexer's chains of each family (apps/monitoring-api/src/indexer/*config.ts,
 * docs/indexer.md "Configuration", "Sui and Aptos", "Solana"). Endpoint URLs carry provider keys,
 * so each chain may name the Secret key of its URL(s) (`*From`): the chart renders them as the
 * per-chain variables the indexer reads and leaves them out of the ConfigMap.
 */
const chainName = c.str('Display name; with the family, the key of its URL variables.', {
  pattern: '^[a-z0-9_-]{1,64}$',
});
const moveNetwork = { enum: ['mainnet', 'testnet'], description: 'Feed of its records.' };
const moveAddress = c.str('0x-prefixed package / module address (up to 32 bytes).', {
  pattern: '^0x[0-9a-fA-F]{1,64}$',
});
const moveAddresses = (description) => ({
  type: 'array',
  minItems: 1,
  items: moveAddress,
  description,
});
const httpUrl = (description) => c.str(description, { pattern: '^https?://[^\\s]+$' });
const intIn = (description, minimum, maximum) => c.int(description, minimum, { maximum });
const urlFrom = (variable) => ({
  ...c.secretKeyRef,
  description: `Secret key holding the URL, rendered as ${variable}<NAME>; instead of the inline URL.`,
});
/** Exactly one of an inline URL field and its Secret reference. */
const oneUrl = (field) => ({ oneOf: [{ required: [field] }, { required: [`${field}From`] }] });
/** A testnet chain names every address (mainnet ones default, docs/indexer.md). */
const testnetNames = (fields) => ({
  if: { required: ['network'], properties: { network: { const: 'testnet' } } },
  then: { required: fields },
});

const suiChain = c.object(
  {
    name: chainName,
    network: moveNetwork,
    domain: intIn('CCTP domain (Sui: 8).', 0, 4294967295),
    graphqlUrl: httpUrl('Sui GraphQL endpoint without a key (public); or graphqlUrlFrom.'),
    graphqlUrlFrom: urlFrom('INDEXER_SUI_GRAPHQL_URL_'),
    transferPackages: moveAddresses('Transfer package(s); mainnet default.'),
    tokenMessengerMinterPackage: { ...moveAddress, description: "Circle's; mainnet default." },
    messageTransmitterPackage: { ...moveAddress, description: "Circle's; mainnet default." },
    startCheckpoint: c.int('First checkpoint to read (the transfer package publication).', 0),
    pollIntervalMs: intIn('Poll interval, ms.', 10, 600000),
    maxCheckpointRange: intIn('Most checkpoints per step.', 1, 1000000),
    pageSize: intIn('Events per GraphQL page.', 1, 50),
    requestTimeoutMs: intIn('Per-request timeout, ms.', 100, 120000),
  },
  ['name', 'startCheckpoint'],
  {
    ...oneUrl('graphqlUrl'),
    ...testnetNames([
      'transferPackages',
      'tokenMessengerMinterPackage',
      'messageTransmitterPackage',
    ]),
  },
);

const aptosChain = c.object(
  {
    name: chainName,
    network: moveNetwork,
    domain: intIn('CCTP domain (Aptos: 9).', 0, 4294967295),
    indexerUrl: httpUrl('Aptos Indexer GraphQL endpoint without a key; or indexerUrlFrom.'),
    indexerUrlFrom: urlFrom('INDEXER_APTOS_INDEXER_URL_'),
    restUrl: httpUrl('Aptos node REST base with /v1, without a key; or restUrlFrom.'),
    restUrlFrom: urlFrom('INDEXER_APTOS_REST_URL_'),
    transferModules: moveAddresses('Transfer module address(es); mainnet default.'),
    tokenMessengerMinter: { ...moveAddress, description: "Circle's; mainnet default." },
    messageTransmitter: { ...moveAddress, description: "Circle's; mainnet default." },
    startVersion: c.int('First transaction version to read (the module publication).', 0),
    pollIntervalMs: intIn('Poll interval, ms.', 10, 600000),
    maxVersionRange: intIn('Most versions per step.', 1, 100000000),
    pageSize: intIn('Events per Indexer page.', 1, 100),
    requestTimeoutMs: intIn('Per-request timeout, ms.', 100, 120000),
  },
  ['name', 'startVersion'],
  {
    allOf: [oneUrl('indexerUrl'), oneUrl('restUrl')],
    ...testnetNames(['transferModules', 'tokenMessengerMinter', 'messageTransmitter']),
  },
);

function monitoringApi() {
  return c.object(
    {
      ...c.topLevelCommon,
      replicaCount: c.int('API pods without autoscaling.', 1),
      containerPort: c.int('Container port (sets PORT).', 1024, { maximum: 65535 }),
      metricsPort: c.int('Port of /metrics (sets METRICS_PORT); 0 = on containerPort.', 0, {
        maximum: 65535,
      }),
      ...workloadBasics,
      command: c.command,
      config: c.configMap('Non-secret settings rendered into the ConfigMap.'),
      secretEnv: c.secretEnvMap('Variables from existing Secrets; DATABASE_URL is required.', [
        'DATABASE_URL',
      ]),
      resources: c.resources,
      probes: c.probes,
      service: c.service,
      ingress: c.ingress(),
      autoscaling: c.autoscaling,
      podDisruptionBudget: c.podDisruptionBudget,
      migrations: c.object(
        {
          enabled: c.bool('Run migrations as a pre-install/pre-upgrade hook.'),
          ...jobBasics,
          ttlSecondsAfterFinished: c.int('Seconds a finished Job is kept.', 0),
        },
        ['enabled', 'command'],
      ),
      rankJob: c.object(
        {
          enabled: c.bool('Run the rank CronJob.'),
          schedule: c.str('Cron schedule, 5 fields or a @macro.', {
            pattern:
              '^(@(yearly|annually|monthly|weekly|daily|midnight|hourly)|(\\S+\\s+){4}\\S+)$',
          }),
          timeZone: c.str('IANA time zone.'),
          concurrencyPolicy: { enum: ['Forbid', 'Replace', 'Allow'] },
          startingDeadlineSeconds: c.int('Skip a run that could not start in time.', 1),
          successfulJobsHistoryLimit: c.int('Finished Jobs kept.', 0),
          failedJobsHistoryLimit: c.int('Failed Jobs kept.', 0),
          ...jobBasics,
        },
        ['enabled', 'schedule', 'command', 'concurrencyPolicy'],
      ),
      serviceMonitor: c.serviceMonitor,
      networkPolicy: c.networkPolicy,
      indexer: c.object(
        {
          enabled: c.bool(
            'Run the transfer indexer Deployment (rendered only with chains of some family).',
          ),
          replicaCount: c.int(
            'Indexer pods: one writer per chain (advisory lock), others stand by.',
            0,
            {
              maximum: 3,
            },
          ),
          command: c.command,
          port: c.int('Port of /health, /ready and /metrics (sets PORT).', 1024, {
            maximum: 65535,
          }),
          ...workloadBasics,
          chains: {
            type: 'array',
            description:
              'EVM chains and Solana clusters (family solana) without RPC URLs, rendered into a ConfigMap mounted as INDEXER_CHAINS_FILE (JSON; docs/indexer.md); rpcUrlsFrom names the Secret key of INDEXER_RPC_URLS_<NAME>.',
            items: {
              type: 'object',
              not: { required: ['rpcUrls'] },
              properties: { rpcUrlsFrom: urlFrom('INDEXER_RPC_URLS_') },
              // An EVM chain by default; `family: solana` is a Solana cluster (docs/indexer.md "Solana").
              if: { required: ['family'], properties: { family: { const: 'solana' } } },
              then: { required: ['name', 'family'] },
              else: { required: ['name', 'domain', 'transferContracts', 'startBlock'] },
            },
          },
          suiChains: {
            type: 'array',
            items: suiChain,
            description:
              'Sui chains, rendered into the indexer ConfigMap and read as INDEXER_SUI_CHAINS (docs/indexer.md "Sui and Aptos").',
          },
          aptosChains: {
            type: 'array',
            items: aptosChain,
            description:
              'Aptos chains, rendered into the indexer ConfigMap and read as INDEXER_APTOS_CHAINS (docs/indexer.md "Sui and Aptos").',
          },
          rpcUrlsSecret: {
            oneOf: [
              { type: 'null' },
              c.object(
                {
                  secretName: c.str('Existing Secret holding the RPC URLs file.', {
                    minLength: 1,
                    pattern: '^[a-z0-9]([-a-z0-9.]*[a-z0-9])?$',
                  }),
                  key: c.str('Key of the JSON object chain name -> [RPC URLs].', {
                    minLength: 1,
                    pattern: '^[-._a-zA-Z0-9]+$',
                  }),
                },
                ['secretName', 'key'],
              ),
            ],
            description:
              'Secret mounted as INDEXER_RPC_URLS_FILE (a JSON object chain name -> RPC URLs); null = none.',
          },
          config: c.configMap('Indexer-only settings (IRIS_URL, IRIS_RATE_PER_SECOND, ...).'),
          secretEnv: c.secretEnvMap(
            'Indexer-only secrets as variables (INDEXER_RPC_URLS_<NAME> per chain).',
          ),
          resources: c.resources,
        },
        [
          'enabled',
          'replicaCount',
          'command',
          'port',
          'chains',
          'suiChains',
          'aptosChains',
          'rpcUrlsSecret',
          'config',
          'secretEnv',
          'resources',
        ],
      ),
    },
    [
      'image',
      'replicaCount',
      'containerPort',
      'command',
      'config',
      'secretEnv',
      'podSecurityContext',
      'securityContext',
      'resources',
      'probes',
      'service',
      'ingress',
      'autoscaling',
      'podDisruptionBudget',
      'migrations',
      'rankJob',
      'serviceMonitor',
      'networkPolicy',
    ],
  );
}

function gasQuoteApi() {
  const signerKeys = {
    type: 'object',
    description: 'Env var name -> key in the signer Secret.',
    minProperties: 1,
    propertyNames: { pattern: '^[A-Za-z_][A-Za-z0-9_]*$' },
    additionalProperties: { type: 'string', minLength: 1, pattern: '^[-._a-zA-Z0-9]+$' },
  };
  return c.object(
    {
      ...c.topLevelCommon,
      config: c.configMap('Settings shared by the API and the feeder.'),
      secretEnv: c.secretEnvMap(
        'Secrets shared by the API and the feeder; REDIS_URL is required.',
        ['REDIS_URL'],
      ),
      signer: c.object(
        {
          existingSecret: c.str('Existing Secret holding the signer keys.', {
            minLength: 1,
            pattern: '^[a-z0-9]([-a-z0-9.]*[a-z0-9])?$',
          }),
          keys: signerKeys,
        },
        ['existingSecret', 'keys'],
        { description: 'Signer keys: only the Secret name and key names, never key material.' },
      ),
      rpc: c.object(
        {
          existingSecret: c.str('Existing Secret with one RPC URL per chain key; empty = none.', {
            pattern: '^$|^[a-z0-9]([-a-z0-9.]*[a-z0-9])?$',
          }),
          chains: {
            type: 'array',
            uniqueItems: true,
            items: { type: 'string', pattern: '^[a-z0-9]+$' },
            description: 'Chain keys; each gives RPC_URL_<KEY> from Secret key <key>.',
          },
        },
        ['existingSecret', 'chains'],
      ),
      api: c.object(
        {
          replicaCount: c.int('API pods without autoscaling.', 1),
          containerPort: c.int('Container port (sets PORT).', 1024, { maximum: 65535 }),
          metricsPort: c.int('Port of /metrics (sets METRICS_PORT); 0 = on containerPort.', 0, {
            maximum: 65535,
          }),
          command: c.command,
          ...workloadBasics,
          config: c.configMap('API-only settings.'),
          secretEnv: c.secretEnvMap('API-only secrets.'),
          resources: c.resources,
          probes: c.probes,
          autoscaling: c.autoscaling,
          podDisruptionBudget: c.podDisruptionBudget,
        },
        [
          'replicaCount',
          'containerPort',
          'command',
          'config',
          'secretEnv',
          'resources',
          'probes',
          'autoscaling',
          'podDisruptionBudget',
        ],
      ),
      feeder: c.object(
        {
          enabled: c.bool('Run the price feeder Deployment.'),
          replicaCount: c.int('Feeder pods: one writer (lease lock), the others stand by.', 0, {
            maximum: 3,
          }),
          command: c.command,
          ...workloadBasics,
          config: c.configMap('Feeder-only settings.'),
          secretEnv: c.secretEnvMap('Feeder-only secrets (RPC URLs with API keys).'),
          resources: c.resources,
          http: c.object(
            {
              enabled: c.bool('The feeder serves /health and /metrics on a port; adds probes.'),
              port: c.int('Feeder HTTP port.', 1024, { maximum: 65535 }),
              portEnv: c.str('Env var carrying the port.', { pattern: '^[A-Za-z_][A-Za-z0-9_]*$' }),
              probes: c.object(
                {
                  liveness: c.httpProbe,
                  readiness: { oneOf: [c.httpProbe, { type: 'null' }] },
                  startup: c.httpProbe,
                },
                ['liveness', 'startup'],
              ),
            },
            ['enabled', 'port', 'portEnv', 'probes'],
          ),
        },
        ['enabled', 'replicaCount', 'command', 'config', 'secretEnv', 'resources', 'http'],
      ),
      service: c.service,
      ingress: c.ingress({
        websocket: c.object(
          {
            enabled: c.bool('Add ingress-nginx annotations for the WebSocket /subscribe upgrade.'),
            timeoutSeconds: c.int('Proxy read/send timeout for long-lived connections.', 60, {
              maximum: 86400,
            }),
            upgradeSnippet: c.bool('Also set Upgrade/Connection headers by configuration-snippet.'),
          },
          ['enabled', 'timeoutSeconds'],
        ),
      }),
      serviceMonitor: c.serviceMonitor,
      networkPolicy: c.networkPolicy,
    },
    [
      'image',
      'config',
      'secretEnv',
      'signer',
      'rpc',
      'api',
      'feeder',
      'podSecurityContext',
      'securityContext',
      'service',
      'ingress',
      'serviceMonitor',
      'networkPolicy',
    ],
  );
}

const charts = { 'monitoring-api': monitoringApi, 'gas-quote-api': gasQuoteApi };

/** The schema text for a chart, as committed (formatted with the repository's Prettier settings). */
export async function schemaText(chart) {
  const schema = {
    $schema: 'http://json-schema.org/draft-07/schema#',
    title: `${chart} chart values`,
    ...charts[chart](),
  };
  const file = join(helmDir, chart, 'values.schema.json');
  const options = (await prettier.resolveConfig(file)) ?? {};
  return prettier.format(JSON.stringify(schema), { ...options, parser: 'json' });
}

/** Chart names whose committed values.schema.json differs from the generated one. */
export async function staleSchemas() {
  const stale = [];
  for (const chart of Object.keys(charts)) {
    const file = join(helmDir, chart, 'values.schema.json');
    if (!existsSync(file) || readFileSync(file, 'utf8') !== (await schemaText(chart)))
      stale.push(chart);
  }
  return stale;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  if (process.argv.includes('--check')) {
    const stale = await staleSchemas();
    if (stale.length > 0) {
      console.error(
        `stale values.schema.json: ${stale.join(', ')} (run node infra/helm/schema-src/build.mjs)`,
      );
      process.exit(1);
    }
  } else {
    for (const chart of Object.keys(charts)) {
      writeFileSync(join(helmDir, chart, 'values.schema.json'), await schemaText(chart));
      console.log(`wrote infra/helm/${chart}/values.schema.json`);
    }
  }
}
