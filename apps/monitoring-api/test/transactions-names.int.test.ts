/**
 * `addr_or_tx_hash` with a `.sol` name on the mainnet feed: resolved through a local Solana
 * JSON-RPC serving the name-registry account (the real SNS account layout), then matched; a name
 * that does not resolve is a 400 INVALID_NAME.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { base58 } from '@scure/base';
import request from 'supertest';
import type { Express } from 'express';
import { createApp } from '../src/app.js';
import { NAME_PROGRAM_ID, SOL_TLD_ROOT, getSolDomainKey } from '../src/names/sns.js';
import { startLocalSolana, type LocalSolana } from './names/local-solana.js';
import { aTransaction, insertAll } from './support/builders.js';
import { createTestDatabase, type TestDatabase } from './support/database.js';
import { buildTestDeps, type TestDeps } from './support/deps.js';

const OWNER = '9WzDXwBbmkg8ZTbNMqUxvQRAyrZzDsGYdLVL9zYtAWWM';

/** A name-registry account: parent (the .sol root), owner, class, then no data. */
function registryAccount(owner: string): Uint8Array {
  const data = new Uint8Array(96);
  data.set(base58.decode(SOL_TLD_ROOT), 0);
  data.set(base58.decode(owner), 32);
  return data;
}

describe('GET /transactionsmainnet?addr_or_tx_hash=<name>.sol', () => {
  let solana: LocalSolana;
  let db: TestDatabase;
  let deps: TestDeps;
  let app: Express;
  let ids: number[];

  beforeAll(async () => {
    solana = await startLocalSolana();
    solana.setAccount(getSolDomainKey('alice.sol'), registryAccount(OWNER), NAME_PROGRAM_ID);
    db = await createTestDatabase();
    deps = buildTestDeps({ database: db.database, env: { SOLANA_RPC_URL: solana.url } });
    app = createApp(deps);
    ids = await insertAll(db.database, [
      aTransaction({ source_domain: 5, sender: OWNER }),
      aTransaction({ destination_domain: 5, recipient: OWNER }),
      aTransaction({}),
    ]);
  });
  afterAll(async () => {
    await deps.close();
    await db.drop();
    await solana.close();
  });

  it('when the name resolves, then the records sent or received by its owner are returned', async () => {
    const res = await request(app)
      .get('/transactionsmainnet')
      .query({ addr_or_tx_hash: 'Alice.sol' })
      .expect(200);
    expect(res.body.transactions.map((t: { id: number }) => t.id)).toEqual([ids[1], ids[0]]);
  });

  it('when the name is not registered, then it is a 400 INVALID_NAME', async () => {
    const res = await request(app)
      .get('/transactionsmainnet')
      .query({ addr_or_tx_hash: 'nobody.sol' })
      .expect(400);
    expect(res.body).toMatchObject({ status: 400, code: 'INVALID_NAME' });
  });
});
