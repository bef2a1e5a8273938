/** knex's PostgreSQL dialect client (CommonJS, untyped deep path), subclassed for read replicas. */
declare module 'knex/lib/dialects/postgres/index.js' {
  import type { Knex } from 'knex';

  /** The pg dialect client; `_acquireOnlyConnection` opens one physical connection from `connectionSettings`. */
  class ClientPG extends Knex.Client {
    _acquireOnlyConnection(): Promise<unknown>;
    /** Runs one query (`obj.sql`, `obj.bindings`) on `connection`; every knex query goes through it. */
    _query(connection: unknown, obj: unknown): Promise<unknown>;
  }
  export default ClientPG;
}
