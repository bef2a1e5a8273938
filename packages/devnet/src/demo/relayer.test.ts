/**
 * The demo's relayer (relayer.ts) against a local HTTP server standing in for the Monitoring API's
 * feed (docs/api.md "Transaction feeds": two pending records) and Iris (`GET /v1/messages/...`,
 * both attested): a delivery that fails is tried again on the next pass until it succeeds; one
 * that keeps failing is given up after DELIVERY_ATTEMPTS tries, logged and counted.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createCtssClient } from '@ctss/sdk';
import type { Hex } from 'viem';
import { DELIVERY_ATTEMPTS, startRelayer } from './relayer.js';

const FLAKY = `0x${'a1'.repeat(32)}`;
const BROKEN = `0x${'b2'.repeat(32)}`;
const MESSAGE = {
  [FLAKY]: '0x0001' as Hex,
  [BROKEN]: '0x0002' as Hex,
};

/** A pending v1 record from domain 0 to 3 (every field of docs/api.md "Transaction record"). */
const pending = (id: number, hash: string) => ({
  id,
  source_tx_hash: hash,
  destination_tx_hash: null,
  gas_drop_tx_hash: null,
  source_domain: 0,
  destination_domain: 3,
  sender: '0x00000000000000000000000000000000000000a0',
  recipient: '0x00000000000000000000000000000000000000b0',
  deposit_amount: 5_000_000,
  receive_amount: 4_990_000,
  relayer_fee: 10_000,
  gas_drop_amount: 0,
  is_gas_drop_in_native: false,
  max_fee: 0,
  version: 1,
  confirmed: true,
  has_source_tx_error: false,
  has_attestation_error: false,
  has_destination_tx_error: false,
  destination_tx_status: 'pending',
  created_at: '2026-11-20T10:00:00.000Z',
  attested_at: '2026-11-20T10:00:05.000Z',
  received_at: null,
  updated_at: '2026-11-20T10:00:05.000Z',
  message_hash: null,
  nonce: '7',
  fee_executed: 0,
  min_finality_threshold: null,
});

let server: http.Server;
let base: string;

beforeAll(async () => {
  server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    const json = (status: number, body: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    };
    if (url.pathname === '/transactionsmainnet') {
      const route = url.searchParams.get('source_domain') === '0';
      const records = route ? [pending(1, FLAKY), pending(2, BROKEN)] : [];
      return json(200, { transactions: records, next_cursor: '', has_more: false });
    }
    const iris = /^\/v1\/messages\/0\/(0x[0-9a-f]{64})$/.exec(url.pathname);
    const message = iris ? MESSAGE[iris[1]!] : undefined;
    if (message) return json(200, { messages: [{ message, attestation: '0xaa' }] });
    json(404, { error: 'not found' });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

describe('startRelayer', () => {
  it('tries a failed delivery again, and gives up after the attempt cap', async () => {
    const tries = new Map<string, number>();
    const versions = new Set<number>();
    const lines: string[] = [];
    const relayer = startRelayer({
      ctss: createCtssClient({ gasQuoteUrl: base, monitoringUrl: base, irisUrl: base }),
      irisUrl: base,
      since: 0,
      log: (line) => lines.push(line),
      routes: [
        {
          source: 0,
          destination: 3,
          name: 'chain B',
          deliver(version, message) {
            versions.add(version);
            const hash = message === MESSAGE[FLAKY] ? FLAKY : BROKEN;
            const n = (tries.get(hash) ?? 0) + 1;
            tries.set(hash, n);
            if (hash === FLAKY && n < 3) return Promise.reject(new Error('nonce too low'));
            if (hash === BROKEN) return Promise.reject(new Error('execution reverted'));
            return Promise.resolve(`0x${'c3'.repeat(32)}`);
          },
        },
      ],
    });
    try {
      const deadline = Date.now() + 20_000;
      while (relayer.counts.failed === 0 && Date.now() < deadline) {
        await new Promise((r) => setTimeout(r, 100));
      }
      // Two more passes: nothing is tried again once delivered or given up.
      await new Promise((r) => setTimeout(r, 2_200));
    } finally {
      await relayer.stop();
    }
    expect(tries.get(FLAKY)).toBe(3);
    expect(tries.get(BROKEN)).toBe(DELIVERY_ATTEMPTS);
    expect(relayer.counts).toEqual({ received: 1, failed: 1 });
    expect([...versions]).toEqual([1]);
    expect(lines).toContain(
      `receive of ${FLAKY} failed (attempt 1 of ${DELIVERY_ATTEMPTS}, tried again next pass): nonce too low`,
    );
    expect(lines).toContain(`received on chain B: 0x${'c3'.repeat(32)} (for ${FLAKY})`);
    expect(lines).toContain(
      `receive of ${BROKEN} failed ${DELIVERY_ATTEMPTS} times; given up: execution reverted`,
    );
  });
});
