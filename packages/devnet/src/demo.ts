/**
 * `pnpm demo` (docs/indexer.md "Demo"): two local anvil chains as CCTP domains 0 and 3 with the
 * stand-in contracts, a local Solana cluster stand-in as domain 5, a local Iris that attests
 * after a short delay, the Gas Quote API, the Monitoring API on its embedded database, the
 * transfer indexer (both anvil chains and the Solana cluster) and the points and rank job (every
 * few seconds) against them; a generator sending a transfer from chain A every few seconds with
 * @ctss/sdk (to chain B, and every fifth into Solana), a Solana wallet sending to chain B, and a
 * relayer delivering the attested ones (on chain B from an account that only relays, on Solana
 * as Circle's `receive_message`); the sending wallet joins as `demo.ctss` and its points and
 * leaderboard rank are printed as they grow. Prints the URLs to open; SIGINT or SIGTERM stops the
 * senders and the relayer, then the children by PID, the Iris, the cluster and the chains. Run
 * after `pnpm build`.
 */
import { createCtssClient } from '@ctss/sdk';
import { ConfigError } from '@ctss/server-kit';
import { startAnvil, type Anvil } from './anvil.js';
import {
  QUOTE_KEY,
  deployCctpChain,
  devnetQuotePackingEnv,
  receiveMessage,
  relayerWallet,
  type CctpChain,
} from './cctp-chain.js';
import { startChild, waitForOk, type ChildService } from './child.js';
import { loadDemoConfig, type DemoConfig } from './demo/config.js';
import { startGenerator, type Generator } from './demo/generator.js';
import { startPointsReporter, type PointsReporter } from './demo/points.js';
import { startRelayer, type Relayer } from './demo/relayer.js';
import { startDemoSolana, type DemoSolana } from './demo/solana.js';
import { gasQuoteApiEntry, monitoringApiEntry } from './entries.js';
import { startFakeIris, type FakeIris } from './fake-iris.js';

const log = (line: string) => process.stdout.write(`[demo] ${line}\n`);

let config: DemoConfig;
try {
  config = loadDemoConfig();
} catch (err) {
  if (!(err instanceof ConfigError)) throw err;
  process.stderr.write(`demo: ${err.message}\n`);
  process.exit(1);
}

const anvils: Anvil[] = [];
const children: ChildService[] = [];
let iris: FakeIris | undefined;
let generator: Generator | undefined;
let solana: DemoSolana | undefined;
let relayer: Relayer | undefined;
let points: PointsReporter | undefined;
/** The username the demo wallet claims through the joining path. */
const DEMO_USERNAME = 'demo.ctss';
/** Set once a stop has begun: start-up checks it after every await and starts nothing more. */
let stopping = false;

/** Waits for `step`, at most `ms` (ms). */
async function atMost(step: Promise<void> | undefined, ms = 5_000): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([step, new Promise<void>((r) => (timer = setTimeout(r, ms)))]);
  clearTimeout(timer);
}

async function stopAll(code: number): Promise<never> {
  stopping = true;
  log('stopping...');
  // Start-up first returns at its next check of `stopping` (each of its awaits is bounded: a
  // child's readiness wait ends when the child exits), so nothing it starts is missed below.
  await starting.catch(() => undefined);
  // Ctrl-C reaches the children too: a send or receive in flight may wait on a chain that is
  // gone, so each sender gets a few seconds to finish its step and is then left behind.
  await atMost(points?.stop());
  await atMost(generator?.stop());
  await atMost(solana?.stop());
  await atMost(relayer?.stop());
  // Children in reverse start order: the indexer before the database it writes to.
  for (const child of [...children].reverse()) await child.stop();
  await iris?.close();
  await solana?.close();
  await Promise.all(anvils.map((a) => a.stop()));
  if (generator && solana && relayer) {
    const sent = generator.counts.sent + solana.counts.sent;
    const failed = generator.counts.failed + solana.counts.failed + relayer.counts.failed;
    log(`stopped: ${sent} transfers sent, ${relayer.counts.received} received, ${failed} failed`);
  }
  process.exit(code);
}

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    if (stopping) return;
    void stopAll(0);
  });
}

/** The embedded database URL the Monitoring API logs when DATABASE_URL is unset. */
function databaseUrlFrom(line: string): string | undefined {
  try {
    const url = (JSON.parse(line) as { url?: unknown }).url;
    return typeof url === 'string' && url.startsWith('postgres://') ? url : undefined;
  } catch {
    return undefined;
  }
}

async function main(): Promise<void> {
  const t0 = Date.now();
  log('starting two anvil chains and deploying the contracts...');
  const [a, b] = await Promise.all([
    startAnvil(config.DEMO_CHAIN_A_PORT, 31_337),
    startAnvil(config.DEMO_CHAIN_B_PORT, 31_338),
  ]);
  anvils.push(a, b);
  if (stopping) return;
  const [chainA, chainB]: CctpChain[] = await Promise.all([
    deployCctpChain(a.url, 0, 31_337),
    deployCctpChain(b.url, 3, 31_338),
  ]);
  // A block every second from now on, so confirmations advance without traffic.
  await Promise.all([a.rpc('evm_setIntervalMining', [1]), b.rpc('evm_setIntervalMining', [1])]);
  if (stopping) return;
  solana = await startDemoSolana({
    port: config.DEMO_SOLANA_PORT,
    finalizeAfterMs: config.DEMO_SOLANA_FINALIZE_SECONDS * 1000,
    intervalMs: config.DEMO_SOLANA_INTERVAL_SECONDS * 1000,
    destination: chainB!,
    log,
  });
  if (stopping) return;
  iris = await startFakeIris(
    config.DEMO_IRIS_PORT,
    { 0: a.url, 3: b.url },
    { attestAfterMs: config.DEMO_ATTEST_SECONDS * 1000, solanaRpcUrl: solana.url },
  );
  // Circle's fee on the fast v2 transfers, as the local Iris executes it (within their maxFee).
  iris.feeExecuted = 1_500n;
  if (stopping) return;

  const quiet = { LOG_LEVEL: 'warn', DATABASE_URL: '', REDIS_URL: '' };
  const gas = startChild('gas-quote-api', gasQuoteApiEntry(), {
    ...quiet,
    PORT: String(config.DEMO_GAS_QUOTE_PORT),
    // The key the stand-in transfer contracts trust (a well-known test key).
    SIGNER_ECDSA_PRIVATE_KEY: QUOTE_KEY,
    // Quotes packed as the deployed transfer contract verifies them (uint128 fee, uint64 deadline).
    ...devnetQuotePackingEnv([0, 3]),
    NODE_ENV: 'development',
    // Prices from the bundled snapshot; the transfer contracts' fees (/routes contractFeeBps)
    // read from the two chains.
    PRICE_SOURCE: 'snapshot',
    RPC_URL_0: chainA!.url,
    TRANSFER_CONTRACT_0: chainA!.cashmere,
    RPC_URL_3: chainB!.url,
    TRANSFER_CONTRACT_3: chainB!.cashmere,
  });
  children.push(gas);
  let databaseUrl: string | undefined;
  const monitoring = startChild(
    'monitoring-api',
    monitoringApiEntry('main.js'),
    {
      ...quiet,
      PORT: String(config.DEMO_MONITORING_PORT),
      EMBEDDED_SEED: String(config.DEMO_SEED),
      // Statistics follow the new transfers within seconds.
      CACHE_TTL_SECONDS: '2',
    },
    {
      onLine: (line) => {
        databaseUrl ??= databaseUrlFrom(line);
      },
    },
  );
  children.push(monitoring);
  const gasUrl = `http://127.0.0.1:${config.DEMO_GAS_QUOTE_PORT}`;
  const apiUrl = `http://127.0.0.1:${config.DEMO_MONITORING_PORT}`;
  await Promise.all([waitForOk(`${gasUrl}/ready`, gas), waitForOk(`${apiUrl}/ready`, monitoring)]);
  if (stopping) return;
  if (!databaseUrl) throw new Error('the Monitoring API did not log its embedded database URL');

  const chainEntry = (name: string, chain: CctpChain) => ({
    name,
    network: 'mainnet',
    domain: chain.domain,
    rpcUrls: [chain.url],
    transferContracts: [chain.cashmere, chain.cashmereLegacy],
    messageTransmitters: [chain.transmitterV1, chain.transmitterV2],
    tokenMessengers: [chain.messengerV1, chain.messengerV2],
    usdc: chain.usdc,
    startBlock: chain.startBlock,
    confirmations: 2,
    pollIntervalMs: 1000,
  });
  const indexer = startChild('indexer', monitoringApiEntry('indexer.js'), {
    ...quiet,
    DATABASE_URL: databaseUrl,
    PORT: String(config.DEMO_INDEXER_PORT),
    IRIS_URL: iris.url,
    IRIS_RECHECK_SECONDS: '1',
    INDEXER_CHAINS: JSON.stringify([
      chainEntry('demo-a', chainA!),
      chainEntry('demo-b', chainB!),
      // Mainnet's program addresses (the defaults), which the cluster's transactions use.
      { family: 'solana', name: 'demo-solana', rpcUrls: [solana.url], pollIntervalMs: 500 },
    ]),
  });
  children.push(indexer);
  const indexerUrl = `http://127.0.0.1:${config.DEMO_INDEXER_PORT}`;
  await waitForOk(`${indexerUrl}/ready`, indexer);
  if (stopping) return;
  // The points and rank job on a schedule (rank-job.js --every), so points and ranks move.
  const rankJob = startChild(
    'rank-job',
    monitoringApiEntry('rank-job.js'),
    { ...quiet, DATABASE_URL: databaseUrl, PORT: String(config.DEMO_RANK_JOB_PORT) },
    { args: ['--every', String(config.DEMO_RANK_JOB_SECONDS)] },
  );
  children.push(rankJob);
  const rankJobUrl = `http://127.0.0.1:${config.DEMO_RANK_JOB_PORT}`;
  await waitForOk(`${rankJobUrl}/ready`, rankJob);
  if (stopping) return;
  points = await startPointsReporter({
    monitoringUrl: apiUrl,
    account: chainA!.userAccount,
    username: DEMO_USERNAME,
    intervalMs: 2_000,
    log,
  });
  if (stopping) return;

  const ctss = createCtssClient({ gasQuoteUrl: gasUrl, monitoringUrl: apiUrl, irisUrl: iris.url });
  // The receives on chain B come from an account of their own: the deployer and the user send
  // too, and two senders of one account race for its nonce.
  const relayerOnB = relayerWallet(chainB!);
  const toChainB = (version: 1 | 2, message: `0x${string}`) =>
    receiveMessage(chainB!, version, message, relayerOnB).then((r) => r.transactionHash);
  const demoSolana = solana;
  relayer = startRelayer({
    ctss,
    irisUrl: iris.url,
    since: Math.floor(t0 / 1000) - 5,
    log,
    routes: [
      { source: 0, destination: 3, name: 'chain B', deliver: toChainB },
      { source: 0, destination: 5, name: 'Solana', deliver: (v, m) => demoSolana.receive(v, m) },
      { source: 5, destination: 3, name: 'chain B', deliver: toChainB },
    ],
  });
  generator = startGenerator({
    ctss,
    source: chainA!,
    destination: chainB!,
    solanaRecipient: solana.wallet,
    intervalMs: config.DEMO_INTERVAL_SECONDS * 1000,
    log,
  });
  solana.startSending(ctss);
  for (const child of children) {
    void child.exited.then((code) => {
      if (!stopping) {
        log(`${child.name} exited (${code}); stopping`);
        void stopAll(1);
      }
    });
  }
  process.stdout.write(
    [
      '',
      `Demo running (ready in ${((Date.now() - t0) / 1000).toFixed(1)} s); a transfer from chain A every ${config.DEMO_INTERVAL_SECONDS} s (every fifth into Solana), one from Solana every ${config.DEMO_SOLANA_INTERVAL_SECONDS} s. Open:`,
      `  Feed         ${apiUrl}/transactionsmainnet`,
      `  Statistics   ${apiUrl}/stats/mainnet/transactions  ${apiUrl}/stats/mainnet/volumes  ${apiUrl}/stats/mainnet/chain-shares  ${apiUrl}/stats/mainnet/wallets`,
      `  API docs     ${apiUrl}/docs/`,
      `  Gas quote    ${gasUrl}/getEcdsaSig_native?localDomain=0&destinationDomain=3&isV2=true&isNative=false`,
      `  Indexer      ${indexerUrl}/health  ${indexerUrl}/metrics`,
      `  Points       ${apiUrl}/users?wallets=${chainA!.userAccount.address}_evm  ${apiUrl}/users/leaderboard?search=${DEMO_USERNAME}  (job: ${rankJobUrl}/health, every ${config.DEMO_RANK_JOB_SECONDS} s)`,
      `  Solana       ${apiUrl}/transactionsmainnet?source_domain=5  ${apiUrl}/transactionsmainnet?destination_domain=5  (wallet ${solana.wallet})`,
      `  Chains       A (domain 0) ${a.url}  B (domain 3) ${b.url}  Solana (domain 5) ${solana.url};  Iris ${iris.url}`,
      `  Chain A      transfer contract ${chainA!.cashmere}  USDC ${chainA!.usdc}  (docs/sdk.md)`,
      'Ctrl-C stops everything.',
      '',
    ].join('\n'),
  );
}

/** The start-up (main), settled once it has returned early, finished, or failed. */
const starting = main();
starting.catch((err: unknown) => {
  process.stderr.write(`demo: ${(err as Error).stack ?? String(err)}\n`);
  if (!stopping) void stopAll(1);
});
