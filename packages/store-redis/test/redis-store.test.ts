// The Redis FrontierStore: the shared contract (restart included), then what only a shared store
// must do: several workers with their own connections claiming one crawl at once.

import type { PolitelyError, RobotsCacheRecord } from '@politely/core';
import {
  type FrontierEntry,
  type FrontierStore,
  type LastFetch,
  lastFetchAfterHints,
  type UrlFailure,
} from '@politely/frontier';
import { describeFrontierStoreContract } from '@politely/frontier/testing';
import { Redis } from 'ioredis';
import { afterEach, describe, expect, it } from 'vitest';
import { skipWithout } from '../../../test/support/requirements.js';
import {
  createRedisFrontierStore,
  createRedisRobotsCache,
  deleteRedisCrawl,
  MAX_QUEUE_PRIORITY,
  type RedisFrontierStore,
  type RedisFrontierStoreOptions,
} from '../src/index.js';
import { BUCKET_COUNT, bucketOfHost } from '../src/keys.js';
import {
  bucketPrefixOf,
  crawlKeys,
  deleteCrawls,
  REDIS_URL,
  redisDownReason,
  redisSuiteTitle,
  robotsKeyOf,
  uniqueCrawlId,
  warnIfSkipped,
} from './redis-helpers.js';

const redisDown = await redisDownReason();
const skipRedis = skipWithout('Redis (REDIS_URL)', redisDown);
warnIfSkipped('redis-store.test.ts', redisDown);

const entry = (url: string, extra: Partial<FrontierEntry> = {}): FrontierEntry => ({
  url,
  hostKey: new URL(url).hostname,
  depth: 0,
  priority: 0,
  ...extra,
});

const ROBOTS_FETCHED_AT = Date.now();
const robotsRecord = (origin: string): RobotsCacheRecord => ({
  origin,
  outcome: 'success',
  status: 200,
  url: `${origin}/robots.txt`,
  fetchedAt: ROBOTS_FETCHED_AT,
  expiresAt: ROBOTS_FETCHED_AT + 86_400_000,
  consecutiveFailures: 0,
});

describe.skipIf(skipRedis)(redisSuiteTitle('createRedisFrontierStore', redisDown), () => {
  const crawlIds = new Set<string>();
  const crawlIdOf = new WeakMap<FrontierStore, string>();
  const opened: FrontierStore[] = [];

  /**
   * A store on its own connection (a worker), on a new crawl or on `crawlId`'s. On the caller's
   * clock: the contract's cases pass times of their own (the store's clock is tested in clock-skew.test.ts).
   */
  function open(options: Partial<RedisFrontierStoreOptions> = {}, crawlId = uniqueCrawlId('store')): FrontierStore {
    crawlIds.add(crawlId);
    const store = createRedisFrontierStore({ redis: REDIS_URL, crawlId, clock: 'caller', ...options });
    crawlIdOf.set(store, crawlId);
    opened.push(store);
    return store;
  }

  afterEach(async () => {
    await Promise.all(opened.splice(0).map((store) => store.close().catch(() => {})));
    expect(await deleteCrawls(crawlIds)).toBe(0);
    crawlIds.clear();
  });

  describeFrontierStoreContract(
    'redis',
    async (options) => open(options),
    async (store, options) => {
      // A restarted worker: a new store object on a new connection, same crawl id.
      await store.close();
      return open(options, crawlIdOf.get(store));
    },
  );

  it('completes a page with more links than one add batch: the earlier batches first, the last with the completion', async () => {
    const store = open({ addBatchSize: 2, defaultHostPolicy: { delayMs: 0, maxInFlight: 1 } });
    await store.add([entry('http://a.test/0')]);
    const claimed = await store.claim({ now: Date.now(), leaseMs: 60_000 });
    const links = ['http://a.test/0', 'http://a.test/1', 'http://a.test/2', 'http://b.test/1', 'http://a.test/1'].map(
      (url) => entry(url),
    );
    expect(await store.complete(claimed.lease!.id, { add: links })).toEqual([
      'duplicate',
      'added',
      'added',
      'added',
      'duplicate',
    ]);
    expect(await store.counts()).toEqual({ queued: 3, inFlight: 0, done: 1, failed: 0, activeHosts: 2 });
  });

  it('gives two workers (two connections) each URL once, and never breaks a host clock between them', async () => {
    const delayMs = 25;
    const policy = { defaultHostPolicy: { delayMs, maxInFlight: 1 } };
    const first = open(policy);
    const workers = [first, open(policy, crawlIdOf.get(first))];
    await workers[0]!.add(Array.from({ length: 200 }, (_, i) => entry(`http://h${i % 10}.test/${i}`)));
    const claims: { url: string; host: string; at: number; worker: number }[] = [];
    const inFlight = new Map<string, number>();
    let overlap = 0;
    const deadline = Date.now() + 20_000;
    await Promise.all(
      workers.map(async (store, worker) => {
        for (let step = 0; step < 5000 && Date.now() < deadline; step++) {
          const at = Date.now();
          const result = await store.claim({ now: at, leaseMs: 60_000 });
          if (result.lease === null) {
            if (result.nextReadyAt === null) return;
            await new Promise((resolve) =>
              setTimeout(resolve, Math.max(1, Math.min(20, result.nextReadyAt! - Date.now()))),
            );
            continue;
          }
          const { hostKey, url } = result.lease.entry;
          if ((inFlight.get(hostKey) ?? 0) > 0) overlap++;
          inFlight.set(hostKey, (inFlight.get(hostKey) ?? 0) + 1);
          claims.push({ url, host: hostKey, at, worker });
          await new Promise((resolve) => setTimeout(resolve, Math.random() * 3));
          inFlight.set(hostKey, (inFlight.get(hostKey) ?? 0) - 1);
          await store.complete(result.lease.id);
        }
      }),
    );
    expect(claims).toHaveLength(200);
    expect(new Set(claims.map((c) => c.url)).size).toBe(200);
    expect(overlap).toBe(0);
    expect(new Set(claims.map((c) => c.worker))).toEqual(new Set([0, 1]));
    // Each claim's `now` is the worker's clock when it asked: per host, they lie a delay apart.
    for (let h = 0; h < 10; h++) {
      const times = claims
        .filter((c) => c.host === `h${h}.test`)
        .map((c) => c.at)
        .sort((a, b) => a - b);
      expect(times).toHaveLength(20);
      for (let i = 1; i < times.length; i++) expect(times[i]! - times[i - 1]!).toBeGreaterThanOrEqual(delayMs);
    }
    expect(await workers[1]!.counts()).toEqual({ queued: 0, inFlight: 0, done: 200, failed: 0, activeHosts: 0 });
  });

  it('keeps entries exactly: plugin data with big numbers, kind, redirects and retries', async () => {
    const store = open({ defaultHostPolicy: { delayMs: 0, maxInFlight: 5 } });
    const data = { at: 1_763_456_789_012_345, ratio: 0.1 + 0.2, text: 'a b\n"c"', nested: { list: [1, -2.5e-7] } };
    const added = entry('http://a.test/sitemap.xml', {
      kind: 'sitemap',
      data,
      referrer: 'http://a.test/',
      redirectedFrom: 'http://a.test/old',
      redirectHops: 1,
      depth: 2,
      priority: 2.6,
    });
    await store.add([added]);
    const claimed = await store.claim({ now: 0, leaseMs: 1000 });
    expect(claimed.lease?.entry).toEqual(added);
    await store.retry(claimed.lease!.id);
    const again = await store.claim({ now: 0, leaseMs: 1000 });
    expect(again.lease?.entry).toEqual({ ...added, retries: 1 });
    await store.retry(again.lease!.id);
    expect((await store.claim({ now: 0, leaseMs: 1000 })).lease?.entry.retries).toBe(2);
  });

  it('keeps a LastFetch exactly through complete, reopenDue and claim, and through hints (no cjson rounding)', async () => {
    const store = open({ defaultHostPolicy: { delayMs: 0, maxInFlight: 1 } });
    const fetchedAt = 1_795_000_000_123;
    const last: LastFetch = {
      fetchedAt,
      status: 200,
      etag: 'W/"ünï \\"cödé\\" 🚀\n"',
      lastModified: 'Tue, 18 Nov 2026 08:26:40 GMT',
      contentHash: 'a/b+c_d-e',
      bytes: 123_456_789,
      intervalMs: 86_400_000.5,
      dueAt: fetchedAt + 3_600_000,
      latestDueAt: 1_795_604_800_123.25,
      cachePolicy: {
        v: 1,
        t: 1_795_000_000_123,
        sh: true,
        ch: 0.1 + 0.2,
        imm: 1_763_456_789_012_345,
        st: 200,
        resh: { etag: '"x\\y"', 'cache-control': 'max-age=60, must-revalidate', empty: '' },
        rescc: { 'max-age': '60' },
        reqcc: {},
        list: [],
        deep: { a: [1, -2.5e-7, null, { b: 'ü' }] },
      },
      hints: { lastmod: 1_794_999_999_999.5, changefreq: 'daily' },
    };
    const page = entry('http://a.test/p', { hostKey: 'a test:8080', label: 'P', userData: { text: 'x\ny "z"' } });
    await store.add([page]);
    const claimRevisit = async (): Promise<FrontierEntry> => {
      expect(await store.reopenDue({ dueBefore: Infinity, limit: 10 })).toBe(1);
      const lease = (await store.claim({ now: 0, leaseMs: 60_000 })).lease!;
      await store.complete(lease.id); // keeps what it had
      return lease.entry;
    };
    const first = (await store.claim({ now: 0, leaseMs: 60_000 })).lease!;
    expect(first.entry.url).toBe('http://a.test/p');
    await store.complete(first.id, { lastFetch: last });
    expect(await store.reopenDue({ dueBefore: last.dueAt, limit: 10 })).toBe(0); // exclusive
    expect(await claimRevisit()).toEqual({ ...page, revisit: last });
    // Hints, given by add and by a completion's links: changed, then unchanged, then no lastmod.
    const changed = lastFetchAfterHints(last, { lastmod: fetchedAt + 0.5 });
    // Dedupe is per politeness key (a host's URLs live in its bucket): the re-adds carry the page's host key.
    const again = (hints: NonNullable<FrontierEntry['hints']>): FrontierEntry =>
      entry('http://a.test/p', { hostKey: 'a test:8080', hints });
    expect(await store.add([again({ lastmod: fetchedAt + 0.5 })])).toEqual(['duplicate']);
    expect(await claimRevisit()).toEqual({ ...page, revisit: changed });
    await store.add([entry('http://a.test/q', { hostKey: 'a test:8080' })]);
    const other = (await store.claim({ now: 0, leaseMs: 60_000 })).lease!;
    expect(other.entry.url).toBe('http://a.test/q');
    const unchanged = lastFetchAfterHints(changed, { lastmod: fetchedAt, changefreq: 'weekly' });
    await store.complete(other.id, {
      add: [again({ lastmod: fetchedAt, changefreq: 'weekly' })],
    });
    expect(await store.reopenDue({ dueBefore: unchanged.dueAt, limit: 10 })).toBe(0);
    expect(await claimRevisit()).toEqual({ ...page, revisit: unchanged });
    await store.add([again({ changefreq: 'monthly' })]);
    expect(await claimRevisit()).toEqual({
      ...page,
      revisit: lastFetchAfterHints(unchanged, { changefreq: 'monthly' }),
    });
    expect(await store.counts()).toEqual({ queued: 0, inFlight: 0, done: 2, failed: 0, activeHosts: 0 });
  });

  it("writes a LastFetch's fetchedAt first, and reads it from a record written before that too (reopenDue's fetchedBefore)", async () => {
    const store = open({ defaultHostPolicy: { delayMs: 0, maxInFlight: 1 } });
    const lastKey = `${bucketPrefixOf(crawlIdOf.get(store)!, 'a.test')}lastFetch`;
    const url = 'http://a.test/p';
    await store.add([entry(url)]);
    const first = (await store.claim({ now: 0, leaseMs: 60_000 })).lease!;
    // fetchedAt not first in the object the worker is given: the record has it first all the same.
    const last: LastFetch = {
      status: 200,
      fetchedAt: 1_500_000_000_000.25,
      bytes: 10,
      intervalMs: 0,
      dueAt: 1e15,
      latestDueAt: 1e15,
    };
    await store.complete(first.id, { lastFetch: last });
    const admin = new Redis(REDIS_URL);
    try {
      const written = (await admin.hget(lastKey, url))!;
      expect(written.split('\n')[2]).toBe(
        '{"fetchedAt":1500000000000.25,"status":200,"bytes":10,"intervalMs":0,"latestDueAt":1000000000000000}',
      );
      // Read as text by the script, exactly.
      expect(await admin.zscore(`${bucketPrefixOf(crawlIdOf.get(store)!, 'a.test')}fetchedAt`, url)).toBe(
        '1500000000000.25',
      );
      // A record as an older politely wrote it (the object's own order), and a fetchedAt of another form.
      const older = '{"status":200,"fetchedAt":2e12,"bytes":10,"intervalMs":0,"latestDueAt":1e15}';
      await admin.hset(lastKey, url, `${String(1e15)}\n\n${older}`);
      expect(await store.reopenDue({ dueBefore: Infinity, limit: 10 })).toBe(1);
      const revisit = (await store.claim({ now: 0, leaseMs: 60_000 })).lease!;
      expect(revisit.entry.revisit).toEqual({ ...last, fetchedAt: 2e12 });
      await store.complete(revisit.id); // keeps the record it had: its fetchedAt read by decoding it
      expect(await store.reopenDue({ dueBefore: 0, fetchedBefore: 2e12, limit: 10 })).toBe(0); // exclusive
      expect(await store.reopenDue({ dueBefore: 0, fetchedBefore: 2e12 + 1, limit: 10 })).toBe(1);
    } finally {
      admin.disconnect();
    }
  });

  it('orders priorities beyond ±2^20 at the bounds, and a handed-back URL first within its priority', async () => {
    const store = open({ defaultHostPolicy: { delayMs: 0, maxInFlight: 10 } });
    await store.add([
      entry('http://a.test/low', { priority: -5e9 }),
      entry('http://a.test/mid-1', { priority: 7 }),
      entry('http://a.test/mid-2', { priority: 7 }),
      entry('http://a.test/top', { priority: 1e12 }),
      entry('http://a.test/top-2', { priority: MAX_QUEUE_PRIORITY }),
    ]);
    const take = async (): Promise<string> => (await store.claim({ now: 0, leaseMs: 1000 })).lease!.entry.url;
    expect(await take()).toBe('http://a.test/top');
    expect(await take()).toBe('http://a.test/top-2');
    const mid = await store.claim({ now: 0, leaseMs: 1000 });
    expect(mid.lease?.entry.url).toBe('http://a.test/mid-1');
    await store.release(mid.lease!.id);
    expect(await take()).toBe('http://a.test/mid-1');
    expect(await take()).toBe('http://a.test/mid-2');
    expect(await take()).toBe('http://a.test/low');
  });

  it('answers "look again soon" while URLs are in flight in any worker, and null when the crawl is over', async () => {
    const store = open({ idlePollMs: 300 });
    const other = open({ idlePollMs: 300 }, crawlIdOf.get(store));
    await store.add([entry('http://a.test/1')]);
    const claimed = await store.claim({ now: 1000, leaseMs: 60_000 });
    // Nothing queued, but the other worker's URL may bring links: look again within idlePollMs.
    expect(await other.claim({ now: 1000, leaseMs: 60_000 })).toEqual({ lease: null, nextReadyAt: 1300 });
    await store.complete(claimed.lease!.id);
    // Over, as the other worker sees once its look-again time comes (its view of the buckets is refreshed then).
    expect(await other.claim({ now: 1300, leaseMs: 60_000 })).toEqual({ lease: null, nextReadyAt: null });
  });

  it("holds a dead worker's host a whole delay past its lease expiry", async () => {
    const store = open({ defaultHostPolicy: { delayMs: 1000, maxInFlight: 1 } });
    await store.add([entry('http://a.test/1'), entry('http://a.test/2')]);
    const lost = await store.claim({ now: 0, leaseMs: 5000 }); // its worker dies
    expect(lost.lease?.leaseExpiresAt).toBe(5000);
    // At 5000 the lease expires: the worker may have sent its request just before, so 6000.
    expect(await store.claim({ now: 5000, leaseMs: 5000 })).toEqual({ lease: null, nextReadyAt: 6000 });
    expect((await store.claim({ now: 6000, leaseMs: 5000 })).lease?.entry.url).toBe('http://a.test/1');
    expect((await store.hostCounts())[0]).toMatchObject({
      hostKey: 'a.test',
      queued: 1,
      inFlight: 1,
      done: 0,
      readyAt: 7000,
    });
  });

  it('never moves a host clock back under another request in flight', async () => {
    const store = open({ defaultHostPolicy: { delayMs: 100, maxInFlight: 2 } });
    await store.add([entry('http://a.test/1'), entry('http://a.test/2'), entry('http://a.test/3')]);
    const one = await store.claim({ now: 0, leaseMs: 60_000 });
    const two = await store.claim({ now: 100, leaseMs: 60_000 });
    await store.release(one.lease!.id, { hostReadyAt: one.lease!.previousHostReadyAt }); // 0, but two is in flight
    expect(await store.claim({ now: 150, leaseMs: 60_000 })).toEqual({ lease: null, nextReadyAt: 200 });
    await store.complete(two.lease!.id, { hostReadyAt: 150 }); // the last in flight: set as given
    expect((await store.claim({ now: 150, leaseMs: 60_000 })).lease?.entry.url).toBe('http://a.test/1');
  });

  it('gives a host turn to one of two workers asking at the same moment, and moves the host in the ready set with its clock', async () => {
    const policy = { defaultHostPolicy: { delayMs: 1000, maxInFlight: 1 } };
    const one = open(policy);
    const two = open(policy, crawlIdOf.get(one));
    for (let round = 0; round < 20; round++) {
      const now = round * 100;
      const request = { now, busyUntil: now + 100, withinLease: round % 2 === 0 };
      const turns = await Promise.all([one.takeHostTurn!('t.test', request), two.takeHostTurn!('t.test', request)]);
      expect(
        turns.filter((t) => t.granted),
        `round ${round}`,
      ).toHaveLength(1);
      expect(turns.find((t) => !t.granted)).toEqual({ granted: false, retryAt: now + 100 });
      for (const store of [one, two])
        expect(await store.takeHostTurn!('t.test', { ...request, now: now + 99 })).toEqual({
          granted: false,
          retryAt: now + 100,
        });
    }
    // A URL queued at the host is scheduled at the clock the turns left, and at the next turn's.
    await two.add([entry('http://t.test/1')]);
    const admin = new Redis(REDIS_URL);
    try {
      const ready = `${bucketPrefixOf(crawlIdOf.get(one)!, 't.test')}ready`;
      expect(await admin.zscore(ready, 't.test')).toBe('2000');
      expect(await one.takeHostTurn!('t.test', { now: 2000, busyUntil: 2500, withinLease: false })).toEqual({
        granted: true,
      });
      expect(await admin.zscore(ready, 't.test')).toBe('2500');
    } finally {
      admin.disconnect();
    }
    expect(await one.claim({ now: 2499, leaseMs: 60_000 })).toEqual({ lease: null, nextReadyAt: 2500 });
    expect((await one.claim({ now: 2500, leaseMs: 60_000 })).lease?.entry.url).toBe('http://t.test/1');
    expect(await two.takeHostTurn!('t.test', { now: 3500, busyUntil: 3600, withinLease: false })).toEqual({
      granted: false,
      retryAt: 3550,
    }); // no room: the claim is in flight
    await expect(
      one.takeHostTurn!('t.test', { now: Number.NaN, busyUntil: 1, withinLease: false }),
    ).rejects.toMatchObject({ code: 'ERR_INVALID_INPUT' });
  });

  it('never gives two workers on one crawl a turn at one host at the same moment', async () => {
    const one = open();
    const workers = [one, open({}, crawlIdOf.get(one))];
    const turns: { worker: number; start: number; end: number }[] = [];
    const end = Date.now() + 1500;
    await Promise.all(
      workers.map(async (store, worker) => {
        while (Date.now() < end) {
          const now = Date.now();
          const turn = await store.takeHostTurn!('turns.test', { now, busyUntil: now + 10, withinLease: false });
          if (turn.granted) turns.push({ worker, start: now, end: now + 10 });
          else await new Promise((resolve) => setTimeout(resolve, Math.max(0, turn.retryAt - Date.now())));
        }
      }),
    );
    turns.sort((a, b) => a.start - b.start);
    expect(new Set(turns.map((t) => t.worker))).toEqual(new Set([0, 1]));
    for (let i = 1; i < turns.length; i++)
      expect(turns[i]!.start, `turn ${i}`).toBeGreaterThanOrEqual(turns[i - 1]!.end);
  });

  it('keeps crawls with different ids apart, and deleteRedisCrawl removes all of one', async () => {
    const a = open();
    const b = open();
    await a.add([entry('http://x.test/1')]);
    expect(await b.add([entry('http://x.test/1')])).toEqual(['added']);
    const crawlId = crawlIdOf.get(a)!;
    const admin = new Redis(REDIS_URL);
    try {
      const keys = await crawlKeys(admin, crawlId);
      // Crawl-wide (meta, workers), and in every bucket at least its marker.
      expect(keys.length).toBeGreaterThan(BUCKET_COUNT + 2);
      expect(await deleteRedisCrawl({ redis: admin, crawlId })).toBe(keys.length);
      expect(await crawlKeys(admin, crawlId)).toEqual([]);
      expect((await b.counts()).queued).toBe(1);
    } finally {
      admin.disconnect();
    }
  });

  it('relabels a queued URL by editing its entry as text (numbers exact), for any worker, and counts the unlabelled ones', async () => {
    const policy = { defaultHostPolicy: { delayMs: 0, maxInFlight: 10 } };
    const store = open(policy);
    const other = open(policy, crawlIdOf.get(store));
    const host = `${bucketPrefixOf(crawlIdOf.get(store)!, 'a.test')}h:a.test`;
    const unlabelled = async (): Promise<string | null> => admin.hget(host, 'ul');
    const data = { at: 1_763_456_789_012_345, ratio: 0.1 + 0.2, nested: { list: [1, -2.5e-7] } };
    // userData without a label: a relabel's userData replaces it.
    const queued = entry('http://a.test/1', { data, userData: { old: true }, priority: 0.25 });
    await store.add([queued, entry('http://a.test/2'), entry('http://a.test/3', { label: 'X' })]);
    const admin = new Redis(REDIS_URL);
    try {
      expect(await unlabelled()).toBe('2');
      const userData = { ratio: 0.1 + 0.2, text: 'a "b"\n', big: 9_007_199_254_740_991 };
      expect(await other.add([entry('http://a.test/1', { label: 'L', userData, priority: 0.5 })])).toEqual([
        'relabelled',
      ]);
      expect(await unlabelled()).toBe('1');
      const first = (await store.claim({ now: 0, leaseMs: 60_000 })).lease!;
      expect(first.entry).toEqual({ ...queued, label: 'L', userData, priority: 0.5 });
      await store.release(first.id);
      expect(await unlabelled()).toBe('1');
      const urls: string[] = [];
      for (let i = 0; i < 3; i++) urls.push((await other.claim({ now: 0, leaseMs: 60_000 })).lease!.entry.url);
      expect(urls).toEqual(['http://a.test/1', 'http://a.test/2', 'http://a.test/3']);
      // Nothing queued: no list left, and the host keeps no bands, origin or count.
      expect(await admin.hmget(host, 'qb', 'o', 'ul')).toEqual([null, null, null]);
      expect(await admin.exists(`${bucketPrefixOf(crawlIdOf.get(store)!, 'a.test')}q:a.test:0`)).toBe(0);
    } finally {
      admin.disconnect();
    }
  });

  it('keeps a failure and the failed entry exactly (no cjson rounding), and queues it again at its host', async () => {
    const store = open({ defaultHostPolicy: { delayMs: 0, maxInFlight: 1 } });
    // A host key whose length in bytes is not its length in UTF-16 units.
    const failed = entry('http://bücher.test/p', {
      hostKey: 'bücher.test:8080',
      data: { at: 1_763_456_789_012_345, ratio: 0.1 + 0.2 },
      label: 'P',
      userData: { text: 'x\ny "z"' },
    });
    await store.add([failed]);
    const lease = (await store.claim({ now: 0, leaseMs: 60_000 })).lease!;
    const failure: UrlFailure = {
      kind: 'failed',
      reason: 'handler',
      message: 'ünï "cödé"\nline 2 🚀',
      code: 'ERR_HANDLER',
      attempts: 3,
      at: 1_795_000_000_123,
    };
    // Fields beyond UrlFailure's are not kept.
    await store.complete(lease.id, { failure: { ...failure, stack: 'at x' } as UrlFailure });
    expect(await store.failures()).toEqual([{ entry: failed, failure }]);
    expect(await store.requeueFailed()).toBe(1);
    expect(await store.hostCounts()).toEqual([
      { hostKey: 'bücher.test:8080', queued: 1, inFlight: 0, done: 0, readyAt: 0 },
    ]);
    expect((await store.claim({ now: 0, leaseMs: 60_000 })).lease?.entry).toEqual(failed);
    await expect(store.complete(lease.id, { failure: { ...failure, at: Number.NaN } })).rejects.toMatchObject({
      code: 'ERR_INVALID_INPUT',
    });
  });

  it('clears every frontier key of the crawl but its marker, its workers and the robots cache; every worker carries on', async () => {
    const policy = { defaultHostPolicy: { delayMs: 0, maxInFlight: 2 } };
    const store = open(policy);
    const crawlId = crawlIdOf.get(store)!;
    const prefix = `politely:{${crawlId}}:`;
    const other = open(policy, crawlId);
    const robots = createRedisRobotsCache({ redis: REDIS_URL, crawlId });
    const admin = new Redis(REDIS_URL);
    try {
      await robots.set('https://a.test', robotsRecord('https://a.test'));
      expect(await robots.acquireFetchLock('https://b.test', 60_000)).toBeTypeOf('function');
      await store.add([
        entry('http://a.test/1'),
        entry('http://a.test/2', { label: 'L' }),
        entry('http://a.test/3'),
        entry('http://b.test/1'),
      ]);
      // A host that only a refused add met.
      expect(await store.add([entry('http://c.test/1')], { maxPerHost: 0 })).toEqual(['host-full']);
      const held = (await store.claim({ now: 0, leaseMs: 60_000 })).lease!;
      const done = (await other.claim({ now: 0, leaseMs: 60_000 })).lease!;
      await other.complete(done.id, {
        lastFetch: { fetchedAt: 1, status: 200, bytes: 1, intervalMs: 0, dueAt: 2, latestDueAt: 3 },
        failure: { kind: 'failed', reason: 'fetch', message: 'x', attempts: 1, at: 5 },
      });
      await (store as RedisFrontierStore).saveMetadata('k', { v: 1 });
      const bucketOf = (host: string): string => bucketPrefixOf(crawlId, host);
      expect(
        await admin.exists(
          `${prefix}data`,
          `${bucketOf('a.test')}q:a.test:0`,
          `${bucketOf('c.test')}h:c.test`,
          `${bucketOf(done.entry.hostKey)}failures`,
        ),
      ).toBe(4);
      await store.clear();
      const left = (await admin.keys(`${prefix}*`)).map((key) => key.slice(prefix.length)).sort();
      expect(left).toEqual(['meta', 'workers']);
      expect((await admin.hkeys(`${prefix}meta`)).sort()).toEqual([
        'beat',
        'buckets',
        'bucketsReady',
        'crawl',
        'createdAt',
        'layout',
      ]);
      // Every bucket keeps its marker and counts the clear (its generation), and nothing else is left but the robots cache.
      const robotsKeys = [
        robotsKeyOf(crawlId, 'https://a.test'),
        `${bucketOf('https://b.test')}robots-lock:https://b.test`,
      ];
      const buckets = (await crawlKeys(admin, crawlId)).filter((key) => !key.startsWith(prefix));
      expect(buckets.sort()).toEqual(
        [...Array.from({ length: BUCKET_COUNT }, (_, b) => `politely:{${crawlId}:${b}}:meta`), ...robotsKeys].sort(),
      );
      for (const key of buckets.filter((k) => k.endsWith(':meta')))
        expect(await admin.hgetall(key)).toEqual({ crawl: expect.any(String), g: '1' });
      expect(await robots.get('https://a.test')).toEqual(robotsRecord('https://a.test'));
      // The crawl goes on, empty: both workers use it, and the lease from before is void.
      expect(await other.add([entry('http://a.test/1')])).toEqual(['added']);
      expect((await store.claim({ now: 0, leaseMs: 60_000 })).lease?.entry.url).toBe('http://a.test/1');
      await store.complete(held.id, {
        failure: { kind: 'failed', reason: 'fetch', message: 'late', attempts: 1, at: 6 },
      });
      expect(await other.counts()).toEqual({ queued: 0, inFlight: 1, done: 0, failed: 0, activeHosts: 1 });
    } finally {
      admin.disconnect();
      await robots.close();
    }
  });

  it('refuses a crawl of the one-slot layout (made by an older politely), naming what to do', async () => {
    const crawlId = uniqueCrawlId('old-layout');
    crawlIds.add(crawlId);
    const admin = new Redis(REDIS_URL);
    try {
      // What the one-slot layout kept: a marker and counters, no layout version.
      await admin.hset(`politely:{${crawlId}}:meta`, 'crawl', 'an-old-marker', 'createdAt', '1', 'queued', '3');
      await admin.sadd(`politely:{${crawlId}}:seen`, 'http://a.test/1');
      const store = open({}, crawlId);
      const error = await (store as RedisFrontierStore).ready().then(
        () => undefined,
        (e: unknown) => e as PolitelyError,
      );
      expect(error?.code).toBe('ERR_STORE');
      expect(error?.message).toMatch(
        new RegExp(
          `^the crawl ${crawlId} in redis://.* was made by an older politely, of another key layout \\(layout 1 \\(one slot\\) with no buckets\\); this one uses layout 4 \\(128 buckets, URLs seen kept as 64-bit fingerprints, queues as compact lists\\): finish it with the politely that made it, or delete it \\(deleteRedisCrawl\\) and crawl again$`,
        ),
      );
      // Nothing of the old crawl was touched.
      expect(await admin.hgetall(`politely:{${crawlId}}:meta`)).toEqual({
        crawl: 'an-old-marker',
        createdAt: '1',
        queued: '3',
      });
    } finally {
      admin.disconnect();
    }
  });

  /** An older layout's crawl, as its store left it: one key of its own besides the meta. */
  const OLDER_LAYOUTS = [
    {
      layout: '2',
      what: 'dedupe keys kept whole',
      write: (admin: Redis, crawlId: string) => admin.sadd(`politely:{${crawlId}:0}:seen`, 'http://a.test/1'),
      read: (admin: Redis, crawlId: string) => admin.smembers(`politely:{${crawlId}:0}:seen`),
      kept: ['http://a.test/1'] as unknown,
    },
    {
      layout: '3',
      what: 'queues as ZSETs of JSON',
      write: (admin: Redis, crawlId: string) =>
        admin.zadd(
          `politely:{${crawlId}:0}:q:a.test`,
          2_147_483_648,
          ' {"url":"http://a.test/1","hostKey":"a.test","depth":0,"priority":0}',
        ),
      read: (admin: Redis, crawlId: string) => admin.zcard(`politely:{${crawlId}:0}:q:a.test`),
      kept: 1 as unknown,
    },
  ];

  it.each(OLDER_LAYOUTS)(
    'refuses a crawl of layout $layout ($what), naming what to do, and changes nothing',
    async ({ layout, write, read, kept }) => {
      const crawlId = uniqueCrawlId(`layout-${layout}`);
      crawlIds.add(crawlId);
      const admin = new Redis(REDIS_URL);
      try {
        const meta = { crawl: `a-layout-${layout}-marker`, createdAt: '1', layout, buckets: '128', bucketsReady: '1' };
        await admin.hset(`politely:{${crawlId}}:meta`, meta);
        await write(admin, crawlId);
        const error = await (open({}, crawlId) as RedisFrontierStore).ready().then(
          () => undefined,
          (e: unknown) => e as PolitelyError,
        );
        expect(error?.code).toBe('ERR_STORE');
        expect(error?.message).toMatch(
          new RegExp(
            `^the crawl ${crawlId} in redis://.* was made by an older politely, of another key layout \\(layout ${layout} with 128 buckets\\); this one uses layout 4 \\(128 buckets, URLs seen kept as 64-bit fingerprints, queues as compact lists\\): finish it with the politely that made it, or delete it \\(deleteRedisCrawl\\) and crawl again$`,
          ),
        );
        expect(await admin.hgetall(`politely:{${crawlId}}:meta`)).toEqual(meta);
        expect(await read(admin, crawlId)).toEqual(kept);
      } finally {
        admin.disconnect();
      }
    },
  );

  it('keeps a crawl under a keyPrefix, its {tag} made a bucket tag, and refuses a prefix without one', async () => {
    const tag = uniqueCrawlId('prefix');
    crawlIds.add(tag);
    const keyPrefix = `myapp:{${tag}}:`;
    const store = createRedisFrontierStore({ redis: REDIS_URL, keyPrefix });
    opened.push(store);
    await store.add([entry('http://a.test/1')]);
    expect((await store.claim({ now: 0, leaseMs: 1000 })).lease?.entry.url).toBe('http://a.test/1');
    const admin = new Redis(REDIS_URL);
    try {
      expect(await admin.exists(`myapp:{${tag}}:meta`, `myapp:{${tag}:${bucketOfHost('a.test')}}:h:a.test`)).toBe(2);
      expect(await deleteRedisCrawl({ redis: admin, keyPrefix })).toBeGreaterThan(BUCKET_COUNT);
      expect(await admin.keys(`myapp:{${tag}*`)).toEqual([]);
    } finally {
      admin.disconnect();
    }
    for (const bad of ['myapp:', 'a:{}:', 'a:{x}:{y}:'])
      expect(() => createRedisFrontierStore({ redis: REDIS_URL, keyPrefix: bad })).toThrow(
        expect.objectContaining({ code: 'ERR_INVALID_OPTION', message: expect.stringContaining('{hash tag}') }),
      );
  });

  it("refuses an ioredis client with a keyPrefix of its own, naming the store's keyPrefix instead", () => {
    const client = new Redis(REDIS_URL, { lazyConnect: true, keyPrefix: 'myapp:' });
    try {
      expect(() => createRedisFrontierStore({ redis: client, crawlId: uniqueCrawlId('client-prefix') })).toThrow(
        expect.objectContaining({
          code: 'ERR_INVALID_OPTION',
          message: expect.stringMatching(/keyPrefix "myapp:".*give the store keyPrefix/),
        }),
      );
    } finally {
      client.disconnect();
    }
  });

  it('rejects options without a crawl id, and bad claim times', async () => {
    expect(() => createRedisFrontierStore({ redis: REDIS_URL })).toThrow(
      expect.objectContaining({ code: 'ERR_INVALID_OPTION' }),
    );
    expect(() => createRedisFrontierStore({ redis: 'http://nope', crawlId: 'x' })).toThrow(
      expect.objectContaining({ code: 'ERR_INVALID_OPTION' }),
    );
    // The rule the CLI's --crawl-id shares (@politely/frontier's isCrawlId), in the same words.
    expect(() => createRedisFrontierStore({ redis: REDIS_URL, crawlId: 'a {b}' })).toThrow(
      expect.objectContaining({
        code: 'ERR_INVALID_OPTION',
        message: `createRedisFrontierStore: crawlId must be 1 to 100 letters, digits, '.', ':', '_' or '-', got "a {b}"`,
      }),
    );
    await expect(open().claim({ now: Number.NaN, leaseMs: 1 })).rejects.toMatchObject({ code: 'ERR_INVALID_INPUT' });
  });
});
