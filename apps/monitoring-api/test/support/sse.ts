/** A Server-Sent Events client over real HTTP for tests (WHATWG HTML "Server-sent events" parsing). */
import { request, type IncomingMessage } from 'node:http';

/** One received event. */
interface SseEvent {
  readonly id: string | undefined;
  readonly event: string;
  readonly data: string;
}

/** An open stream. */
export interface SseStream {
  /** Status of the answer. */
  readonly status: number;
  readonly headers: IncomingMessage['headers'];
  /** The body when it is not a stream (a problem). */
  readonly body: () => Promise<string>;
  /** Events so far, in order. */
  readonly events: SseEvent[];
  /** Comment lines so far (`: heartbeat`). */
  readonly comments: string[];
  /** Resolves with the first event (from the start) passing `test`. */
  waitFor(test: (event: SseEvent) => boolean): Promise<SseEvent>;
  /** Resolves when the server ends the stream. */
  readonly ended: Promise<void>;
  close(): void;
}

/** Opens `url` with `headers` on a connection of its own (no agent pooling). */
export function openSse(url: string, headers: Record<string, string> = {}): Promise<SseStream> {
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      { agent: false, headers: { Accept: 'text/event-stream', ...headers } },
      (res) => {
        const events: SseEvent[] = [];
        const comments: string[] = [];
        const waiters: { test: (e: SseEvent) => boolean; done: (e: SseEvent) => void }[] = [];
        let buffer = '';
        let chunks = '';
        res.setEncoding('utf8');
        let endedResolve!: () => void;
        const ended = new Promise<void>((r) => (endedResolve = r));
        const isStream = (res.headers['content-type'] ?? '').startsWith('text/event-stream');
        res.on('data', (chunk: string) => {
          if (!isStream) {
            chunks += chunk;
            return;
          }
          buffer += chunk;
          let end: number;
          while ((end = buffer.indexOf('\n\n')) >= 0) {
            const block = buffer.slice(0, end);
            buffer = buffer.slice(end + 2);
            let id: string | undefined;
            let event = 'message';
            const data: string[] = [];
            for (const line of block.split('\n')) {
              if (line.startsWith(':')) comments.push(line);
              else if (line.startsWith('id: ')) id = line.slice(4);
              else if (line.startsWith('event: ')) event = line.slice(7);
              else if (line.startsWith('data: ')) data.push(line.slice(6));
            }
            if (data.length === 0) continue;
            const received = { id, event, data: data.join('\n') };
            events.push(received);
            for (const waiter of [...waiters]) {
              if (waiter.test(received)) {
                waiters.splice(waiters.indexOf(waiter), 1);
                waiter.done(received);
              }
            }
          }
        });
        res.on('end', endedResolve);
        res.on('close', endedResolve);
        res.on('error', () => endedResolve());
        resolve({
          status: res.statusCode ?? 0,
          headers: res.headers,
          body: () => ended.then(() => chunks),
          events,
          comments,
          ended,
          waitFor: (test) => {
            const found = events.find(test);
            if (found) return Promise.resolve(found);
            return new Promise((done) => waiters.push({ test, done }));
          },
          close: () => req.destroy(),
        });
      },
    );
    req.on('error', reject);
    req.end();
  });
}
