/**
 * The HTTP side of the local Move chains (graphql-server.ts, docs/indexer.md "Sui and Aptos") over
 * real HTTP: a GraphQL query executed on the chain's schema; a body that is not a GraphQL request
 * answered 400 and a path nothing serves 404, each with a GraphQL `errors` body naming the error;
 * the Aptos Indexer's `order_by` on text and number columns and its `processor_status` filtered by
 * `where`; the Aptos node REST transaction by version beside the GraphQL endpoint.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { startFakeAptos, type FakeAptos } from './fake-aptos.js';
import { startFakeSui, type FakeSui } from './fake-sui.js';

let sui: FakeSui;
let aptos: FakeAptos;

beforeAll(async () => {
  [sui, aptos] = await Promise.all([startFakeSui(), startFakeAptos()]);
});

afterAll(async () => {
  await Promise.all([sui.close(), aptos.close()]);
});

/** POSTs `body` (a string is sent as is) and reads the JSON answer. */
async function post(url: string, body: unknown): Promise<{ status: number; json: unknown }> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  expect(res.headers.get('content-type')).toBe('application/json');
  return { status: res.status, json: await res.json() };
}

/** The messages of a GraphQL `errors` body. */
const errorMessages = (json: unknown) =>
  ((json as { errors?: { message: string }[] }).errors ?? []).map((e) => e.message);

describe('the local Sui GraphQL RPC', () => {
  it('executes a query and counts the request', async () => {
    const before = sui.requests;
    const { status, json } = await post(sui.url, {
      query: 'query { checkpoint { sequenceNumber } }',
    });
    expect(status).toBe(200);
    expect(json).toEqual({ data: { checkpoint: { sequenceNumber: sui.head } } });
    expect(sui.requests).toBe(before + 1);
  });

  it('answers a body that is not JSON with 400 and the error', async () => {
    const { status, json } = await post(sui.url, '{"query": ');
    expect(status).toBe(400);
    expect(errorMessages(json)).toEqual([expect.stringMatching(/^the body is not JSON: /)]);
  });

  it('answers a body without a query with 400 and the error', async () => {
    const { status, json } = await post(sui.url, { variables: {} });
    expect(status).toBe(400);
    expect(errorMessages(json)).toEqual(['the body has no `query` string']);
  });

  it('answers a query the schema rejects with 200 and the validation error', async () => {
    const { status, json } = await post(sui.url, { query: 'query { noSuchField }' });
    expect(status).toBe(200);
    expect(errorMessages(json)).toEqual([expect.stringContaining('noSuchField')]);
  });

  it('answers a path nothing serves with 404 and the error', async () => {
    const { status, json } = await post(sui.url.replace(/\/graphql$/, '/other'), {
      query: 'query { checkpoint { sequenceNumber } }',
    });
    expect(status).toBe(404);
    expect(errorMessages(json)).toEqual(['nothing served at POST /other']);
  });
});

describe('the local Aptos Indexer GraphQL and node REST', () => {
  const versions: number[] = [];

  beforeAll(() => {
    // Types added out of order: b, a, c.
    for (const type of ['0x1::m::B', '0x1::m::A', '0x1::m::C']) {
      versions.push(Number(aptos.addTransaction([{ type, data: {} }]).version));
    }
  });

  it('orders events by a text column, then a number column', async () => {
    const query = `query ($order: [events_order_by!]) {
      events(order_by: $order, where: { transaction_version: { _in: ${JSON.stringify(versions)} } }) {
        type transaction_version
      }
    }`;
    const desc = await post(aptos.indexerUrl, {
      query,
      variables: { order: [{ type: 'desc' }] },
    });
    expect(desc.status).toBe(200);
    expect(desc.json).toEqual({
      data: {
        events: [
          { type: '0x1::m::C', transaction_version: versions[2] },
          { type: '0x1::m::B', transaction_version: versions[0] },
          { type: '0x1::m::A', transaction_version: versions[1] },
        ],
      },
    });
    const asc = await post(aptos.indexerUrl, {
      query,
      variables: { order: [{ account_address: 'asc' }, { transaction_version: 'desc' }] },
    });
    expect(
      (asc.json as { data: { events: { transaction_version: number }[] } }).data.events.map(
        (e) => e.transaction_version,
      ),
    ).toEqual([...versions].reverse());
  });

  it('filters processor_status by its where', async () => {
    const query = `query ($p: String) { processor_status(where: { processor: { _eq: $p } }) {
      processor last_success_version
    } }`;
    const events = await post(aptos.indexerUrl, { query, variables: { p: 'events_processor' } });
    expect(events.json).toEqual({
      data: {
        processor_status: [{ processor: 'events_processor', last_success_version: aptos.head }],
      },
    });
    const other = await post(aptos.indexerUrl, {
      query,
      variables: { p: 'fungible_asset_processor' },
    });
    expect(other.json).toEqual({ data: { processor_status: [] } });
  });

  it('answers a body that is not JSON with 400 and the error', async () => {
    const { status, json } = await post(aptos.indexerUrl, 'not json');
    expect(status).toBe(400);
    expect(errorMessages(json)).toEqual([expect.stringMatching(/^the body is not JSON: /)]);
  });

  it('serves a transaction by version, and 404 beyond the head', async () => {
    const res = await fetch(`${aptos.restUrl}/transactions/by_version/${versions[0]}`);
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({
      type: 'user_transaction',
      version: String(versions[0]),
      events: [{ type: '0x1::m::B' }],
    });
    const beyond = await fetch(`${aptos.restUrl}/transactions/by_version/${aptos.head + 1}`);
    expect(beyond.status).toBe(404);
    expect(await beyond.json()).toEqual({ error_code: 'transaction_not_found' });
  });
});
