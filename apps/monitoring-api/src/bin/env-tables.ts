/**
 * Prints the environment-variable tables of the Monitoring API and its indexer as JSON
 * (`{ "<table name>": "<markdown table>" }`), generated from the config schemas
 * (server-kit `envVariableRows`): `shared` (the variables of both services), `monitoring-api`
 * and `indexer`, and the fields of the indexer's JSON-valued chain lists: `indexer-evm-chain`
 * and `indexer-solana-chain` (`INDEXER_CHAINS` entries), `indexer-sui-chain`
 * (`INDEXER_SUI_CHAINS`), `indexer-aptos-chain` (`INDEXER_APTOS_CHAINS`). scripts/env-tables.mjs
 * writes them between the markers of the READMEs and docs/indexer.md, or checks them (`pnpm
 * lint`). Exits 1 when a variable or field has no description.
 */
import {
  envVariableRows,
  ownVariables,
  renderEnvTable,
  serviceConfigShape,
} from '@ctss/server-kit';
import { ConfigSchema } from '../config.js';
import { AptosChainSchema } from '../indexer/aptos/config.js';
import {
  ChainConfigSchema,
  IndexerConfigSchema,
  indexerPreSchemaVariables,
} from '../indexer/config.js';
import { SolanaChainConfigSchema } from '../indexer/solana/config.js';
import { SuiChainSchema } from '../indexer/sui/config.js';

/** The table of the fields of a JSON-valued variable's entries (`shape`: the entry's object schema). */
const fieldTable = (shape: Parameters<typeof envVariableRows>[0]) =>
  renderEnvTable(envVariableRows(shape, 'json'), 'Field');

const tables = {
  shared: renderEnvTable(envVariableRows(serviceConfigShape)),
  'monitoring-api': renderEnvTable(envVariableRows(ownVariables(ConfigSchema.shape))),
  indexer: renderEnvTable(
    envVariableRows({ ...IndexerConfigSchema.shape, ...indexerPreSchemaVariables }),
  ),
  // The entries' fields as configured: the schema before its transform fills in defaults.
  'indexer-evm-chain': fieldTable(ChainConfigSchema.in.shape),
  'indexer-solana-chain': fieldTable(SolanaChainConfigSchema.in.shape),
  'indexer-sui-chain': fieldTable(SuiChainSchema.in.shape),
  'indexer-aptos-chain': fieldTable(AptosChainSchema.in.shape),
};
process.stdout.write(`${JSON.stringify(tables, null, 2)}\n`);
