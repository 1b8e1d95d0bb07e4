// What the Redis store does when things go wrong: a worker dies (its leases come back within
// workerTtlMs) or lives long (its leases stay its own), the crawl's state vanishes (every call
// fails with ERR_STORE, nothing is re-created), Redis cannot be reached at start (one line, in
// bounded time), or goes away mid-crawl and comes back (commands wait; one warning).

import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { FrontierEntry } from '@politely/frontier';
import { Redis } from 'ioredis';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { freePort, type OwnRedis, redisServerMissing, startOwnRedis } from '../../../test/support/redis-server.js';
import { rejection } from '../../../test/support/rejection.js';
import { skipWithout } from '../../../test/support/requirements.js';
import { BUCKET_SCRIPT_KEY_COUNT, BUCKET_SCRIPTS } from '../src/frontier-scripts.js';
import {
  checkRedisDurability,
  createRedisFrontierStore,
  createRedisLink,
  deleteRedisCrawl,
  parseRedisUrl,
  type RedisFrontierStore,
  type RedisFrontierStoreOptions,
} from '../src/index.js';
import { bucketOfHost, bucketScriptKeys } from '../src/keys.js';
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
warnIfSkipped('redis-resilience.test.ts', redisDown);
const serverMissing = redisServerMissing();
const skipOwnRedis = skipWithout('redis-server', serverMissing);
if (serverMissing !== null)
  console.warn(`[store-redis] redis-resilience.test.ts: own-server tests SKIPPED: ${serverMissing}`);

const BUILT = fileURLToPath(new URL('../dist/index.js', import.meta.url));

const entry = (url: string): FrontierEntry => ({ url, hostKey: new URL(url).hostname, depth: 0, priority: 0 });

describe.skipIf(skipRedis)(redisSuiteTitle('Redis store: workers and their leases', redisDown), () => {
  const crawlIds = new Set<string>();
  const opened: RedisFrontierStore[] = [];
  function open(
    options: Partial<RedisFrontierStoreOptions> = {},
    crawlId = uniqueCrawlId('resilience'),
  ): RedisFrontierStore {
    crawlIds.add(crawlId);
    const store = createRedisFrontierStore({
      redis: REDIS_URL,
      crawlId,
      defaultHostPolicy: { delayMs: 0, maxInFlight: 1 },
      clock: 'caller', // the cases pass times of their own
      ...options,
    });
    opened.push(store);
    return store;
  }
  afterEach(async () => {
    await Promise.all(opened.splice(0).map((store) => store.close()));
    expect(await deleteCrawls(crawlIds)).toBe(0);
    crawlIds.clear();
  });

  it("never takes a live worker's leases, long past workerTtlMs, while it heartbeats", async () => {
    const timing = { workerTtlMs: 400, heartbeatMs: 100 };
    const holder = open(timing);
    const crawlId = [...crawlIds][0]!;
    const other = open(timing, crawlId);
    await holder.add([entry('http://a.test/1'), entry('http://b.test/1')]);
    const held = await holder.claim({ now: Date.now(), leaseMs: 300_000 });
    expect(held.lease).not.toBeNull();
    await new Promise((resolve) => setTimeout(resolve, 1500)); // more than three TTLs
    const seen: string[] = [];
    for (let i = 0; i < 5; i++) {
      const result = await other.claim({ now: Date.now(), leaseMs: 300_000 });
      if (result.lease !== null) seen.push(result.lease.entry.url);
    }
    expect(seen).toEqual([held.lease!.entry.url === 'http://a.test/1' ? 'http://b.test/1' : 'http://a.test/1']);
    expect(await other.counts()).toMatchObject({ queued: 0, inFlight: 2 });
    // The crawler's own check agrees: the lease is still the holder's.
    expect(held.lease!.leaseExpiresAt).toBeGreaterThan(Date.now());
    await holder.complete(held.lease!.id);
    expect(await other.counts()).toMatchObject({ queued: 0, inFlight: 1, done: 1 });
  });

  it("returns a killed worker's leases within about workerTtlMs, whatever the lease time", async () => {
    if (!existsSync(BUILT)) throw new Error('this test runs a worker on the built package: run `pnpm build` first');
    const crawlId = uniqueCrawlId('killed');
    crawlIds.add(crawlId);
    const timing = { workerTtlMs: 1000, heartbeatMs: 200 };
    const survivor = open(timing, crawlId);
    await survivor.add([entry('http://a.test/1'), entry('http://a.test/2'), entry('http://b.test/1')]);
    // A worker in its own process takes two URLs (two hosts) with a 5-minute lease, then is killed.
    const script = `
      import { createRedisFrontierStore } from ${JSON.stringify(BUILT)};
      const store = createRedisFrontierStore(${JSON.stringify({ redis: REDIS_URL, crawlId, defaultHostPolicy: { delayMs: 0, maxInFlight: 1 }, ...timing })});
      const urls = [];
      for (let i = 0; i < 2; i++) urls.push((await store.claim({ now: Date.now(), leaseMs: 300000 })).lease.entry.url);
      console.log(JSON.stringify(urls));
      setInterval(() => {}, 1000);
    `;
    const child = spawn(process.execPath, ['--input-type=module', '-e', script], { stdio: ['ignore', 'pipe', 'pipe'] });
    const exited = new Promise((resolve) => child.once('exit', resolve));
    try {
      const held = await new Promise<string[]>((resolve, reject) => {
        let out = '';
        let err = '';
        const timer = setTimeout(() => reject(new Error(`the worker did not claim within 10 s: ${err}`)), 10_000);
        child.stderr.setEncoding('utf8').on('data', (chunk: string) => (err += chunk));
        child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
          out += chunk;
          if (out.includes('\n')) {
            clearTimeout(timer);
            resolve(JSON.parse(out) as string[]);
          }
        });
      });
      expect(held).toHaveLength(2);
      child.kill('SIGKILL');
      await exited;
      const killedAt = Date.now();
      expect(await survivor.counts()).toMatchObject({ inFlight: 2 });
      const back: string[] = [];
      while (back.length < 3 && Date.now() - killedAt < 5000) {
        const result = await survivor.claim({ now: Date.now(), leaseMs: 300_000 });
        if (result.lease === null) {
          await new Promise((resolve) => setTimeout(resolve, 50));
          continue;
        }
        back.push(result.lease.entry.url);
        await survivor.complete(result.lease.id);
      }
      const waited = Date.now() - killedAt;
      expect(back.sort()).toEqual(['http://a.test/1', 'http://a.test/2', 'http://b.test/1']);
      // Not before the dead worker's registration ran out (its last renewal was at most a heartbeat before the kill)…
      expect(waited).toBeGreaterThanOrEqual(timing.workerTtlMs - timing.heartbeatMs - 100);
      // …and soon after, not after the 5-minute lease.
      expect(waited).toBeLessThan(timing.workerTtlMs + 1500);
      expect(await survivor.counts()).toEqual({ queued: 0, inFlight: 0, done: 3, failed: 0, activeHosts: 0 });
      const hosts = await survivor.hostCounts();
      expect(hosts.map((h) => h.inFlight)).toEqual([0, 0]);
    } finally {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    }
  }, 20_000);

  it("returns a closed worker's leases at the next claim of another", async () => {
    const first = open();
    const crawlId = [...crawlIds][0]!;
    const second = open({}, crawlId);
    await first.add([entry('http://a.test/1')]);
    expect((await first.claim({ now: Date.now(), leaseMs: 300_000 })).lease).not.toBeNull();
    await first.close();
    const again = await second.claim({ now: Date.now(), leaseMs: 300_000 });
    expect(again.lease?.entry.url).toBe('http://a.test/1');
  });

  it('fails every call with ERR_STORE once the crawl is gone, and re-creates nothing', async () => {
    const store = open();
    const crawlId = [...crawlIds][0]!;
    await store.add([entry('http://a.test/1'), entry('http://a.test/2'), entry('http://b.test/1')]);
    const lease = (await store.claim({ now: Date.now(), leaseMs: 60_000 })).lease!;
    await deleteRedisCrawl({ redis: REDIS_URL, crawlId }); // as FLUSHALL, eviction or an empty restart would
    const error = await rejection(store.claim({ now: Date.now(), leaseMs: 60_000 }));
    expect(error.code).toBe('ERR_STORE');
    expect(error.message).toBe(
      `the crawl ${crawlId} in ${parseRedisUrl(REDIS_URL).display} is gone (Redis restarted without persistence, keys evicted or flushed): 3 URLs were known before; stopping`,
    );
    for (const call of [
      () => store.add([entry('http://c.test/1')]),
      () => store.complete(lease.id),
      () => store.release(lease.id),
      () => store.retry(lease.id),
      () => store.setHostPolicy('a.test', { delayMs: 5 }),
      () => store.counts(),
      () => store.hostCounts(),
    ]) {
      expect((await rejection(call())).code).toBe('ERR_STORE');
    }
    const admin = new Redis(REDIS_URL);
    try {
      expect(await crawlKeys(admin, crawlId)).toEqual([]);
    } finally {
      admin.disconnect();
    }
  });

  it('tells a crawl re-created after a flush from the one a worker opened', async () => {
    const old = open();
    const crawlId = [...crawlIds][0]!;
    await old.add([entry('http://a.test/1')]);
    await deleteRedisCrawl({ redis: REDIS_URL, crawlId });
    const fresh = open({}, crawlId); // a worker that starts now creates the crawl anew, with a new marker
    await fresh.add([entry('http://a.test/1')]);
    expect((await rejection(old.claim({ now: Date.now(), leaseMs: 60_000 }))).message).toMatch(
      /is gone .*: 1 URLs were known before; stopping$/,
    );
    expect((await fresh.claim({ now: Date.now(), leaseMs: 60_000 })).lease?.entry.url).toBe('http://a.test/1');
  });

  it('answers a claim sent again (its reply lost with the connection) with the same lease', async () => {
    const store = open();
    const crawlId = [...crawlIds][0]!;
    await store.add([entry('http://a.test/1'), entry('http://a.test/2')]);
    const prefix = bucketPrefixOf(crawlId, 'a.test');
    const admin = new Redis(REDIS_URL);
    try {
      // The claim script as ioredis sends it, twice with one lease id, as a resent command would be.
      admin.defineCommand('claimAgain', {
        numberOfKeys: BUCKET_SCRIPT_KEY_COUNT,
        lua: BUCKET_SCRIPTS.politelyBucketClaim,
      });
      const marker = await admin.hget(`${prefix}meta`, 'crawl');
      const leaseId = `${bucketOfHost('a.test')}/w-test.1`;
      const now = Date.now(); // a resent command carries the same arguments
      const claim = (): Promise<string[]> =>
        (admin as unknown as { claimAgain(...args: (string | number)[]): Promise<string[]> }).claimAgain(
          ...bucketScriptKeys(prefix, 'w-test'),
          prefix,
          marker!,
          'w-test',
          250,
          now,
          leaseId,
          60_000,
          100,
        );
      const first = await claim();
      const second = await claim();
      expect(second).toEqual(first);
      expect(first[3]).toBe(leaseId);
      expect(first[4]).toContain('http://a.test/');
      expect(await store.counts()).toMatchObject({ queued: 1, inFlight: 1 });
    } finally {
      admin.disconnect();
    }
  });

  it('answers a reopenDue sent again (its reply lost with the connection) with its count, reopening nothing more', async () => {
    const store = open({ defaultHostPolicy: { delayMs: 0, maxInFlight: 5 } });
    const crawlId = [...crawlIds][0]!;
    await store.add(['1', '2', '3'].map((n) => entry(`http://a.test/${n}`)));
    for (let i = 0; i < 3; i++) {
      const { lease } = await store.claim({ now: 0, leaseMs: 60_000 });
      await store.complete(lease!.id, {
        lastFetch: { fetchedAt: 1, status: 200, bytes: 1, intervalMs: 0, dueAt: 10 + i, latestDueAt: 100 },
      });
    }
    const prefix = bucketPrefixOf(crawlId, 'a.test');
    const admin = new Redis(REDIS_URL);
    try {
      admin.defineCommand('reopenAgain', {
        numberOfKeys: BUCKET_SCRIPT_KEY_COUNT,
        lua: BUCKET_SCRIPTS.politelyBucketReopenDue,
      });
      const marker = await admin.hget(`${prefix}meta`, 'crawl');
      const reopen = (request: string): Promise<number> =>
        (admin as unknown as { reopenAgain(...args: (string | number)[]): Promise<number> }).reopenAgain(
          ...bucketScriptKeys(prefix, 'w-test'),
          prefix,
          marker!,
          'w-test',
          250,
          Date.now(),
          '+inf',
          2,
          '',
          request,
        );
      // Sent twice with one request id: the second answers the first's count and reopens nothing.
      expect(await reopen('r-1')).toBe(2);
      expect(await reopen('r-1')).toBe(2);
      expect(await store.counts()).toMatchObject({ queued: 2, done: 1 });
      // A new request reopens the rest.
      expect(await reopen('r-2')).toBe(1);
      expect(await store.counts()).toMatchObject({ queued: 3, done: 0 });
    } finally {
      admin.disconnect();
    }
  });

  it('lets a worker join a crawl (same marker) and leave it running', async () => {
    const first = open();
    const crawlId = [...crawlIds][0]!;
    await first.add([entry('http://a.test/1')]);
    const joiner = open({}, crawlId);
    await joiner.ready();
    expect(await joiner.add([entry('http://a.test/1'), entry('http://a.test/2')])).toEqual(['duplicate', 'added']);
    await joiner.close();
    expect(await first.counts()).toMatchObject({ queued: 2 });
  });
});

describe('Redis store: reaching Redis', () => {
  it('fails in one line within connectTimeoutMs when nothing listens', async () => {
    const port = await freePort();
    const store = createRedisFrontierStore({
      redis: `redis://:hunter2@127.0.0.1:${port}/0`,
      crawlId: 'never',
      connectTimeoutMs: 1000,
    });
    const startedAt = Date.now();
    const error = await rejection(store.claim({ now: Date.now(), leaseMs: 1000 }));
    expect(Date.now() - startedAt).toBeLessThan(2500);
    expect(error.code).toBe('ERR_STORE');
    expect(error.message).toBe(
      `cannot reach redis://:***@127.0.0.1:${port}/0 within 1 s: connect ECONNREFUSED 127.0.0.1:${port}`,
    );
    await store.close();
  });
});

describe.skipIf(skipOwnRedis)(
  `Redis store: its own redis-server${serverMissing === null ? '' : ` [SKIPPED: ${serverMissing}]`}`,
  () => {
    let plain: OwnRedis;
    let durable: OwnRedis;
    beforeAll(async () => {
      [plain, durable] = await Promise.all([startOwnRedis({ persistent: false }), startOwnRedis({ persistent: true })]);
    });
    afterAll(async () => {
      await Promise.all([plain?.stop(), durable?.stop()]);
    });

    it('refuses a database the server does not have, rather than use database 0', async () => {
      const store = createRedisFrontierStore({ redis: `redis://127.0.0.1:${plain.port}/16`, crawlId: 'x' });
      const error = await rejection(store.ready());
      expect(error.code).toBe('ERR_INVALID_OPTION');
      expect(error.message).toBe(
        `redis://127.0.0.1:${plain.port}/16: database 16 does not exist on this server (it has 16: 0 to 15)`,
      );
      await store.close();
      const fine = createRedisFrontierStore({ redis: `redis://127.0.0.1:${plain.port}/15`, crawlId: 'x' });
      await fine.ready();
      await fine.close();
    });

    it('fails rediss:// to a plain server within connectTimeoutMs (no hang)', async () => {
      const store = createRedisFrontierStore({
        redis: `rediss://127.0.0.1:${plain.port}`,
        crawlId: 'x',
        connectTimeoutMs: 1000,
      });
      const startedAt = Date.now();
      const error = await rejection(store.ready());
      expect(Date.now() - startedAt).toBeLessThan(2500);
      expect(error.message).toMatch(new RegExp(`^cannot reach rediss://127\\.0\\.0\\.1:${plain.port}/0 within 1 s: `));
      await store.close();
    });

    it('says what a durable crawl lacks', async () => {
      expect(await checkRedisDurability(plain.url)).toEqual({
        checked: true,
        problems: [expect.stringMatching(/^appendonly is no/)],
      });
      expect(await checkRedisDurability(durable.url)).toEqual({ checked: true, problems: [] });
    });

    it('with CONFIG disabled: still refuses a missing database (SELECT says it), and says durability could not be checked', async () => {
      const locked = await startOwnRedis({ persistent: false, extraArgs: ['--rename-command', 'CONFIG', ''] });
      try {
        const store = createRedisFrontierStore({ redis: `redis://127.0.0.1:${locked.port}/16`, crawlId: 'x' });
        const error = await rejection(store.ready());
        expect(error.message).toMatch(
          /^redis:\/\/127\.0\.0\.1:\d+\/16: database 16 does not exist on this server \(ERR DB index is out of range\)$/,
        );
        await store.close();
        expect(await checkRedisDurability(locked.url)).toEqual({
          checked: false,
          reason: expect.stringMatching(/unknown command/i),
        });
      } finally {
        await locked.stop();
      }
    });

    it('lets the crawler see its leases expire when it could not renew its registration for workerTtlMs', async () => {
      const own = await startOwnRedis({ persistent: false });
      const store = createRedisFrontierStore({
        redis: own.url,
        crawlId: 'cut-off',
        workerTtlMs: 400,
        heartbeatMs: 100,
        maxOutageMs: 10_000,
      });
      try {
        await store.add([entry('http://a.test/1')]);
        const lease = (await store.claim({ now: Date.now(), leaseMs: 300_000 })).lease!;
        expect(lease.leaseExpiresAt).toBeGreaterThan(Date.now());
        await own.stop();
        await new Promise((resolve) => setTimeout(resolve, 700));
        // Another worker may take it back now: the crawler must not send its request (process-url.ts).
        expect(lease.leaseExpiresAt).toBeLessThanOrEqual(Date.now());
      } finally {
        await store.close();
        await own.stop();
      }
    });

    it('waits through a restart of a persistent Redis, warns once, and goes on where it was', async () => {
      const warnings: string[] = [];
      const notices: string[] = [];
      const link = createRedisLink(durable.url, {
        onWarning: (m) => warnings.push(m),
        onNotice: (m) => notices.push(m),
      });
      const store = createRedisFrontierStore({
        redis: link,
        crawlId: 'restart',
        defaultHostPolicy: { delayMs: 0, maxInFlight: 1 },
      });
      try {
        await store.add([entry('http://a.test/1'), entry('http://b.test/1')]);
        const held = (await store.claim({ now: Date.now(), leaseMs: 60_000 })).lease!;
        const restarted = durable.restart({ downMs: 800 });
        await new Promise((resolve) => setTimeout(resolve, 200));
        // Sent while Redis is down: waits, then runs.
        const next = await store.claim({ now: Date.now(), leaseMs: 60_000 });
        await restarted;
        expect(next.lease).not.toBeNull();
        expect(next.lease!.entry.url).not.toBe(held.entry.url);
        await store.complete(held.id);
        await store.complete(next.lease!.id);
        expect(await store.counts()).toEqual({ queued: 0, inFlight: 0, done: 2, failed: 0, activeHosts: 0 });
        expect(warnings).toEqual([`lost the connection to ${durable.url}; retrying for up to 60 s`]);
        expect(notices).toHaveLength(1);
        expect(notices[0]).toMatch(
          new RegExp(`^the connection to ${durable.url.replace(/\./g, '\\.')} is back after \\d+(\\.\\d)? s$`),
        );
      } finally {
        await store.close();
        await link.close();
        await deleteRedisCrawl({ redis: durable.url, crawlId: 'restart' });
      }
    }, 20_000);

    it('does not count an outage against anybody: after it, a worker has workerTtlMs to come back', async () => {
      const timing = { workerTtlMs: 500, heartbeatMs: 100, defaultHostPolicy: { delayMs: 0, maxInFlight: 1 } };
      // The holder's own client reconnects only 2.5 s after a loss; the other worker's at once.
      const slowClient = new Redis({
        host: '127.0.0.1',
        port: durable.port,
        retryStrategy: () => 2500,
        maxRetriesPerRequest: null,
      });
      slowClient.on('error', () => {});
      const holder = createRedisFrontierStore({ redis: slowClient, crawlId: 'long-outage', ...timing });
      const other = createRedisFrontierStore({ redis: durable.url, crawlId: 'long-outage', ...timing });
      try {
        await holder.add([entry('http://a.test/1'), entry('http://b.test/1')]);
        const held = (await holder.claim({ now: Date.now(), leaseMs: 300_000 })).lease!;
        const otherUrl = held.entry.url === 'http://a.test/1' ? 'http://b.test/1' : 'http://a.test/1';
        await other.ready();
        await durable.restart({ downMs: 1200 }); // more than two TTLs without a heartbeat reaching Redis
        // Right after the outage the holder is not taken for dead, though its last renewal is long past.
        const first = await other.claim({ now: Date.now(), leaseMs: 300_000 });
        expect(first.lease?.entry.url).toBe(otherUrl);
        expect((await other.claim({ now: Date.now(), leaseMs: 300_000 })).lease).toBeNull();
        // It stays away (its client waits 2.5 s): after a TTL it is, and its URL comes back.
        await new Promise((resolve) => setTimeout(resolve, timing.workerTtlMs + 300));
        expect(held.leaseExpiresAt).toBeLessThanOrEqual(Date.now()); // as the holder's crawler sees it too
        const back = await other.claim({ now: Date.now(), leaseMs: 300_000 });
        expect(back.lease?.entry.url).toBe(held.entry.url);
      } finally {
        await holder.close();
        await other.close();
        slowClient.disconnect();
        await deleteRedisCrawl({ redis: durable.url, crawlId: 'long-outage' });
      }
    }, 20_000);

    it('stops with ERR_STORE when a Redis without persistence comes back empty', async () => {
      const warnings: string[] = [];
      const store = createRedisFrontierStore({
        redis: plain.url,
        crawlId: 'emptied',
        onWarning: (m) => warnings.push(m),
      });
      try {
        await store.add([entry('http://a.test/1'), entry('http://a.test/2')]);
        await plain.restart();
        const error = await rejection(store.claim({ now: Date.now(), leaseMs: 60_000 }));
        expect(error.code).toBe('ERR_STORE');
        expect(error.message).toBe(
          `the crawl emptied in ${plain.url} is gone (Redis restarted without persistence, keys evicted or flushed): 2 URLs were known before; stopping`,
        );
        expect(warnings).toHaveLength(1);
      } finally {
        await store.close();
      }
    }, 20_000);

    it('fails waiting commands with ERR_STORE once the outage outlasts maxOutageMs', async () => {
      const own = await startOwnRedis({ persistent: false });
      const store = createRedisFrontierStore({ redis: own.url, crawlId: 'outage', maxOutageMs: 1000 });
      try {
        await store.add([entry('http://a.test/1')]);
        await own.stop();
        const startedAt = Date.now();
        const error = await rejection(store.claim({ now: Date.now(), leaseMs: 60_000 }));
        expect(Date.now() - startedAt).toBeLessThan(3000);
        expect(error.code).toBe('ERR_STORE');
        expect(error.message).toMatch(
          new RegExp(`^lost the connection to ${own.url.replace(/\./g, '\\.')} for 1 s \\(.*\\); stopping$`),
        );
      } finally {
        await store.close();
        await own.stop();
      }
    }, 20_000);
  },
);
