/**
 * `GET /transactionsmainnet/stream`: the mainnet feed's changes as Server-Sent Events (docs/api.md
 * "Live feed (Server-Sent Events)"; WHATWG HTML "Server-sent events"). Each insert, update (of a
 * field of the record) or delete of a record matching the filters is one event: `id` the
 * change's position in the change log (monotonic), `event` its kind, `data` the record JSON (as
 * the feed's) or, for a delete, `{id, source_tx_hash, destination_tx_hash}`. A reconnect with
 * `Last-Event-ID` first receives every change after that id still in the log (or a `reset` event
 * when it is older than the log's retention), then the live ones; nothing is sent twice. Changes
 * the live feed itself lost to the retention come as a `reset` event in their place
 * (stream-hub.ts).
 */
import type { OpenAPIRegistry } from '@asteasolutions/zod-to-openapi';
import { DestinationTxStatus, z } from '@ctss/domain-types';
import { HttpProblem, parseQuery } from '@ctss/server-kit';
import type { Express, Request, Response } from 'express';
import { MAX_SENDERS, addressListParam, domainParam, txHashParam } from '../params.js';
import { invalidQuery, problemResponse, rateLimited } from '../openapi-responses.js';
import type { Backlog } from './changes.js';
import { resetFrame, type StreamFilter, type StreamHub } from './stream-hub.js';

/** The path of the mainnet live feed. */
const STREAM_PATH = '/transactionsmainnet/stream';

/** Log positions a `Last-Event-ID` backlog may cover; older is a `reset` (the log's retention). */
const BACKLOG_MAX = 100_000;

/** What a reconnecting client is told to wait before it reconnects, ms (the SSE `retry:` field). */
const RETRY_MS = 2_000;

/** Seconds a refused client should wait (Retry-After). */
const RETRY_AFTER_SECONDS = 5;

/** The live feed's parameters: the feed's record filters (no paging: a stream has none). */
const StreamQuery = z.strictObject({
  senders: addressListParam.optional().openapi({
    description: `Comma-separated sender addresses (at most ${MAX_SENDERS}); EVM hex compares case-insensitively, base58 exactly.`,
  }),
  recipients: addressListParam
    .optional()
    .openapi({ description: `Comma-separated recipient addresses (at most ${MAX_SENDERS}).` }),
  source_domain: domainParam.optional().openapi({ description: 'Origin domain.', example: '0' }),
  destination_domain: domainParam
    .optional()
    .openapi({ description: 'Destination domain.', example: '3' }),
  domain: domainParam.optional().openapi({
    description: 'Changes of records with this domain as origin or destination.',
    example: '6',
  }),
  status: DestinationTxStatus.optional().openapi({
    description: '`destination_tx_status` of the record after the change.',
    example: 'success',
  }),
  tx_hash: txHashParam.optional().openapi({
    description: 'One transfer: its `source_tx_hash` or `destination_tx_hash`.',
  }),
});
type StreamQuery = z.output<typeof StreamQuery>;

/** `Last-Event-ID`: a change-log position, decimal. */
const LastEventId = z
  .string()
  .trim()
  .regex(/^[0-9]{1,19}$/, 'must be the decimal id of an event of this stream');

/** The filter of a validated query. */
function streamFilter(query: StreamQuery): StreamFilter {
  return {
    ...(query.senders?.length ? { senders: new Set(query.senders) } : {}),
    ...(query.recipients?.length ? { recipients: new Set(query.recipients) } : {}),
    ...(query.source_domain !== undefined ? { sourceDomain: query.source_domain } : {}),
    ...(query.destination_domain !== undefined
      ? { destinationDomain: query.destination_domain }
      : {}),
    ...(query.domain !== undefined ? { domain: query.domain } : {}),
    ...(query.status !== undefined ? { status: query.status } : {}),
    ...(query.tx_hash !== undefined ? { txHash: query.tx_hash } : {}),
  };
}

/** Where the route reads the changes: the replica's position and the change log. */
export interface ChangeSource {
  /** False once the live feed is stopped (the route answers 503). */
  readonly running: boolean;
  /** Whether the change log can be read now (a `Last-Event-ID` backlog). */
  readonly readable: boolean;
  /** The last change-log position handed to the streams (a new stream starts after it). */
  readonly head: bigint;
  /**
   * The mainnet changes after `after` up to {@link head}, at most `max` log positions.
   * @throws when the log cannot be read (the route ends the stream).
   */
  backlog(after: bigint, max: number): Promise<Backlog>;
}

/** The live feed: the source of changes and the hub of the replica's streams. */
export interface LiveFeed {
  readonly source: ChangeSource;
  readonly hub: StreamHub;
}

/** What the stream route uses: the part of `AppDeps` it reads. */
export interface StreamRouteDeps {
  /** The live feed; absent = no stream route. */
  readonly live?: LiveFeed | undefined;
}

/**
 * Adds `GET /transactionsmainnet/stream` to `app` (before the lookups, whose `{source_tx_hash}`
 * would take `stream`). An app built without a live feed (tests of other features) has no such
 * route: the path is then the lookup of the hash `stream` (404).
 */
export function addStreamRoutes(app: Express, deps: StreamRouteDeps): void {
  const { live } = deps;
  if (!live) return;
  app.get(STREAM_PATH, async (req: Request, res: Response) => {
    const filter = streamFilter(parseQuery(StreamQuery, req.query));
    const header = req.get('last-event-id');
    let after: bigint | undefined;
    if (header !== undefined && header.trim() !== '') {
      const parsed = LastEventId.safeParse(header);
      if (!parsed.success)
        throw new HttpProblem(
          400,
          'INVALID_QUERY',
          'Last-Event-ID: must be the decimal id of an event of this stream',
        );
      after = BigInt(parsed.data);
    }
    if (!live.source.running)
      throw new HttpProblem(503, 'SERVICE_UNAVAILABLE', 'the live feed is not running here', {
        'Retry-After': String(RETRY_AFTER_SECONDS),
      });
    if (after !== undefined && !live.source.readable)
      throw new HttpProblem(
        503,
        'DEPENDENCY_UNAVAILABLE',
        'the change log cannot be read right now',
        { 'Retry-After': String(RETRY_AFTER_SECONDS) },
      );
    const head = live.source.head;
    const start = after === undefined || after > head ? head : after;
    const handle = live.hub.open(res, filter, req.ip ?? 'unknown', start);
    if (handle === 'replica')
      throw new HttpProblem(503, 'SERVICE_UNAVAILABLE', 'this replica serves its most streams', {
        'Retry-After': String(RETRY_AFTER_SECONDS),
      });
    if (handle === 'address')
      throw new HttpProblem(429, 'RATE_LIMITED', 'too many open streams from this client address', {
        'Retry-After': String(RETRY_AFTER_SECONDS),
      });
    res.once('close', () => handle.close());
    res.status(200);
    res.setHeader('Content-Type', 'text/event-stream; charset=utf-8');
    // no-transform: the compression middleware (and proxies) leave the stream as it is.
    res.setHeader('Cache-Control', 'no-cache, no-transform');
    res.setHeader('X-Accel-Buffering', 'no');
    res.flushHeaders();
    handle.write(`retry: ${RETRY_MS}\n\n`);
    if (after === undefined) {
      void handle.goLive([], start);
      return;
    }
    if (after > head) {
      // An id this log never gave (another database, or from before a restore): start over.
      handle.write(resetFrame('unknown_event_id'));
      void handle.goLive([], start);
      return;
    }
    try {
      const backlog = await live.source.backlog(after, BACKLOG_MAX);
      if (backlog.truncated || backlog.through - after >= BigInt(BACKLOG_MAX))
        handle.write(resetFrame('event_id_expired'));
      await handle.goLive(backlog.events, backlog.through);
    } catch {
      // The headers are out: end the stream; the client reconnects with the same Last-Event-ID.
      handle.close();
      res.end();
    }
  });
}

/** Registers the live feed in the OpenAPI document. */
export function registerStreamPath(registry: OpenAPIRegistry): void {
  registry.registerPath({
    method: 'get',
    path: STREAM_PATH,
    operationId: 'streamMainnetTransactions',
    summary:
      'Live mainnet feed: each insert, update or delete of a matching record as a Server-Sent Event; resumable with Last-Event-ID',
    request: {
      query: StreamQuery,
      headers: z.object({
        'Last-Event-ID': z.string().optional().openapi({
          description:
            'The `id` of the last event received: the changes after it are sent first (a `reset` event when it is older than the change log keeps).',
          example: '1042',
        }),
      }),
    },
    responses: {
      200: {
        description:
          'An endless `text/event-stream`: `retry`, then events `insert` / `update` (data: the record, as in the feed), `delete` (data: `{id, source_tx_hash, destination_tx_hash}`), `reset` (changes were lost, or a resume is impossible: read the feed again; data `{reason}`: `changes_lost`, `event_id_expired` or `unknown_event_id`), and `: heartbeat` comment lines',
        content: {
          'text/event-stream': {
            schema: z.string().openapi({
              example:
                'id: 1042\nevent: insert\ndata: {"id":9999,"source_tx_hash":"0xfa7b...","destination_tx_status":"pending"}\n\n',
            }),
          },
        },
      },
      ...invalidQuery,
      ...rateLimited,
      503: problemResponse(
        'SERVICE_UNAVAILABLE (the replica serves its most streams, or shuts down) or DEPENDENCY_UNAVAILABLE (the change log cannot be read for a Last-Event-ID resume); Retry-After says when to retry',
      ),
    },
  });
}
