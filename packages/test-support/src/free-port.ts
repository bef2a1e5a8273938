/**
 * A free TCP port for a server that is told its port rather than reporting it (a child process, a
 * second listener).
 */
import { createServer, type AddressInfo } from 'node:net';

/**
 * A loopback port that was free a moment ago: the system picks it for a listener that is closed
 * again at once (another process may take it before the caller's child binds it).
 */
export async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}
