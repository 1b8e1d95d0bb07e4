// `politely crawl --recrawl`: a second crawl of a store revalidates what the first fetched. Run as
// a user runs it (the real bin, one process per crawl) against loopback webs whose own logs are
// the judge: validators sent on every revisit, 304 for every unchanged page, changed pages
// fetched in full and recorded as changed, a small fraction of the first crawl's bytes, and no
// robots.txt or delay violation in either crawl. With SQLite and with Redis.

import { randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type LocalWeb, type LoggedRequest, minGapMsByOrigin, startDemoWeb, violations } from '@politely/demo-web';
import { startFleet } from '@politely/local-web';
import { deleteRedisCrawl } from '@politely/store-redis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { skipWithout } from '../../../test/support/requirements.js';
import { REDIS_URL, redisDown } from './redis-available.js';
import { jsonLines, runCli, startCli } from './run-cli.js';

const UA = 'PolitelyDemo/0.1 (+https://example.invalid/bot)';

interface PageLine {
  readonly url: string;
  readonly status: number;
  readonly bytes: number;
  readonly title: string | null;
  readonly change: string;
}

const pageLines = (path: string): PageLine[] => jsonLines(readFileSync(path, 'utf8')) as PageLine[];
const isRobots = (entry: LoggedRequest): boolean => entry.path === '/robots.txt';
const urlOf = (entry: LoggedRequest): string => entry.origin + entry.path;
const bodyBytes = (log: readonly LoggedRequest[]): number => log.reduce((sum, entry) => sum + entry.bodyBytes, 0);

/** Requests to one origin closer together than its delay (the larger of crawl-delay and `minDelayMs`), by the server's clock. */
function tooClose(web: LocalWeb, minDelayMs: number): string[] {
  const gaps = minGapMsByOrigin(web.requestLog());
  return web.hosts.flatMap((host) => {
    const gap = gaps.get(host.origin);
    const delay = Math.max(minDelayMs, (host.crawlDelaySeconds ?? 0) * 1000);
    return gap !== undefined && gap < delay ? [`${host.name}: ${gap} ms < ${delay} ms`] : [];
  });
}

/** Two HTML pages the first crawl got whole (200), to change before the second. */
function pagesToChange(first: readonly LoggedRequest[]): string[] {
  const pages = first.filter(
    (entry) =>
      entry.status === 200 &&
      !isRobots(entry) &&
      !/\.(xml|gz|txt|json)$/.test(entry.path) &&
      !entry.path.includes('sitemap'),
  );
  const origins = [...new Set(pages.map((entry) => entry.origin))];
  // One page on each of two hosts: a change is found wherever it is.
  return origins.slice(0, 2).map((origin) => urlOf(pages.filter((entry) => entry.origin === origin).at(-1)!));
}

interface RecrawlRun {
  readonly first: LoggedRequest[];
  readonly second: LoggedRequest[];
  readonly changed: string[];
  readonly secondLines: PageLine[];
  readonly secondStdout: string;
  readonly secondReport: string;
}

/**
 * Crawls `web` with `storeArgs`, changes two pages, recrawls, and returns both logs. Each crawl is
 * checked against the servers' logs for robots.txt and delay violations.
 */
async function crawlTwice(
  web: LocalWeb,
  dir: string,
  storeArgs: readonly string[],
  seeds: readonly string[],
  delayMs: number,
): Promise<RecrawlRun> {
  const common = [
    'crawl',
    '--ua',
    UA,
    '--allow-net',
    '127.0.0.0/8',
    '--delay',
    String(delayMs),
    '--scope',
    'any',
    ...storeArgs,
  ];
  web.resetLogs();
  const one = await runCli([...common, '--out', join(dir, 'first.jsonl'), ...seeds]);
  expect(one.code, one.stderr).toBe(0);
  expect(violations(web, UA)).toEqual([]);
  expect(tooClose(web, delayMs)).toEqual([]);
  const first = [...web.requestLog()];

  const changed = pagesToChange(first);
  web.changePages(changed);
  web.resetLogs();
  const two = await runCli([
    ...common,
    '--recrawl',
    '--out',
    join(dir, 'second.jsonl'),
    '--report',
    join(dir, 'second.html'),
    ...seeds,
  ]);
  expect(two.code, two.stderr).toBe(0);
  expect(violations(web, UA)).toEqual([]);
  expect(tooClose(web, delayMs)).toEqual([]);
  return {
    first,
    second: [...web.requestLog()],
    changed,
    secondLines: pageLines(join(dir, 'second.jsonl')),
    secondStdout: two.stdout,
    secondReport: readFileSync(join(dir, 'second.html'), 'utf8'),
  };
}

/** What every recrawl must show in the servers' logs and the records. */
function expectRevalidated(web: LocalWeb, run: RecrawlRun): void {
  const { first, second, changed } = run;
  const wholeFirst = new Set(first.filter((entry) => entry.status === 200 && !isRobots(entry)).map(urlOf));
  expect(wholeFirst.size).toBeGreaterThan(10);
  expect(changed).toHaveLength(2);

  // Every URL the first crawl got whole is revisited (nothing on these webs is fresh), once,
  // with the validators it was given.
  const revisits = second.filter((entry) => wholeFirst.has(urlOf(entry)));
  expect(new Set(revisits.map(urlOf))).toEqual(wholeFirst);
  expect(revisits.length).toBe(wholeFirst.size);
  for (const entry of revisits) {
    expect(entry.ifNoneMatch, urlOf(entry)).toMatch(/^"/);
    expect(entry.ifModifiedSince, urlOf(entry)).toBeDefined();
  }
  // Unchanged: 304, no body. Changed: fetched in full.
  for (const entry of revisits) {
    if (changed.includes(urlOf(entry))) expect([entry.status, entry.bodyBytes > 0], urlOf(entry)).toEqual([200, true]);
    else expect([entry.status, entry.bodyBytes], urlOf(entry)).toEqual([304, 0]);
  }
  for (const url of changed) expect(web.revisionOf(url)).toBe(1);

  // The second crawl cost the servers a small fraction of the first's bytes.
  const firstBytes = bodyBytes(first);
  const secondBytes = bodyBytes(second);
  expect(secondBytes / firstBytes, `${secondBytes} of ${firstBytes} bytes`).toBeLessThan(0.05);

  // The handler was told: changed pages as changed, with their new content; the rest as not modified.
  const byUrl = new Map(run.secondLines.map((line) => [line.url, line]));
  for (const url of changed) expect(byUrl.get(url), url).toMatchObject({ status: 200, change: 'changed' });
  const notModified = run.secondLines.filter((line) => line.change === 'not-modified');
  expect(notModified.length).toBeGreaterThan(5);
  for (const line of notModified) expect([line.status, line.bytes, line.title]).toEqual([304, 0, null]);
  expect(run.secondLines.filter((line) => line.change === 'new')).toEqual([]);
  // The report shows the recrawl per host: every host with revisits has its table.
  const hostsRevisited = new Set(revisits.map((entry) => entry.origin)).size;
  expect(run.secondReport.match(/<h4>Recrawl<\/h4>/g)?.length).toBe(hostsRevisited);
  expect(run.secondReport).toContain('304 not modified');
  expect(run.secondStdout).toMatch(
    /revisited +\d+: \d+ not modified \(304\), \d+ unchanged, \d+ changed; .* not downloaded again/,
  );
}

describe('politely crawl --recrawl, SQLite: two processes on one crawl file', () => {
  let web: LocalWeb;
  let dir: string;
  beforeAll(async () => {
    web = await startDemoWeb();
    dir = mkdtempSync(join(tmpdir(), 'politely-recrawl-'));
  });
  afterAll(async () => {
    await web.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('revalidates every page of the demo web: 304s for the unchanged, changed pages in full, politely', async () => {
    const seeds = [web.url('shop', '/'), web.url('docs', '/'), web.url('news', '/')];
    const run = await crawlTwice(
      web,
      dir,
      ['--store', `sqlite:${join(dir, 'crawl.db')}`, '--max-depth', '3'],
      seeds,
      50,
    );
    expectRevalidated(web, run);
  });
});

const downReason = await redisDown();
if (downReason !== null) console.warn(`[cli] recrawl: Redis SKIPPED: no Redis at ${REDIS_URL}: ${downReason}`);

describe('politely crawl --recrawl, SQLite: killed mid-recrawl and resumed', () => {
  let web: LocalWeb;
  let dir: string;
  beforeAll(async () => {
    web = await startFleet({ hosts: 3, pagesPerHost: 20, firstAddress: 76 });
    dir = mkdtempSync(join(tmpdir(), 'politely-recrawl-kill-'));
  });
  afterAll(async () => {
    await web.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('two SIGKILLs during the recrawl lose nothing: every page revalidated (304), every record whole, nothing left queued', async () => {
    const db = join(dir, 'crawl.db');
    const seeds = web.hosts.map((host) => `${host.origin}/`);
    const args = [
      'crawl',
      '--ua',
      UA,
      '--allow-net',
      '127.0.0.0/8',
      '--delay',
      '100',
      '--scope',
      'any',
      '--log',
      'plain',
      '--store',
      `sqlite:${db}`,
    ];
    const first = await runCli([...args, '--out', join(dir, 'first.jsonl'), ...seeds]);
    expect(first.code, first.stderr).toBe(0);
    const fetched = new Set(pageLines(join(dir, 'first.jsonl')).map((line) => line.url));
    expect(fetched.size).toBe(web.hosts.reduce((sum, host) => sum + host.expectedAllowedPaths.length, 0));

    web.resetLogs();
    const recrawl = [...args, '--recrawl', '--out', join(dir, 'second.jsonl'), ...seeds];
    for (let kill = 0; kill < 2; kill++) {
      const run = startCli(recrawl);
      await run.waitFor(new RegExp(`(^304 page .*\\n(.*\\n)*){${8 + kill * 8}}`, 'm'), 20_000);
      run.child.kill('SIGKILL');
      await run.done;
    }
    const last = await runCli(recrawl);
    expect(last.code, last.stderr).toBe(0);
    expect(last.stdout).toMatch(/^ {2}queued +0$/m);
    // The servers: every page fetched in the first crawl was revalidated, and answered 304.
    const revisits = web.requestLog().filter((entry) => entry.path !== '/robots.txt');
    expect(new Set(revisits.map((entry) => entry.origin + entry.path))).toEqual(fetched);
    for (const entry of revisits)
      expect([entry.status, entry.ifNoneMatch !== undefined], entry.path).toEqual([304, true]);
    expect(violations(web, UA)).toEqual([]);
    // The records: whole lines (pageLines parses every one), each page's revisit there, all not modified.
    const records = pageLines(join(dir, 'second.jsonl'));
    expect(new Set(records.map((line) => line.url))).toEqual(fetched);
    expect(new Set(records.map((line) => line.change))).toEqual(new Set(['not-modified']));
  }, 120_000);
});

describe.skipIf(skipWithout('Redis (REDIS_URL)', downReason))('politely crawl --recrawl, Redis', () => {
  let web: LocalWeb;
  let dir: string;
  const crawlId = `recrawl-test-${randomUUID()}`;
  beforeAll(async () => {
    web = await startFleet({ hosts: 3, pagesPerHost: 15, crawlDelaySeconds: 0.1, firstAddress: 70 });
    dir = mkdtempSync(join(tmpdir(), 'politely-recrawl-redis-'));
  });
  afterAll(async () => {
    await web.close();
    await deleteRedisCrawl({ redis: REDIS_URL, crawlId });
    rmSync(dir, { recursive: true, force: true });
  });

  it('revalidates every page of a fleet, two requests in flight per host: 304s for the unchanged, changed pages in full, politely', async () => {
    const seeds = web.hosts.map((host) => `${host.origin}/`);
    const run = await crawlTwice(
      web,
      dir,
      ['--store', REDIS_URL, '--crawl-id', crawlId, '--per-host-concurrency', '2'],
      seeds,
      0,
    );
    expectRevalidated(web, run);
  });
});
