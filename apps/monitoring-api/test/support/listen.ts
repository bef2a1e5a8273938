/** An app (or any request listener) over real HTTP on an ephemeral loopback port. */
import { createServer, type RequestListener } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A listening server: its base URL and how to close it. */
export interface Listening {
  /** `http://127.0.0.1:<port>`, no trailing slash. */
  readonly base: string;
  /** Stops listening; resolves once the server has closed. */
  close(): Promise<void>;
}

/** Serves `app` on 127.0.0.1 at a port the system picks. */
export async function listenOnLoopback(app: RequestListener): Promise<Listening> {
  const server = createServer(app);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** Closes each of `resources` in turn, skipping the undefined ones (never made). */
export async function closeInOrder(
  ...resources: ({ close(): Promise<unknown> } | undefined)[]
): Promise<void> {
  for (const resource of resources) await resource?.close();
}
