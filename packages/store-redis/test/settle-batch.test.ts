// Settles of one bucket that wait together go as one script (settle-batcher.ts, SETTLE_MANY):
// counted on the store's own connection, with each caller's outcomes, leases and links checked.

import type { PolitelyError } from '@politely/core';
import type { AddOutcome, FrontierEntry, FrontierLease, FrontierStore } from '@politely/frontier';
import { Redis } from 'ioredis';
import { afterEach, describe, expect, it } from 'vitest';
import { skipWithout } from '../../../test/support/requirements.js';
import { BUCKET_SCRIPT_KEY_COUNT, BUCKET_SCRIPTS } from '../src/frontier-scripts.js';
import {
  createRedisFrontierStore,
  deleteRedisCrawl,
  type RedisFrontierStore,
  type RedisFrontierStoreOptions,
} from '../src/index.js';
import { bucketOfHost, bucketScriptKeys } from '../src/keys.js';
import { pushEntryArgs } from '../src/store-args.js';
import {
  bucketPrefixOf,
  deleteCrawls,
  hostsInOneBucket,
  REDIS_URL,
  recordSettleScripts,
  redisDownReason,
  redisSuiteTitle,
  uniqueCrawlId,
  warnIfSkipped,
} from './redis-helpers.js';

const redisDown = await redisDownReason();
const skipRedis = skipWithout('Redis (REDIS_URL)', redisDown);
warnIfSkipped('settle-batch.test.ts', redisDown);

const entry = (url: string): FrontierEntry => ({ url, hostKey: new URL(url).hostname, depth: 0, priority: 0 });

/** Counts the settle scripts the client sends: all, or those on the bucket whose key prefix is given. */
function countSettleScripts(redis: Redis): (prefix?: string) => number {
  const scripts = recordSettleScripts(redis);
  return (prefix) =>
    prefix === undefined ? scripts.length : scripts.filter((args) => args[2] === `${prefix}meta`).length;
}

describe.skipIf(skipRedis)(redisSuiteTitle('settles batched per bucket', redisDown), () => {
  const crawlIds = new Set<string>();
  const clients: Redis[] = [];
  const stores: FrontierStore[] = [];

  /** A store on its own client, whose settle scripts are counted. */
  function open(options: Partial<RedisFrontierStoreOptions> = {}): {
    store: FrontierStore;
    settleScripts: (prefix?: string) => number;
    crawlId: string;
  } {
    const crawlId = uniqueCrawlId('settle-batch');
    crawlIds.add(crawlId);
    const redis = new Redis(REDIS_URL);
    clients.push(redis);
    const settleScripts = countSettleScripts(redis);
    const store = createRedisFrontierStore({
      redis,
      crawlId,
      defaultHostPolicy: { delayMs: 0, maxInFlight: 1 },
      clock: 'caller', // the cases pass times of their own
      ...options,
    });
    stores.push(store);
    return { store, settleScripts, crawlId };
  }

  afterEach(async () => {
    await Promise.all(stores.splice(0).map((store) => store.close().catch(() => {})));
    for (const redis of clients.splice(0)) redis.disconnect();
    expect(await deleteCrawls(crawlIds)).toBe(0);
    crawlIds.clear();
  });

  /** Claims `n` leases, one per host (each host holds one URL and takes one request at a time). */
  async function claimAll(
    store: FrontierStore,
    n: number,
    leaseMs = 60_000,
    now = Date.now(),
  ): Promise<FrontierLease[]> {
    const leases: FrontierLease[] = [];
    for (let i = 0; i < n; i++) {
      const { lease } = await store.claim({ now, leaseMs });
      if (lease === null) throw new Error(`claim ${i + 1} of ${n} found nothing`);
      leases.push(lease);
    }
    return leases;
  }

  /** Every URL still queued, claimed and completed until none is left. */
  async function drain(store: FrontierStore): Promise<string[]> {
    const urls: string[] = [];
    for (let i = 0; i < 1000; i++) {
      const { lease } = await store.claim({ now: Date.now(), leaseMs: 60_000 });
      if (lease === null) return urls.sort();
      urls.push(lease.entry.url);
      await store.complete(lease.id);
    }
    throw new Error('more than 1000 URLs to drain');
  }

  it('sends the completions of one bucket that wait behind one in flight as one script, each caller its own outcomes', async () => {
    const n = 8;
    const { hosts } = hostsInOneBucket(n);
    const { store, settleScripts, crawlId } = open();
    const seeds = hosts.map((host) => entry(`http://${host}/`));
    await store.add(seeds);
    const leases = await claimAll(store, n);
    const pages = bucketPrefixOf(crawlId, hosts[0]!);
    const before = settleScripts(pages);
    // Each page links to a URL every page links to, a URL of its own and a seed (seen), all in its bucket.
    const linksOf = (k: number): FrontierEntry[] => [
      entry(`http://${hosts[0]}/shared`),
      entry(`http://${hosts[k]}/own-${k}`),
      seeds[(k + 1) % n]!,
    ];
    const got = await Promise.all(leases.map((lease, k) => store.complete(lease.id, { add: linksOf(k) })));
    // The first goes alone; the seven that waited behind it go as one script (eight without batching).
    expect(settleScripts(pages) - before).toBe(2);
    const first: AddOutcome = 'added';
    expect(got).toEqual(
      leases.map((_, k) => [k === 0 ? first : 'duplicate', 'added', 'duplicate'] satisfies AddOutcome[]),
    );
    expect(await store.counts()).toMatchObject({ done: n, inFlight: 0, queued: 1 + n });
    const expected = [`http://${hosts[0]}/shared`, ...hosts.map((host, k) => `http://${host}/own-${k}`)];
    expect(await drain(store)).toEqual(expected.sort());
  });

  it('settles the rest of a batch when one lease in it expired and went back; that caller gets its outcomes, as alone', async () => {
    const { hosts } = hostsInOneBucket(4);
    const { store, settleScripts } = open();
    await store.add(hosts.map((host) => entry(`http://${host}/`)));
    const now = Date.now();
    const [expiring] = await claimAll(store, 1, 1, now);
    const others = await claimAll(store, 3, 60_000, now);
    // A later claim returns the expired lease's URL to its queue and leases it again.
    const [again] = await claimAll(store, 1, 60_000, now + 1000);
    expect(again!.entry.url).toBe(expiring!.entry.url);
    const before = settleScripts();
    const [, ...got] = await Promise.all(
      [others[0]!, expiring!, ...others.slice(1)].map((lease, k) =>
        store.complete(lease.id, { add: [entry(`http://${lease.entry.hostKey}/link-${k}`)] }),
      ),
    );
    expect(settleScripts() - before).toBe(2);
    // The expired lease's caller: its link added, its URL not done (it is out under the new lease).
    expect(got).toEqual([['added'], ['added'], ['added']]);
    expect(await store.counts()).toMatchObject({ done: 3, inFlight: 1, queued: 4 });
    await store.complete(again!.id);
    expect(await store.counts()).toMatchObject({ done: 4, inFlight: 0 });
  });

  it('batches releases and retries with completions, each lease settled as asked', async () => {
    const { hosts } = hostsInOneBucket(4);
    const { store, settleScripts } = open();
    await store.add(hosts.map((host) => entry(`http://${host}/`)));
    const [a, b, c, d] = await claimAll(store, 4);
    const before = settleScripts();
    await Promise.all([
      store.complete(a!.id),
      store.release(b!.id),
      store.retry(c!.id, { hostReadyAt: Date.now() }),
      store.complete(d!.id),
    ]);
    expect(settleScripts() - before).toBe(2);
    expect(await store.counts()).toMatchObject({ done: 2, inFlight: 0, queued: 2 });
    const again = await claimAll(store, 2);
    expect(again.map((lease) => lease.entry.url).sort()).toEqual([b!.entry.url, c!.entry.url].sort());
    expect(again.find((lease) => lease.entry.url === c!.entry.url)!.entry.retries ?? 0).toBe(1);
  });

  it('splits what waits past addBatchSize (1 + links per completion) into several scripts', async () => {
    const n = 6;
    const { hosts } = hostsInOneBucket(n);
    const { store, settleScripts } = open({ addBatchSize: 4 });
    await store.add(hosts.map((host) => entry(`http://${host}/`)));
    const leases = await claimAll(store, n);
    const before = settleScripts();
    const got = await Promise.all(
      leases.map((lease, k) => store.complete(lease.id, { add: [entry(`http://${lease.entry.hostKey}/link-${k}`)] })),
    );
    // One alone, then five that waited: two per script (weight 2 each, at most 4).
    expect(settleScripts() - before).toBe(4);
    expect(got).toEqual(leases.map(() => ['added']));
    expect(await store.counts()).toMatchObject({ done: n, inFlight: 0, queued: n });
  });

  it("batches adds with what waits on their bucket: add() calls, and a page's links in another bucket", async () => {
    const n = 8;
    const { hosts, elsewhere } = hostsInOneBucket(n);
    const { store, settleScripts } = open();
    let before = settleScripts();
    const added = await Promise.all(hosts.map((host) => store.add([entry(`http://${host}/`)])));
    expect(settleScripts() - before).toBe(2);
    expect(added).toEqual(hosts.map(() => ['added']));
    const leases = await claimAll(store, n);
    before = settleScripts();
    const got = await Promise.all(
      leases.map((lease, k) =>
        store.complete(lease.id, {
          add: [entry(`http://${elsewhere}/from-${k}`), entry(`http://${elsewhere}/shared`), entry(lease.entry.url)],
        }),
      ),
    );
    // The links' bucket: one alone, then seven; the pages' bucket: one alone, then one or two
    // scripts (as the first answers before or after the seven come). Sixteen without batching.
    expect(settleScripts() - before).toBeLessThanOrEqual(5);
    expect(got).toEqual(
      leases.map((_, k) => ['added', k === 0 ? 'added' : 'duplicate', 'duplicate'] satisfies AddOutcome[]),
    );
    expect(await store.counts()).toMatchObject({ done: n, inFlight: 0, queued: n + 1 });
  });

  it('waits for the replicas once per script, before any caller in it is answered', async () => {
    const n = 6;
    const { hosts } = hostsInOneBucket(n);
    const warnings: string[] = [];
    // No replica answers on the test Redis: each wait runs out and warns, one warning per wait.
    const { store } = open({ replicaAcks: 1, replicaAckTimeoutMs: 10, onWarning: (m) => warnings.push(m) });
    await store.add(hosts.map((host) => entry(`http://${host}/`)));
    const leases = await claimAll(store, n);
    warnings.length = 0;
    const warnedWhenAnswered = await Promise.all(
      leases.map((lease) => store.complete(lease.id).then(() => warnings.length)),
    );
    expect(warnings).toHaveLength(2);
    expect(warnings[0]).toMatch(/^only 0 of 1 replicas of .* acknowledged a change within 10 ms/);
    expect(warnedWhenAnswered).toEqual([1, ...leases.slice(1).map(() => 2)]);
  });

  it('completes nothing twice when a batch is sent again (as ioredis resends after a reconnect)', async () => {
    const { hosts } = hostsInOneBucket(2);
    const { store, crawlId } = open();
    await store.add(hosts.map((host) => entry(`http://${host}/`)));
    const leases = await claimAll(store, 2);
    await store.counts(); // opened: the crawl's marker is in every bucket
    const admin = new Redis(REDIS_URL);
    clients.push(admin);
    admin.defineCommand('settleMany', {
      numberOfKeys: BUCKET_SCRIPT_KEY_COUNT,
      lua: BUCKET_SCRIPTS.politelyBucketSettleMany,
    });
    const prefix = bucketPrefixOf(crawlId, hosts[0]!);
    const marker = await admin.hget(`${prefix}meta`, 'crawl');
    const link: (string | number)[] = [];
    pushEntryArgs(link, entry(`http://${hosts[1]}/link`));
    const batch = [
      ...bucketScriptKeys(prefix, (store as RedisFrontierStore).workerId),
      ...[prefix, marker!, (store as RedisFrontierStore).workerId, 250, Date.now(), 0, 1, ''],
      ...[leases[0]!.id, 'complete', '', '', '', '', '', '', 0],
      ...[leases[1]!.id, 'complete', '', '', '', '', '', '', 1, ...link],
    ];
    const settleMany = (admin as unknown as { settleMany(...args: unknown[]): Promise<unknown[]> }).settleMany;
    expect((await settleMany.call(admin, ...batch)).slice(0, 1)).toEqual(['added']);
    expect((await settleMany.call(admin, ...batch)).slice(0, 1)).toEqual(['duplicate']);
    expect(await store.counts()).toMatchObject({ done: 2, inFlight: 0, queued: 1 });
    expect((await store.hostCounts()).map(({ inFlight, done }) => ({ inFlight, done }))).toEqual([
      { inFlight: 0, done: 1 },
      { inFlight: 0, done: 1 },
    ]);
  });

  it('rejects every caller of a batch whose script fails', async () => {
    const { hosts } = hostsInOneBucket(4);
    const { store, crawlId } = open();
    await store.add(hosts.map((host) => entry(`http://${host}/`)));
    const leases = await claimAll(store, 4);
    const admin = new Redis(REDIS_URL);
    clients.push(admin);
    await deleteRedisCrawl({ redis: admin, crawlId });
    // The first fails alone; the three that waited behind it fail with it (the crawl is gone).
    const settled = await Promise.allSettled(leases.map((lease) => store.complete(lease.id)));
    for (const outcome of settled) {
      expect(outcome.status).toBe('rejected');
      const error = (outcome as PromiseRejectedResult).reason as PolitelyError;
      expect(error.code).toBe('ERR_STORE');
      expect(error.message).toMatch(/is gone/);
    }
  });

  describe('a completion that claims for the slot it frees (completeAndClaim)', () => {
    it('completes the page, adds its links and claims the next ready URL of its bucket, in one script', async () => {
      const { hosts } = hostsInOneBucket(2);
      const host = hosts[0]!;
      const { store, settleScripts } = open();
      const redisStore = store as RedisFrontierStore;
      await store.add([entry(`http://${host}/a`), entry(`http://${host}/b`)]);
      const [first] = await claimAll(store, 1);
      const before = settleScripts();
      const { outcomes, next } = await redisStore.completeAndClaim(
        first!.id,
        { hostReadyAt: Date.now(), add: [entry(`http://${host}/c`), entry(`http://${host}/a`)] },
        { now: Date.now(), leaseMs: 60_000 },
      );
      expect(settleScripts() - before).toBe(1);
      expect(outcomes).toEqual(['added', 'duplicate']);
      expect(next?.entry.url).toBe(`http://${host}/b`);
      expect(next?.id).not.toBe(first!.id);
      expect(next!.leaseExpiresAt).toBeGreaterThan(Date.now());
      expect(await store.counts()).toMatchObject({ done: 1, inFlight: 1, queued: 1 });
      // The new lease is an ordinary one: it completes, and the host takes no other meanwhile (maxInFlight 1).
      expect((await store.claim({ now: Date.now(), leaseMs: 60_000 })).lease).toBeNull();
      await store.complete(next!.id);
      expect(await store.counts()).toMatchObject({ done: 2, inFlight: 0, queued: 1 });
    });

    it('claims ahead a host whose clock comes by readyBy: the lease starts at that clock, and the clock moves from it', async () => {
      const host = 'ahead.test';
      // Two in flight allowed: the host's clock alone decides when its next URL may go.
      const { store } = open({ defaultHostPolicy: { delayMs: 100, maxInFlight: 2 } });
      const redisStore = store as RedisFrontierStore;
      await store.add([entry(`http://${host}/1`), entry(`http://${host}/2`), entry(`http://${host}/3`)]);
      const [lease] = await claimAll(store, 1);
      const now = Date.now();
      // The answer sets the host's clock 300 ms out; a claim made 500 ms ahead takes the host at that clock.
      const { next } = await redisStore.completeAndClaim(
        lease!.id,
        { hostReadyAt: now + 300 },
        { now, leaseMs: 60_000, readyBy: now + 500 },
      );
      expect(next?.entry.url).toBe(`http://${host}/2`);
      expect(next!.startAt).toBe(now + 300);
      // Its clock moved from there: the host's next URL is not ready before now + 300 + its delay.
      expect((await store.claim({ now: now + 399, leaseMs: 60_000 })).lease).toBeNull();
      const due = await store.claim({ now: now + 400, leaseMs: 60_000 });
      expect(due.lease?.entry.url).toBe(`http://${host}/3`);
      // A claim at its own now keeps no startAt.
      expect(due.lease!.startAt).toBeUndefined();
    });

    it("keeps the host's clock: a completion that paces its host claims none of that host's URLs before the delay", async () => {
      const { hosts } = hostsInOneBucket(2);
      const [slow, other] = hosts as [string, string];
      const { store } = open({ defaultHostPolicy: { delayMs: 0, maxInFlight: 1 } });
      const redisStore = store as RedisFrontierStore;
      await store.add([entry(`http://${slow}/1`), entry(`http://${slow}/2`)]);
      const [lease] = await claimAll(store, 1);
      // The answer paces the host 10 s out: the claim in the same script must not take /2.
      const now = Date.now();
      const paced = await redisStore.completeAndClaim(
        lease!.id,
        { hostReadyAt: now + 10_000 },
        { now, leaseMs: 60_000, readyBy: now + 5 },
      );
      expect(paced.next).toBeNull();
      expect((await store.claim({ now: Date.now(), leaseMs: 60_000 })).lease).toBeNull();
      // Another host of the same bucket that is ready is claimed instead.
      await store.add([entry(`http://${other}/1`)]);
      await store.add([entry(`http://${slow}/3`)]);
      const [otherLease] = await claimAll(store, 1);
      expect(otherLease!.entry.hostKey).toBe(other);
      await store.add([entry(`http://${other}/2`)]);
      const passed = await redisStore.completeAndClaim(
        otherLease!.id,
        { hostReadyAt: Date.now() + 10_000 },
        { now: Date.now(), leaseMs: 60_000 },
      );
      expect(passed.next).toBeNull();
      expect(await store.counts()).toMatchObject({ done: 2, inFlight: 0, queued: 3 });
      // At now + 10 s both hosts are ready again: the next completion's claim takes one of them.
      const later = Date.now() + 10_001;
      const again = await store.claim({ now: later, leaseMs: 60_000 });
      expect(again.lease?.entry.hostKey).toBe(slow);
      const third = await redisStore.completeAndClaim(again.lease!.id, {}, { now: later, leaseMs: 60_000 });
      expect(third.next?.entry.hostKey).toBe(other);
    });

    it('claims once when the script is sent again (as ioredis resends after a reconnect)', async () => {
      const { hosts } = hostsInOneBucket(2);
      const host = hosts[0]!;
      const { store, crawlId } = open({ defaultHostPolicy: { delayMs: 0, maxInFlight: 4 } });
      await store.add([entry(`http://${host}/1`), entry(`http://${host}/2`), entry(`http://${host}/3`)]);
      const [lease] = await claimAll(store, 1);
      await store.counts(); // opened: the crawl's marker is in every bucket
      const admin = new Redis(REDIS_URL);
      clients.push(admin);
      admin.defineCommand('settleMany', {
        numberOfKeys: BUCKET_SCRIPT_KEY_COUNT,
        lua: BUCKET_SCRIPTS.politelyBucketSettleMany,
      });
      const prefix = bucketPrefixOf(crawlId, host);
      const marker = await admin.hget(`${prefix}meta`, 'crawl');
      const now = Date.now();
      const workerId = (store as RedisFrontierStore).workerId;
      const batch = [
        ...bucketScriptKeys(prefix, (store as RedisFrontierStore).workerId),
        ...[prefix, marker!, workerId, 250, now, 0, 4, ''],
        ...[lease!.id, 'complete-claim', '', '', '', '', '', '', 0],
        // The new lease's id, the claim's now, lease duration, expired leases to give back, and readyBy.
        ...[`${bucketOfHost(host)}/${workerId}.replayed`, now, 60_000, 10, now],
      ];
      const settleMany = (admin as unknown as { settleMany(...args: unknown[]): Promise<unknown[]> }).settleMany;
      const first = await settleMany.call(admin, ...batch);
      const second = await settleMany.call(admin, ...batch);
      expect(first.slice(0, 7)).toEqual(second.slice(0, 7));
      expect(first[0]).toBe(`${bucketOfHost(host)}/${workerId}.replayed`);
      expect(String(first[1])).toContain('/2');
      expect(await store.counts()).toMatchObject({ done: 1, inFlight: 1, queued: 1 });
    });

    it('completes a lease that is not one of ours, and claims nothing', async () => {
      const { store } = open();
      const { outcomes, next } = await (store as RedisFrontierStore).completeAndClaim(
        'not-a-lease',
        { add: [entry('http://elsewhere.test/x')] },
        { now: Date.now(), leaseMs: 1000 },
      );
      expect(outcomes).toEqual(['added']);
      expect(next).toBeNull();
    });
  });
});
