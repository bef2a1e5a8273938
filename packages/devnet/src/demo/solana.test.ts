/**
 * The demo's Solana side (solana.ts) when its start fails: the first transfer cannot be built
 * (a destination domain outside uint32), so the start rejects, and the cluster's port and the
 * finalization clock are released (the port can be listened on again, no timer is left).
 */
import { describe, expect, it } from '@jest/globals';
import { freePort } from '@ctss/test-support';
import type { CctpChain } from '../cctp-chain.js';
import { startLocalSolana } from '../solana-cluster.js';
import { startDemoSolana } from './solana.js';

const timers = () => process.getActiveResourcesInfo().filter((r) => r === 'Timeout').length;

describe('startDemoSolana', () => {
  it('stops the cluster and its clock when the first transfer cannot be built', async () => {
    const port = await freePort();
    const timersBefore = timers();
    // Only the fields the first transfer reads; domain -1 does not fit the message's uint32.
    const destination = {
      domain: -1,
      messengerV1: '0x00000000000000000000000000000000000000e1',
      messengerV2: '0x00000000000000000000000000000000000000e2',
    } as unknown as CctpChain;
    const lines: string[] = [];
    await expect(
      startDemoSolana({
        port,
        finalizeAfterMs: 1_000,
        intervalMs: 1_000,
        destination,
        log: (line) => lines.push(line),
      }),
    ).rejects.toThrow(/out of range/);
    expect(lines).toEqual([]);
    expect(timers()).toBeLessThanOrEqual(timersBefore);
    const again = await startLocalSolana(port);
    expect(again.url).toBe(`http://127.0.0.1:${port}`);
    await again.close();
  });
});
