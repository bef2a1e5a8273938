// Adds (`setup`) or drops (`teardown`) a stored `record_json` column in the benchmark database:
// each record's JSON text as the feed serves it (apps/monitoring-api record.ts), for measuring what
// storing it would save: `pg-receive.mjs <queries> render stored storedagg` per query, and the
// suite's walk with the API pointed at the column by hand (FINDINGS 1h). `setup` takes about
// 1.5 min and +680 MB at 1M rows; `teardown` drops the column and compacts the table again. The
// suite's runs must not see the column: run `teardown` before `pnpm bench` (the dataset
// fingerprint does not notice it).
// Usage: node experiments/pg-stored.mjs setup | teardown
//   (after `pnpm --filter @ctss/monitoring-api build`; DATABASE_URL of the benchmark database,
//   default postgres://postgres@127.0.0.1:5432/ctss_bench)
import pg from 'pg';

const record = await import(
  new URL('../../../apps/monitoring-api/dist/transactions/record.js', import.meta.url).href
);
const [command] = process.argv.slice(2);
if (command !== 'setup' && command !== 'teardown')
  throw new Error('usage: pg-stored.mjs setup | teardown');
const client = new pg.Client({
  connectionString: process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/ctss_bench',
});
await client.connect();
if (command === 'setup') {
  const as = (fields) => record.recordJsonSql(fields).replaceAll('t.', 'transactions.');
  await client.query('alter table transactions disable trigger user');
  await client.query('alter table transactions add column record_json text');
  await client.query(`update transactions set record_json = case network
    when 'mainnet' then ${as(record.MAINNET_FIELDS)} else ${as(record.TESTNET_FIELDS)} end`);
  await client.query('alter table transactions enable trigger user');
} else {
  await client.query('alter table transactions drop column if exists record_json');
}
await client.query('vacuum full analyze transactions');
await client.end();
