/**
 * `node dist/bin/users.js <command>`: operator commands on users (src/users/operator.ts;
 * docs/decisions.md "D154. Operator-loaded user data") on DATABASE_URL, the primary. Prints what
 * changed; exit code 1 with the reason on stderr when a command is refused.
 */
import { readFile } from 'node:fs/promises';
import { parseConfig } from '@ctss/server-kit';
import { ConfigSchema } from '../config.js';
import { createDatabase } from '../db/connect.js';
import {
  OperatorError,
  USAGE,
  parseImportFile,
  parseOperatorArgs,
  runOperatorCommand,
} from '../users/operator.js';

async function main(args: string[]): Promise<void> {
  const config = parseConfig(ConfigSchema, process.env);
  if (!config.DATABASE_URL) throw new OperatorError('DATABASE_URL must be set (the primary)');
  const commands =
    args[0] === 'import'
      ? parseImportFile(
          await readFile(args[1] ?? '', 'utf8').catch(() => {
            throw new OperatorError(`cannot read ${args[1] ?? '(no file)'}\n${USAGE}`);
          }),
        )
      : [parseOperatorArgs(args)];
  const db = createDatabase(config.DATABASE_URL, { poolMax: 1 });
  try {
    const lines = await db.transaction(async (trx) => {
      const done: string[] = [];
      for (const command of commands)
        done.push(await runOperatorCommand(trx, command, config.USERNAME_SUFFIX));
      return done;
    });
    process.stdout.write(`${lines.join('\n')}\n`);
  } finally {
    await db.close();
  }
}

main(process.argv.slice(2)).catch((err: unknown) => {
  process.stderr.write(`${err instanceof Error ? err.message : String(err)}\n`);
  process.exitCode = 1;
});
