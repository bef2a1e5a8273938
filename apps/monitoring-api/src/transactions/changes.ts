/**
 * The change log reader of the live feed (docs/api.md "Live feed (Server-Sent Events)"): one
 * dedicated `pg.Client` per replica on the PRIMARY runs `LISTEN transaction_changes` and, woken
 * by a notification, reads the log after the last change it read (migration
 * 20261204000100_transaction_changes), joined with the current row, and hands each change to the
 * subscribers in `seq` order. The API never polls: a read starts only on a notification, at
 * start and after a reconnect (docs/decisions.md "D140. Live feed: LISTEN per replica"). With Redis,
 * only the elected replica LISTENs ({@link ChangeFeed.setListening}); the others keep the
 * connection in `standby` for backlog reads (docs/decisions.md "D200. Live feed: one listener,
 * fanned out through Redis").
 *
 * The same connection serves the backlog reads of reconnecting clients (`Last-Event-ID`), one
 * statement at a time, so the feed needs nothing of the request pools.
 */
import pg from 'pg';
import type { Logger } from 'pino';
import { CHANGE_CHANNEL } from '../migrations/20261204000100_transaction_changes.js';
import { MAINNET_FIELDS, recordJsonSql } from './record.js';

/** Kinds of change (the SSE event names). */
type ChangeKind = 'insert' | 'update' | 'delete';

/** One change of a mainnet record, ready to be sent. */
export interface ChangeEvent {
  /** The change's position in the log (the SSE `id`), a decimal integer. */
  readonly seq: bigint;
  readonly kind: ChangeKind;
  /** The fields the stream filters on (addresses and hashes normalized as stored). */
  readonly sender: string;
  readonly recipient: string;
  readonly sourceDomain: number;
  readonly destinationDomain: number;
  readonly status: string;
  readonly sourceTxHash: string;
  readonly destinationTxHash: string | null;
  /** The whole SSE frame (`id`, `event`, `data` lines and the blank line), UTF-8 text. */
  readonly frame: string;
}

/**
 * The reader's connection state, as `/health` reports it: `standby` is connected without LISTEN
 * (a follower of the Redis fan-out: it reads the log only for backlogs and gaps).
 */
export type ListenerState = 'connecting' | 'listening' | 'standby' | 'reconnecting' | 'stopped';

/** Changes read per statement (one batch written to the streams). */
const READ_BATCH = 200;

/**
 * `application_name` of the connection: the listening one is told apart in `pg_stat_activity`
 * (with the Redis fan-out, exactly one replica's connection).
 */
const NAME_STANDBY = 'ctss-monitoring-stream';
const NAME_LISTENING = 'ctss-monitoring-listen';

/**
 * Starts or stops listening on `client` and names the connection accordingly. On the embedded
 * database's one shared session (`shared`) an UNLISTEN would silence every connection's
 * notifications, so a follower only stops acting on them (docs/decisions.md "D143. LISTEN
 * through the embedded database").
 */
async function applyListening(client: pg.Client, on: boolean, shared: boolean): Promise<void> {
  if (on || !shared) await client.query(`${on ? 'listen' : 'unlisten'} ${CHANGE_CHANNEL}`);
  await client.query(`set application_name = '${on ? NAME_LISTENING : NAME_STANDBY}'`);
}

/** Delay before the next reconnect attempt, ms: doubles from 250 up to 5 s. */
const RECONNECT_MIN_MS = 250;
const RECONNECT_MAX_MS = 5_000;

/** The log after `$1`, oldest first, at most `$2` changes, with each row's mainnet record JSON. */
const READ_SQL = `select c.seq::text as seq, c.kind, c.removed,
    coalesce(t.network, c.removed->>'network') as network,
    case when t.id is null then null else ${recordJsonSql(MAINNET_FIELDS)} end as record,
    t.sender, t.recipient, t.source_domain::int4 as source_domain,
    t.destination_domain::int4 as destination_domain, t.destination_tx_status,
    t.source_tx_hash, t.destination_tx_hash
  from transaction_changes c
  left join transactions t on t.id = c.transaction_id and c.kind <> 'delete'
  where c.seq > $1::int8
  order by c.seq
  limit $2`;

interface ChangeRow {
  seq: string;
  kind: ChangeKind;
  removed: Record<string, unknown> | null;
  network: string | null;
  record: string | null;
  sender: string | null;
  recipient: string | null;
  source_domain: number | null;
  destination_domain: number | null;
  destination_tx_status: string | null;
  source_tx_hash: string | null;
  destination_tx_hash: string | null;
}

/** The SSE frame of one change: `data` is one line (JSON text has no raw newline). */
function frameOf(seq: string, kind: ChangeKind, data: string): string {
  return `id: ${seq}\nevent: ${kind}\ndata: ${data}\n\n`;
}

/**
 * A change row as an event; undefined for a testnet row, or an insert/update whose row is gone
 * since (its delete follows in the log).
 */
function toEvent(row: ChangeRow): ChangeEvent | undefined {
  if (row.network !== 'mainnet') return undefined;
  if (row.kind === 'delete') {
    const r = row.removed ?? {};
    const data = JSON.stringify({
      id: Number(r.id),
      source_tx_hash: r.source_tx_hash,
      destination_tx_hash: r.destination_tx_hash ?? null,
    });
    return {
      seq: BigInt(row.seq),
      kind: 'delete',
      sender: String(r.sender),
      recipient: String(r.recipient),
      sourceDomain: Number(r.source_domain),
      destinationDomain: Number(r.destination_domain),
      status: String(r.destination_tx_status),
      sourceTxHash: String(r.source_tx_hash),
      destinationTxHash: typeof r.destination_tx_hash === 'string' ? r.destination_tx_hash : null,
      frame: frameOf(row.seq, 'delete', data),
    };
  }
  if (row.record === null) return undefined;
  return {
    seq: BigInt(row.seq),
    kind: row.kind,
    sender: row.sender!,
    recipient: row.recipient!,
    sourceDomain: row.source_domain!,
    destinationDomain: row.destination_domain!,
    status: row.destination_tx_status!,
    sourceTxHash: row.source_tx_hash!,
    destinationTxHash: row.destination_tx_hash,
    frame: frameOf(row.seq, row.kind, row.record),
  };
}

/** What a backlog read found. */
export interface Backlog {
  /** The mainnet changes after the given id, oldest first. */
  readonly events: readonly ChangeEvent[];
  /** The last log position the read covered (events may end before it: testnet rows). */
  readonly through: bigint;
  /** Whether changes right after the given id were already deleted (retention): a gap. */
  readonly truncated: boolean;
}

/** Options of {@link ChangeFeed}. */
export interface ChangeFeedOptions {
  /** The primary's URL (NOTIFY is not replicated; the row is read where it was committed). */
  readonly url: string;
  readonly logger: Logger;
  /**
   * Receives every read of the log while listening, in `seq` order (at most 200 changes): the
   * mainnet changes of the log positions after `from` up to `through` (testnet rows leave no
   * event, so `events` may be empty). `missed`: positions right after `from` were already deleted
   * by the log's retention when read (the reader fell more than the retention behind, e.g. while
   * its connection was down), so changes in between may never reach the listener.
   */
  readonly onChanges: (
    events: readonly ChangeEvent[],
    from: bigint,
    through: bigint,
    missed: boolean,
  ) => void;
  /** Whether to LISTEN once connected (default true; see {@link ChangeFeed.setListening}). */
  readonly listen?: boolean;
  /** The embedded database, whose connections share one session: never UNLISTEN. */
  readonly sessionShared?: boolean;
  /** Statement timeout of the reads, ms (DATABASE_STATEMENT_TIMEOUT_MS). */
  readonly statementTimeoutMs?: number;
  /** Connect timeout, ms (DATABASE_CONNECT_TIMEOUT_MS). */
  readonly connectTimeoutMs?: number;
}

/**
 * The LISTEN connection and the reads of the change log. Start with {@link start}; every change
 * committed after the start reaches `onChange` once, in order, across lost connections.
 */
export class ChangeFeed {
  #client: pg.Client | undefined;
  #state: ListenerState = 'connecting';
  /** The last log position handed to `onChange` (or skipped as not mainnet). */
  #head = 0n;
  /** Whether {@link head} was read from the log (at the first connection). */
  #headKnown = false;
  #stopped = false;
  /** Statements on the connection run one after another. */
  #queue: Promise<unknown> = Promise.resolve();
  #reading = false;
  #wakeAgain = false;
  #retryMs = RECONNECT_MIN_MS;
  #retryTimer: NodeJS.Timeout | undefined;
  #connected: Promise<void> | undefined;
  /** Whether the connection is to LISTEN (and the log to be read on notifications). */
  #listen: boolean;

  constructor(private readonly options: ChangeFeedOptions) {
    this.#listen = options.listen ?? true;
  }

  /** Whether the log's end was read at the first connection ({@link head} is meaningful). */
  get headKnown(): boolean {
    return this.#headKnown;
  }

  /** Whether the connection is up (`listening` or `standby`): backlog reads can run. */
  get connected(): boolean {
    return this.#state === 'listening' || this.#state === 'standby';
  }

  /**
   * Moves the read position forward to `seq` (changes up to it were delivered another way: the
   * Redis fan-out); never backwards.
   */
  skipTo(seq: bigint): void {
    if (seq > this.#head) this.#head = seq;
  }

  /**
   * Starts or stops listening (LISTEN / UNLISTEN on the connection; the connection stays). On
   * start the log is read from {@link head} at once, so nothing committed meanwhile is missed.
   * A failure is the connection's loss: the reconnect applies the current choice.
   */
  setListening(on: boolean): void {
    if (this.#listen === on || this.#stopped) return;
    this.#listen = on;
    if (this.#client === undefined) return;
    this.#state = on ? 'listening' : 'standby';
    void this.#serial((client) => applyListening(client, on, this.options.sessionShared === true))
      .then(() => {
        if (on) this.wake();
      })
      .catch((err: unknown) =>
        this.options.logger.warn({ err }, 'live feed: LISTEN/UNLISTEN failed'),
      );
  }

  /** The connection's state. */
  get state(): ListenerState {
    return this.#state;
  }

  /** The last change position read (0 before the first). */
  get head(): bigint {
    return this.#head;
  }

  /**
   * Connects, runs LISTEN and takes the log's current end as the start (changes before it are
   * history, served only to a `Last-Event-ID`). A failed first connection is logged and retried
   * in the background (state `reconnecting`); it never throws.
   */
  async start(): Promise<void> {
    try {
      await this.#connect();
    } catch (err) {
      this.#state = 'reconnecting';
      this.options.logger.warn({ err }, 'live feed: the change listener cannot connect; retrying');
      this.#scheduleReconnect();
    }
  }

  /** Opens the connection and LISTENs; on the first start takes the log's end as the head. */
  #connect(): Promise<void> {
    this.#connected ??= (async () => {
      const client = new pg.Client({
        connectionString: this.options.url,
        ...(this.options.connectTimeoutMs
          ? { connectionTimeoutMillis: this.options.connectTimeoutMs }
          : {}),
        ...(this.options.statementTimeoutMs
          ? {
              statement_timeout: this.options.statementTimeoutMs,
              query_timeout: this.options.statementTimeoutMs + 1_000,
            }
          : {}),
        application_name: NAME_STANDBY,
      });
      client.on('notification', (message) => {
        if (message.channel === CHANGE_CHANNEL) this.wake();
      });
      client.on('error', (err) => this.#lost(client, err));
      client.on('end', () => this.#lost(client, new Error('connection ended')));
      try {
        await client.connect();
        if (!this.#headKnown) {
          const { rows } = await client.query<{ seq: string }>(
            'select coalesce(max(seq), 0)::text as seq from transaction_changes',
          );
          this.#head = BigInt(rows[0]!.seq);
        }
        let listening = false;
        // setListening may change the choice while a statement runs: apply the latest.
        while (listening !== this.#listen) {
          listening = this.#listen;
          await applyListening(client, listening, this.options.sessionShared === true);
        }
      } catch (err) {
        client.removeAllListeners('end');
        client.on('error', () => undefined);
        await client.end().catch(() => undefined);
        throw err;
      }
      if (this.#stopped) {
        await client.end().catch(() => undefined);
        return;
      }
      this.#client = client;
      this.#state = this.#listen ? 'listening' : 'standby';
      this.#retryMs = RECONNECT_MIN_MS;
      this.#headKnown = true;
      // Whatever was committed while no connection listened (or between the head read and LISTEN).
      this.wake();
    })().finally(() => {
      this.#connected = undefined;
    });
    return this.#connected;
  }

  /** The connection failed: reconnect after a backoff (the clients stay connected). */
  #lost(client: pg.Client, err: unknown): void {
    if (this.#client !== client) return;
    this.#client = undefined;
    client.removeAllListeners('notification');
    client.on('error', () => undefined);
    void client.end().catch(() => undefined);
    if (this.#stopped) return;
    this.#state = 'reconnecting';
    this.options.logger.warn({ err }, 'live feed: change listener connection lost; reconnecting');
    this.#scheduleReconnect();
  }

  #scheduleReconnect(): void {
    if (this.#stopped || this.#retryTimer !== undefined) return;
    const delay = this.#retryMs;
    this.#retryMs = Math.min(RECONNECT_MAX_MS, this.#retryMs * 2);
    this.#retryTimer = setTimeout(() => {
      this.#retryTimer = undefined;
      this.#connect().catch((err: unknown) => {
        this.options.logger.warn({ err }, 'live feed: reconnecting the change listener failed');
        this.#scheduleReconnect();
      });
    }, delay);
    this.#retryTimer.unref();
  }

  /** Runs `fn` on the connection after every earlier statement. */
  #serial<T>(fn: (client: pg.Client) => Promise<T>): Promise<T> {
    const run = this.#queue.then(() => {
      const client = this.#client;
      if (client === undefined) throw new Error('the change listener is not connected');
      return fn(client);
    });
    this.#queue = run.catch(() => undefined);
    return run;
  }

  /** The oldest position the log still holds (0 when it is empty). */
  async #oldest(): Promise<bigint> {
    const { rows } = await this.#serial((client) =>
      client.query<{ oldest: string | null }>(
        'select min(seq)::text as oldest from transaction_changes',
      ),
    );
    return BigInt(rows[0]?.oldest ?? '0');
  }

  /** Reads up to {@link READ_BATCH} changes after `after`. */
  #read(after: bigint): Promise<ChangeRow[]> {
    return this.#serial(
      async (client) =>
        (await client.query<ChangeRow>(READ_SQL, [after.toString(), READ_BATCH])).rows,
    );
  }

  /** A notification arrived (or the connection came back): read the log up to its end. */
  wake(): void {
    if (!this.#headKnown || this.#stopped || !this.#listen) return;
    if (this.#reading) {
      this.#wakeAgain = true;
      return;
    }
    this.#reading = true;
    void (async () => {
      try {
        do {
          this.#wakeAgain = false;
          for (;;) {
            const from = this.#head;
            const rows = await this.#read(from);
            const events: ChangeEvent[] = [];
            for (const row of rows) {
              this.#head = BigInt(row.seq);
              const event = toEvent(row);
              if (event !== undefined) events.push(event);
            }
            // A jump past `from + 1` is a rolled-back position or the retention's deletion;
            // only the latter leaves the log's oldest position past `from + 1`.
            const missed =
              rows.length > 0 &&
              BigInt(rows[0]!.seq) > from + 1n &&
              (await this.#oldest()) > from + 1n;
            if (rows.length > 0) this.options.onChanges(events, from, this.#head, missed);
            if (rows.length < READ_BATCH) break;
          }
        } while (this.#wakeAgain && !this.#stopped);
      } catch (err) {
        // The connection's loss schedules the reconnect, whose wake reads again.
        this.options.logger.warn({ err }, 'live feed: reading the change log failed');
      } finally {
        this.#reading = false;
      }
    })();
  }

  /**
   * The mainnet changes after `after` up to `until` (default {@link head} at the time of the
   * read) (a client's `Last-Event-ID`, or a gap of the Redis fan-out), at most `max` log
   * positions.
   *
   * @throws when the connection is down (the route answers 503).
   */
  async backlog(after: bigint, max: number, until: bigint = this.#head): Promise<Backlog> {
    const oldest = await this.#oldest();
    const truncated = after < until && oldest > after + 1n;
    const events: ChangeEvent[] = [];
    let through = after;
    while (through < until && through - after < BigInt(max)) {
      const rows = await this.#read(through);
      if (rows.length === 0) break;
      for (const row of rows) {
        const seq = BigInt(row.seq);
        if (seq > until) return { events, through, truncated };
        through = seq;
        const event = toEvent(row);
        if (event !== undefined) events.push(event);
      }
      if (rows.length < READ_BATCH) break;
    }
    return { events, through, truncated };
  }

  /** Stops listening and closes the connection. */
  async close(): Promise<void> {
    this.#stopped = true;
    this.#state = 'stopped';
    clearTimeout(this.#retryTimer);
    await this.#connected?.catch(() => undefined);
    const client = this.#client;
    this.#client = undefined;
    if (client !== undefined) {
      client.removeAllListeners('end');
      client.on('error', () => undefined);
      await client.end().catch(() => undefined);
    }
  }
}
