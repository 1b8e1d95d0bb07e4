// The FrontierStore contract, run against every store (memory, SQLite, Redis) and any store a
// user writes: what a store must do for the crawler to be polite with it.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type {
  FrontierEntry,
  FrontierLease,
  FrontierStore,
  HostPolicy,
  HostTurn,
  UrlFailure,
} from '../frontier-store.js';
import type { LastFetch } from '../last-fetch.js';

/**
 * Opens a new, empty store with the given default host policy. Called before every case; the
 * suite closes the store after it.
 */
export type StoreFactory = (options: { defaultHostPolicy: Partial<HostPolicy> }) => Promise<FrontierStore>;

/**
 * For durable stores: closes `store` and opens the same crawl again (same file, same key
 * prefix), as a restarted process would.
 */
export type StoreReopener = (
  store: FrontierStore,
  options: { defaultHostPolicy: Partial<HostPolicy> },
) => Promise<FrontierStore>;

const lastFetch = (fetchedAt: number, dueAt: number, extra: Partial<LastFetch> = {}): LastFetch => ({
  fetchedAt,
  status: 200,
  etag: `"v-${fetchedAt}"`,
  lastModified: 'Mon, 02 Nov 2026 10:00:00 GMT',
  contentHash: `hash-${fetchedAt}`,
  bytes: 5120,
  intervalMs: 0,
  dueAt,
  latestDueAt: fetchedAt + 86_400_000,
  cachePolicy: { v: 1, rescc: { 'no-cache': true } },
  ...extra,
});

/** A failure at `at`: a fetch that failed once, unless `extra` says otherwise. */
const failureAt = (at: number, extra: Partial<UrlFailure> = {}): UrlFailure => ({
  kind: 'failed',
  reason: 'fetch',
  message: 'HTTP 500',
  attempts: 1,
  at,
  ...extra,
});

const entry = (url: string, extra: Partial<FrontierEntry> = {}): FrontierEntry => ({
  url,
  hostKey: new URL(url).hostname,
  depth: 0,
  priority: 0,
  ...extra,
});

/**
 * Declares a vitest `describe` block, `FrontierStore contract: <name>`, whose cases check that a
 * store keeps the contract the crawler relies on: dedupe, per-host bounds, priority order, host
 * clocks and holds, leases and their expiry, failed URLs (`failures`, `requeueFailed`), `clear`,
 * relabels, revisits (`reopenDue`, `LastFetch`), host turns and send turns (the cases expect the
 * optional `takeHostTurn`, `takeSendTurn` and `endSendTurn`; metadata is checked when the store has it). Call it at the top level of a test file.
 *
 * @param name Names the store in the suite's title.
 * @param factory Opens a new, empty store for each case.
 * @param reopen For a durable store: closes the store and opens the same crawl again. Given, the
 *   cases that check what survives a restart run too; omitted, they are left out.
 *
 * @example
 * ```ts
 * import { describeFrontierStoreContract } from '@politely/frontier/testing';
 * describeFrontierStoreContract('my-store', async (options) => createMyStore(options));
 * ```
 */
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
      expect(await store.add([entry('http://a/1'), entry('http://a/1'), entry('http://a/2')])).toEqual([
        'added',
        'duplicate',
        'added',
      ]);
      expect(await store.add([entry('http://a/2')])).toEqual(['duplicate']);
      expect((await store.counts()).queued).toBe(2);
    });

    it('refuses URLs past a per-host bound', async () => {
      const outcomes = await store.add(
        [entry('http://a/1'), entry('http://a/2'), entry('http://a/3'), entry('http://b/1')],
        { maxPerHost: 2 },
      );
      expect(outcomes).toEqual(['added', 'added', 'host-full', 'added']);
    });

    it('takes the highest priority first, FIFO within a priority', async () => {
      await store.setHostPolicy('a', { delayMs: 0, maxInFlight: 10 });
      await store.add([
        entry('http://a/low', { priority: 0 }),
        entry('http://a/high', { priority: 5 }),
        entry('http://a/low2', { priority: 0 }),
      ]);
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

    it("complete adds the page's links in the same step, deduped and bounded per host like add", async () => {
      await store.add([entry('http://a/1'), entry('http://a/2')]);
      const claimed = await store.claim({ now: 0, leaseMs: 60_000 });
      const links = [
        entry('http://a/2'),
        entry('http://a/3'),
        entry('http://a/4'),
        entry('http://b/1'),
        entry('http://b/1'),
      ];
      const outcomes = await store.complete(claimed.lease!.id, {
        hostReadyAt: 5_000,
        add: links,
        addOptions: { maxPerHost: 3 },
      });
      expect(outcomes).toEqual(['duplicate', 'added', 'host-full', 'added', 'duplicate']);
      expect(await store.counts()).toEqual({ queued: 3, inFlight: 0, done: 1, failed: 0, activeHosts: 2 });
      // The clock given with the links is the host's: a is not ready before 5 s, b at once.
      const onB = await store.claim({ now: 1_000, leaseMs: 60_000 });
      expect(onB.lease?.entry.url).toBe('http://b/1');
      await store.complete(onB.lease!.id);
      expect(await store.claim({ now: 1_000, leaseMs: 60_000 })).toEqual({ lease: null, nextReadyAt: 5_000 });
      expect((await store.claim({ now: 5_000, leaseMs: 60_000 })).lease?.entry.url).toBe('http://a/2');
    });

    it('complete without links resolves with no outcomes', async () => {
      await store.add([entry('http://a/1')]);
      const claimed = await store.claim({ now: 0, leaseMs: 60_000 });
      expect(await store.complete(claimed.lease!.id)).toEqual([]);
      expect((await store.counts()).done).toBe(1);
    });

    it('complete on a lease that is no longer held still adds its links, and ends nothing', async () => {
      await store.add([entry('http://a/1')]);
      const first = await store.claim({ now: 0, leaseMs: 500 });
      const again = await store.claim({ now: 5000, leaseMs: 500 });
      expect(again.lease?.entry.url).toBe('http://a/1');
      expect(await store.complete(first.lease!.id, { add: [entry('http://c/1')] })).toEqual(['added']);
      expect(await store.counts()).toEqual({ queued: 1, inFlight: 1, done: 0, failed: 0, activeHosts: 2 });
    });

    it("gives back an entry's label, userData and headers exactly as added", async () => {
      const userData = {
        category: 'Garden & Tools',
        ids: [1, 2.5, -3],
        nested: { ok: true, none: null },
        text: 'ünïcödé "quoted"',
      };
      await store.add([
        entry('http://a/1', { label: 'DETAIL', userData, headers: { 'accept-language': 'de' } }),
        entry('http://a/2'),
      ]);
      const first = await store.claim({ now: 0, leaseMs: 60_000 });
      expect(first.lease!.entry).toEqual({
        url: 'http://a/1',
        hostKey: 'a',
        depth: 0,
        priority: 0,
        label: 'DETAIL',
        userData,
        headers: { 'accept-language': 'de' },
      });
      await store.retry(first.lease!.id, { hostReadyAt: 0 });
      const second = await store.claim({ now: 2_000, leaseMs: 60_000 });
      expect(second.lease!.entry.url).toBe('http://a/2');
      expect(second.lease!.entry).not.toHaveProperty('label');
      expect(second.lease!.entry).not.toHaveProperty('userData');
      await store.complete(second.lease!.id, { hostReadyAt: 0 });
      const retried = await store.claim({ now: 4_000, leaseMs: 60_000 });
      expect(retried.lease!.entry).toMatchObject({ url: 'http://a/1', label: 'DETAIL', userData, retries: 1 });
    });

    it('counts queued, in flight, done and per host', async () => {
      await store.add([entry('http://a/1'), entry('http://a/2'), entry('http://b/1'), entry('http://b/2')]);
      const claimed = await store.claim({ now: 0, leaseMs: 60_000 });
      expect(await store.counts()).toEqual({ queued: 3, inFlight: 1, done: 0, failed: 0, activeHosts: 2 });
      await store.complete(claimed.lease!.id);
      expect(await store.counts()).toEqual({ queued: 3, inFlight: 0, done: 1, failed: 0, activeHosts: 2 });
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

    // Holds (`hostNotBefore`: a Retry-After, a backoff) against paces (`hostReadyAt`).

    /** Two URLs of host `h` claimed at 0 (two in flight allowed), and a third queued. */
    async function twoInFlight(h = 'h'): Promise<[FrontierLease, FrontierLease]> {
      await store.setHostPolicy(h, { delayMs: 0, maxInFlight: 2 });
      await store.add([entry(`http://${h}/1`), entry(`http://${h}/2`), entry(`http://${h}/3`)]);
      const leases = [
        await store.claim({ now: 0, leaseMs: 600_000 }),
        await store.claim({ now: 0, leaseMs: 600_000 }),
      ].map((r) => r.lease);
      expect(leases.map((l) => l?.entry.hostKey)).toEqual([h, h]);
      return leases as [FrontierLease, FrontierLease];
    }

    /**
     * When host `h` may next be claimed: `now` if a claim at `now` gets its URL (handed back at
     * once), else the host's clock, checked against the store's claims: nothing a moment before
     * it, and "look again" no later than it (a shared store may say sooner: URLs are in flight).
     * Every other host of a test is held at least as long.
     */
    async function nextClaimAt(h = 'h', now = 0): Promise<number> {
      const result = await store.claim({ now, leaseMs: 600_000 });
      if (result.lease !== null) {
        expect(result.lease.entry.hostKey).toBe(h);
        await store.release(result.lease.id, { hostReadyAt: result.lease.previousHostReadyAt });
        return now;
      }
      const readyAt = (await store.hostCounts()).find((c) => c.hostKey === h)!.readyAt;
      expect(result.nextReadyAt).not.toBeNull();
      expect(result.nextReadyAt!).toBeLessThanOrEqual(readyAt);
      expect((await store.claim({ now: readyAt - 1, leaseMs: 600_000 })).lease).toBeNull();
      return readyAt;
    }

    for (const holdFirst of [true, false]) {
      it(`keeps a hold that one settle gave against ${holdFirst ? 'a later' : 'an earlier'} settle with an earlier clock`, async () => {
        const [refused, ok] = await twoInFlight();
        if (holdFirst) {
          await store.retry(refused.id, { hostReadyAt: 2100, hostNotBefore: 2100 });
          await store.complete(ok.id, { hostReadyAt: 400 });
        } else {
          await store.complete(ok.id, { hostReadyAt: 400 });
          await store.retry(refused.id, { hostReadyAt: 2100, hostNotBefore: 2100 });
        }
        expect(await nextClaimAt('h', 500)).toBe(2100);
        expect((await store.claim({ now: 2099, leaseMs: 600_000 })).lease).toBeNull();
        expect((await store.claim({ now: 2100, leaseMs: 600_000 })).lease?.entry.hostKey).toBe('h');
      });
    }

    it('keeps a hold given alone (no clock asked): the clock is raised to it', async () => {
      const [first, second] = await twoInFlight();
      await store.complete(first.id, { hostNotBefore: 5000 });
      expect(await nextClaimAt('h', 100)).toBe(5000);
      await store.complete(second.id); // no clock, no hold: nothing moves
      expect(await nextClaimAt('h', 100)).toBe(5000);
    });

    it('keeps a hold against setHostPolicy({ readyAt }), which still moves the clock later', async () => {
      const [refused, ok] = await twoInFlight();
      await store.retry(refused.id, { hostReadyAt: 3000, hostNotBefore: 3000 });
      await store.setHostPolicy('h', { readyAt: 0 });
      expect(await nextClaimAt('h', 100)).toBe(3000);
      await store.setHostPolicy('h', { delayMs: 10, maxInFlight: 2 }); // no clock: the clock stays
      expect(await nextClaimAt('h', 100)).toBe(3000);
      await store.setHostPolicy('h', { readyAt: 4000 });
      expect(await nextClaimAt('h', 100)).toBe(4000);
      await store.complete(ok.id, { hostReadyAt: 3500 }); // a pace after the hold may move it back, not before it
      expect(await nextClaimAt('h', 100)).toBe(3500);
    });

    it('keeps a hold when a claim that made no request is handed back, which without a hold restores the clock', async () => {
      await store.setHostPolicy('h', { delayMs: 1000, maxInFlight: 1 });
      await store.add([entry('http://h/1'), entry('http://h/2')]);
      // No hold: handing the claim back restores the clock it had (no delay slot spent).
      const free = (await store.claim({ now: 0, leaseMs: 600_000 })).lease!;
      await store.release(free.id, { hostReadyAt: free.previousHostReadyAt });
      expect(await nextClaimAt('h', 0)).toBe(0);
      // A hold: the hand-back cannot undo it.
      const held = (await store.claim({ now: 0, leaseMs: 600_000 })).lease!;
      await store.retry(held.id, { hostReadyAt: 7000, hostNotBefore: 7000 });
      const again = (await store.claim({ now: 7000, leaseMs: 600_000 })).lease!;
      await store.release(again.id, { hostReadyAt: 0 });
      expect(await nextClaimAt('h', 100)).toBe(7000);
    });

    it('only raises a hold: a shorter one later does not shorten it', async () => {
      const [first, second] = await twoInFlight();
      await store.retry(first.id, { hostReadyAt: 9000, hostNotBefore: 9000 });
      await store.retry(second.id, { hostReadyAt: 3000, hostNotBefore: 3000 });
      expect(await nextClaimAt('h', 100)).toBe(9000);
      await store.setHostPolicy('h', { readyAt: 5000 });
      expect(await nextClaimAt('h', 100)).toBe(9000);
      // A later hold raises it.
      const next = (await store.claim({ now: 9000, leaseMs: 600_000 })).lease!;
      await store.retry(next.id, { hostReadyAt: 100, hostNotBefore: 12_000 });
      expect(await nextClaimAt('h', 9000)).toBe(12_000);
    });

    it('keeps holds per host', async () => {
      const [a] = await twoInFlight('a');
      const [b] = await twoInFlight('b');
      await store.retry(a.id, { hostReadyAt: 8000, hostNotBefore: 8000 });
      await store.complete(b.id, { hostReadyAt: 100 });
      await store.setHostPolicy('b', { readyAt: 50 });
      // b is not held: its last URL now; a is held: nothing more until 8000.
      expect((await store.claim({ now: 200, leaseMs: 600_000 })).lease?.entry.hostKey).toBe('b');
      expect(await nextClaimAt('a', 200)).toBe(8000);
    });

    it('ignores the hold of a lease that is no longer held (expired and claimed again)', async () => {
      await store.setHostPolicy('h', { delayMs: 0, maxInFlight: 1 });
      await store.add([entry('http://h/1')]);
      const stale = (await store.claim({ now: 0, leaseMs: 500 })).lease!;
      const fresh = (await store.claim({ now: 1000, leaseMs: 600_000 })).lease!;
      await store.retry(stale.id, { hostReadyAt: 50_000, hostNotBefore: 50_000 });
      await store.complete(fresh.id, { hostReadyAt: 1000 });
      expect((await store.counts()).done).toBe(1);
      await store.add([entry('http://h/2')]);
      expect(await nextClaimAt('h', 1000)).toBe(1000);
    });

    it('keeps the latest hold with four requests in flight, settled in all 24 orders', async () => {
      // answers: Retry-After to 2000 ms, a 200, a hand-back, a Retry-After to 1500 ms; settled 100 ms apart.
      const orders = permutations([0, 1, 2, 3]);
      for (const [k, order] of orders.entries()) {
        const h = `o${k}`;
        await store.setHostPolicy(h, { delayMs: 50, maxInFlight: 4 });
        await store.add(Array.from({ length: 6 }, (_, i) => entry(`http://${h}/${i}`)));
        const leases: FrontierLease[] = [];
        for (let i = 0; i < 4; i++) {
          const claimed = (await store.claim({ now: i * 50, leaseMs: 600_000 })).lease;
          expect(claimed?.entry.hostKey).toBe(h);
          leases.push(claimed!);
        }
        for (const [step, index] of order.entries()) {
          const lease = leases[index]!;
          const now = 300 + step * 100;
          if (index === 0) await store.retry(lease.id, { hostReadyAt: 2000, hostNotBefore: 2000 });
          else if (index === 1) await store.complete(lease.id, { hostReadyAt: now + 50 });
          else if (index === 2) await store.release(lease.id, { hostReadyAt: lease.previousHostReadyAt });
          else await store.retry(lease.id, { hostReadyAt: 1500, hostNotBefore: 1500 });
        }
        expect(await nextClaimAt(h, 700), `order ${order.join(',')}`).toBe(2000);
      }
    });

    describe('host turns', () => {
      /** A turn at `h` (every store of this repo has `takeHostTurn`). */
      const turn = (h: string, now: number, busyUntil: number, withinLease = false): Promise<HostTurn> => {
        expect(store.takeHostTurn, 'takeHostTurn').toBeTypeOf('function');
        return store.takeHostTurn!(h, { now, busyUntil, withinLease });
      };

      it('grants a turn at a host never met and moves its clock: a URL added there is not claimed before busyUntil', async () => {
        expect(await turn('t', 1000, 5000)).toEqual({ granted: true });
        expect(await store.add([entry('http://t/1'), entry('http://t/2')])).toEqual(['added', 'added']);
        expect(await store.claim({ now: 4999, leaseMs: 60_000 })).toEqual({ lease: null, nextReadyAt: 5000 });
        const first = (await store.claim({ now: 5000, leaseMs: 60_000 })).lease!;
        expect(first.entry.url).toBe('http://t/1');
        expect(first.previousHostReadyAt).toBe(5000);
        await store.complete(first.id);
        // The host was made with the default policy (1000 ms between requests).
        expect(await store.claim({ now: 5999, leaseMs: 60_000 })).toEqual({ lease: null, nextReadyAt: 6000 });
        expect((await store.claim({ now: 6000, leaseMs: 60_000 })).lease?.entry.url).toBe('http://t/2');
      });

      it('moves the clock of a host whose URLs are already queued: they wait for busyUntil', async () => {
        await store.setHostPolicy('q', { delayMs: 0 });
        await store.add([entry('http://q/1')]);
        expect(await turn('q', 100, 3000)).toEqual({ granted: true });
        expect(await store.claim({ now: 2999, leaseMs: 60_000 })).toEqual({ lease: null, nextReadyAt: 3000 });
        expect((await store.claim({ now: 3000, leaseMs: 60_000 })).lease?.entry.url).toBe('http://q/1');
      });

      it("refuses a turn while the host's clock is ahead, with the clock as retryAt", async () => {
        expect(await turn('c', 0, 3000)).toEqual({ granted: true });
        expect(await turn('c', 1000, 4000)).toEqual({ granted: false, retryAt: 3000 });
        expect(await turn('c', 2999, 4000, true)).toEqual({ granted: false, retryAt: 3000 });
        expect(await turn('c', 3000, 4000)).toEqual({ granted: true });
        // A clock a claim moved refuses a turn as well.
        await store.add([entry('http://d/1')]);
        const claimed = (await store.claim({ now: 0, leaseMs: 60_000 })).lease!;
        expect(claimed.entry.hostKey).toBe('d');
        await store.complete(claimed.id);
        expect(await turn('d', 500, 600)).toEqual({ granted: false, retryAt: 1000 });
        expect(await turn('d', 1000, 1200)).toEqual({ granted: true });
      });

      it('refuses a turn for room when leases fill maxInFlight, unless it rides on a lease (withinLease)', async () => {
        await store.setHostPolicy('r', { delayMs: 0, maxInFlight: 1 });
        await store.add([entry('http://r/1'), entry('http://r/2')]);
        const lease = (await store.claim({ now: 0, leaseMs: 60_000 })).lease!;
        const refused = await turn('r', 0, 100);
        expect(refused.granted).toBe(false);
        expect(refused.granted === false && refused.retryAt).toBeGreaterThan(0);
        expect(await turn('r', 0, 100, true)).toEqual({ granted: true });
        // The turn is no lease: in flight is still the one claim.
        expect((await store.counts()).inFlight).toBe(1);
        expect(await turn('r', 100, 200)).toMatchObject({ granted: false });
        // More room: a turn without a lease goes.
        await store.setHostPolicy('r', { maxInFlight: 2 });
        expect(await turn('r', 100, 200)).toEqual({ granted: true });
        await store.setHostPolicy('r', { maxInFlight: 1 });
        await store.complete(lease.id);
        expect(await turn('r', 200, 300)).toEqual({ granted: true });
      });

      it("never grants a turn before the host's hold, even within a lease", async () => {
        const [refused, ok] = await twoInFlight();
        await store.retry(refused.id, { hostReadyAt: 2100, hostNotBefore: 2100 });
        await store.complete(ok.id, { hostReadyAt: 400 });
        await store.setHostPolicy('h', { readyAt: 0 });
        expect(await turn('h', 1000, 1500)).toEqual({ granted: false, retryAt: 2100 });
        expect(await turn('h', 2099, 2200, true)).toEqual({ granted: false, retryAt: 2100 });
        expect(await turn('h', 2100, 2200)).toEqual({ granted: true });
        // After the turn the clock goes back, but never before the hold.
        await store.setHostPolicy('h', { readyAt: 0 });
        expect(await nextClaimAt('h', 100)).toBe(2100);
      });

      it('lets setHostPolicy({ readyAt }) set the clock back after a turn: a claim goes then', async () => {
        await store.add([entry('http://s/1')]);
        expect(await turn('s', 0, 60_000)).toEqual({ granted: true });
        expect(await store.claim({ now: 1000, leaseMs: 60_000 })).toEqual({ lease: null, nextReadyAt: 60_000 });
        await store.setHostPolicy('s', { readyAt: 1500 });
        expect(await store.claim({ now: 1499, leaseMs: 60_000 })).toEqual({ lease: null, nextReadyAt: 1500 });
        expect((await store.claim({ now: 1500, leaseMs: 60_000 })).lease?.entry.url).toBe('http://s/1');
      });

      it('gives one of two turns asked at once at one host, the other told to wait for it', async () => {
        for (const [h, withinLease] of [
          ['x', false],
          ['y', true],
        ] as const) {
          for (let round = 0; round < 5; round++) {
            const now = round * 1000;
            const turns = await Promise.all([
              turn(h, now, now + 500, withinLease),
              turn(h, now, now + 500, withinLease),
            ]);
            expect(turns.filter((t) => t.granted)).toHaveLength(1);
            expect(turns.find((t) => !t.granted)).toEqual({ granted: false, retryAt: now + 500 });
          }
        }
      });
    });

    describe('send turns', () => {
      let turns = 0;
      /** A send turn at `h`, as `turnId` (a new one by default; every store of this repo has `takeSendTurn`). */
      const send = (h: string, now: number, busyUntil: number, turnId = `turn-${++turns}`): Promise<HostTurn> => {
        expect(store.takeSendTurn, 'takeSendTurn').toBeTypeOf('function');
        return store.takeSendTurn!(h, { turnId, now, busyUntil });
      };
      const end = (h: string, readyAt: number, turnId: string): Promise<void> => {
        expect(store.endSendTurn, 'endSendTurn').toBeTypeOf('function');
        return store.endSendTurn!(h, { turnId, readyAt });
      };

      it('grants one send turn at a time; the held one refuses the next until it ends, then its pace does', async () => {
        expect(await send('s', 1000, 31_000, 'first')).toEqual({ granted: true });
        const busy = await send('s', 1005, 31_000);
        expect(busy.granted).toBe(false);
        // Asked again a moment later (the turn ends when its request is written), never past busyUntil.
        expect(busy.granted === false && busy.retryAt).toBeGreaterThan(1005);
        expect(busy.granted === false && busy.retryAt).toBeLessThanOrEqual(31_000);
        await end('s', 2010, 'first'); // written at 1010, delay 1000
        expect(await send('s', 1500, 31_500)).toEqual({ granted: false, retryAt: 2010 });
        expect(await send('s', 2010, 32_010)).toEqual({ granted: true });
        // Another host is not held by it.
        expect(await send('other', 1500, 31_500)).toEqual({ granted: true });
      });

      it('grants a held turn again to its own id (a request sent again after its reply was lost)', async () => {
        expect(await send('r', 0, 5000, 'mine')).toEqual({ granted: true });
        expect(await send('r', 10, 5000, 'mine')).toEqual({ granted: true });
        expect((await send('r', 10, 5000, 'theirs')).granted).toBe(false);
        await end('r', 100, 'mine');
        await end('r', 100, 'mine'); // ended twice: nothing more
        expect(await send('r', 100, 5000, 'theirs')).toEqual({ granted: true });
      });

      it('lets a held send turn expire at busyUntil (its worker died); its late end neither ends the next turn nor lowers the pace', async () => {
        expect(await send('x', 0, 5000, 'dead')).toEqual({ granted: true });
        expect((await send('x', 4999, 9000)).granted).toBe(false);
        expect(await send('x', 5000, 9000, 'next')).toEqual({ granted: true });
        await end('x', 6000, 'dead');
        // 'next' still holds the turn.
        expect((await send('x', 6000, 12_000)).granted).toBe(false);
        await end('x', 8000, 'next');
        await end('x', 7000, 'late'); // an earlier pace does not move it back
        expect(await send('x', 7999, 12_000)).toEqual({ granted: false, retryAt: 8000 });
        expect(await send('x', 8000, 12_000)).toEqual({ granted: true });
      });

      it("never grants a send turn before the host's hold", async () => {
        const [held, other] = await twoInFlight();
        await store.retry(held.id, { hostReadyAt: 3000, hostNotBefore: 3000 });
        await store.complete(other.id, { hostReadyAt: 100 });
        expect(await send('h', 1000, 2000)).toEqual({ granted: false, retryAt: 3000 });
        expect(await send('h', 3000, 4000)).toEqual({ granted: true });
      });

      it('is kept apart from the clock claims move: claims neither wait for it nor move it, and settles never lower it', async () => {
        await store.setHostPolicy('c', { delayMs: 1000, maxInFlight: 2 });
        await store.add([entry('http://c/1'), entry('http://c/2'), entry('http://c/3')]);
        expect(await send('c', 0, 30_000, 'one')).toEqual({ granted: true });
        // A claim goes while the send turn is held.
        const first = (await store.claim({ now: 0, leaseMs: 60_000 })).lease!;
        expect(first.entry.hostKey).toBe('c');
        // The claim moved the claims' clock to 1000, not the send pace: ended at 500, a send turn goes at 500.
        await end('c', 500, 'one');
        expect(await send('c', 500, 30_500, 'two')).toEqual({ granted: true });
        await end('c', 1600, 'two');
        // A settle that asks for an earlier clock (another worker's answer) leaves the send pace where it is.
        await store.complete(first.id, { hostReadyAt: 200 });
        expect(await send('c', 1000, 31_000)).toEqual({ granted: false, retryAt: 1600 });
        expect(await send('c', 1600, 31_600)).toEqual({ granted: true });
      });

      it("refuses a host turn (a sub-request's) while a send turn is held or its pace has not come", async () => {
        await store.setHostPolicy('u', { delayMs: 0, maxInFlight: 2 });
        expect(await send('u', 0, 30_000, 'held')).toEqual({ granted: true });
        expect((await store.takeHostTurn!('u', { now: 10, busyUntil: 5000, withinLease: true })).granted).toBe(false);
        await end('u', 700, 'held');
        expect(await store.takeHostTurn!('u', { now: 10, busyUntil: 5000, withinLease: true })).toEqual({
          granted: false,
          retryAt: 700,
        });
        expect(await store.takeHostTurn!('u', { now: 700, busyUntil: 5000, withinLease: true })).toEqual({
          granted: true,
        });
      });

      it('gives one of two send turns asked at once', async () => {
        for (let round = 0; round < 5; round++) {
          const now = round * 1000;
          const ids = [`a${round}`, `b${round}`];
          const turns = await Promise.all(ids.map((id) => send('z', now, now + 500, id)));
          expect(turns.filter((t) => t.granted)).toHaveLength(1);
          await end('z', now + 10, ids[turns.findIndex((t) => t.granted)]!);
        }
      });
    });

    /** The lease of the next URL claimable at `now` (failing the case when none is). */
    async function claimNow(now = 0): Promise<FrontierLease> {
      const result = await store.claim({ now, leaseMs: 60_000 });
      expect(result.lease, `a URL claimable at ${now}`).not.toBeNull();
      return result.lease!;
    }

    /** The URLs claimable at `now`, in the order claimed, each completed at once. */
    async function claimAllNow(now = 0): Promise<FrontierEntry[]> {
      const entries: FrontierEntry[] = [];
      for (let result = await store.claim({ now, leaseMs: 60_000 }); result.lease !== null; ) {
        entries.push(result.lease.entry);
        await store.complete(result.lease.id);
        result = await store.claim({ now, leaseMs: 60_000 });
      }
      return entries;
    }

    describe('failed URLs', () => {
      it('keeps a URL completed with a failure as done and failed, with its entry as claimed and its failure', async () => {
        await store.setHostPolicy('a', { delayMs: 0 });
        const labelled = entry('http://a/1', {
          label: 'L',
          userData: { n: 1 },
          priority: 2,
          depth: 1,
          referrer: 'http://a/',
        });
        const sitemap = entry('http://a/map.xml', { kind: 'sitemap', data: { k: 'v' } });
        await store.add([labelled, sitemap, entry('http://a/2')]);
        await store.retry((await claimNow()).id);
        const again = await claimNow();
        expect(again.entry).toEqual({ ...labelled, retries: 1 });
        const late = failureAt(3_000, { attempts: 2, code: 'ERR_HTTP_STATUS' });
        await store.complete(again.id, { failure: late });
        const onSitemap = await claimNow();
        expect(onSitemap.entry).toEqual(sitemap);
        const early = failureAt(2_000, { reason: 'robots', message: 'disallowed by robots.txt' });
        await store.complete(onSitemap.id, { failure: early });
        await store.complete((await claimNow()).id);
        expect(await store.counts()).toEqual({ queued: 0, inFlight: 0, done: 3, failed: 2, activeHosts: 0 });
        // The oldest failure first; the entry as claimed, without its retry count.
        const failures = await store.failures();
        expect(failures).toEqual([
          { entry: sitemap, failure: early },
          { entry: labelled, failure: late },
        ]);
        expect(failures[0]!.failure).not.toHaveProperty('code');
        expect(failures[1]!.entry).not.toHaveProperty('retries');
        expect(await store.failures(1)).toEqual([{ entry: sitemap, failure: early }]);
        // Done: an add does not queue a failed URL again.
        expect(await store.add([entry('http://a/1')])).toEqual(['duplicate']);
        expect(await store.hostCounts()).toMatchObject([{ hostKey: 'a', queued: 0, inFlight: 0, done: 3 }]);
      });

      it('ignores the failure given with a lease that is no longer held', async () => {
        await store.add([entry('http://a/1')]);
        const stale = (await store.claim({ now: 0, leaseMs: 500 })).lease!;
        const fresh = (await store.claim({ now: 5_000, leaseMs: 60_000 })).lease!;
        expect(fresh.entry.url).toBe('http://a/1');
        await store.complete(stale.id, { failure: failureAt(5_100) });
        expect(await store.counts()).toMatchObject({ inFlight: 1, done: 0, failed: 0 });
        await store.complete(fresh.id);
        expect(await store.counts()).toMatchObject({ done: 1, failed: 0 });
        expect(await store.failures()).toEqual([]);
      });

      it('forgets the failure of a failed revisit that reopenDue queues again', async () => {
        await store.setHostPolicy('a', { delayMs: 0 });
        await store.add([entry('http://a/1')]);
        await store.complete((await claimNow()).id, { lastFetch: lastFetch(10, 50) });
        expect(await store.reopenDue({ dueBefore: 100, limit: 10 })).toBe(1);
        await store.complete((await claimNow()).id, { failure: failureAt(300) });
        expect(await store.counts()).toMatchObject({ done: 1, failed: 1 });
        expect(await store.reopenDue({ dueBefore: 100, limit: 10 })).toBe(1);
        expect(await store.counts()).toMatchObject({ queued: 1, done: 0, failed: 0 });
        expect(await store.failures()).toEqual([]);
        expect(await store.requeueFailed()).toBe(0);
      });
    });

    describe('requeueFailed', () => {
      it('puts every failed URL back at the tail of its queue, retries reset and failure forgotten, priority and label kept', async () => {
        await store.setHostPolicy('a', { delayMs: 0 });
        const labelled = entry('http://a/1', { label: 'L', userData: { n: 1 }, priority: 2 });
        await store.add([labelled, entry('http://a/2', { priority: 2 }), entry('http://a/3'), entry('http://a/4')]);
        await store.retry((await claimNow()).id); // a/1 behind a/2, with one retry
        const second = await claimNow();
        expect(second.entry.url).toBe('http://a/2');
        await store.complete(second.id, { failure: failureAt(100) });
        const first = await claimNow();
        expect(first.entry).toMatchObject({ url: 'http://a/1', retries: 1 });
        await store.complete(first.id, { failure: failureAt(200, { attempts: 2 }) });
        await store.add([entry('http://a/5', { priority: 2 })]);
        expect(await store.counts()).toEqual({ queued: 3, inFlight: 0, done: 2, failed: 2, activeHosts: 1 });

        expect(await store.requeueFailed()).toBe(2);
        expect(await store.counts()).toEqual({ queued: 5, inFlight: 0, done: 0, failed: 0, activeHosts: 1 });
        expect(await store.hostCounts()).toMatchObject([{ hostKey: 'a', queued: 5, inFlight: 0, done: 0 }]);
        expect(await store.failures()).toEqual([]);
        expect(await store.requeueFailed()).toBe(0);
        const claimed = await claimAllNow();
        // Priority 2 first: a/5 (queued before), then the failed ones in the order they failed.
        expect(claimed.map((e) => e.url)).toEqual([
          'http://a/5',
          'http://a/2',
          'http://a/1',
          'http://a/3',
          'http://a/4',
        ]);
        expect(claimed[2]).toEqual(labelled);
        expect(await store.counts()).toEqual({ queued: 0, inFlight: 0, done: 5, failed: 0, activeHosts: 0 });
      });

      it('with a filter, puts back only the failed URLs among those named, of the kind given', async () => {
        await store.setHostPolicy('a', { delayMs: 0 });
        await store.add(['http://a/1', 'http://a/2', 'http://a/3', 'http://a/4'].map((url) => entry(url)));
        await store.complete((await claimNow()).id, { failure: failureAt(100, { kind: 'refused', reason: 'robots' }) });
        await store.complete((await claimNow()).id, { failure: failureAt(200) });
        await store.complete((await claimNow()).id, { failure: failureAt(300, { kind: 'refused', reason: 'robots' }) });
        await store.complete((await claimNow()).id);
        expect((await store.failures()).map((f) => [f.entry.url, f.failure.kind])).toEqual([
          ['http://a/1', 'refused'],
          ['http://a/2', 'failed'],
          ['http://a/3', 'refused'],
        ]);
        // Named, of another kind, done but not failed, or unknown: none of these comes back.
        const named = ['http://a/2', 'http://a/4', 'http://a/9'];
        expect(await store.requeueFailed({ urls: named, kind: 'refused' })).toBe(0);
        expect(await store.requeueFailed({ urls: ['http://a/3', 'http://a/4', 'http://a/3'] })).toBe(1);
        expect(await store.counts()).toMatchObject({ queued: 1, done: 3, failed: 2 });
        expect(await store.requeueFailed({ kind: 'refused' })).toBe(1);
        expect((await store.failures()).map((f) => f.entry.url)).toEqual(['http://a/2']);
        expect((await claimAllNow()).map((e) => e.url).sort()).toEqual(['http://a/1', 'http://a/3']);
        expect(await store.counts()).toMatchObject({ queued: 0, done: 4, failed: 1 });
      });

      it('queues a failed revisit once (reopenDue does not queue it too), as a revisit that keeps its LastFetch', async () => {
        await store.setHostPolicy('a', { delayMs: 0 });
        await store.add([entry('http://a/1')]);
        await store.complete((await claimNow()).id, { lastFetch: lastFetch(10, 50) });
        expect(await store.reopenDue({ dueBefore: 100, limit: 10 })).toBe(1);
        await store.complete((await claimNow()).id, { failure: failureAt(300) });
        expect(await store.failures()).toEqual([{ entry: entry('http://a/1'), failure: failureAt(300) }]);

        expect(await store.requeueFailed()).toBe(1);
        expect(await store.reopenDue({ dueBefore: 1e12, fetchedBefore: 1e12, limit: 10 })).toBe(0);
        expect(await store.counts()).toMatchObject({ queued: 1, done: 0, failed: 0 });
        const again = await claimNow();
        expect(again.entry).toEqual(entry('http://a/1', { revisit: lastFetch(10, 50) }));
        expect((await store.claim({ now: 0, leaseMs: 60_000 })).lease).toBeNull();
        // Done again without a new LastFetch: it keeps the one it had, and is due by it.
        await store.complete(again.id);
        expect(await store.reopenDue({ dueBefore: 100, limit: 10 })).toBe(1);
      });
    });

    describe('clear', () => {
      it('forgets every URL, host, hold, lease, failure and metadata value: the store is as new', async () => {
        await store.setHostPolicy('a', { delayMs: 0, maxInFlight: 2 });
        await store.add([entry('http://a/1'), entry('http://a/2')]);
        const failed = await claimNow();
        const held = await claimNow();
        await store.complete(failed.id, { failure: failureAt(10), hostNotBefore: 60_000 });
        await store.add([entry('http://b/1')]);
        await store.saveMetadata?.('politely:test', { kept: true });
        await store.clear();

        expect(await store.counts()).toEqual({ queued: 0, inFlight: 0, done: 0, failed: 0, activeHosts: 0 });
        expect(await store.hostCounts()).toEqual([]);
        expect(await store.failures()).toEqual([]);
        expect(await store.claim({ now: 0, leaseMs: 60_000 })).toEqual({ lease: null, nextReadyAt: null });
        if (store.loadMetadata !== undefined) expect(await store.loadMetadata('politely:test')).toBeUndefined();
        // Every URL is new again; host a has the default policy (1 in flight, 1000 ms apart), no hold, no clock.
        expect(await store.add([entry('http://a/1'), entry('http://a/2')])).toEqual(['added', 'added']);
        const onA = await claimNow();
        expect(onA.entry.url).toBe('http://a/1');
        expect(onA.previousHostReadyAt).toBe(0);
        expect((await store.claim({ now: 0, leaseMs: 60_000 })).lease).toBeNull();
        expect(await store.add([entry('http://b/1')])).toEqual(['added']);
        expect((await claimNow()).entry.url).toBe('http://b/1');
        // The lease held before clear is void: settling it changes nothing, and does not throw.
        expect(await store.complete(held.id, { hostReadyAt: 90_000, failure: failureAt(20) })).toEqual([]);
        await store.release(held.id, { hostReadyAt: 90_000 });
        await store.retry(held.id, { hostNotBefore: 90_000 });
        expect(await store.counts()).toEqual({ queued: 1, inFlight: 2, done: 0, failed: 0, activeHosts: 2 });
        expect(await store.failures()).toEqual([]);
        await store.complete(onA.id);
        expect((await claimNow(1_000)).entry.url).toBe('http://a/2');
      });
    });

    describe('relabel', () => {
      it('gives a queued URL without a label the label, userData and higher priority of a later add with one', async () => {
        await store.setHostPolicy('a', { delayMs: 0 });
        const plain = entry('http://a/1', { data: { k: 'v' }, headers: { 'x-h': '1' }, referrer: 'http://a/' });
        await store.add([plain, entry('http://a/2', { priority: 1 }), entry('http://a/3'), entry('http://a/4')]);
        const outcomes = await store.add([
          entry('http://a/1', { label: 'DETAIL', userData: { n: 1 }, priority: 5, depth: 3 }),
          // A lower priority: the label, and the priority it had (its place kept).
          entry('http://a/3', { label: 'LIST', priority: -1 }),
        ]);
        expect(outcomes).toEqual(['relabelled', 'relabelled']);
        expect(await store.counts()).toMatchObject({ queued: 4, done: 0 });
        const claimed = await claimAllNow();
        expect(claimed.map((e) => e.url)).toEqual(['http://a/1', 'http://a/2', 'http://a/3', 'http://a/4']);
        // The entry otherwise as it was queued: its depth, data, headers and referrer.
        expect(claimed[0]).toEqual({ ...plain, label: 'DETAIL', userData: { n: 1 }, priority: 5 });
        expect(claimed[2]).toEqual(entry('http://a/3', { label: 'LIST' }));
        expect(claimed[3]).not.toHaveProperty('label');
        expect(await store.counts()).toMatchObject({ queued: 0, done: 4 });
      });

      it('relabels a URL added earlier in the same add', async () => {
        await store.setHostPolicy('a', { delayMs: 0 });
        expect(
          await store.add([entry('http://a/1'), entry('http://a/2'), entry('http://a/2', { label: 'L', priority: 3 })]),
        ).toEqual(['added', 'added', 'relabelled']);
        expect(await claimAllNow()).toEqual([entry('http://a/2', { label: 'L', priority: 3 }), entry('http://a/1')]);
      });

      it('relabels once: a later add with another label is a duplicate', async () => {
        await store.add([entry('http://a/1')]);
        expect(await store.add([entry('http://a/1', { label: 'A', userData: { n: 1 } })])).toEqual(['relabelled']);
        expect(await store.add([entry('http://a/1', { label: 'B', userData: { n: 2 }, priority: 9 })])).toEqual([
          'duplicate',
        ]);
        expect(await store.add([entry('http://a/1')])).toEqual(['duplicate']);
        expect((await claimNow()).entry).toEqual(entry('http://a/1', { label: 'A', userData: { n: 1 } }));
      });

      it('leaves a labelled queued URL, one in flight and one done as they are', async () => {
        await store.setHostPolicy('a', { delayMs: 0, maxInFlight: 10 });
        const labelled = entry('http://a/labelled', { label: 'A', userData: { x: 1 }, priority: -1 });
        await store.add([labelled, entry('http://a/flight'), entry('http://a/done')]);
        const flight = await claimNow();
        expect(flight.entry.url).toBe('http://a/flight');
        const done = await claimNow();
        await store.complete(done.id);
        const later = { label: 'B', userData: { y: 2 }, priority: 9 };
        expect(
          await store.add([
            entry('http://a/labelled', later),
            entry('http://a/flight', later),
            entry('http://a/done', later),
          ]),
        ).toEqual(['duplicate', 'duplicate', 'duplicate']);
        expect(await store.counts()).toEqual({ queued: 1, inFlight: 1, done: 1, failed: 0, activeHosts: 1 });
        // Handed back, the URL in flight comes out as it was claimed, ahead of the labelled one.
        await store.release(flight.id);
        expect((await claimNow()).entry).toEqual(entry('http://a/flight'));
        expect((await claimNow()).entry).toEqual(labelled);
      });

      it('relabels by dedupe key: a page with a label does not touch a resource queued at its URL', async () => {
        await store.setHostPolicy('a', { delayMs: 0 });
        await store.add([entry('http://a/map.xml', { kind: 'sitemap' })]);
        expect(await store.add([entry('http://a/map.xml', { label: 'PAGE' })])).toEqual(['added']);
        const claimed = await claimAllNow();
        expect(claimed).toEqual([
          entry('http://a/map.xml', { kind: 'sitemap' }),
          entry('http://a/map.xml', { label: 'PAGE' }),
        ]);
      });

      it('relabels a URL queued again by a retry, a release or reopenDue, and keeps what that gave it', async () => {
        for (const h of ['r', 's', 't']) await store.setHostPolicy(h, { delayMs: 0 });
        const urls = ['http://r/retried', 'http://s/released', 'http://t/revisit'];
        await store.add(urls.map((url) => entry(url)));
        const leases = [await claimNow(), await claimNow(), await claimNow()];
        const leaseOf = (url: string): FrontierLease => leases.find((lease) => lease.entry.url === url)!;
        await store.retry(leaseOf('http://r/retried').id);
        await store.release(leaseOf('http://s/released').id);
        await store.complete(leaseOf('http://t/revisit').id, { lastFetch: lastFetch(10, 50) });
        expect(await store.reopenDue({ dueBefore: 100, limit: 10 })).toBe(1);
        const label = { label: 'L', userData: { n: 1 } };
        expect(await store.add(urls.map((url) => entry(url, label)))).toEqual([
          'relabelled',
          'relabelled',
          'relabelled',
        ]);
        const claimed = (await claimAllNow()).sort((a, b) => a.url.localeCompare(b.url));
        expect(claimed).toEqual([
          entry('http://r/retried', { ...label, retries: 1 }),
          entry('http://s/released', label),
          entry('http://t/revisit', { ...label, revisit: lastFetch(10, 50) }),
        ]);
      });
    });

    describe('revisits', () => {
      /** Claims and completes every queued URL, each with the LastFetch `lastOf` gives it. */
      async function drain(lastOf: (url: string) => LastFetch | undefined, now = 0): Promise<FrontierLease[]> {
        const leases: FrontierLease[] = [];
        for (let i = 0; i < 200; i++) {
          const result = await store.claim({ now, leaseMs: 60_000 });
          if (result.lease === null) {
            if (result.nextReadyAt === null) break;
            now = result.nextReadyAt;
            continue;
          }
          leases.push(result.lease);
          const last = lastOf(result.lease.entry.url);
          await store.complete(result.lease.id, last === undefined ? {} : { lastFetch: last });
        }
        return leases;
      }

      it('reopens the done URLs due before the time given, with what their last fetch left', async () => {
        await store.add([
          entry('http://a/due', { label: 'P', userData: { n: 1 } }),
          entry('http://a/later'),
          entry('http://b/due', { kind: 'sitemap', data: { k: 'v' } }),
          entry('http://b/never-fetched'),
        ]);
        const lasts: Record<string, LastFetch | undefined> = {
          'http://a/due': lastFetch(10, 50),
          'http://a/later': lastFetch(10, 5_000),
          'http://b/due': lastFetch(20, 99),
        };
        await drain((url) => lasts[url]);
        expect((await store.counts()).done).toBe(4);
        expect(await store.reopenDue({ dueBefore: 100, limit: 10 })).toBe(2);
        expect(await store.counts()).toMatchObject({ queued: 2, done: 2 });
        expect(await store.reopenDue({ dueBefore: 100, limit: 10 })).toBe(0);
        const revisits = await drain(() => undefined, 1_000_000);
        expect(revisits.map((l) => l.entry.url).sort()).toEqual(['http://a/due', 'http://b/due']);
        const a = revisits.find((l) => l.entry.url === 'http://a/due')!.entry;
        expect(a.revisit).toEqual(lasts['http://a/due']);
        expect(a).toMatchObject({ label: 'P', userData: { n: 1 } });
        expect(a.retries ?? 0).toBe(0);
        const b = revisits.find((l) => l.entry.url === 'http://b/due')!.entry;
        expect(b).toMatchObject({ kind: 'sitemap', data: { k: 'v' }, revisit: lasts['http://b/due'] });
      });

      it('reopens at most `limit` per call, and each due URL once', async () => {
        const urls = Array.from({ length: 7 }, (_, i) => `http://h${i % 3}/p${i}`);
        await store.add(urls.map((url) => entry(url)));
        await drain(() => lastFetch(1, 2));
        const counts: number[] = [];
        for (let i = 0; i < 10; i++) {
          const n = await store.reopenDue({ dueBefore: 10, limit: 3 });
          counts.push(n);
          if (n === 0) break;
        }
        expect(counts).toEqual([3, 3, 1, 0]);
        expect((await store.counts()).queued).toBe(7);
      });

      it('does not reopen a URL fetched again after the reopen time, and keeps its new LastFetch', async () => {
        await store.add([entry('http://a/1')]);
        await drain(() => lastFetch(1, 2));
        expect(await store.reopenDue({ dueBefore: 100, limit: 10 })).toBe(1);
        const [revisit] = await drain(() => lastFetch(150, 150, { etag: '"new"' }));
        expect(revisit!.entry.revisit?.etag).toBe('"v-1"');
        expect(await store.reopenDue({ dueBefore: 100, limit: 10 })).toBe(0);
        expect(await store.reopenDue({ dueBefore: 151, limit: 10 })).toBe(1);
        const [again] = await drain(() => lastFetch(300, 400));
        expect(again!.entry.revisit?.etag).toBe('"new"');
      });

      it('keeps the LastFetch of a revisit completed without one, and of a revisit retried or released', async () => {
        await store.add([entry('http://a/1')]);
        await drain(() => lastFetch(1, 2));
        await store.reopenDue({ dueBefore: 100, limit: 10 });
        const first = (await store.claim({ now: 1e9, leaseMs: 60_000 })).lease!;
        await store.retry(first.id, { hostReadyAt: 1 });
        const second = (await store.claim({ now: 1e9, leaseMs: 60_000 })).lease!;
        expect(second.entry.revisit?.etag).toBe('"v-1"');
        expect(second.entry.retries).toBe(1);
        await store.release(second.id, { hostReadyAt: 1 });
        const third = (await store.claim({ now: 1e9, leaseMs: 60_000 })).lease!;
        expect(third.entry.revisit?.etag).toBe('"v-1"');
        await store.complete(third.id);
        expect(await store.reopenDue({ dueBefore: 100, limit: 10 })).toBe(1);
        const [fourth] = await drain(() => undefined, 2e9);
        expect(fourth!.entry.revisit?.etag).toBe('"v-1"');
      });

      it('applies a sitemap lastmod given again: after the last fetch it is due, at or before it not until latestDueAt', async () => {
        await store.add([entry('http://a/changed'), entry('http://a/same'), entry('http://a/no-lastmod')]);
        await drain(() => lastFetch(1_000, 900_000, { latestDueAt: 5_000_000 }));
        const outcomes = await store.add([
          entry('http://a/changed', { hints: { lastmod: 2_000, changefreq: 'daily' } }),
          entry('http://a/same', { hints: { lastmod: 500 } }),
          entry('http://a/no-lastmod', { hints: { changefreq: 'weekly' } }),
        ]);
        expect(outcomes).toEqual(['duplicate', 'duplicate', 'duplicate']);
        expect(await store.reopenDue({ dueBefore: 10_000, limit: 10 })).toBe(1);
        const [changed] = await drain(() => lastFetch(20_000, 10_000_000));
        expect(changed!.entry.url).toBe('http://a/changed');
        expect(changed!.entry.revisit).toMatchObject({ dueAt: 1_000, hints: { lastmod: 2_000, changefreq: 'daily' } });
        expect(await store.reopenDue({ dueBefore: 1_000_000, limit: 10 })).toBe(1);
        const [noLastmod] = await drain(() => lastFetch(1_100_000, 10_000_000));
        expect(noLastmod!.entry).toMatchObject({
          url: 'http://a/no-lastmod',
          revisit: { dueAt: 900_000, hints: { changefreq: 'weekly' } },
        });
        expect(await store.reopenDue({ dueBefore: 5_000_000, limit: 10 })).toBe(0);
        expect(await store.reopenDue({ dueBefore: 5_000_001, limit: 10 })).toBe(1);
      });

      it('reopens, with fetchedBefore, URLs fetched before it whatever their dueAt, once', async () => {
        await store.add([entry('http://a/old-far'), entry('http://a/new-far'), entry('http://b/old-near')]);
        const lasts: Record<string, LastFetch> = {
          'http://a/old-far': lastFetch(100, 1_000_000),
          'http://a/new-far': lastFetch(5_000, 1_000_000),
          'http://b/old-near': lastFetch(100, 200),
        };
        await drain((url) => lasts[url]);
        expect(await store.reopenDue({ dueBefore: 150, fetchedBefore: 1_000, limit: 10 })).toBe(2);
        expect(await store.reopenDue({ dueBefore: 1_000, fetchedBefore: 1_000, limit: 10 })).toBe(0);
        const reopened = await drain((url) => lastFetch(20_000, 2_000_000, { etag: `"again ${url}"` }), 1e9);
        expect(reopened.map((lease) => lease.entry.url).sort()).toEqual(['http://a/old-far', 'http://b/old-near']);
        expect(reopened.find((lease) => lease.entry.url === 'http://a/old-far')!.entry.revisit).toEqual(
          lasts['http://a/old-far'],
        );
        expect(await store.reopenDue({ dueBefore: 10_000, fetchedBefore: 10_000, limit: 10 })).toBe(1);
        expect((await store.counts()).queued).toBe(1);
      });

      it('ignores hints for a URL never fetched', async () => {
        await store.add([entry('http://a/1')]);
        expect(await store.add([entry('http://a/1', { hints: { lastmod: 5 } })])).toEqual(['duplicate']);
        expect(await store.reopenDue({ dueBefore: Number.MAX_SAFE_INTEGER, limit: 10 })).toBe(0);
        const [only] = await drain(() => undefined);
        expect(only!.entry.revisit).toBeUndefined();
      });
    });

    if (reopen !== undefined)
      it('keeps queued URLs, dedupe, done counts, host clocks and in-flight leases across a restart', async () => {
        const options = { defaultHostPolicy: { delayMs: 1000, maxInFlight: 1 } };
        await store.add([
          entry('http://a/1'),
          entry('http://a/2', {
            label: 'DETAIL',
            userData: { category: 'tools', page: 2 },
            headers: { 'x-session': 's1' },
          }),
          entry('http://b/1', { priority: 3, data: { k: 'v' }, kind: 'sitemap' }),
        ]);
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
          if (result.lease.entry.kind === 'sitemap')
            expect(result.lease.entry).toMatchObject({ priority: 3, data: { k: 'v' } });
          if (result.lease.entry.url === 'http://a/2') {
            expect(result.lease.entry).toMatchObject({
              label: 'DETAIL',
              userData: { category: 'tools', page: 2 },
              headers: { 'x-session': 's1' },
            });
          }
          await store.complete(result.lease.id);
        }
        const remaining = ['http://a/1', 'http://a/2', 'http://a/3', 'http://b/1'].filter(
          (url) => url !== done.lease!.entry.url,
        );
        expect(seen.sort()).toEqual(remaining);
        expect(remaining).toContain(inFlight.lease!.entry.url);
      });

    if (reopen !== undefined)
      it('keeps what a fetch left, and due times, across a restart', async () => {
        const options = { defaultHostPolicy: { delayMs: 0, maxInFlight: 1 } };
        await store.setHostPolicy('a', { delayMs: 0 });
        await store.add([entry('http://a/1', { label: 'L' }), entry('http://a/2')]);
        for (let i = 0; i < 2; i++) {
          const lease = (await store.claim({ now: 0, leaseMs: 60_000 })).lease!;
          await store.complete(lease.id, { lastFetch: lastFetch(10, lease.entry.url.endsWith('1') ? 20 : 10_000) });
        }
        store = await reopen!(store, options);
        expect(await store.reopenDue({ dueBefore: 100, limit: 10 })).toBe(1);
        store = await reopen!(store, options);
        const lease = (await store.claim({ now: 0, leaseMs: 60_000 })).lease!;
        expect(lease.entry).toMatchObject({ url: 'http://a/1', label: 'L', revisit: lastFetch(10, 20) });
        await store.complete(lease.id, { lastFetch: lastFetch(200, 300) });
        expect(await store.add([entry('http://a/2', { hints: { lastmod: 50 } })])).toEqual(['duplicate']);
        store = await reopen!(store, options);
        expect(await store.reopenDue({ dueBefore: 150, limit: 10 })).toBe(1);
        expect((await store.claim({ now: 0, leaseMs: 60_000 })).lease!.entry).toMatchObject({
          url: 'http://a/2',
          revisit: { dueAt: 10, hints: { lastmod: 50 } },
        });
      });

    if (reopen !== undefined)
      it('keeps a host’s hold across a restart', async () => {
        const options = { defaultHostPolicy: { delayMs: 1000, maxInFlight: 1 } };
        await store.setHostPolicy('h', { delayMs: 0, maxInFlight: 2 });
        await store.add([entry('http://h/1'), entry('http://h/2'), entry('http://h/3')]);
        const refused = (await store.claim({ now: 0, leaseMs: 600_000 })).lease!;
        await store.retry(refused.id, { hostReadyAt: 60_000, hostNotBefore: 60_000 });
        store = await reopen!(store, options);
        await store.setHostPolicy('h', { readyAt: 0 });
        expect(await nextClaimAt('h', 100)).toBe(60_000);
        const [first, second] = [
          (await store.claim({ now: 60_000, leaseMs: 600_000 })).lease!,
          (await store.claim({ now: 60_000, leaseMs: 600_000 })).lease!,
        ];
        await store.retry(first.id, { hostReadyAt: 90_000, hostNotBefore: 90_000 });
        store = await reopen!(store, options); // `second` is left in flight, as by a killed worker
        await store.setHostPolicy('h', { readyAt: 61_000 });
        expect(await nextClaimAt('h', 61_000)).toBe(90_000);
        expect(second.entry.hostKey).toBe('h');
      });

    if (reopen !== undefined)
      it('keeps failed URLs, their failures and relabelled URLs across a restart', async () => {
        const options = { defaultHostPolicy: { delayMs: 0, maxInFlight: 1 } };
        await store.setHostPolicy('a', { delayMs: 0 });
        const labelled = entry('http://a/1', { label: 'L', userData: { n: 1 } });
        await store.add([labelled, entry('http://a/2'), entry('http://a/3')]);
        const failure = failureAt(100, { code: 'ERR_X' });
        await store.complete((await claimNow()).id, { failure });
        store = await reopen!(store, options);
        expect(await store.counts()).toEqual({ queued: 2, inFlight: 0, done: 1, failed: 1, activeHosts: 1 });
        expect(await store.failures()).toEqual([{ entry: labelled, failure }]);
        expect(await store.add([entry('http://a/3', { label: 'M', priority: 1 })])).toEqual(['relabelled']);
        store = await reopen!(store, options);
        expect(await store.requeueFailed()).toBe(1);
        store = await reopen!(store, options);
        expect(await store.failures()).toEqual([]);
        expect(await claimAllNow()).toEqual([
          entry('http://a/3', { label: 'M', priority: 1 }),
          entry('http://a/2'),
          labelled,
        ]);
      });

    if (reopen !== undefined)
      it('stays cleared across a restart', async () => {
        const options = { defaultHostPolicy: { delayMs: 0, maxInFlight: 1 } };
        await store.add([entry('http://a/1'), entry('http://b/1')]);
        await store.complete((await claimNow()).id, { failure: failureAt(100) });
        await store.clear();
        store = await reopen!(store, options);
        expect(await store.counts()).toEqual({ queued: 0, inFlight: 0, done: 0, failed: 0, activeHosts: 0 });
        expect(await store.add([entry('http://a/1'), entry('http://b/1')])).toEqual(['added', 'added']);
      });
  });
}

function permutations<T>(items: readonly T[]): T[][] {
  if (items.length <= 1) return [[...items]];
  return items.flatMap((item, i) =>
    permutations([...items.slice(0, i), ...items.slice(i + 1)]).map((rest) => [item, ...rest]),
  );
}
