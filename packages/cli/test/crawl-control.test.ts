// `politely control pause|resume|stop` on a Redis crawl of two workers (the real bin, a Redis of
// the test's own, a fleet of sites on loopback): the servers' own log shows no request between
// the pause taking effect and the resume, and every page fetched exactly once in the end.

import { type LocalWeb, violations } from '@politely/demo-web';
import { startFleet } from '@politely/local-web';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type OwnRedis, redisServerMissing, startOwnRedis } from '../../../test/support/redis-server.js';
import { skipWithout } from '../../../test/support/requirements.js';
import { type RunningCli, runCli, startCli } from './run-cli.js';

const UA = 'ControlBot/1.0 (+https://example.invalid/bot)';
const serverMissing = redisServerMissing();
if (serverMissing !== null) console.warn(`[cli] crawl-control: SKIPPED: ${serverMissing}`);

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe.concurrent('politely control: usage errors', () => {
  it('refuses an unknown command and a store that is not Redis', async () => {
    const bad = await runCli(['control', 'halt', '--store', 'redis://127.0.0.1:6379/0', '--crawl-id', 'x']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('politely: control: expected one command, pause, resume or stop, got "halt"');
    const sqlite = await runCli(['control', 'pause', '--store', 'sqlite:x.db']);
    expect(sqlite.code).toBe(2);
    expect(sqlite.stderr).toContain(
      "politely: control: give the crawl's --store redis://HOST:PORT/DB and --crawl-id NAME",
    );
  });
});

describe.skipIf(skipWithout('redis-server', serverMissing))(
  `politely control on a Redis crawl of two workers${serverMissing === null ? '' : ` [SKIPPED: ${serverMissing}]`}`,
  () => {
    let web: LocalWeb;
    let redis: OwnRedis;
    const workers: RunningCli[] = [];
    beforeAll(async () => {
      // 2 hosts × 30 pages, 0.2 s apart per host: about 6 s of crawling unpaused.
      web = await startFleet({ hosts: 2, pagesPerHost: 30, crawlDelaySeconds: 0.2, firstAddress: 150 });
      redis = await startOwnRedis({ persistent: false });
    });
    afterEach(() => {
      for (const worker of workers.splice(0))
        if (worker.child.exitCode === null && worker.child.signalCode === null) worker.child.kill('SIGKILL');
    });
    afterAll(async () => {
      await web.close();
      await redis.stop();
    });

    const control = (command: string, crawlId: string) =>
      runCli(['control', command, '--store', redis.url, '--crawl-id', crawlId]);
    const pageRequests = () => web.requestLog().filter((entry) => entry.path !== '/robots.txt');

    it('pause: no request from the pause (+1 s) to the resume; then every page once; a stop written while a worker runs ends it with 143', async () => {
      const crawlId = `control-${process.pid}`;
      const seeds = web.hosts.map((host) => `${host.origin}/`);
      for (let i = 0; i < 2; i++)
        workers.push(
          startCli([
            'crawl',
            '--ua',
            UA,
            '--allow-net',
            '127.0.0.0/8',
            '--store',
            redis.url,
            '--crawl-id',
            crawlId,
            '--delay',
            '0',
            '--scope',
            'any',
            '--log',
            'plain',
            ...seeds,
          ]),
        );
      await workers[0]!.waitFor(/^200 page /m);
      const paused = await control('pause', crawlId);
      expect(paused.code, paused.stderr).toBe(0);
      expect(paused.stdout).toContain('paused');
      const pausedAt = Date.now();
      await sleep(3000);
      const before = pageRequests().length;
      const resumed = await control('resume', crawlId);
      expect(resumed.code).toBe(0);
      const resumedAt = Date.now();
      for (const worker of workers) expect(worker.stderr()).toContain('politely: pause (politely control)');
      // The servers' own log: nothing between the pause taking effect (within 1 s) and the resume.
      const during = web.requestLog().filter((entry) => entry.atMs > pausedAt + 1000 && entry.atMs < resumedAt);
      expect(during).toEqual([]);
      expect(before).toBeLessThan(60);

      const results = await Promise.all(workers.map((worker) => worker.done));
      for (const result of results) expect(result.code, result.stderr).toBe(0);
      const pages = pageRequests().map((entry) => entry.origin + entry.path);
      expect(pages.length).toBe(60);
      expect(new Set(pages).size).toBe(60);
      expect(violations(web, UA)).toEqual([]);

      // A stop written now (before any worker runs) does not stop the next run; one written while it runs does.
      const next = `${crawlId}-stop`;
      const stoppedEarly = await control('stop', next);
      expect(stoppedEarly.code).toBe(0);
      web.resetLogs();
      const worker = startCli([
        'crawl',
        '--ua',
        UA,
        '--allow-net',
        '127.0.0.0/8',
        '--store',
        redis.url,
        '--crawl-id',
        next,
        '--log',
        'plain',
        '--scope',
        'any',
        ...seeds,
      ]);
      workers.push(worker);
      await worker.waitFor(/^200 page .*\n(.*\n)*200 page /m);
      expect((await control('stop', next)).code).toBe(0);
      const stopped = await worker.done;
      expect(stopped.code).toBe(143);
      expect(stopped.stderr).toContain('politely: stop (politely control)');
      expect(stopped.stdout).toMatch(/^Crawl interrupted after /m);
    }, 60_000);
  },
);
