// Labels and userData across Redis workers, one of them SIGKILLed: three worker processes crawl a
// local fleet with routes (seeds labelled LIST with { host, chain: 0 }, links enqueued by the
// handlers as ITEM with { host, chain + 1 }, nothing followed by itself), and one is killed while
// it holds leases. Every page any worker handled must carry the label and data it was enqueued
// with — the killed worker's leased URLs too, handed back through Redis — and every allowed page
// must be handled. The workers run the BUILT packages (`pnpm build`).

import { violations } from '@politely/demo-web';
import { startFleet } from '@politely/local-web';
import { Redis } from 'ioredis';
import { describe, expect, it } from 'vitest';
import { wrongRequestData } from '../../../test/support/labelled-crawl.js';
import { skipWithout } from '../../../test/support/requirements.js';
import { decodeEntry } from '../src/entry-codec.js';
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
warnIfSkipped('labelled-workers.test.ts', redisDown);

const USER_AGENT = 'PolitelyDemo/1.0 (+https://example.test/bot)';
const CRAWL_DELAY_S = 0.3;
/** The crawler's lease, and the store's worker TTL: a dead worker's URLs come back within about 2 s. */
const LEASE_MS = 2000;
const WORKER_TTL_MS = 2000;

interface WorkerEvent {
  readonly type: 'request' | 'error' | 'done' | 'handled';
  readonly url?: string;
  readonly kind?: string;
  readonly message?: string;
  readonly label?: string;
  readonly userData?: { readonly host?: unknown; readonly chain?: unknown };
}

/** A `handled` event and when the test got it. */
interface Handled {
  readonly url: string;
  readonly label: string | undefined;
  readonly userData: { readonly host?: unknown; readonly chain?: unknown };
  readonly receivedAt: number;
}

type Worker = WorkerProcess<WorkerEvent> & { readonly handled: readonly Handled[] };

/** A worker whose `handled` lists its `handled` events. */
function startWorker(config: Record<string, unknown>): Worker {
  const worker = startWorkerProcess<WorkerEvent>(config);
  return Object.defineProperty(worker, 'handled', {
    get: () =>
      worker.events
        .filter((e) => e.type === 'handled')
        .map((e) => ({ url: e.url ?? '', label: e.label, userData: e.userData ?? {}, receivedAt: e.receivedAt })),
  }) as Worker;
}

/** The entries a worker (by its process id) holds leases on, as Redis keeps them (the member in the lease hash's `e`, entry-codec.ts). */
async function leaseEntries(
  admin: Redis,
  crawlId: string,
  pid: number,
): Promise<{ url: string; label: string | undefined; userData?: Handled['userData'] }[]> {
  // Lease hashes live in their hosts' buckets: `politely:{<crawlId>:<bucket>}:l:<bucket>/<pid>-…`.
  const keys = await admin.keys(`politely:{${crawlId}:*}:l:*/${pid}-*`);
  const leases = await Promise.all(keys.map((key) => admin.hmget(key, 'e', 'h', 'p')));
  return leases
    .filter(([member]) => member !== null)
    .map(([member, hostKey, priority]) => decodeEntry(member!, hostKey ?? '', Number(priority)))
    .map(({ url, label, userData }) => ({
      url,
      label,
      ...(userData === undefined ? {} : { userData: userData as Handled['userData'] }),
    }));
}

describe.skipIf(skipRedis)(
  redisSuiteTitle('labelled requests across three Redis workers, one killed', redisDown),
  () => {
    it('every page any worker handled carries its label and userData, the killed worker’s leased ones too; every allowed page is handled', async () => {
      assertWorkersBuilt();
      const web = await startFleet({ hosts: 4, pagesPerHost: 16, crawlDelaySeconds: CRAWL_DELAY_S, firstAddress: 230 });
      const crawlId = uniqueCrawlId('labelled-workers');
      const admin = new Redis(REDIS_URL);
      const workers: Worker[] = [];
      try {
        const seeds = web.hosts.map((host) => `${host.origin}/`);
        const config = {
          redisUrl: REDIS_URL,
          crawlId,
          seeds,
          userAgent: USER_AGENT,
          leaseMs: LEASE_MS,
          workerTtlMs: WORKER_TTL_MS,
          minDelayMs: 0,
          concurrency: 8,
          labelled: true,
        };
        // The first worker handles pages slowly, so that it holds leases when it is killed.
        workers.push(startWorker({ ...config, handlerDelayMs: 400 }), startWorker(config), startWorker(config));
        const [victim, ...survivors] = workers as [Worker, Worker, Worker];

        // Kill it mid-crawl, once every robots.txt is in Redis and ITEM pages are being handled
        // (so ITEM links wait in the queues), right after it sent a request for an ITEM page: its
        // handler holds that URL's lease for 400 ms after the response.
        const robotsKeys = web.hosts.map((host) => robotsKeyOf(crawlId, host.origin));
        await waitUntil(
          'robots.txt records of every origin, and ITEM pages handled, the killed worker among them',
          30_000,
          async () => {
            const stored = await admin.exists(...robotsKeys);
            const items = workers.flatMap((w) => w.handled).filter((h) => h.label === 'ITEM').length;
            return stored === robotsKeys.length && items >= 4 && victim.handled.some((h) => h.label === 'ITEM');
          },
        );
        let killedAfter: string | undefined;
        await Promise.race([
          new Promise<void>((resolve) => {
            victim.onEvent = (event) => {
              if (
                event.type !== 'request' ||
                event.kind !== 'page' ||
                killedAfter !== undefined ||
                seeds.includes(event.url ?? '')
              )
                return;
              killedAfter = event.url;
              victim.child.kill('SIGKILL');
              resolve();
            };
          }),
          new Promise<never>((_, reject) =>
            setTimeout(() => reject(new Error('the victim sent no ITEM page request within 20 s')), 20_000).unref(),
          ),
        ]);
        const killedAt = Date.now();
        expect(await victim.exited).toBeNull();
        // It died holding leases (ids `<pid>-<random>.<n>`, see keys.ts), each entry with its request data.
        const leased = await leaseEntries(admin, crawlId, victim.child.pid!);
        expect(leased.map((entry) => entry.url)).toContain(killedAfter);
        const seedSet = new Set(seeds);
        expect(
          leased
            .map((entry) => wrongRequestData({ ...entry, userData: entry.userData ?? {} }, seedSet))
            .filter((p) => p !== null),
        ).toEqual([]);

        const deadline = new Promise<never>((_, reject) =>
          setTimeout(() => reject(new Error('the surviving workers did not finish within 60 s')), 60_000).unref(),
        );
        const codes = await Promise.race([Promise.all(survivors.map((worker) => worker.exited)), deadline]);
        expect(codes, survivors.map((w) => w.stderr.join('')).join('\n')).toEqual([0, 0]);
        expect(survivors.flatMap((w) => w.events).filter((e) => e.type === 'error')).toEqual([]);

        // Every page any worker handled carried the label and data it was enqueued with.
        const handled = workers.flatMap((w) => w.handled);
        expect(handled.map((line) => wrongRequestData(line, seedSet)).filter((problem) => problem !== null)).toEqual(
          [],
        );
        // The killed worker's leased URL came back with its data, and a survivor handled it as ITEM.
        const again = survivors.flatMap((w) => w.handled).filter((h) => h.url === killedAfter);
        expect(again.length, `${killedAfter} handled again after the kill`).toBeGreaterThan(0);
        expect(again.map((h) => h.label)).toEqual(again.map(() => 'ITEM'));
        // The survivors went on with ITEM links queued before the kill.
        const itemsAfterKill = survivors
          .flatMap((w) => w.handled)
          .filter((h) => h.label === 'ITEM' && h.receivedAt > killedAt);
        expect(itemsAfterKill.length).toBeGreaterThan(1);
        for (const worker of survivors) expect(worker.handled.length).toBeGreaterThan(0);

        // The crawl is complete: every allowed page handled (and fetched), nothing else; nothing disallowed fetched.
        const handledUrls = new Set(handled.map((h) => h.url));
        const log = web.requestLog();
        for (const host of web.hosts) {
          expect(
            host.expectedAllowedPaths.filter((path) => !handledUrls.has(host.origin + path)),
            `${host.origin}: allowed pages not handled`,
          ).toEqual([]);
          const fetched = new Set(log.filter((r) => r.origin === host.origin).map((r) => r.path));
          expect(
            host.expectedAllowedPaths.filter((path) => !fetched.has(path)),
            host.origin,
          ).toEqual([]);
        }
        const allowed = new Set(
          web.hosts.flatMap((host) => host.expectedAllowedPaths.map((path) => host.origin + path)),
        );
        expect([...handledUrls].filter((url) => !allowed.has(url))).toEqual([]);
        expect(violations(web, USER_AGENT)).toEqual([]);
        // Every page request a survivor announced was handled (a page they fetched without its route would not be).
        for (const worker of survivors) {
          const handledByIt = new Set(worker.handled.map((h) => h.url));
          expect(pageRequests(worker).filter((url) => !handledByIt.has(url))).toEqual([]);
        }
      } finally {
        killWorkers(workers);
        await web.close();
        admin.disconnect();
        expect(await deleteCrawls([crawlId])).toBe(0);
      }
    }, 120_000);
  },
);
