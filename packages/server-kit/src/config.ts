/**
 * Start-up configuration: one zod schema parsed once from the environment. Absent values take
 * the schema's defaults; a present but invalid value stops the service with every problem listed.
 */
import type { z } from 'zod';

/** Thrown by {@link parseConfig}; `issues` lists `VARIABLE: problem` lines, never the values. */
export class ConfigError extends Error {
  constructor(readonly issues: string[]) {
    super(`invalid configuration:\n  ${issues.join('\n  ')}`);
    this.name = 'ConfigError';
  }
}

/**
 * Parses `env` (default `process.env`) with `schema`. Empty strings count as absent, so
 * `FOO=` in a values file means "use the default".
 *
 * @throws ConfigError naming each invalid variable (values are not echoed: they may be secrets).
 */
export function parseConfig<S extends z.ZodType>(
  schema: S,
  env: Record<string, string | undefined> = process.env,
): z.output<S> {
  const cleaned: Record<string, string> = {};
  for (const [key, value] of Object.entries(env)) {
    if (value !== undefined && value !== '') cleaned[key] = value;
  }
  const result = schema.safeParse(cleaned);
  if (!result.success) {
    throw new ConfigError(
      result.error.issues.map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`),
    );
  }
  return result.data;
}
