// What receiving a feed page from PostgreSQL costs node-postgres: Node CPU per query (this
// process, from process.cpuUsage) for one-hour time-window pages of the benchmark database, read
// by one pg.Client with 8 queries queued at a time, as named statements with rowMode 'array' (as
// the monitoring API runs them), the socket reads per query, and the PostgreSQL backend's CPU per
// query (from /proc). Result shapes:
//   tiny       one short row (the per-query cost)
//   rows       101 rows of 690 bytes (a 100-record page's size, built cheaply by PostgreSQL)
//   one        the same 70 KB as one value (string_agg)
//   render     101 rows of the feed's record JSON (apps/monitoring-api record.ts), as served
//   renderagg  the rendered records aggregated into one value in their order
//   stored     101 rows of a stored `record_json` column (added by pg-stored.mjs setup)
//   storedagg  the stored records aggregated into one value (string_agg over the ordered rows)
// Usage: node experiments/pg-receive.mjs [queries] [shape...]   (default: the shapes that need no
//   stored column)
//   (after `pnpm --filter @ctss/monitoring-api build` and `pnpm --filter @ctss/bench build`; DATABASE_URL of the benchmark database,
//   default postgres://postgres@127.0.0.1:5432/ctss_bench)
import pg from 'pg';
import { processSeconds } from '../dist/cpu.js';
const record = await import(
  new URL('../../../apps/monitoring-api/dist/transactions/record.js', import.meta.url).href
);
const [queriesArg, ...shapesArg] = process.argv.slice(2);
const queries = Number(queriesArg ?? '2000');
const shapes = shapesArg.length > 0 ? shapesArg : ['tiny', 'rows', 'one', 'render'];
const client = new pg.Client({
  connectionString: process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/ctss_bench',
});
await client.connect();
let reads = 0;
client.connection.stream.on('data', () => reads++);
await client.query('set jit = off');
const backend = (await client.query('select pg_backend_pid() as pid')).rows[0].pid;
const newest = await client.query(
  "select extract(epoch from max(created_at))::int8 as e from transactions where network = 'mainnet'",
);
const starts = Array.from(
  { length: 200 },
  (_, i) => Number(newest.rows[0].e) - 3600 * (10 + 3 * i),
);
const columns = (list) => `select ${list} from transactions where network = 'mainnet'
  and created_at >= to_timestamp((select $1::int8)) and created_at < to_timestamp((select $2::int8))
  order by created_at desc, id desc limit 101`;
const page = columns('*');
const stored = columns('record_json, created_at, id');
const sql = {
  tiny: `select 'x', t.id::text from (${page}) t limit 1`,
  rows: `select repeat('x', 690), t.id::text from (${page}) t`,
  one: `select string_agg(repeat('x', 690), ',') from (${page}) t`,
  render: `select ${record.recordJsonSql(record.MAINNET_FIELDS)}, t.id::text from (${page}) t`,
  renderagg: `select string_agg(${record.recordJsonSql(record.MAINNET_FIELDS)}, ',' order by t.created_at desc, t.id desc) from (${page}) t`,
  stored: `select t.record_json, t.id::text from (${stored}) t`,
  storedagg: `select string_agg(t.record_json, ',') from (${stored}) t`,
};
for (const shape of shapes) {
  const run = (i) =>
    client.query({
      name: `pg_receive_${shape}`,
      text: sql[shape],
      values: [starts[i % starts.length], starts[i % starts.length] + 3600],
      rowMode: 'array',
    });
  for (let i = 0; i < 200; i++) await run(i);
  const cpu = process.cpuUsage();
  const backendBefore = await processSeconds(backend);
  reads = 0;
  const started = performance.now();
  let next = 0;
  let rows = 0;
  let chars = 0;
  await Promise.all(
    Array.from({ length: 8 }, async () => {
      while (next < queries) {
        const result = await run(next++);
        rows += result.rows.length;
        for (const row of result.rows) chars += row[0].length;
      }
    }),
  );
  const used = process.cpuUsage(cpu);
  const postgresUs = (((await processSeconds(backend)) - backendBefore) * 1e6) / queries;
  console.log(
    `${shape.padEnd(9)} ${(rows / queries).toFixed(0).padStart(4)} rows, ${Math.round(chars / queries / 1024)} KB per query: ${(reads / queries).toFixed(1)} socket reads, Node CPU ${Math.round((used.user + used.system) / queries)} us, PostgreSQL CPU ${Math.round(postgresUs)} us, wall ${Math.round(((performance.now() - started) * 1000) / queries)} us per query`,
  );
}
await client.end();
