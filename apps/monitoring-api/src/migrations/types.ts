/** The shape of one migration in the static list (knex custom `migrationSource`). */
import type { Knex } from 'knex';

/** A named migration; `name` is the key recorded in `knex_migrations` (timestamp prefix orders them). */
export interface Migration {
  readonly name: string;
  up(knex: Knex): Promise<void>;
  down(knex: Knex): Promise<void>;
}
