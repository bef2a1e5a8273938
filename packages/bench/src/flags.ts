/**
 * What the bench commands' flag parsing shares (`pnpm bench`, `pnpm bench:indexer`; README.md):
 * node:util parseArgs with only the declared flags, and the `DATABASE_URL` both read.
 */
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { z } from 'zod';

/** The flag declarations of {@link parseFlags} (parseArgs `options`). */
export type FlagDeclarations = NonNullable<ParseArgsConfig['options']>;

/** The values {@link parseFlags} returns for `D`: a string or boolean (or their array) per flag. */
export type FlagValues<D extends FlagDeclarations> = ReturnType<
  typeof parseArgs<{ args: string[]; options: D; strict: true; allowPositionals: false }>
>['values'];

/**
 * The values of the flags `declared` found in `argv` (without node and the script), typed by the
 * declarations: absent flags are undefined.
 * @throws TypeError (ERR_PARSE_ARGS_*) on an undeclared flag, a missing value or a positional.
 */
export function parseFlags<const D extends FlagDeclarations>(
  argv: readonly string[],
  declared: D,
): FlagValues<D> {
  return parseArgs({ args: [...argv], options: declared, strict: true, allowPositionals: false })
    .values;
}

/** `DATABASE_URL`: a postgres:// URL of the PostgreSQL server, default the local one. */
export const DatabaseUrlSchema = z
  .string()
  .regex(/^postgres(ql)?:\/\//, 'DATABASE_URL must be a postgres:// URL')
  .default('postgres://postgres@127.0.0.1:5432/postgres');
