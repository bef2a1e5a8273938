/** knex's PostgreSQL dialect client (CommonJS, untyped deep path), subclassed for read replicas. */
declare module 'knex/lib/dialects/postgres/index.js' {
  import type { Knex } from 'knex';

  /** The pg dialect client; `_acquireOnlyConnection` opens one physical connection from `connectionSettings`. */
  class ClientPG extends Knex.Client {
    _acquireOnlyConnection(): Promise<unknown>;
  }
  export default ClientPG;
}
