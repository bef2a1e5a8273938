/**
 * Metric route labels are route patterns: the mount pattern plus the route's path, whatever the
 * case the client wrote, and `unmatched` for 404s (label values a client cannot mint).
 */
import { expect, it } from '@jest/globals';
import request from 'supertest';
import { useTestApp } from './support/app.js';

const t = useTestApp();

it('labels by route pattern, not by the request text', async () => {
  await request(t.app).get('/stats/mainnet/transactions').expect(200);
  await request(t.app).get('/STATS/MAINNET/TRANSACTIONS').expect(200);
  await request(t.app).get('/Stats/Mainnet/Transactions').expect(200);
  await request(t.app).get('/stats/no-such-statistic').expect(404);
  await request(t.app).get('/USERS/no/such/route').expect(404);
  await request(t.app).get('/docs/no-such-file.js').expect(404);
  const text = (await request(t.app).get('/metrics').expect(200)).text;
  expect(text).toMatch(
    /_http_requests_total\{method="GET",route="\/stats\/mainnet\/transactions",status="200"\} 3\n/,
  );
  expect(text).toMatch(/_http_requests_total\{method="GET",route="unmatched",status="404"\} 3\n/);
  expect(text).not.toMatch(/route="\/STATS|route="\/Stats|route="\/USERS/);
});
