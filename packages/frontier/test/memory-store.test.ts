import { createMemoryFrontierStore } from '@politely/frontier';
import { describeFrontierStoreContract } from '@politely/frontier/testing';
import { describe, expect, it } from 'vitest';

describeFrontierStoreContract('memory', async (options) => createMemoryFrontierStore(options));

describe('memory store without rememberFetches', () => {
  it('keeps no LastFetch: nothing is ever due, and a claim carries no revisit', async () => {
    const store = createMemoryFrontierStore({ rememberFetches: false, defaultHostPolicy: { delayMs: 0 } });
    await store.add([{ url: 'http://a/1', hostKey: 'a', depth: 0, priority: 0 }]);
    const lease = (await store.claim({ now: 0, leaseMs: 1000 })).lease!;
    const lastFetch = { fetchedAt: 1, status: 200, bytes: 1, intervalMs: 0, dueAt: 1, latestDueAt: 1 };
    await store.complete(lease.id, { lastFetch });
    expect(
      await store.reopenDue({ dueBefore: Number.MAX_SAFE_INTEGER, fetchedBefore: Number.MAX_SAFE_INTEGER, limit: 10 }),
    ).toBe(0);
    expect(await store.counts()).toMatchObject({ queued: 0, done: 1 });
  });
});
