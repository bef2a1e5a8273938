/**
 * The hub of a replica's open streams (transactions/stream-hub.ts) over real HTTP: a batch of
 * the feed marked `missed` (changes before it lost to the change log's retention, docs/decisions.md
 * "D343. Open streams are told of lost changes") reaches a live stream as a `reset` event before
 * the batch's changes, and a stream still catching up on its backlog gets it in the same place
 * among the batches held for it.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from '@jest/globals';
import type { ChangeEvent } from '../src/transactions/changes.js';
import { StreamHub, type StreamHandle } from '../src/transactions/stream-hub.js';
import { openSse, type SseStream } from './support/sse.js';

const LIMITS = {
  maxClients: 10,
  maxClientsPerAddress: 10,
  clientBufferBytes: 1 << 20,
  heartbeatSeconds: 60,
};

/** A change at log position `seq` with the frame the change feed would build for it. */
function change(seq: number): ChangeEvent {
  const data = JSON.stringify({ id: String(seq) });
  return {
    seq: BigInt(seq),
    kind: 'insert',
    sender: '0x01',
    recipient: '0x02',
    sourceDomain: 0,
    destinationDomain: 3,
    status: 'success',
    sourceTxHash: `0x${seq.toString(16).padStart(64, '0')}`,
    destinationTxHash: null,
    frame: `id: ${seq}\nevent: insert\ndata: ${data}\n\n`,
  };
}

/** The events of a stream as `[event, id or reset reason]`. */
const seen = (stream: SseStream) =>
  stream.events.map((e) => {
    const data = JSON.parse(e.data) as { id?: string; reason?: string };
    return [e.event, e.event === 'reset' ? data.reason : data.id];
  });

describe('StreamHub', () => {
  let server: Server | undefined;
  let client: SseStream | undefined;
  let hub: StreamHub;

  /** Serves one stream from the hub; resolves with its handle and the client reading it. */
  async function openStream(start: bigint): Promise<StreamHandle> {
    hub = new StreamHub(LIMITS);
    let handle!: StreamHandle;
    const opened = new Promise<void>((resolve) => {
      server = createServer((req, res) => {
        res.writeHead(200, { 'Content-Type': 'text/event-stream' });
        res.flushHeaders();
        const registered = hub.open(res, {}, '127.0.0.1', start);
        if (typeof registered === 'string') throw new Error(`refused: ${registered}`);
        handle = registered;
        resolve();
      });
    });
    await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
    const { port } = server!.address() as AddressInfo;
    client = await openSse(`http://127.0.0.1:${port}/`);
    await opened;
    return handle;
  }

  afterEach(async () => {
    client?.close();
    hub?.closeAll();
    await new Promise((resolve) => server?.close(resolve));
  });

  it('when a live stream receives a batch after lost changes, then a reset comes before its changes', async () => {
    const handle = await openStream(0n);
    await handle.goLive([], 0n);
    hub.publish([change(1)]);
    hub.publish([change(5)], true);
    hub.publish([], true);
    hub.publish([change(6)]);
    await client!.waitFor((e) => e.id === '6');
    expect(seen(client!)).toEqual([
      ['insert', '1'],
      ['reset', 'changes_lost'],
      ['insert', '5'],
      ['reset', 'changes_lost'],
      ['insert', '6'],
    ]);
  });

  it('when a stream catching up on its backlog is held a batch after lost changes, then its reset comes in the same place after the backlog', async () => {
    const handle = await openStream(1n);
    hub.publish([change(3), change(4)]);
    hub.publish([change(8)], true);
    hub.publish([change(9)]);
    // The backlog read covers 2-3; 3 is not sent twice.
    await handle.goLive([change(2), change(3)], 3n);
    await client!.waitFor((e) => e.id === '9');
    expect(seen(client!)).toEqual([
      ['insert', '2'],
      ['insert', '3'],
      ['insert', '4'],
      ['reset', 'changes_lost'],
      ['insert', '8'],
      ['insert', '9'],
    ]);
  });
});
