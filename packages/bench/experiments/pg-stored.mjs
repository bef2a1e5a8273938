// What storing each record's JSON text would save on a 100-record time-window page: PostgreSQL
// and Node CPU per query, one pg.Client with 8 queries queued (as pg-receive.mjs), for the feed's
// statement shapes:
//   render     the record rendered per query (apps/monitoring-api record.ts), as served today
//   stored     101 rows of a stored `record_json` column
//   storedagg  the same rows aggregated into one value (string_agg over the ordered rows)
// `setup` adds and fills the column `record_json` in the benchmark database (about 1.5 min and
// +680 MB at 1M rows); `teardown` drops it and compacts the table again. The suite's own runs
// must not see the column: run `teardown` before `pnpm bench` (the dataset fingerprint does not
// notice it). The API itself can be pointed at the column by hand for the suite's walk (FINDINGS 1h).
// Usage: node experiments/pg-stored.mjs setup | teardown | <queries> [shape...]
//   (after `pnpm --filter @ctss/monitoring-api build`; DATABASE_URL of the benchmark database,
//   default postgres://postgres@127.0.0.1:5432/ctss_bench)
import { readFileSync } from 'node:fs';
import pg from 'pg';

const record = await import(
  new URL('../../../apps/monitoring-api/dist/transactions/record.js', import.meta.url).href
);
const [command = '2000', ...shapesArg] = process.argv.slice(2);
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
  await client.query('vacuum full analyze transactions');
} else if (command === 'teardown') {
  await client.query('alter table transactions drop column if exists record_json');
  await client.query('vacuum full analyze transactions');
} else {
  await measure(Number(command), shapesArg);
}
await client.end();

async function measure(queries, shapesWanted) {
  let reads = 0;
  client.connection.stream.on('data', () => reads++);
  await client.query('set jit = off');
  const { rows } = await client.query('select pg_backend_pid() as pid');
  // The backend's user + system clock ticks (1/100 s), proc(5).
  const backendTicks = () => {
    const stat = readFileSync(`/proc/${rows[0].pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return Number(fields[11]) + Number(fields[12]);
  };
  const newest = await client.query(
    "select extract(epoch from max(created_at))::int8 as e from transactions where network = 'mainnet'",
  );
  const starts = Array.from(
    { length: 200 },
    (_, i) => Number(newest.rows[0].e) - 3600 * (10 + 3 * i),
  );
  const page = (columns) => `select ${columns} from transactions where network = 'mainnet'
    and created_at >= to_timestamp((select $1::int8)) and created_at < to_timestamp((select $2::int8))
    order by created_at desc, id desc limit (select 101::int8)`;
  const cursor = `date_part('epoch', t.created_at)::int8 || '_' || t.id`;
  const sql = {
    render: `select ${record.recordJsonSql(record.MAINNET_FIELDS)}, ${cursor} from (${page('*')}) t order by t.created_at desc, t.id desc`,
    stored: `select t.record_json, ${cursor} from (${page('record_json, created_at, id')}) t order by t.created_at desc, t.id desc`,
    storedagg: `select string_agg(t.record_json, ',') filter (where t.n <= 100), count(*),
      max(${cursor}) filter (where t.n = 100)
      from (select s.*, row_number() over () as n from (${page('record_json, created_at, id')}) s) t`,
  };
  const shapes = shapesWanted.length > 0 ? shapesWanted : Object.keys(sql);
  for (const shape of shapes) {
    const run = (i) =>
      client.query({
        name: `pg_stored_${shape}`,
        text: sql[shape],
        values: [starts[i % starts.length], starts[i % starts.length] + 3600],
        rowMode: 'array',
      });
    for (let i = 0; i < 200; i++) await run(i);
    const cpu = process.cpuUsage();
    const ticks = backendTicks();
    reads = 0;
    const started = performance.now();
    let next = 0;
    let received = 0;
    let chars = 0;
    await Promise.all(
      Array.from({ length: 8 }, async () => {
        while (next < queries) {
          const result = await run(next++);
          received += result.rows.length;
          for (const row of result.rows) chars += row[0]?.length ?? 0;
        }
      }),
    );
    const used = process.cpuUsage(cpu);
    const postgresUs = ((backendTicks() - ticks) * 10_000) / queries;
    console.log(
      `${shape.padEnd(9)} ${(received / queries).toFixed(0).padStart(4)} rows, ${Math.round(chars / queries / 1024)} KB per query: ${(reads / queries).toFixed(1)} socket reads, Node CPU ${Math.round((used.user + used.system) / queries)} us, PostgreSQL CPU ${Math.round(postgresUs)} us, wall ${Math.round(((performance.now() - started) * 1000) / queries)} us per query`,
    );
  }
}
