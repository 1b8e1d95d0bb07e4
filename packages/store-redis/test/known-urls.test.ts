// A worker leaves out of a page's completion the links it has seen the crawl hold (known-urls.ts),
// and only while the page's bucket was not cleared since: what each completion script carries is
// read off the store's own client, and what the crawl holds off Redis.

import type { AddOutcome, FrontierEntry, FrontierLease } from '@politely/frontier';
import { Redis } from 'ioredis';
import { afterEach, describe, expect, it } from 'vitest';
import { skipWithout } from '../../../test/support/requirements.js';
import { createRedisFrontierStore, type RedisFrontierStore, type RedisFrontierStoreOptions } from '../src/index.js';
import { KnownUrls } from '../src/known-urls.js';
import {
  deleteCrawls,
  REDIS_URL,
  recordSettleScripts,
  redisDownReason,
  redisSuiteTitle,
  uniqueCrawlId,
  warnIfSkipped,
} from './redis-helpers.js';

const redisDown = await redisDownReason();
const skipRedis = skipWithout('Redis (REDIS_URL)', redisDown);
warnIfSkipped('known-urls.test.ts', redisDown);

const HOST = 'known.test';
const url = (path: string): string => `http://${HOST}${path}`;
const entry = (path: string, extra: Partial<FrontierEntry> = {}): FrontierEntry => ({
  url: url(path),
  hostKey: HOST,
  depth: 0,
  priority: 0,
  ...extra,
});

/** The URLs of this host that a script carries (as dedupe keys). */
const urlsIn = (args: readonly string[]): string[] => args.filter((arg) => arg.startsWith(`http://${HOST}/`)).sort();

describe.skipIf(skipRedis)(redisSuiteTitle('links known to be held', redisDown), () => {
  const crawlIds = new Set<string>();
  const clients: Redis[] = [];
  const stores: RedisFrontierStore[] = [];

  function open(
    crawlId = uniqueCrawlId('known-urls'),
    options: Partial<RedisFrontierStoreOptions> = {},
  ): { store: RedisFrontierStore; scripts: string[][]; crawlId: string } {
    crawlIds.add(crawlId);
    const redis = new Redis(REDIS_URL);
    clients.push(redis);
    const scripts = recordSettleScripts(redis);
    const store = createRedisFrontierStore({
      redis,
      crawlId,
      defaultHostPolicy: { delayMs: 0, maxInFlight: 10 },
      ...options,
    });
    stores.push(store);
    return { store, scripts, crawlId };
  }

  afterEach(async () => {
    await Promise.all(stores.splice(0).map((store) => store.close().catch(() => {})));
    for (const redis of clients.splice(0)) redis.disconnect();
    expect(await deleteCrawls(crawlIds)).toBe(0);
    crawlIds.clear();
  });

  async function claim(store: RedisFrontierStore, path: string): Promise<FrontierLease> {
    for (let i = 0; i < 20; i++) {
      const { lease } = await store.claim({ now: Date.now(), leaseMs: 60_000 });
      if (lease === null) break;
      if (lease.entry.url === url(path)) return lease;
      await store.release(lease.id);
    }
    throw new Error(`${path} was not claimed`);
  }

  /** The URLs left in the crawl, each claimed and completed once. */
  async function drain(store: RedisFrontierStore): Promise<string[]> {
    const urls: string[] = [];
    for (let i = 0; i < 100; i++) {
      const { lease } = await store.claim({ now: Date.now(), leaseMs: 60_000 });
      if (lease === null) return urls.sort();
      urls.push(lease.entry.url);
      await store.complete(lease.id);
    }
    throw new Error('the crawl did not end');
  }

  it("leaves out of a page's completion the links it saw the crawl hold, and answers them 'duplicate'", async () => {
    const { store, scripts } = open();
    await store.add([entry('/')]);
    const home = await claim(store, '/');
    expect(await store.complete(home.id, { add: [entry('/a'), entry('/b')] })).toEqual(['added', 'added']);
    expect(urlsIn(scripts.at(-1)!)).toEqual([url('/a'), url('/b')]);
    const a = await claim(store, '/a');
    const outcomes = await store.complete(a.id, { add: [entry('/'), entry('/b'), entry('/c')] });
    expect(outcomes).toEqual(['duplicate', 'duplicate', 'added']);
    // '/' was added by add(), '/b' by the first completion: neither goes again.
    expect(urlsIn(scripts.at(-1)!)).toEqual([url('/c')]);
    expect(await drain(store)).toEqual([url('/b'), url('/c')]);
    expect(await store.counts()).toMatchObject({ queued: 0, inFlight: 0, done: 4 });
  });

  it('sends a known link with a label (it may relabel) or hints (they update its revisit), and one the host had no room for', async () => {
    const { store, scripts } = open();
    await store.add([entry('/')]);
    const home = await claim(store, '/');
    const added = await store.complete(home.id, {
      add: [entry('/a'), entry('/b'), entry('/full')],
      addOptions: { maxPerHost: 3 },
    });
    expect(added).toEqual(['added', 'added', 'host-full']);
    const a = await claim(store, '/a');
    const outcomes = await store.complete(a.id, {
      add: [
        entry('/b', { label: 'detail', userData: { n: 1 } }),
        entry('/', { hints: { changefreq: 'daily' } }),
        entry('/full'),
      ],
    });
    expect(outcomes).toEqual<AddOutcome[]>(['relabelled', 'duplicate', 'added']);
    expect(urlsIn(scripts.at(-1)!)).toEqual([url('/'), url('/b'), url('/full')]);
    const b = await claim(store, '/b');
    expect(b.entry).toMatchObject({ label: 'detail', userData: { n: 1 } });
  });

  it("sends every link again after another worker's clear(), and loses none of them", async () => {
    const crawlId = uniqueCrawlId('known-urls-clear');
    const { store: first, scripts } = open(crawlId);
    const { store: second } = open(crawlId);
    await first.add([entry('/')]);
    const home = await claim(first, '/');
    expect(await first.complete(home.id, { add: [entry('/a'), entry('/b')] })).toEqual(['added', 'added']);
    const a = await claim(first, '/a');
    await second.clear(); // the crawl starts again, empty; the first worker is not told
    const before = scripts.length;
    // The first worker still takes '/' and '/b' for held: the script must find out they are not.
    const outcomes = await first.complete(a.id, { add: [entry('/'), entry('/b')] });
    expect(outcomes).toEqual(['added', 'added']);
    expect(scripts.length - before).toBe(2); // left out, refused; then sent whole
    expect(urlsIn(scripts.at(-2)!)).toEqual([]);
    expect(urlsIn(scripts.at(-1)!)).toEqual([url('/'), url('/b')]);
    expect(await drain(second)).toEqual([url('/'), url('/b')]);
    // Known again, in the bucket's new generation: left out once more.
    const c = await first.add([entry('/c')]);
    expect(c).toEqual(['added']);
    const page = await claim(first, '/c');
    expect(await first.complete(page.id, { add: [entry('/'), entry('/b')] })).toEqual(['duplicate', 'duplicate']);
    expect(urlsIn(scripts.at(-1)!)).toEqual([]);
  });

  it("after the worker's own clear(), remembers nothing from before", async () => {
    const { store, scripts } = open();
    await store.add([entry('/')]);
    const home = await claim(store, '/');
    await store.complete(home.id, { add: [entry('/a')] });
    await store.clear();
    await store.add([entry('/b')]);
    const b = await claim(store, '/b');
    expect(await store.complete(b.id, { add: [entry('/'), entry('/a')] })).toEqual(['added', 'added']);
    expect(urlsIn(scripts.at(-1)!)).toEqual([url('/'), url('/a')]);
  });

  it('with knownUrlCache: 0 sends every link', async () => {
    const { store, scripts } = open(undefined, { knownUrlCache: 0 });
    await store.add([entry('/')]);
    const home = await claim(store, '/');
    await store.complete(home.id, { add: [entry('/a')] });
    const a = await claim(store, '/a');
    expect(await store.complete(a.id, { add: [entry('/'), entry('/a')] })).toEqual(['duplicate', 'duplicate']);
    expect(urlsIn(scripts.at(-1)!)).toEqual([url('/'), url('/a')]);
  });

  it('refuses a knownUrlCache that is not a count', () => {
    expect(() => createRedisFrontierStore({ redis: REDIS_URL, crawlId: 'x', knownUrlCache: -1 })).toThrow(
      /knownUrlCache must be an integer ≥ 0, got -1/,
    );
  });
});

describe('KnownUrls', () => {
  it('holds a key only in the generation it was learnt in, and never more than its capacity', () => {
    const known = new KnownUrls(1000, 4);
    known.remember('http://a.test/', 0);
    expect(known.holds('http://a.test/', 0)).toBe(true);
    expect(known.holds('http://b.test/', 0)).toBe(false);
    known.learnGeneration(0, 2);
    expect(known.holds('http://a.test/', 0)).toBe(false); // learnt before the bucket's clears
    known.learnGeneration(0, 1); // an answer that arrives late never lowers it
    expect(known.generationOf(0)).toBe(2);
    known.remember('http://a.test/', 2);
    expect(known.holds('http://a.test/', 0)).toBe(true);
    for (let i = 0; i < 5000; i++) known.remember(`http://a.test/${i}`, 2);
    expect(known.size).toBeLessThanOrEqual(1000);
    expect(known.holds('http://a.test/4999', 0)).toBe(true);
    expect(known.holds('http://a.test/0', 0)).toBe(false); // forgotten, the oldest first
  });

  it('keeps a key it meets again while newer keys come and go', () => {
    const known = new KnownUrls(10, 1);
    known.remember('nav', 0);
    for (let i = 0; i < 100; i++) {
      known.remember(`page-${i}`, 0);
      expect(known.holds('nav', 0)).toBe(true);
    }
  });

  it('with capacity 0 holds nothing', () => {
    const known = new KnownUrls(0, 1);
    known.remember('x', 0);
    expect(known.holds('x', 0)).toBe(false);
    expect(known.size).toBe(0);
  });
});
