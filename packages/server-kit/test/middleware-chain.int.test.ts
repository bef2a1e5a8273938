import { describe, expect, it } from '@jest/globals';
import express, { type ErrorRequestHandler, type RequestHandler } from 'express';
import request from 'supertest';
import { chainMiddleware } from '../src/middleware-chain.js';

/** A middleware that appends `name` to the `X-Trace` response header and continues. */
const mark =
  (name: string): RequestHandler =>
  (_req, res, next) => {
    res.setHeader('X-Trace', `${String(res.getHeader('X-Trace') ?? '')}${name}`);
    next();
  };

/** An app with `chain` mounted, a route that reports the trace, and an error handler. */
function appWith(chain: RequestHandler) {
  const app = express();
  app.use(chain);
  app.get('/', (_req, res) => res.json({ route: 'first' }));
  app.get('/', (_req, res) => res.json({ route: 'second' }));
  const onError: ErrorRequestHandler = (err: Error, _req, res, _next) => {
    res.status(418).json({ error: err.message });
  };
  app.use(onError);
  return app;
}

describe('chainMiddleware', () => {
  it('runs every handler in order, then the routes', async () => {
    const res = await request(appWith(chainMiddleware([mark('a'), mark('b'), mark('c')]))).get('/');
    expect(res.status).toBe(200);
    expect(res.headers['x-trace']).toBe('abc');
    expect(res.body).toEqual({ route: 'first' });
  });

  it('an empty chain passes straight through', async () => {
    const res = await request(appWith(chainMiddleware([]))).get('/');
    expect(res.body).toEqual({ route: 'first' });
  });

  it('next(err) skips the rest of the chain and reaches the error handler', async () => {
    const failing: RequestHandler = (_req, _res, next) => next(new Error('refused'));
    const res = await request(appWith(chainMiddleware([mark('a'), failing, mark('c')]))).get('/');
    expect(res.status).toBe(418);
    expect(res.body).toEqual({ error: 'refused' });
    expect(res.headers['x-trace']).toBe('a');
  });

  const throwing: RequestHandler = () => {
    throw new Error('thrown');
  };
  const rejecting: RequestHandler = async () => {
    await Promise.resolve();
    throw new Error('async failure');
  };
  it.each([
    ['a synchronous throw', throwing, 'thrown'],
    ['a rejected promise from an async handler', rejecting, 'async failure'],
  ])(
    '%s is passed on as an error, and later handlers do not run',
    async (_name, handler, error) => {
      const res = await request(appWith(chainMiddleware([handler, mark('b')]))).get('/');
      expect(res.status).toBe(418);
      expect(res.body).toEqual({ error });
      expect(res.headers['x-trace']).toBeUndefined();
    },
  );

  it("null and 'route' continue with the next handler, as express's router treats them", async () => {
    const nullNext: RequestHandler = (_req, _res, next) => next(null);
    const routeNext: RequestHandler = (_req, _res, next) => next('route');
    const res = await request(
      appWith(chainMiddleware([nullNext, mark('a'), routeNext, mark('b')])),
    ).get('/');
    expect(res.status).toBe(200);
    expect(res.headers['x-trace']).toBe('ab');
    expect(res.body).toEqual({ route: 'first' });
  });

  it("'router' leaves the chain and the router, as a mounted router's middleware would", async () => {
    const outer = express();
    const inner = express.Router();
    inner.use(chainMiddleware([mark('a'), (_req, _res, next) => next('router'), mark('b')]));
    inner.get('/', (_req, res) => res.json({ route: 'inner' }));
    outer.use(inner);
    outer.get('/', (_req, res) => res.json({ route: 'outer' }));
    const res = await request(outer).get('/');
    expect(res.body).toEqual({ route: 'outer' });
    expect(res.headers['x-trace']).toBe('a');
  });

  it('a handler that answers ends the chain: nothing after it runs', async () => {
    const answering: RequestHandler = (_req, res) => {
      res.status(204).end();
    };
    const res = await request(appWith(chainMiddleware([mark('a'), answering, mark('c')]))).get('/');
    expect(res.status).toBe(204);
    expect(res.headers['x-trace']).toBe('a');
  });

  it('a handler continuing later (after I/O) still reaches the routes', async () => {
    const later: RequestHandler = (_req, _res, next) => {
      setTimeout(() => next(), 5);
    };
    const res = await request(appWith(chainMiddleware([later, mark('b')]))).get('/');
    expect(res.body).toEqual({ route: 'first' });
    expect(res.headers['x-trace']).toBe('b');
  });
});
