/**
 * Scenario 4: twenty concurrent `POST /users/verify` of one signed nonce, each on its own
 * connection: exactly one binds (one 2xx, the others 409 or 410), and the database holds exactly
 * one binding of that wallet, to that user.
 */
import { send } from '../http.js';
import { query } from '../postgres.js';
import { check, figure, outcomes } from '../report.js';
import { signedBind, verifyRequest } from '../workload.js';

const NAME = '4 bind race';

/** Runs the scenario against the running monitoring API; `username` exists in the database. */
export async function bindRace(databaseUrl: string, username: string): Promise<void> {
  const { address, body } = await signedBind(username);
  const samples = await Promise.all(
    Array.from({ length: 20 }, () => send(false, verifyRequest(body))),
  );
  figure(NAME, '20 concurrent POST /users/verify', outcomes(samples));
  const ok = samples.filter((s) => s.status >= 200 && s.status < 300).length;
  const refused = samples.filter((s) => s.status === 409 || s.status === 410).length;
  check(NAME, 'exactly one 2xx', ok, ok === 1);
  check(
    NAME,
    'all others 409/410',
    `${refused} of ${samples.length - ok}`,
    refused === samples.length - ok,
  );
  const rows = await query<{ username: string }>(
    databaseUrl,
    'select u.username from user_wallets w join users u on u.id = w.user_id where lower(w.address) = lower($1)',
    [address],
  );
  check(
    NAME,
    'one binding row in user_wallets, to that user',
    rows.map((r) => r.username).join(',') || 'no row',
    rows.length === 1 && rows[0]?.username === username,
  );
}
