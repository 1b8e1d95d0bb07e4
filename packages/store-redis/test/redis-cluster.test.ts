// The Redis store on a Redis Cluster of its own (3 primaries, 3 replicas, on loopback): the
// frontier contract; two worker processes crawling 60 hosts, each page once, every host's delay
// held (the servers' own logs), the crawl's keys spread over every primary; the durability
// option (replicaAcks, Redis WAIT); and a primary SIGKILLed mid-crawl, its replica taking over.
// The workers run the BUILT packages (`pnpm build`).

import { type LoggedRequest, minGapMsByOrigin, violations } from '@politely/demo-web';
import type { FrontierStore } from '@politely/frontier';
import { describeFrontierStoreContract } from '@politely/frontier/testing';
import { type LocalWeb, startFleet } from '@politely/local-web';
import { type Cluster, Redis } from 'ioredis';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  type OwnRedisCluster,
  redisClusterToolsMissing,
  startRedisCluster,
} from '../../../test/support/redis-cluster.js';
import { freePort } from '../../../test/support/redis-server.js';
import { skipWithout } from '../../../test/support/requirements.js';
import {
  createRedisFrontierStore,
  createRedisLink,
  deleteRedisCrawl,
  type RedisFrontierStoreOptions,
} from '../src/index.js';
import { bucketOfHost, crawlKeyMatcher, resolveCrawlKeys } from '../src/keys.js';
import { countWrites, uniqueCrawlId } from './redis-helpers.js';
import {
  assertWorkersBuilt,
  killWorkers,
  pageRequests,
  startWorkerProcess,
  type WorkerProcess,
} from './worker-process.js';

const missing = redisClusterToolsMissing();
const skipCluster = skipWithout('redis-server and redis-cli', missing);
if (missing !== null) console.warn(`[store-redis] redis-cluster.test.ts: SKIPPED: ${missing}`);

const USER_AGENT = 'PolitelyDemo/1.0 (+https://example.test/bot)';
const CRAWL_DELAY_S = 0.2;

interface WorkerEvent {
  readonly type: 'request' | 'error' | 'done' | 'warning';
  readonly url?: string;
  readonly kind?: string;
  readonly message?: string;
}
type Worker = WorkerProcess<WorkerEvent>;

/** How many keys of the crawl each primary holds (SCAN on each). */
async function keysPerPrimary(cluster: OwnRedisCluster, crawlId: string): Promise<Map<number, number>> {
  const matcher = crawlKeyMatcher(resolveCrawlKeys('test', { crawlId }));
  const counts = new Map<number, number>();
  for (const port of await cluster.primaries()) {
    const node = new Redis({ port, host: '127.0.0.1' });
    try {
      let cursor = '0';
      let count = 0;
      do {
        const [next, keys] = await node.scan(cursor, 'MATCH', matcher.pattern, 'COUNT', 1000);
        cursor = next;
        count += keys.filter((key) => matcher.test(key)).length;
      } while (cursor !== '0');
      counts.set(port, count);
    } finally {
      node.disconnect();
    }
  }
  return counts;
}

/** The crawl of `web` by two worker processes on the cluster; resolves with them once both exited (bounded). */
function startCrawl(web: LocalWeb, redisUrl: string, crawlId: string, extra: Record<string, unknown> = {}): Worker[] {
  const config = {
    redisUrl,
    crawlId,
    seeds: web.hosts.map((host) => `${host.origin}/`),
    userAgent: USER_AGENT,
    leaseMs: 20_000,
    minDelayMs: 0,
    concurrency: 12,
    workerTtlMs: 4000,
    heartbeatMs: 500,
    ...extra,
  };
  return [startWorkerProcess<WorkerEvent>(config), startWorkerProcess<WorkerEvent>(config)];
}

async function finished(workers: readonly Worker[], timeoutMs: number): Promise<(number | null)[]> {
  const deadline = new Promise<never>((_, reject) =>
    setTimeout(() => {
      const state = workers.map(
        (w, i) =>
          `worker ${i}: exit ${String(w.child.exitCode)}, ${w.events.length} events, last ${JSON.stringify(w.events.at(-1))}, stderr ${w.stderr.join('').slice(-500)}`,
      );
      reject(new Error(`the workers did not finish within ${timeoutMs} ms: ${state.join('; ')}`));
    }, timeoutMs).unref(),
  );
  return Promise.race([Promise.all(workers.map((worker) => worker.exited)), deadline]);
}

/** Page requests per URL in the servers' log (robots.txt apart). */
function fetchesByUrl(log: readonly LoggedRequest[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const r of log)
    if (r.path !== '/robots.txt') counts.set(`${r.origin}${r.path}`, (counts.get(`${r.origin}${r.path}`) ?? 0) + 1);
  return counts;
}

function allowedUrls(web: LocalWeb): string[] {
  return web.hosts.flatMap((host) => host.expectedAllowedPaths.map((path) => `${host.origin}${path}`));
}

describe.skipIf(skipCluster)('Redis store on a Redis Cluster (3 primaries, 3 replicas)', () => {
  let cluster: OwnRedisCluster;
  beforeAll(async () => {
    cluster = await startRedisCluster({ nodeTimeoutMs: 2000 });
  }, 60_000);
  afterAll(async () => {
    await cluster?.stop();
  });

  describe('the frontier contract', () => {
    const crawlIdOf = new WeakMap<FrontierStore, string>();
    const opened: FrontierStore[] = [];
    const open = (
      options: Partial<RedisFrontierStoreOptions> = {},
      crawlId = uniqueCrawlId('cluster'),
    ): FrontierStore => {
      // On the caller's clock: the contract's cases pass times of their own.
      const store = createRedisFrontierStore({ redis: cluster.url, crawlId, clock: 'caller', ...options });
      crawlIdOf.set(store, crawlId);
      opened.push(store);
      return store;
    };
    afterEach(async () => {
      const stores = opened.splice(0);
      await Promise.all(stores.map((store) => store.close().catch(() => {})));
      for (const crawlId of new Set(stores.map((store) => crawlIdOf.get(store)!))) {
        await deleteRedisCrawl({ redis: cluster.url, crawlId });
        expect(await deleteRedisCrawl({ redis: cluster.url, crawlId })).toBe(0);
      }
    });
    describeFrontierStoreContract(
      'redis cluster',
      async (options) => open(options),
      async (store, options) => {
        await store.close();
        return open(options, crawlIdOf.get(store));
      },
    );
  });

  it('dedupes on the fingerprint seen tables across shards, through their growth and splits', async () => {
    const crawlId = uniqueCrawlId('cluster-seen');
    const store = createRedisFrontierStore({ redis: cluster.url, crawlId });
    try {
      // 2,500 URLs of one host (one bucket: its tables split past 2,048), and 1,000 over 40 hosts.
      const urls = [
        ...Array.from({ length: 2500 }, (_, i) => `http://big.test/p/${i}`),
        ...Array.from({ length: 1000 }, (_, i) => `http://h${i % 40}.test/p/${i}`),
      ];
      const entries = urls.map((url) => ({ url, hostKey: new URL(url).hostname, depth: 1, priority: 0 }));
      for (let start = 0; start < entries.length; start += 500) {
        const outcomes = await store.add(entries.slice(start, start + 500));
        expect(outcomes.filter((o) => o === 'added')).toHaveLength(outcomes.length);
      }
      for (let start = 0; start < entries.length; start += 500) {
        const outcomes = await store.add(entries.slice(start, start + 500));
        expect(outcomes.filter((o) => o === 'duplicate')).toHaveLength(outcomes.length);
      }
      expect((await store.counts()).queued).toBe(3500);
    } finally {
      await store.close();
      await deleteRedisCrawl({ redis: cluster.url, crawlId });
    }
  });

  it("sends the links a worker knew again after another worker's clear(), on the shard of their bucket", async () => {
    const crawlId = uniqueCrawlId('cluster-known');
    const first = createRedisFrontierStore({ redis: cluster.url, crawlId });
    const second = createRedisFrontierStore({ redis: cluster.url, crawlId });
    const page = (path: string) => ({ url: `http://known.test${path}`, hostKey: 'known.test', depth: 0, priority: 0 });
    const claimOne = async (store: FrontierStore) => {
      const { lease } = await store.claim({ now: Date.now(), leaseMs: 60_000 });
      if (lease === null) throw new Error('nothing to claim');
      return lease;
    };
    try {
      await first.add([page('/')]);
      const home = await claimOne(first);
      expect(await first.complete(home.id, { add: [page('/a'), page('/b')] })).toEqual(['added', 'added']);
      const a = await claimOne(first);
      // Known to the first worker, so left out of its next completion: '/' and '/b' are duplicates.
      expect(await first.complete(a.id, { add: [page('/'), page('/b')] })).toEqual(['duplicate', 'duplicate']);
      const b = await claimOne(first);
      await second.clear();
      expect(await first.complete(b.id, { add: [page('/'), page('/b')] })).toEqual(['added', 'added']);
      expect((await second.counts()).queued).toBe(2);
    } finally {
      await Promise.all([first.close(), second.close()]);
      await deleteRedisCrawl({ redis: cluster.url, crawlId });
    }
  });

  it("sends one turn's scripts to each primary in one write", async () => {
    const crawlId = uniqueCrawlId('cluster-coalesce');
    const link = createRedisLink(cluster.url);
    const store = createRedisFrontierStore({ redis: link, crawlId });
    try {
      await store.ready();
      // Twelve hosts in twelve buckets: twelve scripts, spread over the primaries.
      const hosts: string[] = [];
      const buckets = new Set<number>();
      for (let i = 0; hosts.length < 12 && i < 1000; i++) {
        const b = bucketOfHost(`c${i}.test`);
        if (buckets.has(b)) continue;
        buckets.add(b);
        hosts.push(`c${i}.test`);
      }
      const counts = (link.client as Cluster).nodes('master').map((node) => countWrites(node.stream));
      const outcomes = await store.add(
        hosts.map((host) => ({ url: `http://${host}/`, hostKey: host, depth: 0, priority: 0 })),
      );
      expect(outcomes).toEqual(hosts.map(() => 'added'));
      expect(counts.reduce((sum, c) => sum + c.chunks, 0)).toBe(12);
      expect(counts.filter((c) => c.writes > 0).length).toBeGreaterThan(1);
      for (const c of counts) expect(c.writes).toBeLessThanOrEqual(1);
    } finally {
      await store.close();
      await link.close();
      await deleteRedisCrawl({ redis: cluster.url, crawlId });
    }
  });

  it('fails in one line naming the node when no seed node answers', async () => {
    const port = await freePort();
    const store = createRedisFrontierStore({
      redis: `redis-cluster://127.0.0.1:${port}`,
      crawlId: uniqueCrawlId('nowhere'),
      connectTimeoutMs: 500,
    });
    const error = await store.ready().then(
      () => undefined,
      (e: unknown) => e as Error & { code?: string },
    );
    await store.close();
    expect(error?.code).toBe('ERR_STORE');
    expect(error?.message).toMatch(
      new RegExp(`^cannot reach redis-cluster://127\\.0\\.0\\.1:${port} within 0\\.5 s: .*127\\.0\\.0\\.1:${port}`),
    );
    expect(error?.message).not.toContain('\n');
  });

  it('waits for a replica to acknowledge each change when replicaAcks is set', async () => {
    const crawlId = uniqueCrawlId('acks');
    const warnings: string[] = [];
    const store = createRedisFrontierStore({
      redis: cluster.url,
      crawlId,
      replicaAcks: 1,
      replicaAckTimeoutMs: 2000,
      onWarning: (message) => warnings.push(message),
    });
    // Two replicas asked for, one per primary: every wait falls short, and says so.
    const greedy = createRedisFrontierStore({
      redis: cluster.url,
      crawlId,
      replicaAcks: 2,
      replicaAckTimeoutMs: 50,
      onWarning: (message) => warnings.push(message),
    });
    try {
      await store.add([{ url: 'http://a.test/1', hostKey: 'a.test', depth: 0, priority: 0 }]);
      const { lease } = await store.claim({ now: Date.now(), leaseMs: 60_000 });
      await store.complete(lease!.id);
      expect(warnings).toEqual([]);
      expect(await greedy.add([{ url: 'http://b.test/1', hostKey: 'b.test', depth: 0, priority: 0 }])).toEqual([
        'added',
      ]);
      expect(warnings).toHaveLength(1);
      expect(warnings[0]).toMatch(/^only 1 of 2 replicas of 127\.0\.0\.1:\d+ acknowledged a change within 50 ms/);
    } finally {
      await store.close();
      await greedy.close();
      await deleteRedisCrawl({ redis: cluster.url, crawlId });
    }
  });

  it('crawls 60 hosts with two workers: each page once, every delay held, the keys spread over every primary', async () => {
    assertWorkersBuilt();
    const web = await startFleet({ hosts: 60, pagesPerHost: 5, crawlDelaySeconds: CRAWL_DELAY_S, firstAddress: 130 });
    const crawlId = 'cluster-spread';
    const workers = startCrawl(web, cluster.url, crawlId);
    try {
      const codes = await finished(workers, 90_000);
      expect(codes, workers.map((w) => w.stderr.join('')).join('\n')).toEqual([0, 0]);
      const log = web.requestLog();
      const fetched = fetchesByUrl(log);
      expect([...fetched.keys()].sort()).toEqual(allowedUrls(web).sort());
      expect([...fetched].filter(([, n]) => n !== 1)).toEqual([]);
      expect(violations(web, USER_AGENT)).toEqual([]);
      for (const [origin, gap] of minGapMsByOrigin(log))
        expect(gap, origin).toBeGreaterThanOrEqual(CRAWL_DELAY_S * 1000);
      for (const worker of workers) expect(pageRequests(worker).length).toBeGreaterThan(0);
      const perPrimary = await keysPerPrimary(cluster, crawlId);
      const total = [...perPrimary.values()].reduce((a, b) => a + b, 0);
      expect(perPrimary.size).toBe(3);
      console.info(`[spread] keys per primary: ${JSON.stringify([...perPrimary])} of ${total}`);
      for (const [port, count] of perPrimary)
        expect(count / total, `primary ${port}: ${count} of ${total}`).toBeGreaterThanOrEqual(0.2);
    } finally {
      killWorkers(workers);
      await web.close();
      await deleteRedisCrawl({ redis: cluster.url, crawlId });
    }
  }, 120_000);

  /**
   * Crawls 60 hosts with two workers and SIGKILLs a primary (one with a replica) once 100 pages
   * are fetched; returns what the servers saw, for the checks that differ with `replicaAcks`.
   */
  async function crawlThroughFailover(
    crawlId: string,
    extra: Record<string, unknown>,
  ): Promise<{ web: LocalWeb; workers: Worker[]; victim: number; killedAt: number }> {
    const web = await startFleet({ hosts: 60, pagesPerHost: 5, crawlDelaySeconds: CRAWL_DELAY_S, firstAddress: 130 });
    const workers = startCrawl(web, cluster.url, crawlId, extra);
    const deadline = Date.now() + 60_000;
    while (fetchesByUrl(web.requestLog()).size < 100 && Date.now() < deadline)
      await new Promise((resolve) => setTimeout(resolve, 20));
    const [victim] = await cluster.primariesWithReplicas();
    const killedAt = Date.now();
    cluster.kill(victim!);
    return { web, workers, victim: victim!, killedAt };
  }

  /** The checks of every failover crawl: both workers done, the replica promoted, nothing lost, none fetched thrice, every delay held. */
  async function expectCompleted(run: {
    web: LocalWeb;
    workers: Worker[];
    victim: number;
  }): Promise<[string, number][]> {
    const { web, workers, victim } = run;
    const codes = await finished(workers, 90_000);
    expect(codes, workers.map((w) => w.stderr.join('')).join('\n')).toEqual([0, 0]);
    await cluster.waitUntilOk(15_000);
    expect(await cluster.primaries()).not.toContain(victim);
    const log = web.requestLog();
    const fetched = fetchesByUrl(log);
    // Nothing lost: every page was fetched (each is linked from several pages, so links lost with
    // an unreplicated write come back with the next page that has them).
    expect(allowedUrls(web).filter((url) => !fetched.has(url))).toEqual([]);
    const twice = [...fetched].filter(([, n]) => n > 1);
    expect(twice.filter(([, n]) => n > 2)).toEqual([]);
    expect(violations(web, USER_AGENT)).toEqual([]);
    for (const [origin, gap] of minGapMsByOrigin(log)) expect(gap, origin).toBeGreaterThanOrEqual(CRAWL_DELAY_S * 1000);
    return twice;
  }

  /** The first fetch of `url` in the servers' log (ms since the epoch). */
  const firstFetchOf = (web: LocalWeb, url: string): number =>
    web.requestLog().find((r) => `${r.origin}${r.path}` === url)!.dateMs;

  it('goes on when a primary is SIGKILLed mid-crawl: its replica takes over, and the crawl completes', async () => {
    assertWorkersBuilt();
    const crawlId = uniqueCrawlId('failover');
    const run = await crawlThroughFailover(crawlId, {});
    try {
      const twice = await expectCompleted(run);
      // Replication is asynchronous: what the primary had not yet sent its replica is lost, so a
      // page done (or claimed) just before the kill may be fetched again; nothing done earlier.
      for (const [url] of twice)
        expect(firstFetchOf(run.web, url), `${url}: fetched again`).toBeGreaterThan(run.killedAt - 5000);
    } finally {
      killWorkers(run.workers);
      await run.web.close();
      await deleteRedisCrawl({ redis: cluster.url, crawlId }).catch(() => {});
    }
  }, 180_000);

  it('with replicaAcks: 1, a primary SIGKILLed mid-crawl loses no acknowledged change', async () => {
    assertWorkersBuilt();
    const crawlId = uniqueCrawlId('failover-acks');
    // After the failover, the promoted replica has no replica of its own: waits there time out (short here).
    const run = await crawlThroughFailover(crawlId, { replicaAcks: 1, replicaAckTimeoutMs: 100 });
    try {
      const twice = await expectCompleted(run);
      // Only a page whose change was under way when the primary died (not yet acknowledged) may come again.
      for (const [url] of twice)
        expect(firstFetchOf(run.web, url), `${url}: fetched again`).toBeGreaterThan(run.killedAt - 5000);
      // The workers were told that the promoted primary's writes reached no replica.
      const warnings = run.workers.flatMap((w) => w.events.filter((e) => e.type === 'warning'));
      expect(warnings.some((e) => /replicas of 127\.0\.0\.1:\d+/.test(e.message ?? ''))).toBe(true);
    } finally {
      killWorkers(run.workers);
      await run.web.close();
      await deleteRedisCrawl({ redis: cluster.url, crawlId }).catch(() => {});
    }
  }, 180_000);
});
