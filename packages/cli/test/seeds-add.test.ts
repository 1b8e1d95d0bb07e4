// `politely seeds add` from another process while a crawl runs (the real bin, a fleet of sites on
// loopback, a Redis of the test's own and SQLite files): the new seed's site joins the running
// crawl's scope, so the servers' own log shows the seed and its same-site links fetched, after
// robots.txt and none it disallows; a bad line is named and the others are added; a run that
// resumes the crawl keeps the added seeds' scope.

import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type HostInfo, type LocalWeb, violations } from '@politely/demo-web';
import { startFleet } from '@politely/local-web';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type OwnRedis, redisServerMissing, startOwnRedis } from '../../../test/support/redis-server.js';
import { skipWithout } from '../../../test/support/requirements.js';
import { type RunningCli, runCli, startCli } from './run-cli.js';

const UA = 'SeedsBot/1.0 (+https://example.invalid/bot)';
const serverMissing = redisServerMissing();
if (serverMissing !== null) console.warn(`[cli] seeds-add: SKIPPED: ${serverMissing}`);

let web: LocalWeb;
let dir: string;
const workers: RunningCli[] = [];

beforeAll(async () => {
  // Two sites with no links between them, 20 pages each, 0.25 s apart: the seed's site alone
  // keeps a crawl busy for about 5 s.
  web = await startFleet({
    hosts: 2,
    pagesPerHost: 20,
    crawlDelaySeconds: 0.25,
    crossHostLinks: false,
    firstAddress: 230,
  });
  dir = mkdtempSync(join(tmpdir(), 'politely-seeds-'));
});
beforeEach(() => web.resetLogs());
afterEach(() => {
  for (const worker of workers.splice(0))
    if (worker.child.exitCode === null && worker.child.signalCode === null) worker.child.kill('SIGKILL');
});
afterAll(async () => {
  await web.close();
  rmSync(dir, { recursive: true, force: true });
});

const first = (): HostInfo => web.hosts[0]!;
const second = (): HostInfo => web.hosts[1]!;
const crawlArgs = (store: string[]) => [
  'crawl',
  '--ua',
  UA,
  '--allow-net',
  '127.0.0.0/8',
  ...store,
  '--log',
  'plain',
  `${first().origin}/`,
];

/** The paths the servers' log shows fetched on `host`, robots.txt apart, each once. */
const pagesOf = (host: HostInfo): string[] =>
  web
    .requestLog(host.origin)
    .map((entry) => entry.path)
    .filter((path) => path !== '/robots.txt');

/** The new site: its robots.txt first, then every page it allows (the seed and the links found), none twice, none disallowed. */
function expectSecondSiteCrawled(): void {
  const log = web.requestLog(second().origin);
  expect(log[0]?.path).toBe('/robots.txt');
  const pages = pagesOf(second());
  expect(pages).toContain('/');
  expect([...pages].sort()).toEqual([...second().expectedAllowedPaths].sort());
  expect(violations(web, UA)).toEqual([]);
}

describe.concurrent('politely seeds add: usage errors', () => {
  it('refuses a memory store, a Redis store without --crawl-id, a missing crawl file and no seed', async () => {
    const memory = await runCli(['seeds', 'add', 'https://example.com/']);
    expect(memory.code).toBe(2);
    expect(memory.stderr).toContain("politely: seeds add: give the crawl's --store sqlite:FILE or --store redis://");
    const noId = await runCli(['seeds', 'add', '--store', 'redis://127.0.0.1:6379/0', 'https://example.com/']);
    expect(noId.code).toBe(2);
    expect(noId.stderr).toContain('politely: seeds add: --store redis://… needs --crawl-id NAME');
    const missing = await runCli(['seeds', 'add', '--store', 'sqlite:/nonexistent/crawl.db', 'https://example.com/']);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('politely: seeds add: --store sqlite:"/nonexistent/crawl.db": no such crawl file');
    const none = await runCli(['seeds', 'add', '--store', 'sqlite:x.db']);
    expect(none.code).toBe(2);
    const unknown = await runCli(['seeds', 'remove']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('politely: seeds: expected the command add, got "remove"');
  });
});

describe('politely seeds add on a SQLite crawl', () => {
  it('adds a seed on a new site to a running crawl (which owns its file): the seed and its links are fetched', async () => {
    const db = join(dir, 'live.db');
    const worker = startCli(crawlArgs(['--store', `sqlite:${db}`]));
    workers.push(worker);
    await worker.waitFor(/^200 page /m);
    const added = await runCli(['seeds', 'add', '--store', `sqlite:${db}`, `${second().origin}/`]);
    expect(added.code, added.stderr).toBe(0);
    expect(added.stdout).toContain('1 seed queued; its scope holds 2 sites');
    const result = await worker.done;
    expect(result.code, result.stderr).toBe(0);
    expect([...pagesOf(first())].sort()).toEqual([...first().expectedAllowedPaths].sort());
    expectSecondSiteCrawled();
  }, 60_000);

  it('names a bad line and adds the others; a run that resumes the crawl keeps the added seed’s scope', async () => {
    const db = join(dir, 'resumed.db');
    const firstRun = await runCli(crawlArgs(['--store', `sqlite:${db}`]));
    expect(firstRun.code, firstRun.stderr).toBe(0);
    expect(pagesOf(second())).toEqual([]);
    const list = join(dir, 'seeds.txt');
    writeFileSync(list, `# new sites\n${second().origin}/\nhtp:/not a url\n\n`);
    const added = await runCli(['seeds', 'add', '--store', `sqlite:${db}`, '--file', list]);
    expect(added.code).toBe(1);
    expect(added.stderr).toContain(
      `politely: seeds add: ${list} line 3: invalid seed "htp:/not a url": not an absolute http(s) URL`,
    );
    expect(added.stderr).toContain('politely: seeds add: 1 seed not added (above)');
    expect(added.stdout).toContain('1 seed queued');
    // The same command as the first run, which names only the first site.
    const resumed = await runCli(crawlArgs(['--store', `sqlite:${db}`]));
    expect(resumed.code, resumed.stderr).toBe(0);
    expectSecondSiteCrawled();
  }, 60_000);
});

describe.skipIf(skipWithout('redis-server', serverMissing))(
  `politely seeds add on a Redis crawl${serverMissing === null ? '' : ` [SKIPPED: ${serverMissing}]`}`,
  () => {
    let redis: OwnRedis;
    beforeAll(async () => {
      redis = await startOwnRedis({ persistent: false });
    });
    afterAll(async () => {
      await redis.stop();
    });

    it('adds seeds from stdin to a running crawl within bounded time: the seed and its same-site links are fetched', async () => {
      const crawlId = `seeds-${process.pid}`;
      const store = ['--store', redis.url, '--crawl-id', crawlId];
      const worker = startCli(crawlArgs(store));
      workers.push(worker);
      await worker.waitFor(/^200 page /m);
      const startedAt = Date.now();
      const added = await runCli(
        ['seeds', 'add', ...store, '--file', '-'],
        `${second().origin}/\n${first().origin}/\n`,
      );
      expect(added.code, added.stderr).toBe(0);
      expect(added.stdout).toContain(`crawl "${crawlId}": 1 seed queued (1 already known); its scope holds 2 sites`);
      const result = await worker.done;
      expect(result.code, result.stderr).toBe(0);
      expectSecondSiteCrawled();
      // 20 pages 0.25 s apart on the new site, and the second it waits before queueing: well under 15 s.
      expect(Date.now() - startedAt).toBeLessThan(15_000);
    }, 60_000);
  },
);
