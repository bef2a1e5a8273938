/**
 * The demo's configuration (docs/indexer.md "Demo"): ports and pacing from the environment,
 * checked once at start-up; absent = default, present but invalid stops the demo.
 */
import { envInteger, parseConfig } from '@ctss/server-kit';
import { z } from 'zod';

const port = (fallback: number) =>
  envInteger(1, 65_535)
    .optional()
    .transform((v) => v ?? fallback);

const bool = (fallback: boolean) =>
  z
    .enum(['true', 'false'])
    .optional()
    .transform((v) => (v === undefined ? fallback : v === 'true'));

/** The demo's environment schema. */
const DemoConfigSchema = z.object({
  /** Monitoring API port. */
  DEMO_MONITORING_PORT: port(3000),
  /** Gas Quote API port. */
  DEMO_GAS_QUOTE_PORT: port(3001),
  /** Indexer probe port (/health, /metrics). */
  DEMO_INDEXER_PORT: port(3010),
  /** Points and rank job probe port (/health, /metrics). */
  DEMO_RANK_JOB_PORT: port(3011),
  /** Seconds between two runs of the points and rank job. */
  DEMO_RANK_JOB_SECONDS: envInteger(1, 3_600)
    .optional()
    .transform((v) => v ?? 5),
  /** anvil of chain A (CCTP domain 0, the origin of the generated transfers). */
  DEMO_CHAIN_A_PORT: port(8545),
  /** anvil of chain B (CCTP domain 3, the destination). */
  DEMO_CHAIN_B_PORT: port(8546),
  /** Local Iris. */
  DEMO_IRIS_PORT: port(8547),
  /** The local Solana cluster's JSON-RPC (CCTP domain 5; Solana's usual RPC port). */
  DEMO_SOLANA_PORT: port(8899),
  /** Seconds between two transfers from Solana to chain B. */
  DEMO_SOLANA_INTERVAL_SECONDS: envInteger(1, 3_600)
    .optional()
    .transform((v) => v ?? 15),
  /** Seconds from a Solana slot's landing (confirmed) to its finalization. */
  DEMO_SOLANA_FINALIZE_SECONDS: envInteger(0, 3_600)
    .optional()
    .transform((v) => v ?? 2),
  /** Seconds between two generated transfers. */
  DEMO_INTERVAL_SECONDS: envInteger(1, 3_600)
    .optional()
    .transform((v) => v ?? 5),
  /** Seconds the local Iris waits, after first seeing a transfer, before attesting it. */
  DEMO_ATTEST_SECONDS: envInteger(0, 3_600)
    .optional()
    .transform((v) => v ?? 3),
  /** Also load the Monitoring API's 10,000 demo records (its EMBEDDED_SEED). */
  DEMO_SEED: bool(false),
});

/** The demo's configuration, validated. */
export type DemoConfig = z.infer<typeof DemoConfigSchema>;

/**
 * Validates the environment once.
 *
 * @throws ConfigError (server-kit) naming every bad variable.
 */
export function loadDemoConfig(env: Record<string, string | undefined> = process.env): DemoConfig {
  return parseConfig(DemoConfigSchema, env);
}
