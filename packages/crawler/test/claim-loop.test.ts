// The claim loop's handling of a lease claimed ahead (`FrontierLease.startAt`, from a completion's
// claim made a moment before its host's clock): nothing of it starts before then, and a stop ends
// the wait at once. The leases are a real memory store's, given the start a Redis store would
// give; e2e tests of the Redis store (store-redis/test/completion-claims.test.ts) crawl with them.

import { createMemoryFrontierStore, type FrontierLease } from '@politely/frontier';
import { afterEach, describe, expect, it } from 'vitest';
import { ClaimLoop } from '../src/claim-loop.js';
import { fixedConcurrency } from '../src/concurrency-governor.js';

interface Started {
  readonly url: string;
  readonly at: number;
}

async function setUp(): Promise<{
  loop: ClaimLoop;
  lease: FrontierLease;
  started: Started[];
  stop: AbortController;
  settled: Promise<void>;
}> {
  const store = createMemoryFrontierStore();
  await store.add([{ url: 'http://a.test/1', hostKey: 'a.test', depth: 0, priority: 0 }]);
  const claimed = await store.claim({ now: Date.now(), leaseMs: 60_000 });
  const started: Started[] = [];
  let settle!: () => void;
  const settled = new Promise<void>((resolve) => (settle = resolve));
  const stop = new AbortController();
  const loop = new ClaimLoop({
    store,
    process: async (lease) => {
      started.push({ url: lease.entry.url, at: Date.now() });
      await store.complete(lease.id);
      settle();
    },
    limit: fixedConcurrency(2),
    leaseMs: 60_000,
    pageBudget: { started: 0, max: Infinity },
    reopenDue: async () => 0,
    signal: new AbortController().signal,
    stopping: stop.signal,
    paused: () => false,
  });
  return { loop, lease: claimed.lease!, started, stop, settled };
}

describe('ClaimLoop: a lease claimed ahead', () => {
  const timers: NodeJS.Timeout[] = [];
  afterEach(() => {
    for (const timer of timers.splice(0)) clearTimeout(timer);
  });

  it('starts its walk at its startAt, not when it is dispatched', async () => {
    const { loop, lease, started, settled } = await setUp();
    const startAt = Date.now() + 40;
    loop.dispatchClaimed({ ...lease, startAt });
    expect(started).toEqual([]);
    await settled;
    expect(started).toHaveLength(1);
    expect(started[0]!.at).toBeGreaterThanOrEqual(startAt);
  });

  it('starts at once when its startAt has passed', async () => {
    const { loop, lease, started, settled } = await setUp();
    const dispatchedAt = Date.now();
    loop.dispatchClaimed({ ...lease, startAt: dispatchedAt - 5 });
    await settled;
    // Nothing to wait for: only the event loop between (generous for a busy machine).
    expect(started[0]!.at - dispatchedAt).toBeLessThan(500);
  });

  it('ends the wait when the crawl stops: the walk runs at once (and hands the URL back)', async () => {
    const { loop, lease, started, stop, settled } = await setUp();
    const startAt = Date.now() + 5_000;
    loop.dispatchClaimed({ ...lease, startAt });
    timers.push(setTimeout(() => stop.abort(), 20));
    await settled;
    expect(started[0]!.at).toBeLessThan(startAt - 4_000);
  });
});
