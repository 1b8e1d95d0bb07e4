// The seen tables (layout 3): URLs are deduplicated on 64-bit fingerprints packed in STRINGs, and
// a done URL leaves no copy of its text in Redis. Checked against the real Redis's keys.

import type { FrontierEntry, FrontierStore } from '@politely/frontier';
import { Redis } from 'ioredis';
import { afterEach, describe, expect, it } from 'vitest';
import { skipWithout } from '../../../test/support/requirements.js';
import { fingerprintOf } from '../src/fingerprint.js';
import { createRedisFrontierStore } from '../src/index.js';
import {
  bucketPrefixOf,
  crawlKeys,
  deleteCrawls,
  REDIS_URL,
  redisDownReason,
  redisSuiteTitle,
  uniqueCrawlId,
  warnIfSkipped,
} from './redis-helpers.js';

const redisDown = await redisDownReason();
const skipRedis = skipWithout('Redis (REDIS_URL)', redisDown);
warnIfSkipped('seen-fingerprint.test.ts', redisDown);

const entry = (url: string): FrontierEntry => ({ url, hostKey: new URL(url).hostname, depth: 1, priority: 0 });

describe.skipIf(skipRedis)(redisSuiteTitle('the seen tables', redisDown), () => {
  const crawlIds = new Set<string>();
  const opened: FrontierStore[] = [];
  function open(crawlId = uniqueCrawlId('seen'), rememberFetches?: boolean): FrontierStore {
    crawlIds.add(crawlId);
    const store = createRedisFrontierStore({
      redis: REDIS_URL,
      crawlId,
      ...(rememberFetches === undefined ? {} : { rememberFetches }),
    });
    opened.push(store);
    return store;
  }
  afterEach(async () => {
    await Promise.all(opened.splice(0).map((store) => store.close().catch(() => {})));
    expect(await deleteCrawls(crawlIds)).toBe(0);
    crawlIds.clear();
  });

  it('refuses a rememberFetches that is no boolean, naming it', () => {
    expect(() =>
      createRedisFrontierStore({ redis: REDIS_URL, crawlId: 'x', rememberFetches: 'no' as unknown as boolean }),
    ).toThrow(/createRedisFrontierStore: rememberFetches must be true or false, got "no"/);
  });

  it('fingerprints a dedupe key as 64 bits, never all zero', () => {
    expect(fingerprintOf('http://a.test/')).toMatch(/^[0-9a-f]{16}$/);
    expect(fingerprintOf('http://a.test/')).toBe(fingerprintOf('http://a.test/'));
    expect(fingerprintOf('http://a.test/')).not.toBe(fingerprintOf('http://a.test/x'));
  });

  it('finds a URL added before a duplicate, in the same add and in a later one, from another worker', async () => {
    const crawlId = uniqueCrawlId('seen-dup');
    const store = open(crawlId);
    const other = open(crawlId);
    expect(await store.add([entry('http://a.test/1'), entry('http://a.test/1')])).toEqual(['added', 'duplicate']);
    expect(await other.add([entry('http://a.test/1'), entry('http://a.test/2')])).toEqual(['duplicate', 'added']);
    expect((await store.counts()).queued).toBe(2);
  });

  it('loses none of 7,000 distinct URLs of one bucket while its tables grow and split', async () => {
    const crawlId = uniqueCrawlId('seen-split');
    const store = open(crawlId);
    const urls = Array.from({ length: 7000 }, (_, i) => `http://split.test/page/${i}?q=${i * 7}`);
    const batch = 500;
    for (let start = 0; start < urls.length; start += batch) {
      const outcomes = await store.add(urls.slice(start, start + batch).map(entry));
      expect(outcomes.every((o) => o === 'added')).toBe(true);
    }
    for (let start = 0; start < urls.length; start += batch) {
      const outcomes = await store.add(urls.slice(start, start + batch).map(entry));
      expect(outcomes.every((o) => o === 'duplicate')).toBe(true);
    }
    expect((await store.counts()).queued).toBe(7000);
    const admin = new Redis(REDIS_URL);
    try {
      const prefix = bucketPrefixOf(crawlId, 'split.test');
      // A split past 2,048 fingerprints a table: at 2,049, 4,097 and 6,145 (level 2, split pointer 0: 4 tables).
      expect(await admin.hmget(`${prefix}meta`, 'seen', 'fpL', 'fpS')).toEqual(['7000', '2', '0']);
      const counts = await admin.hgetall(`${prefix}seen`);
      expect(Object.keys(counts).sort()).toEqual(['0', '1', '2', '3']);
      expect(Object.values(counts).reduce((sum, n) => sum + Number(n), 0)).toBe(7000);
      let slots = 0;
      for (const table of Object.keys(counts)) slots += (await admin.strlen(`${prefix}seen:${table}`)) / 8;
      // Packed: at most 8 / 0.5 bytes a fingerprint (load between 0.6 after a rebuild and 0.85).
      expect(slots).toBeGreaterThanOrEqual(7000 / 0.85);
      expect(slots * 8).toBeLessThanOrEqual(7000 * 16);
    } finally {
      admin.disconnect();
    }
  });

  it.each([
    ['no LastFetch given', true],
    ['rememberFetches: false, a LastFetch given', false],
  ])('keeps no text of a done URL anywhere in Redis (%s)', async (_, rememberFetches) => {
    const crawlId = uniqueCrawlId('seen-done');
    const store = open(crawlId, rememberFetches);
    expect(store.remembersFetches).toBe(rememberFetches);
    const urls = Array.from({ length: 30 }, (_, i) => `http://done${i % 3}.test/some/path-${i}`);
    expect(await store.add(urls.map(entry))).toEqual(urls.map(() => 'added'));
    for (let i = 0; i < urls.length; i++) {
      const { lease } = await store.claim({ now: Date.now(), leaseMs: 60_000 });
      expect(lease).not.toBeNull();
      const at = Date.now();
      await store.complete(
        lease!.id,
        rememberFetches
          ? {}
          : {
              lastFetch: {
                fetchedAt: at,
                status: 200,
                etag: '"e"',
                bytes: 1,
                intervalMs: 1000,
                dueAt: at + 1000,
                latestDueAt: at + 5000,
              },
            },
      );
    }
    expect(await store.counts()).toMatchObject({ queued: 0, inFlight: 0, done: 30 });
    const admin = new Redis(REDIS_URL);
    try {
      const texts: string[] = [];
      for (const key of await crawlKeys(admin, crawlId)) {
        texts.push(key);
        const type = await admin.type(key);
        if (type === 'string') texts.push((await admin.get(key)) ?? '');
        else if (type === 'hash') texts.push(...Object.entries(await admin.hgetall(key)).flat());
        else if (type === 'zset') texts.push(...(await admin.zrange(key, 0, -1)));
        else if (type === 'set') texts.push(...(await admin.smembers(key)));
        else if (type === 'list') texts.push(...(await admin.lrange(key, 0, -1)));
        else throw new Error(`unexpected ${type} at ${key}`);
      }
      const all = texts.join('\n');
      for (const url of urls) expect(all).not.toContain(new URL(url).pathname);
      // Still seen: added again, each is a duplicate.
      expect(await store.add(urls.map(entry))).toEqual(urls.map(() => 'duplicate'));
    } finally {
      admin.disconnect();
    }
  });
});
