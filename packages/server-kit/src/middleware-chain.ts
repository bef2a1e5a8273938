/**
 * Several connect-style middlewares run as one: express's router then walks one layer for the
 * whole fixed stack (headers, CORS, logs, metrics, rate limit, body) instead of one per
 * middleware, each with its own path match, try/catch and promise check (measured in
 * packages/bench/FINDINGS.md).
 */
import type { RequestHandler } from 'express';

/**
 * Runs `handlers` in order as one middleware, with the `next` values of express's router: a falsy
 * value or `'route'` (which only skips a route's own handlers) continues with the next handler;
 * any other value (an error, or `'router'`) skips the rest and goes to the outer `next`
 * unchanged. A synchronous throw is passed on as `next(err)`, and so is the rejection of a
 * promise a handler returns (as express's router does for async middleware).
 */
export function chainMiddleware(handlers: readonly RequestHandler[]): RequestHandler {
  const list = [...handlers];
  return (req, res, outerNext) => {
    let index = 0;
    const step = (err?: unknown): void => {
      if (err && err !== 'route') {
        outerNext(err);
        return;
      }
      const handler = list[index++];
      if (handler === undefined) {
        outerNext();
        return;
      }
      try {
        const returned: unknown = handler(req, res, step);
        if (returned instanceof Promise) {
          returned.then(undefined, (rejected: unknown) =>
            outerNext(rejected ?? new Error('Rejected promise')),
          );
        }
      } catch (thrown) {
        outerNext(thrown);
      }
    };
    step();
  };
}
