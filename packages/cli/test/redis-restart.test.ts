// Redis restarted under a running `politely crawl --store redis://…` (two workers), on a
// redis-server of the test's own:
// - without persistence it comes back empty: every worker stops with exit 69 and one line saying
//   the crawl is gone; none reports a finished crawl;
// - with persistence (appendonly, same directory) it comes back with the crawl: the workers wait,
//   say so once, and finish; the servers' own log shows every page fetched exactly once.

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type LocalWeb, violations } from '@politely/demo-web';
import { startFleet } from '@politely/local-web';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type OwnRedis, redisServerMissing, startOwnRedis } from '../../../test/support/redis-server.js';
import { skipWithout } from '../../../test/support/requirements.js';
import { type RunningCli, startCli } from './run-cli.js';

const UA = 'PolitelyDemo/0.1 (+https://example.invalid/bot)';
const serverMissing = redisServerMissing();
if (serverMissing !== null) console.warn(`[cli] redis-restart: SKIPPED: ${serverMissing}`);

/** Resolves when `condition` holds (checked every 25 ms), rejects after `timeoutMs`. */
async function waitUntil(what: string, timeoutMs: number, condition: () => boolean): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

function bounded<T>(done: Promise<T>, ms: number, what: string): Promise<T> {
  return Promise.race([
    done,
    new Promise<never>((_, reject) =>
      setTimeout(() => reject(new Error(`${what} did not end within ${ms} ms`)), ms).unref(),
    ),
  ]);
}

describe.skipIf(skipWithout('redis-server', serverMissing))(
  `politely crawl when its Redis restarts${serverMissing === null ? '' : ` [SKIPPED: ${serverMissing}]`}`,
  () => {
    let web: LocalWeb;
    let redis: OwnRedis | undefined;
    let dir: string;
    const workers: RunningCli[] = [];
    beforeEach(async () => {
      // 2 hosts × 16 pages, 0.25 s apart per host: about 4 s of crawling.
      web = await startFleet({ hosts: 2, pagesPerHost: 16, crawlDelaySeconds: 0.25, firstAddress: 120 });
      dir = mkdtempSync(join(tmpdir(), 'politely-redis-restart-'));
    });
    afterEach(async () => {
      for (const worker of workers.splice(0))
        if (worker.child.exitCode === null && worker.child.signalCode === null) worker.child.kill('SIGKILL');
      await web.close();
      await redis?.stop();
      redis = undefined;
      rmSync(dir, { recursive: true, force: true });
    });

    function startWorkers(url: string, crawlId: string): RunningCli[] {
      const seeds = web.hosts.map((host) => `${host.origin}/`);
      for (const name of ['a', 'b']) {
        workers.push(
          startCli([
            'crawl',
            '--ua',
            UA,
            '--allow-net',
            '127.0.0.0/8',
            '--store',
            url,
            '--crawl-id',
            crawlId,
            '--delay',
            '0',
            '--scope',
            'any',
            '--log',
            'plain',
            '--out',
            join(dir, `${name}.jsonl`),
            ...seeds,
          ]),
        );
      }
      return workers;
    }

    const pageRequests = (): number => web.requestLog().filter((r) => r.path !== '/robots.txt').length;

    it('stops every worker with exit 69 and one line when Redis comes back empty', async () => {
      redis = await startOwnRedis({ persistent: false });
      const running = startWorkers(redis.url, 'emptied');
      await waitUntil('a few pages fetched', 15_000, () => pageRequests() >= 4);
      const before = pageRequests();
      await redis.restart();
      const results = await bounded(Promise.all(running.map((worker) => worker.done)), 20_000, 'the workers');
      for (const result of results) {
        expect(result.code, result.stderr).toBe(69);
        const gone = result.stderr.split('\n').filter((line) => line.includes('is gone'));
        expect(gone, result.stderr).toEqual([
          expect.stringMatching(
            new RegExp(
              `^politely: the crawl emptied in ${redis.url.replace(/\./g, '\\.')} is gone \\(Redis restarted without persistence, keys evicted or flushed\\): \\d+ URLs were known before; stopping$`,
            ),
          ),
        ]);
        expect(result.stderr).not.toMatch(/Unhandled error event|\n\s+at |internal error/);
        expect(result.stdout).not.toMatch(/finished/i);
      }
      // They stopped soon: not a whole crawl of the emptied store from nothing.
      expect(pageRequests()).toBeLessThan(before + 8);
    }, 45_000);

    it('waits through a restart with persistence, warns once, and fetches every page exactly once', async () => {
      redis = await startOwnRedis({ persistent: true });
      const running = startWorkers(redis.url, 'durable');
      await waitUntil('a few pages fetched', 15_000, () => pageRequests() >= 4);
      await redis.restart({ downMs: 1000 });
      const results = await bounded(Promise.all(running.map((worker) => worker.done)), 30_000, 'the workers');
      for (const result of results) {
        expect(result.code, result.stderr).toBe(0);
        expect(result.stderr).not.toMatch(/Unhandled error event|\n\s+at |internal error/);
        const warnings = result.stderr.split('\n').filter((line) => line.startsWith('politely: warning:'));
        expect(warnings, result.stderr).toEqual([
          `politely: warning: lost the connection to ${redis.url}; retrying for up to 60 s`,
        ]);
        expect(result.stderr).toMatch(/^politely: the connection to redis:\/\/\S+ is back after \d+(\.\d)? s$/m);
      }
      const log = web.requestLog();
      for (const host of web.hosts) {
        const paths = log.filter((r) => r.origin === host.origin && r.path !== '/robots.txt').map((r) => r.path);
        expect([...paths].sort(), host.origin).toEqual([...host.expectedAllowedPaths].sort()); // each once, none missing
        expect(
          log.filter((r) => r.origin === host.origin && r.path === '/robots.txt'),
          host.origin,
        ).toHaveLength(1);
      }
      expect(violations(web, UA)).toEqual([]);
    }, 60_000);
  },
);
