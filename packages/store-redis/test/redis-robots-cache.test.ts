// The Redis robots cache: records shared by every worker of a crawl, with key lifetimes that
// keep a stale copy for outages, and a fetch lock so that one worker fetches an origin's robots.txt.

import { createRobotsGate, type RobotsCacheRecord, type RobotsGate } from '@politely/core';
import { Redis } from 'ioredis';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { skipWithout } from '../../../test/support/requirements.js';
import { robotsTxt, startServer, type TestServer } from '../../../test/support/robots-server.js';
import { createRedisRobotsCache, type RedisRobotsCache } from '../src/index.js';
import {
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
warnIfSkipped('redis-robots-cache.test.ts', redisDown);

const UA = 'TestBot/1.0';
const DAY = 24 * 60 * 60 * 1000;

const record = (origin: string, expiresAt: number): RobotsCacheRecord => ({
  origin,
  outcome: 'success',
  status: 200,
  url: `${origin}/robots.txt`,
  fetchedAt: expiresAt - DAY,
  expiresAt,
  consecutiveFailures: 0,
  lastGood: {
    body: 'User-agent: *\nDisallow: /x\n',
    bodyEncoding: 'utf-8',
    status: 200,
    url: `${origin}/robots.txt`,
    fetchedAt: expiresAt - DAY,
    truncatedAtCap: false,
  },
});

describe.skipIf(skipRedis)(redisSuiteTitle('createRedisRobotsCache', redisDown), () => {
  let server: TestServer;
  let admin: Redis;
  const crawlIds = new Set<string>();
  const caches: RedisRobotsCache[] = [];
  const gates: RobotsGate[] = [];

  beforeAll(async () => {
    server = await startServer();
    admin = new Redis(REDIS_URL);
  });
  afterAll(async () => {
    await server.close();
    admin.disconnect();
  });
  afterEach(async () => {
    await Promise.all(gates.splice(0).map((gate) => gate.close()));
    await Promise.all(caches.splice(0).map((cache) => cache.close()));
    server.reset();
    expect(await deleteCrawls(crawlIds)).toBe(0);
    crawlIds.clear();
  });

  /** A cache on its own connection (one worker), on a new crawl or on `crawlId`'s. */
  function open(
    crawlId = uniqueCrawlId('robots'),
    options: { now?: () => number; keepStaleMs?: number } = {},
  ): RedisRobotsCache {
    crawlIds.add(crawlId);
    const cache = createRedisRobotsCache({ redis: REDIS_URL, crawlId, ...options });
    caches.push(cache);
    return cache;
  }

  it('stores records as JSON, gives them back exactly, and forgets them on delete', async () => {
    const cache = open();
    const origin = 'https://a.example';
    expect(await cache.get(origin)).toBeUndefined();
    const stored = record(origin, Date.now() + DAY);
    await cache.set(origin, stored);
    expect(await cache.get(origin)).toEqual(stored);
    await cache.delete(origin);
    expect(await cache.get(origin)).toBeUndefined();
  });

  it('keeps a record in Redis until keepStaleMs after it goes stale', async () => {
    const now = 1_000_000;
    const crawlId = uniqueCrawlId('robots');
    const cache = open(crawlId, { now: () => now, keepStaleMs: 60_000 });
    await cache.set('https://a.example', record('https://a.example', now + 30_000));
    const ttl = await admin.pttl(robotsKeyOf(crawlId, 'https://a.example'));
    expect(ttl).toBeGreaterThan(89_000);
    expect(ttl).toBeLessThanOrEqual(90_000);
  });

  it('gives the fetch lock to one worker at a time, and a release frees only its own lock', async () => {
    const crawlId = uniqueCrawlId('robots');
    const [one, two] = [open(crawlId), open(crawlId)];
    const release = await one.acquireFetchLock('https://a.example', 10_000);
    expect(release).toBeTypeOf('function');
    expect(await two.acquireFetchLock('https://a.example', 10_000)).toBeNull();
    expect(await two.acquireFetchLock('https://b.example', 10_000)).toBeTypeOf('function');
    await release!();
    const second = await two.acquireFetchLock('https://a.example', 50);
    expect(second).toBeTypeOf('function');
    await new Promise((resolve) => setTimeout(resolve, 80)); // expired: a third worker takes it
    const third = await one.acquireFetchLock('https://a.example', 10_000);
    expect(third).toBeTypeOf('function');
    await second!(); // late: must not free the third worker's lock
    expect(await two.acquireFetchLock('https://a.example', 10_000)).toBeNull();
  });

  it('makes one robots.txt request for many checks from gates of several workers', async () => {
    server.handle = (req, res) =>
      setTimeout(() => robotsTxt(200, 'User-agent: *\nDisallow: /private/\n')(req, res), 100);
    const crawlId = uniqueCrawlId('robots');
    const workers = Array.from({ length: 4 }, () => {
      const gate = createRobotsGate({ cache: open(crawlId), allowNet: ['127.0.0.0/8'] });
      gates.push(gate);
      return gate;
    });
    const checks = await Promise.all(
      workers.flatMap((gate) =>
        Array.from({ length: 10 }, (_, i) =>
          gate.check(`${server.origin}/${i % 2 === 0 ? 'private' : 'public'}/${i}`, UA),
        ),
      ),
    );
    expect(server.hits('/robots.txt')).toBe(1);
    expect(checks.filter((check) => !check.allowed)).toHaveLength(20);
    // A worker that comes later reads the record, without a request.
    const late = createRobotsGate({ cache: open(crawlId), allowNet: ['127.0.0.0/8'] });
    gates.push(late);
    expect(await late.check(`${server.origin}/private/x`, UA)).toMatchObject({ allowed: false, reason: 'rules' });
    expect(server.hits()).toBe(1);
  });
});
