/**
 * Prints the environment-variable table of the Gas Quote API as JSON
 * (`{ "gas-quote-api": "<markdown table>" }`), generated from the config schema (server-kit
 * `envVariableRows`): the fixed-name variables the app defines or redefines, then the
 * per-domain ones as `<PREFIX><DOMAIN>`. scripts/env-tables.mjs writes it between the markers of
 * apps/gas-quote-api/README.md, or checks it (`pnpm lint`). Exits 1 when a variable has no
 * description.
 */
import { envVariableRows, ownVariables, renderEnvTable } from '@ctss/server-kit';
import { FixedVariables, PER_DOMAIN_VARIABLES } from '../config.js';

const perDomain = Object.fromEntries(
  Object.entries(PER_DOMAIN_VARIABLES).map(([prefix, schema]) => [`${prefix}<DOMAIN>`, schema]),
);
const tables = {
  'gas-quote-api': renderEnvTable(
    envVariableRows({ ...ownVariables(FixedVariables.shape), ...perDomain }),
  ),
};
process.stdout.write(`${JSON.stringify(tables, null, 2)}\n`);
