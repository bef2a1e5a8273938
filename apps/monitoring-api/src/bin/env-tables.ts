/**
 * Prints the environment-variable tables of the Monitoring API and its indexer as JSON
 * (`{ "<table name>": "<markdown table>" }`), generated from the config schemas
 * (server-kit `envVariableRows`): `shared` (the variables of both services), `monitoring-api`
 * and `indexer`. scripts/env-tables.mjs writes them between the markers of the READMEs and
 * docs/indexer.md, or checks them (`pnpm lint`). Exits 1 when a variable has no description.
 */
import {
  envVariableRows,
  ownVariables,
  renderEnvTable,
  serviceConfigShape,
} from '@ctss/server-kit';
import { ConfigSchema } from '../config.js';
import { IndexerConfigSchema, indexerPreSchemaVariables } from '../indexer/config.js';

const tables = {
  shared: renderEnvTable(envVariableRows(serviceConfigShape)),
  'monitoring-api': renderEnvTable(envVariableRows(ownVariables(ConfigSchema.shape))),
  indexer: renderEnvTable(
    envVariableRows({ ...IndexerConfigSchema.shape, ...indexerPreSchemaVariables }),
  ),
};
process.stdout.write(`${JSON.stringify(tables, null, 2)}\n`);
