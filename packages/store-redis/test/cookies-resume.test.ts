// The crawler's cookie jar in Redis (the crawl's metadata hash): a resumed crawl keeps its session.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectCookiesSurviveResume, expectJarSavedDuringCrawl } from '../../../test/support/cookie-resume.js';
import { type CookieSites, startCookieSites } from '../../../test/support/cookie-sites.js';
import { skipWithout } from '../../../test/support/requirements.js';
import { createRedisFrontierStore } from '../src/index.js';
import {
  deleteCrawls,
  REDIS_URL,
  redisDownReason,
  redisSuiteTitle,
  uniqueCrawlId,
  warnIfSkipped,
} from './redis-helpers.js';

const redisDown = await redisDownReason();
const skipRedis = skipWithout('Redis (REDIS_URL)', redisDown);
warnIfSkipped('cookies-resume.test.ts', redisDown);

describe.skipIf(skipRedis)(redisSuiteTitle('cookies with createRedisFrontierStore', redisDown), () => {
  const crawlIds: string[] = [];
  let sites: CookieSites;

  beforeAll(async () => {
    sites = await startCookieSites();
  });
  afterAll(async () => {
    await sites.close();
    expect(await deleteCrawls(crawlIds)).toBe(0);
  });

  it('keeps the jar with the crawl: a resumed crawl sends the cookies of the earlier run', async () => {
    const crawlId = uniqueCrawlId('cookies');
    crawlIds.push(crawlId);
    await expectCookiesSurviveResume(sites, () => createRedisFrontierStore({ redis: REDIS_URL, crawlId }));
  });

  it('saves the jar while the crawl runs, not only at its end', async () => {
    const crawlId = uniqueCrawlId('cookies-live');
    crawlIds.push(crawlId);
    const store = createRedisFrontierStore({ redis: REDIS_URL, crawlId });
    try {
      await expectJarSavedDuringCrawl(sites, store);
    } finally {
      await store.close();
    }
  });

  it('stores metadata as JSON beside the frontier, and answers undefined for a key never saved', async () => {
    const crawlId = uniqueCrawlId('metadata');
    crawlIds.push(crawlId);
    const store = createRedisFrontierStore({ redis: REDIS_URL, crawlId });
    try {
      expect(await store.loadMetadata('nothing')).toBeUndefined();
      await store.saveMetadata('settings', { a: [1, 'two'], b: null });
      expect(await store.loadMetadata('settings')).toEqual({ a: [1, 'two'], b: null });
      await expect(store.saveMetadata('bad', undefined)).rejects.toThrow(/not JSON/);
    } finally {
      await store.close();
    }
  });
});
