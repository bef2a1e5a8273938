/**
 * Serves one PGlite session over the PostgreSQL wire protocol on a local TCP port, to several
 * client connections at once (docs/architecture.md "Embedded defaults"). PGlite runs one session:
 * every connection shares its prepared statements, its unnamed statement and portal, and its
 * transaction. So a connection holds the session from the first message of a batch (PostgreSQL
 * protocol "Extended Query": `Parse` ... `Sync`, or one simple `Query`) until its ReadyForQuery,
 * and for as long as it has a transaction open; the other connections' batches wait. Without that
 * (pglite-socket 0.2.17 serializes single messages, electric-sql/pglite issue 1046) a second
 * connection's `Parse` replaces the first's unnamed statement between its `Parse` and `Bind`,
 * and the first gets a type error or another statement's rows.
 *
 * Message framing: PostgreSQL manual, "Frontend/Backend Protocol", "Message Formats".
 *
 * Notifications: PGlite's one session is the listener of every `LISTEN` of any connection, and
 * PostgreSQL sends the session's NotificationResponse messages within the answer of the batch
 * that committed the `NOTIFY`, i.e. to the writer's connection. So every NotificationResponse of
 * a batch is also sent to each other started connection (whose batches all wait for the turn, so
 * it arrives between two of their messages): a `pg.Client` that ran `LISTEN` on its own
 * connection hears it as it would from a real server, and a client that did not ignores it
 * (docs/decisions.md "D143. LISTEN through the embedded database").
 */
import { createServer, type Server, type Socket } from 'node:net';
import type { PGlite } from '@electric-sql/pglite';

/** SSLRequest and CancelRequest codes (sent without a type byte, before or instead of startup). */
const SSL_REQUEST = 80_877_103;
const CANCEL_REQUEST = 80_877_102;
/** Protocol 3.0 in a StartupMessage. */
const PROTOCOL_3 = 196_608;

/** Frontend messages after which the session answers: the end of a batch. */
const SYNC = 0x53; // 'S'
const QUERY = 0x51; // 'Q'
const FLUSH = 0x48; // 'H'
const COPY_DONE = 0x63; // 'c'
const COPY_FAIL = 0x66; // 'f'
const TERMINATE = 0x58; // 'X'
/** Backend NotificationResponse. */
const NOTIFICATION = 0x41; // 'A'
/** Batch ends after which the session is handed on (unless a transaction is open). */
const RELEASING = new Set([SYNC, QUERY, COPY_DONE, COPY_FAIL, TERMINATE]);

/** A FIFO lock: one holder at a time, in the order they asked. */
class Turn {
  #tail: Promise<void> = Promise.resolve();

  /** Resolves with the release function once every earlier holder has released. */
  take(): Promise<() => void> {
    let release!: () => void;
    const mine = new Promise<void>((resolve) => {
      release = resolve;
    });
    const ready = this.#tail.then(() => release);
    this.#tail = this.#tail.then(() => mine);
    return ready;
  }
}

/** One client connection: splits its bytes into messages and runs them a batch at a time. */
class Connection {
  #buffer = Buffer.alloc(0);
  #started = false;
  /** Whether the startup exchange is answered (NotificationResponses may be sent to it). */
  #ready = false;
  /** The unframed tail of the answer being sent (to find NotificationResponse messages). */
  #answer = Buffer.alloc(0);
  #batch: Buffer[] = [];
  #release: (() => void) | undefined;
  #running: Promise<void> = Promise.resolve();
  #closed = false;

  constructor(
    private readonly socket: Socket,
    private readonly db: PGlite,
    private readonly turn: Turn,
    private readonly peers: Set<Connection>,
  ) {
    peers.add(this);
    socket.setNoDelay(true);
    socket.on('data', (chunk: Buffer) => {
      this.#buffer = Buffer.concat([this.#buffer, chunk]);
      this.#running = this.#running.then(() => this.#drain()).catch(() => this.#close());
    });
    socket.on('error', () => this.#close());
    socket.on('close', () => this.#close());
  }

  /** Runs every complete batch in the buffer. */
  async #drain(): Promise<void> {
    for (;;) {
      if (this.#closed) return;
      const message = this.#next();
      if (message === undefined) return;
      if (message === null) continue;
      this.#batch.push(message);
      const type = this.#started ? message[0]! : QUERY;
      if (!this.#started) this.#started = true;
      else if (!RELEASING.has(type) && type !== FLUSH) continue;
      await this.#run(this.#batch, RELEASING.has(type));
      this.#batch = [];
      if (type === TERMINATE) {
        this.socket.end();
        return;
      }
    }
  }

  /**
   * The next complete message, `null` for a startup-phase request handled here (SSLRequest:
   * answered `N`; CancelRequest: PGlite has no running statement to cancel), or undefined when
   * the buffer holds no complete message.
   */
  #next(): Buffer | null | undefined {
    const buffer = this.#buffer;
    if (!this.#started) {
      if (buffer.length < 8) return undefined;
      const length = buffer.readInt32BE(0);
      if (buffer.length < length) return undefined;
      const code = buffer.readInt32BE(4);
      this.#buffer = buffer.subarray(length);
      if (code === SSL_REQUEST) {
        this.socket.write('N');
        return null;
      }
      if (code === CANCEL_REQUEST) {
        this.socket.end();
        return null;
      }
      if (code !== PROTOCOL_3) {
        this.socket.destroy();
        return null;
      }
      return buffer.subarray(0, length);
    }
    if (buffer.length < 5) return undefined;
    const length = 1 + buffer.readInt32BE(1);
    if (buffer.length < length) return undefined;
    this.#buffer = buffer.subarray(length);
    return buffer.subarray(0, length);
  }

  /** Runs `batch` holding the session; hands it on after if `releasing` and no transaction is open. */
  async #run(batch: Buffer[], releasing: boolean): Promise<void> {
    this.#release ??= await this.turn.take();
    this.#answer = Buffer.alloc(0);
    try {
      for (const message of batch) {
        if (this.#closed) break;
        await this.db.execProtocolRawStream(new Uint8Array(message), {
          onRawData: (data) => {
            if (!this.socket.destroyed) this.socket.write(Buffer.from(data));
            if (this.#ready) this.#forwardNotifications(data);
          },
        });
      }
      this.#ready = true;
    } finally {
      if ((releasing || this.#closed) && !this.db.isInTransaction()) this.#handOn();
    }
  }

  /** Frames the answer's bytes; sends each NotificationResponse to the other started connections. */
  #forwardNotifications(data: Uint8Array): void {
    let answer =
      this.#answer.length === 0 ? Buffer.from(data) : Buffer.concat([this.#answer, data]);
    while (answer.length >= 5) {
      const length = 1 + answer.readInt32BE(1);
      if (answer.length < length) break;
      if (answer[0] === NOTIFICATION) {
        const message = Buffer.from(answer.subarray(0, length));
        for (const peer of this.peers) if (peer !== this) peer.notify(message);
      }
      answer = answer.subarray(length);
    }
    this.#answer = Buffer.from(answer);
  }

  /** Sends a NotificationResponse of another connection's batch, once started. */
  notify(message: Buffer): void {
    if (this.#ready && !this.#closed && !this.socket.destroyed) this.socket.write(message);
  }

  #handOn(): void {
    const release = this.#release;
    this.#release = undefined;
    release?.();
  }

  /** The client left: a transaction it left open is rolled back, and the session handed on. */
  #close(): void {
    if (this.#closed) return;
    this.#closed = true;
    this.peers.delete(this);
    this.socket.destroy();
    void this.#running.then(async () => {
      if (this.#release === undefined) return;
      if (this.db.isInTransaction()) await this.db.exec('rollback').catch(() => undefined);
      this.#handOn();
    });
  }
}

/** A listening session server. */
export interface SessionServer {
  /** `127.0.0.1:<port>`. */
  readonly address: string;
  /** Stops listening and closes every client connection. */
  stop(): Promise<void>;
}

/**
 * Serves `db` on 127.0.0.1:`port` (0 picks a free port) to at most `maxConnections` clients.
 *
 * @throws when the port is taken.
 */
export async function serveSession(
  db: PGlite,
  port: number,
  maxConnections: number,
): Promise<SessionServer> {
  const turn = new Turn();
  const peers = new Set<Connection>();
  const sockets = new Set<Socket>();
  const server: Server = createServer((socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
    new Connection(socket, db, turn, peers);
  });
  server.maxConnections = maxConnections;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const bound = server.address();
  const address = typeof bound === 'object' && bound !== null ? `127.0.0.1:${bound.port}` : '';
  return {
    address,
    stop: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
