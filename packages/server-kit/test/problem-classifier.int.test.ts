/**
 * An app's own error classifier on the one error path (`finishHttpApp`'s `classifyError`): its
 * errors become the problem it chooses (here a driver's "connection refused" a 503
 * DEPENDENCY_UNAVAILABLE with Retry-After), over real HTTP; errors it leaves alone keep the
 * built-in mapping.
 */
import { describe, expect, it } from '@jest/globals';
import request from 'supertest';
import { z } from 'zod';
import {
  createHttpApp,
  createLogger,
  createMetrics,
  DependencyUnavailableError,
  finishHttpApp,
  HttpProblem,
  parseQuery,
  toHttpProblem,
  type ProblemClassifier,
} from '../src/index.js';

/** An error shaped like a database driver's (a Node socket error code). */
class DriverError extends Error {
  constructor(readonly code: string) {
    super(`connect ${code} 127.0.0.1:5432`);
  }
}

const classify: ProblemClassifier = (err) =>
  err instanceof DriverError && err.code === 'ECONNREFUSED'
    ? new DependencyUnavailableError('database', 2)
    : undefined;

function buildApp(classifyError?: ProblemClassifier) {
  const app = createHttpApp({
    logger: createLogger({ name: 'test', level: 'silent' }),
    metrics: createMetrics({ prefix: 'classifier_test_' }),
    corsOrigins: ['*'],
    rateLimit: { limit: 1000 },
    trustProxy: false,
  });
  app.get('/refused', async () => {
    await Promise.resolve();
    throw new DriverError('ECONNREFUSED');
  });
  app.get('/other-driver-error', () => {
    throw new DriverError('EWHATEVER');
  });
  app.get('/query', (req, res) => {
    res.json(parseQuery(z.object({ n: z.coerce.number().int() }), req.query));
  });
  app.get('/internal-schema', () => {
    // A schema check of the service's own data, not of the request.
    z.object({ stored_amount: z.bigint() }).parse({ stored_amount: 'corrupt' });
  });
  app.get('/conflict', () => {
    throw new HttpProblem(409, 'ALREADY_BOUND', 'wallet is already bound');
  });
  return finishHttpApp(app, createLogger({ name: 'test', level: 'silent' }), { classifyError });
}

describe('problem classifier of an app', () => {
  const app = buildApp(classify);

  it('when a route fails with an error the classifier knows, then the answer is its problem', async () => {
    const res = await request(app).get('/refused').expect(503);
    expect(res.headers['content-type']).toContain('application/problem+json');
    expect(res.headers['retry-after']).toBe('2');
    expect(res.body).toMatchObject({
      status: 503,
      code: 'DEPENDENCY_UNAVAILABLE',
      detail: 'database is unavailable; retry shortly',
    });
    expect(res.text).not.toContain('127.0.0.1');
  });

  it('when the classifier leaves an error alone, then the built-in mapping answers', async () => {
    expect((await request(app).get('/other-driver-error').expect(500)).body.code).toBe('INTERNAL');
    expect((await request(app).get('/query?n=x').expect(400)).body.code).toBe('INVALID_QUERY');
    expect((await request(app).get('/conflict').expect(409)).body.code).toBe('ALREADY_BOUND');
  });

  it('when a schema check of internal data fails, then the answer is a 500 INTERNAL naming no field', async () => {
    const res = await request(app).get('/internal-schema').expect(500);
    expect(res.headers['content-type']).toContain('application/problem+json');
    expect(res.body).toMatchObject({ status: 500, code: 'INTERNAL', detail: 'internal error' });
    expect(res.text).not.toContain('stored_amount');
  });

  it('when no classifier is given, then the same error is a 500 INTERNAL', async () => {
    const res = await request(buildApp()).get('/refused').expect(500);
    expect(res.body.code).toBe('INTERNAL');
    expect(res.headers['retry-after']).toBeUndefined();
  });

  it('when toHttpProblem is called with the classifier, then an HttpProblem still passes through unchanged', () => {
    const conflict = new HttpProblem(409, 'ALREADY_BOUND', 'x');
    expect(toHttpProblem(conflict, () => new DependencyUnavailableError('database'))).toBe(
      conflict,
    );
    expect(toHttpProblem(new DriverError('ECONNREFUSED'), classify).status).toBe(503);
  });
});
