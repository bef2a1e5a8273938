/**
 * A built service entry point (`dist/bin/main.js` of an app) started as a child process on a free
 * port (`PORT=0`), as `pnpm start` runs it: the port is read from its JSON `listening` log line,
 * then its `/ready` must answer 200.
 */
import { startChild, waitForOk, type ChildService } from '@ctss/devnet';

/**
 * Starts `entry` as `name` with `env` and `PORT=0` (startChild's environment rules) and
 * resolves with the child and its base URL once `/ready` answers 200.
 *
 * @throws Error when the child exits before listening (with every line it wrote), or when
 *   `/ready` does not answer 200 within `deadlineMs` milliseconds (waitForOk); the child is
 *   stopped first.
 */
export async function startListeningService(
  name: string,
  entry: string,
  env: Record<string, string>,
  deadlineMs: number,
): Promise<[ChildService, string]> {
  const lines: string[] = [];
  let listening: (port: number) => void = () => {};
  const port = new Promise<number>((resolve) => (listening = resolve));
  const child = startChild(
    name,
    entry,
    { PORT: '0', ...env },
    {
      echo: false,
      onLine: (line) => {
        lines.push(line);
        try {
          const logged = JSON.parse(line) as { port?: unknown; msg?: unknown };
          // The service's own line, not the metrics server's (METRICS_PORT) `metrics listening`.
          const msg = String(logged.msg);
          if (
            typeof logged.port === 'number' &&
            msg.includes('listening') &&
            !msg.startsWith('metrics')
          )
            listening(logged.port);
        } catch {
          // Not a log record.
        }
      },
    },
  );
  const exited = child.exited.then((code) => {
    throw new Error(`${name} exited (${code}):\n${lines.join('\n')}`);
  });
  try {
    const url = `http://127.0.0.1:${await Promise.race([port, exited])}`;
    await waitForOk(`${url}/ready`, child, deadlineMs);
    return [child, url];
  } catch (err) {
    await child.stop();
    throw err;
  }
}
