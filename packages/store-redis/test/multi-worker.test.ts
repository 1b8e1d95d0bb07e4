// Three worker processes on one Redis-backed crawl of a local fleet; one is SIGKILLed mid-crawl.
// The proof is the servers' own request log: every allowed page fetched, nothing disallowed
// fetched, no two requests to a host closer together than its crawl-delay across all workers,
// and one robots.txt request per origin. The workers run the BUILT packages (`pnpm build`).

import { type LoggedRequest, minGapMsByOrigin, violations } from '@politely/demo-web';
import { startFleet } from '@politely/local-web';
import { Redis } from 'ioredis';
import { describe, expect, it } from 'vitest';
import { skipWithout } from '../../../test/support/requirements.js';
import {
  deleteCrawls,
  REDIS_URL,
  redisDownReason,
  redisSuiteTitle,
  robotsKeyOf,
  uniqueCrawlId,
  warnIfSkipped,
} from './redis-helpers.js';
import {
  assertWorkersBuilt,
  killWorkers,
  pageRequests,
  startWorkerProcess,
  type WorkerProcess,
  waitUntil,
} from './worker-process.js';

const redisDown = await redisDownReason();
const skipRedis = skipWithout('Redis (REDIS_URL)', redisDown);
warnIfSkipped('multi-worker.test.ts', redisDown);

const USER_AGENT = 'PolitelyDemo/1.0 (+https://example.test/bot)';
const CRAWL_DELAY_S = 0.5;
const LEASE_MS = 2000;

interface WorkerEvent {
  readonly type: 'request' | 'error' | 'done';
  readonly url?: string;
  readonly kind?: string;
  readonly message?: string;
  readonly stats?: { readonly pages: number; readonly robotsRequests: number };
}

type Worker = WorkerProcess<WorkerEvent>;
const startWorker = (config: Record<string, unknown>): Worker => startWorkerProcess<WorkerEvent>(config);

/** The two requests to `origin` closest together, and which workers sent them (for a failure message). */
function closestPair(log: readonly LoggedRequest[], origin: string, workers: readonly Worker[]): string {
  const requests = log.filter((r) => r.origin === origin).sort((a, b) => a.atMs - b.atMs);
  let best = 1;
  for (let i = 2; i < requests.length; i++)
    if (requests[i]!.atMs - requests[i - 1]!.atMs < requests[best]!.atMs - requests[best - 1]!.atMs) best = i;
  const senders = (path: string): number[] =>
    workers.flatMap((w, i) => (w.events.some((e) => e.type === 'request' && e.url === origin + path) ? [i] : []));
  return [requests[best - 1], requests[best]]
    .map((r) => `${r?.path} at ${r?.atMs.toFixed(1)} (${r?.dateMs}) by worker ${senders(r?.path ?? '').join('+')}`)
    .join(' then ');
}

describe.skipIf(skipRedis)(redisSuiteTitle('three Redis workers, one killed', redisDown), () => {
  it('finish the crawl politely: every allowed page, nothing disallowed, crawl-delay kept across workers, one robots.txt per origin', async () => {
    assertWorkersBuilt();
    const web = await startFleet({ hosts: 4, pagesPerHost: 12, crawlDelaySeconds: CRAWL_DELAY_S, firstAddress: 220 });
    const crawlId = uniqueCrawlId('workers');
    const admin = new Redis(REDIS_URL);
    const workers: Worker[] = [];
    try {
      const config = {
        redisUrl: REDIS_URL,
        crawlId,
        seeds: web.hosts.map((host) => `${host.origin}/`),
        userAgent: USER_AGENT,
        leaseMs: LEASE_MS,
        minDelayMs: 0,
        concurrency: 8,
      };
      // The first worker processes pages slowly, so that it holds leases when it is killed.
      workers.push(startWorker({ ...config, handlerDelayMs: 400 }), startWorker(config), startWorker(config));
      const [victim, ...survivors] = workers as [Worker, Worker, Worker];

      // Kill it mid-crawl: every robots.txt is in Redis (its fetch lock released), some pages are
      // done, and it has just sent a request (its handler holds that URL's lease for 400 ms).
      const robotsKeys = web.hosts.map((host) => robotsKeyOf(crawlId, host.origin));
      await waitUntil('robots.txt records of every origin and a first round of pages', 30_000, async () => {
        const stored = await admin.exists(...robotsKeys);
        return stored === robotsKeys.length && web.requestLog().length >= 12 && pageRequests(victim).length >= 1;
      });
      let killedAfter: string | undefined;
      await new Promise<void>((resolve) => {
        victim.onEvent = (event) => {
          if (event.type !== 'request' || event.kind !== 'page' || killedAfter !== undefined) return;
          killedAfter = event.url;
          victim.child.kill('SIGKILL');
          resolve();
        };
      });
      expect(await victim.exited).toBeNull();

      const deadline = new Promise<never>((_, reject) =>
        setTimeout(() => reject(new Error('the surviving workers did not finish within 60 s')), 60_000).unref(),
      );
      const codes = await Promise.race([Promise.all(survivors.map((worker) => worker.exited)), deadline]);
      expect(codes, survivors.map((w) => w.stderr.join('')).join('\n')).toEqual([0, 0]);

      const log = web.requestLog();
      // Every allowed page was fetched, by whichever worker.
      for (const host of web.hosts) {
        const fetched = new Set(log.filter((r) => r.origin === host.origin).map((r) => r.path));
        expect(
          host.expectedAllowedPaths.filter((path) => !fetched.has(path)),
          host.origin,
        ).toEqual([]);
      }
      // Nothing robots.txt disallows; exactly one robots.txt request per origin across the workers.
      expect(violations(web, USER_AGENT)).toEqual([]);
      for (const host of web.hosts) {
        expect(
          log.filter((r) => r.origin === host.origin && r.path === '/robots.txt'),
          host.origin,
        ).toHaveLength(1);
      }
      // No two requests to one host closer together than its crawl-delay, whoever sent them.
      const gaps = minGapMsByOrigin(log);
      expect(gaps.size).toBe(web.hosts.length);
      for (const [origin, gap] of gaps)
        expect(gap, closestPair(log, origin, workers)).toBeGreaterThanOrEqual(CRAWL_DELAY_S * 1000);
      // The killed worker's URL came back when its lease expired, and a survivor fetched it.
      const survivorPages = new Set(survivors.flatMap(pageRequests));
      expect(survivorPages.has(killedAfter!), `${killedAfter} fetched again after the kill`).toBe(true);
      // The work was shared, and every request a survivor announced reached the servers.
      const logged = new Set(log.map((r) => `${r.origin}${r.path}`));
      for (const worker of survivors) {
        expect(pageRequests(worker).length).toBeGreaterThan(0);
        expect(pageRequests(worker).filter((url) => !logged.has(url))).toEqual([]);
      }
    } finally {
      killWorkers(workers);
      await web.close();
      admin.disconnect();
      expect(await deleteCrawls([crawlId])).toBe(0);
    }
  }, 120_000);
});
