/**
 * The suite's own redis-server (port PORTS.redis, `requirepass`, no persistence), killed with
 * SIGKILL and restarted on the same port, as a crashed Redis looks to its clients.
 */
import net from 'node:net';
import { spawnLogged, waitUntil, type Child } from './processes.js';
import { PORTS, REDIS_PASSWORD } from './settings.js';

/** The URL the services get (the password inside, as a Secret would hold it). */
export const REDIS_URL = `redis://:${REDIS_PASSWORD}@127.0.0.1:${PORTS.redis}`;

/** Whether the server answers `AUTH` + `PING` with `+PONG` within 1 s. */
function redisPing(): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(PORTS.redis, '127.0.0.1');
    let text = '';
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(1000, () => done(false));
    socket.on('error', () => done(false));
    socket.on('connect', () => socket.write(`AUTH ${REDIS_PASSWORD}\r\nPING\r\n`));
    socket.on('data', (chunk) => {
      text += chunk.toString('utf8');
      if (text.includes('+PONG')) done(true);
      else if (text.includes('-')) done(false);
    });
  });
}

/** Starts redis-server and waits until it answers. @throws Error when it does not within 10 s. */
export async function startRedis(): Promise<Child> {
  const child = spawnLogged({
    name: 'redis',
    command: 'redis-server',
    args: [
      '--port',
      String(PORTS.redis),
      '--bind',
      '127.0.0.1',
      '--save',
      '',
      '--appendonly',
      'no',
      '--daemonize',
      'no',
      '--requirepass',
      REDIS_PASSWORD,
    ],
  });
  await waitUntil('redis-server to answer', redisPing, 10_000, child);
  return child;
}

/** SIGKILLs redis-server by its PID and waits for it to be gone. */
export async function killRedis(child: Child): Promise<void> {
  child.signal('SIGKILL');
  await child.exited;
}
