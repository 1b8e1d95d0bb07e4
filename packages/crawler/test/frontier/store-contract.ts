// The FrontierStore contract, run against every store (memory now; SQLite and Redis later).
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { FrontierEntry, FrontierStore, HostPolicy } from '../../src/frontier/frontier-store.js';

export type StoreFactory = (options: { defaultHostPolicy: Partial<HostPolicy> }) => Promise<FrontierStore>;

/**
 * For durable stores: closes `store` and opens the same crawl again (same file, same key
 * prefix), as a restarted process would.
 */
export type StoreReopener = (store: FrontierStore, options: { defaultHostPolicy: Partial<HostPolicy> }) => Promise<FrontierStore>;

const entry = (url: string, extra: Partial<FrontierEntry> = {}): FrontierEntry => ({
  url,
  hostKey: new URL(url).hostname,
  depth: 0,
  priority: 0,
  ...extra,
});

export function describeFrontierStoreContract(name: string, factory: StoreFactory, reopen?: StoreReopener): void {
  describe(`FrontierStore contract: ${name}`, () => {
    let store: FrontierStore;
    beforeEach(async () => {
      store = await factory({ defaultHostPolicy: { delayMs: 1000, maxInFlight: 1 } });
    });
    afterEach(async () => {
      await store.close();
    });

    it('dedupes on add', async () => {
      expect(await store.add([entry('http://a/1'), entry('http://a/1'), entry('http://a/2')])).toEqual(['added', 'duplicate', 'added']);
      expect(await store.add([entry('http://a/2')])).toEqual(['duplicate']);
      expect((await store.counts()).queued).toBe(2);
    });

    it('refuses URLs past a per-host bound', async () => {
      const outcomes = await store.add([entry('http://a/1'), entry('http://a/2'), entry('http://a/3'), entry('http://b/1')], { maxPerHost: 2 });
      expect(outcomes).toEqual(['added', 'added', 'host-full', 'added']);
    });

    it('takes the highest priority first, FIFO within a priority', async () => {
      await store.setHostPolicy('a', { delayMs: 0, maxInFlight: 10 });
      await store.add([entry('http://a/low', { priority: 0 }), entry('http://a/high', { priority: 5 }), entry('http://a/low2', { priority: 0 })]);
      const urls: string[] = [];
      for (let i = 0; i < 3; i++) {
        const result = await store.claim({ now: 0, leaseMs: 60_000 });
        if (result.lease) urls.push(result.lease.entry.url);
      }
      expect(urls).toEqual(['http://a/high', 'http://a/low', 'http://a/low2']);
    });

    it('gives a host one request per delay, and other hosts meanwhile (no head-of-line blocking)', async () => {
      await store.add([entry('http://slow/1'), entry('http://slow/2'), entry('http://fast/1'), entry('http://fast/2')]);
      await store.setHostPolicy('fast', { delayMs: 0 });
      const first = await store.claim({ now: 1000, leaseMs: 60_000 });
      const second = await store.claim({ now: 1000, leaseMs: 60_000 });
      const hosts = [first, second].map((r) => r.lease?.entry.hostKey).sort();
      expect(hosts).toEqual(['fast', 'slow']);
      // slow is in flight (max 1) and fast too: nothing else now.
      expect((await store.claim({ now: 1000, leaseMs: 60_000 })).lease).toBeNull();
      for (const r of [first, second]) await store.complete(r.lease!.id);
      const next = await store.claim({ now: 1000, leaseMs: 60_000 });
      expect(next.lease?.entry.hostKey).toBe('fast');
      await store.complete(next.lease!.id);
      // slow's clock: claimed at 1000 with a 1000 ms delay, so ready at 2000.
      expect(await store.claim({ now: 1500, leaseMs: 60_000 })).toEqual({ lease: null, nextReadyAt: 2000 });
      expect((await store.claim({ now: 2000, leaseMs: 60_000 })).lease?.entry.url).toBe('http://slow/2');
    });

    it('reports null when nothing is queued', async () => {
      expect(await store.claim({ now: 0, leaseMs: 1000 })).toEqual({ lease: null, nextReadyAt: null });
    });

    it('returns a URL whose lease expired to the queue', async () => {
      await store.add([entry('http://a/1')]);
      const first = await store.claim({ now: 0, leaseMs: 500 });
      expect(first.lease?.entry.url).toBe('http://a/1');
      expect((await store.counts()).inFlight).toBe(1);
      const again = await store.claim({ now: 5000, leaseMs: 500 });
      expect(again.lease?.entry.url).toBe('http://a/1');
      await store.complete(first.lease!.id); // the stale lease is gone: no effect
      expect((await store.counts()).inFlight).toBe(1);
    });

    it('release puts the URL back first and can hand the host clock back', async () => {
      await store.add([entry('http://a/1'), entry('http://a/2')]);
      const claimed = await store.claim({ now: 0, leaseMs: 60_000 });
      await store.release(claimed.lease!.id, { hostReadyAt: claimed.lease!.previousHostReadyAt });
      const again = await store.claim({ now: 0, leaseMs: 60_000 });
      expect(again.lease?.entry.url).toBe('http://a/1');
    });

    it('retry raises the retry count and honours the host clock given', async () => {
      await store.add([entry('http://a/1')]);
      const claimed = await store.claim({ now: 0, leaseMs: 60_000 });
      await store.retry(claimed.lease!.id, { hostReadyAt: 30_000 });
      expect(await store.claim({ now: 10_000, leaseMs: 60_000 })).toEqual({ lease: null, nextReadyAt: 30_000 });
      const again = await store.claim({ now: 30_000, leaseMs: 60_000 });
      expect(again.lease?.entry).toMatchObject({ url: 'http://a/1', retries: 1 });
    });

    it('counts queued, in flight, done and per host', async () => {
      await store.add([entry('http://a/1'), entry('http://a/2'), entry('http://b/1'), entry('http://b/2')]);
      const claimed = await store.claim({ now: 0, leaseMs: 60_000 });
      expect(await store.counts()).toEqual({ queued: 3, inFlight: 1, done: 0, activeHosts: 2 });
      await store.complete(claimed.lease!.id);
      expect(await store.counts()).toEqual({ queued: 3, inFlight: 0, done: 1, activeHosts: 2 });
      const hosts = await store.hostCounts();
      expect(hosts.map((h) => h.hostKey).sort()).toEqual(['a', 'b']);
      expect(hosts.reduce((sum, h) => sum + h.queued, 0)).toBe(3);
      expect(hosts.reduce((sum, h) => sum + h.done, 0)).toBe(1);
    });

    it('drains many hosts completely with each URL claimed exactly once', async () => {
      await store.setHostPolicy('h0', { delayMs: 0 });
      const entries = Array.from({ length: 200 }, (_, i) => entry(`http://h${i % 10}/${i}`));
      await store.add(entries);
      const claimed = new Set<string>();
      let now = 0;
      for (let step = 0; step < 10_000 && claimed.size < 200; step++) {
        const result = await store.claim({ now, leaseMs: 60_000 });
        if (result.lease === null) {
          now = result.nextReadyAt ?? now;
          continue;
        }
        expect(claimed.has(result.lease.entry.url)).toBe(false);
        claimed.add(result.lease.entry.url);
        await store.complete(result.lease.id);
      }
      expect(claimed.size).toBe(200);
      expect(await store.counts()).toMatchObject({ queued: 0, inFlight: 0, done: 200 });
    });

    if (reopen !== undefined) it('keeps queued URLs, dedupe, done counts, host clocks and in-flight leases across a restart', async () => {
      const options = { defaultHostPolicy: { delayMs: 1000, maxInFlight: 1 } };
      await store.add([entry('http://a/1'), entry('http://a/2'), entry('http://b/1', { priority: 3, data: { k: 'v' }, kind: 'sitemap' })]);
      await store.setHostPolicy('a', { delayMs: 5000 });
      const done = await store.claim({ now: 0, leaseMs: 60_000 });
      await store.complete(done.lease!.id);
      const inFlight = await store.claim({ now: 0, leaseMs: 10_000 }); // left in flight by a "killed" worker
      expect(inFlight.lease).not.toBeNull();
      store = await reopen!(store, options);
      expect(await store.add([entry('http://a/1'), entry('http://a/3')])).toEqual(['duplicate', 'added']);
      const counts = await store.counts();
      expect(counts.done).toBe(1);
      expect(counts.queued + counts.inFlight).toBe(3);
      // The lease of the dead worker expires and its URL is claimed again; every URL comes out once.
      const seen: string[] = [];
      let now = 10_000;
      for (let i = 0; i < 50 && seen.length < 4; i++) {
        const result = await store.claim({ now, leaseMs: 60_000 });
        if (result.lease === null) {
          now = result.nextReadyAt ?? now + 1000;
          continue;
        }
        seen.push(result.lease.entry.url);
        if (result.lease.entry.kind === 'sitemap') expect(result.lease.entry).toMatchObject({ priority: 3, data: { k: 'v' } });
        await store.complete(result.lease.id);
      }
      const remaining = ['http://a/1', 'http://a/2', 'http://a/3', 'http://b/1'].filter((url) => url !== done.lease!.entry.url);
      expect(seen.sort()).toEqual(remaining);
      expect(remaining).toContain(inFlight.lease!.entry.url);
    });
  });
}
