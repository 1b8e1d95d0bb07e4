// Two worker processes on one Redis crawl four hosts with a crawl-delay; the second, started once
// the first has sent a request, runs with its clock 400 ms ahead (libfaketime). The store's scripts read the time from Redis, and each worker
// converts the times it gives and gets through its clock's offset from Redis's, so the host's
// delay holds across the two, judged by the server's own request log. The workers run the
// BUILT packages (`pnpm build`).

import { type LoggedRequest, minGapMsByOrigin } from '@politely/demo-web';
import { startFleet } from '@politely/local-web';
import { describe, expect, it } from 'vitest';
import { skipWithout, toolMissing } from '../../../test/support/requirements.js';
import {
  deleteCrawls,
  REDIS_URL,
  redisDownReason,
  redisSuiteTitle,
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
warnIfSkipped('clock-skew.test.ts', redisDown);
const faketimeMissing = toolMissing('faketime');

const USER_AGENT = 'PolitelyDemo/1.0 (+https://example.test/bot)';
const CRAWL_DELAY_S = 0.3;
/** How far ahead the second worker's clock runs: more than the delay, so a trusted worker clock shows. */
const SKEW_MS = 400;

interface WorkerEvent {
  readonly type: 'request' | 'error' | 'done' | 'warning';
  readonly url?: string;
  readonly kind?: string;
  readonly at?: number;
  readonly message?: string;
}
type Worker = WorkerProcess<WorkerEvent>;

/** The two requests to `origin` closest together, and which worker sent each (for a failure's message). */
function closestPair(log: readonly LoggedRequest[], origin: string, workers: readonly Worker[]): string {
  const requests = log.filter((r) => r.origin === origin).sort((a, b) => a.atMs - b.atMs);
  let best = 1;
  for (let i = 2; i < requests.length; i++)
    if (requests[i]!.atMs - requests[i - 1]!.atMs < requests[best]!.atMs - requests[best - 1]!.atMs) best = i;
  const sender = (r: LoggedRequest | undefined): string =>
    workers
      .flatMap((w, i) => (w.events.some((e) => e.type === 'request' && e.url === `${r?.origin}${r?.path}`) ? [i] : []))
      .join('+');
  return [requests[best - 1], requests[best]]
    .map((r) => `${r?.path} at ${r?.atMs.toFixed(1)} by worker ${sender(r)}`)
    .join(' then ');
}

describe.skipIf(skipWithout('Redis (REDIS_URL)', redisDown) || skipWithout('faketime', faketimeMissing))(
  redisSuiteTitle('two Redis workers whose clocks disagree', redisDown ?? faketimeMissing),
  () => {
    it(`keep each host's crawl-delay between them with one clock ${SKEW_MS} ms ahead (the server's log)`, async () => {
      assertWorkersBuilt();
      const web = await startFleet({ hosts: 4, pagesPerHost: 10, crawlDelaySeconds: CRAWL_DELAY_S, firstAddress: 233 });
      const crawlId = uniqueCrawlId('skew');
      const workers: Worker[] = [];
      try {
        const config = {
          redisUrl: REDIS_URL,
          crawlId,
          seeds: web.hosts.map((host) => `${host.origin}/`),
          userAgent: USER_AGENT,
          leaseMs: 20_000,
          minDelayMs: 0,
          concurrency: 4,
          idlePollMs: 50,
        };
        // The worker on the right clock starts: the host's clock runs on its time. Then the one
        // ahead joins, and would see the host ready SKEW_MS early if it trusted its own clock.
        // It takes one URL at a time, so that most hosts are free when the other joins.
        workers.push(startWorkerProcess<WorkerEvent>({ ...config, concurrency: 1 }));
        await waitUntil('a first page request', 30_000, () => pageRequests(workers[0]!).length >= 1);
        workers.push(startWorkerProcess<WorkerEvent>(config, ['faketime', '-f', `+${SKEW_MS / 1000}s`]));
        const deadline = new Promise<never>((_, reject) =>
          setTimeout(() => reject(new Error('the workers did not finish within 60 s')), 60_000).unref(),
        );
        const codes = await Promise.race([Promise.all(workers.map((w) => w.exited)), deadline]);
        expect(codes, workers.map((w) => w.stderr.join('')).join('\n')).toEqual([0, 0]);

        // The second worker's clock did run ahead: its requests' times against when the test heard of them.
        const ahead = workers[1]!.events.filter((e) => e.type === 'request' && e.at !== undefined);
        expect(ahead.length, 'requests by the worker whose clock runs ahead').toBeGreaterThan(0);
        const lead = Math.max(...ahead.map((e) => e.at! - e.receivedAt));
        expect(lead).toBeGreaterThan(SKEW_MS - 100);
        // No two requests to a host closer together than its crawl-delay, whoever sent them.
        const log = web.requestLog();
        const gaps = minGapMsByOrigin(log);
        expect(gaps.size).toBe(web.hosts.length);
        for (const [origin, gap] of gaps)
          expect(gap, closestPair(log, origin, workers)).toBeGreaterThanOrEqual(CRAWL_DELAY_S * 1000);
        // Both took part, and every allowed page was fetched once.
        for (const worker of workers) expect(pageRequests(worker).length).toBeGreaterThan(0);
        const pages = log.filter((r) => r.path !== '/robots.txt').map((r) => `${r.origin}${r.path}`);
        expect(new Set(pages).size).toBe(pages.length);
        expect(pages.length).toBe(web.hosts.reduce((n, host) => n + host.expectedAllowedPaths.length, 0));
      } finally {
        killWorkers(workers);
        await web.close();
        expect(await deleteCrawls([crawlId])).toBe(0);
      }
    }, 90_000);
  },
);
