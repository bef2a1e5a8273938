/**
 * A real SIGTERM to a real process under keep-alive load (the server made as both services make
 * theirs): /ready is 503 at once, no request fails, every keep-alive connection ends with
 * `Connection: close`, and the process exits 0 well inside the 10 s drain timeout.
 */
import { spawn } from 'node:child_process';
import { Agent } from 'node:http';
import { fileURLToPath } from 'node:url';
import { fetchOn, keepAliveLoad } from '@ctss/test-support';

const child = fileURLToPath(new URL('./support/sigterm-child.mjs', import.meta.url));

it('drains on SIGTERM and exits 0 with no failed request', async () => {
  const proc = spawn(process.execPath, [child], { stdio: ['ignore', 'pipe', 'inherit'] });
  const exited = new Promise<number | null>((resolve) =>
    proc.once('exit', (code) => resolve(code)),
  );
  try {
    const port = await new Promise<number>((resolve, reject) => {
      let out = '';
      proc.stdout.on('data', (chunk: Buffer) => {
        out += chunk.toString('utf8');
        const match = /\{"port":(\d+)\}/.exec(out);
        if (match) resolve(Number(match[1]));
      });
      proc.once('exit', () => reject(new Error(`child exited before listening: ${out}`)));
    });
    const base = `http://127.0.0.1:${port}`;
    const probe = new Agent({ keepAlive: true, maxSockets: 1 });
    expect((await fetchOn(probe, `${base}/ready`)).status).toBe(200);
    const load = keepAliveLoad(`${base}/work`, 6);
    await load.warm;
    await new Promise((resolve) => setTimeout(resolve, 300));

    const started = Date.now();
    proc.kill('SIGTERM');
    // The signal is delivered asynchronously: ask until the drain shows (within a second).
    let ready = await fetchOn(probe, `${base}/ready`);
    while (ready.status === 200 && Date.now() - started < 1000) {
      await new Promise((resolve) => setTimeout(resolve, 5));
      ready = await fetchOn(probe, `${base}/ready`);
    }
    const code = await exited;
    const exitMs = Date.now() - started;
    const result = await load.stop();
    probe.destroy();

    expect(ready.status).toBe(503);
    expect(JSON.parse(ready.body)).toMatchObject({ code: 'SERVICE_UNAVAILABLE' });
    expect(code).toBe(0);
    expect(result.failures).toEqual([]);
    expect(result.failed).toBe(0);
    expect(result.closing).toBe(6);
    expect(exitMs).toBeLessThan(6_000);
  } finally {
    if (proc.exitCode === null) proc.kill('SIGKILL');
  }
});
