// `crawler.stop()` against a real server whose log says what was asked and when: no request
// starts after the stop, requests in flight finish within `stopGraceMs` (their records written),
// and what outlasts the grace period is aborted and goes back to the store.

import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import type { ServerResponse } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type CrawlerOptions, createCrawler } from '@politely/crawler';
import type { FrontierStore } from '@politely/frontier';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type Handler, startServer, type TestServer } from '../../../../test/support/site-server.js';
import { expectInvalidOption } from '../expect-invalid-option.js';

const UA = 'StopBot/1.0 (+http://example.invalid/bot)';
/** A tree of pages: /p/N links to /p/3N+1 … /p/3N+3, each answered after LATENCY_MS. */
const PAGES = 60;
const LATENCY_MS = 200;
/** How long /hold keeps its answer: longer than any grace period below. */
const HOLD_MS = 5000;

let server: TestServer;
let dir: string;

/** Answers after `ms`, unless the connection closes first. */
const later = (res: ServerResponse, ms: number, body: string): void => {
  const timer = setTimeout(() => {
    res.setHeader('content-type', 'text/html; charset=utf-8');
    res.end(body);
  }, ms);
  res.on('close', () => clearTimeout(timer));
};

beforeAll(async () => {
  const routes: Record<string, Handler | string> = { '/robots.txt': 'User-agent: *\nAllow: /\n' };
  for (let n = 0; n < PAGES; n++) {
    const links = [1, 2, 3].map((i) => 3 * n + i).filter((m) => m < PAGES);
    const html = `<html><body>${links.map((m) => `<a href="/p/${m}">${m}</a>`).join(' ')}</body></html>`;
    routes[`/p/${n}`] = (_req, res) => later(res, LATENCY_MS, html);
  }
  routes['/hold'] = (_req, res) => later(res, HOLD_MS, '<html><body>held</body></html>');
  server = await startServer(routes);
  dir = mkdtempSync(join(tmpdir(), 'politely-stop-'));
});
afterAll(async () => {
  await server.close();
  rmSync(dir, { recursive: true, force: true });
});
beforeEach(() => {
  server.log.length = 0;
});

const crawlOptions = (out: string, extra: Partial<CrawlerOptions> = {}): CrawlerOptions => ({
  userAgent: UA,
  seeds: [`${server.base}/p/0`],
  allowNet: ['127.0.0.0/8'],
  minDelayMs: 0,
  concurrency: 4,
  perHostConcurrency: 4,
  outputs: [{ path: out }],
  handler: (page) => page.push({ url: page.url }),
  ...extra,
});
const recordUrls = (path: string): string[] =>
  readFileSync(path, 'utf8')
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => (JSON.parse(line) as { url: string }).url);
const pagesAsked = (): string[] =>
  server.log.filter((entry) => entry.path !== '/robots.txt').map((entry) => `${server.base}${entry.path}`);

/** Every URL the store still holds to do, claimed (at most 100) far in the future. */
async function urlsLeft(store: FrontierStore): Promise<string[]> {
  const urls: string[] = [];
  for (let i = 0; i < 100; i++) {
    const { lease } = await store.claim({ now: Date.now() + 86_400_000, leaseMs: 1000 });
    if (lease === null) break;
    urls.push(lease.entry.url);
  }
  return urls;
}

describe('crawler.stop()', () => {
  it('stops claiming at once; the requests in flight finish and their records are written', async () => {
    const out = join(dir, 'stopped.jsonl');
    const crawler = createCrawler(crawlOptions(out));
    let stoppedAt = 0;
    let requests = 0;
    let responses = 0;
    let answeredAtStop = 0;
    crawler.on('response', () => void responses++);
    // Stopped as the tenth page request starts: it and others are in flight.
    crawler.on('request', (event) => {
      if (event.kind !== 'page' || ++requests !== 10) return;
      stoppedAt = performance.now();
      answeredAtStop = responses;
      crawler.stop();
    });
    const stats = await crawler.run();
    const endedAt = performance.now();
    expect(stats.aborted).toBe(true);
    expect(stats.releasedAtStop).toBe(0);
    // The requests in flight took their time (LATENCY_MS), not the grace period's.
    expect(endedAt - stoppedAt).toBeLessThan(LATENCY_MS + 1000);
    // No request arrived after the stop (a margin for one sent just before it).
    expect(server.log.filter((entry) => entry.at > stoppedAt + 50)).toEqual([]);
    // Every page asked for, those in flight at the stop included, is handled and written once.
    const asked = pagesAsked();
    expect(asked.length).toBe(10);
    expect(answeredAtStop).toBeLessThan(10);
    expect(new Set(asked).size).toBe(asked.length);
    const written = recordUrls(out);
    expect(written.sort()).toEqual([...asked].sort());
    const counts = await crawler.store.counts();
    expect(counts).toMatchObject({ inFlight: 0, done: asked.length });
    expect(counts.queued).toBe(stats.queued);
    expect(stats.queued).toBeGreaterThan(0);
    expect(stats.pages + stats.queued).toBeLessThanOrEqual(PAGES);
  });

  it('a request that outlasts stopGraceMs is aborted, its URL back in the store, nothing of it written', async () => {
    const out = join(dir, 'grace.jsonl');
    const hold = `${server.base}/hold`;
    const crawler = createCrawler(crawlOptions(out, { seeds: [hold, `${server.base}/p/0`], stopGraceMs: 300 }));
    let stoppedAt = 0;
    crawler.on('request', (event) => {
      if (event.url !== hold) return;
      stoppedAt = performance.now();
      crawler.stop();
    });
    const stats = await crawler.run();
    expect(performance.now() - stoppedAt).toBeLessThan(300 + 1000);
    expect(stats.aborted).toBe(true);
    expect(stats.releasedAtStop).toBeGreaterThanOrEqual(1);
    expect(pagesAsked()).toContain(hold);
    expect(recordUrls(out)).not.toContain(hold);
    expect((await crawler.store.counts()).inFlight).toBe(0);
    expect(await urlsLeft(crawler.store)).toContain(hold);
  });

  it.each(['a second stop()', 'an abort of the signal'])('%s stops at once, still releasing the URL', async (how) => {
    const out = join(dir, `${how.replace(/\W+/g, '-')}.jsonl`);
    const hold = `${server.base}/hold`;
    const abort = new AbortController();
    const crawler = createCrawler(crawlOptions(out, { seeds: [hold], signal: abort.signal, stopGraceMs: 10_000 }));
    let againAt = 0;
    crawler.on('request', (event) => {
      if (event.url !== hold) return;
      crawler.stop();
      setTimeout(() => {
        againAt = performance.now();
        if (how === 'a second stop()') crawler.stop();
        else abort.abort();
      }, 100);
    });
    const stats = await crawler.run();
    expect(performance.now() - againAt).toBeLessThan(1000);
    expect(stats.releasedAtStop).toBe(1);
    expect(recordUrls(out)).toEqual([]);
    expect(await urlsLeft(crawler.store)).toEqual([hold]);
  });

  it('before run(), run() claims nothing; after it, stop() does nothing', async () => {
    const crawler = createCrawler(crawlOptions(join(dir, 'before.jsonl')));
    crawler.stop();
    const stats = await crawler.run();
    expect(stats).toMatchObject({ aborted: true, pages: 0, queued: 1, releasedAtStop: 0 });
    expect(server.log).toEqual([]);
    crawler.stop();
    expect(crawler.stats().aborted).toBe(true);
  });

  it('stopGraceMs is a number of ms ≥ 0', () => {
    expectInvalidOption(() => createCrawler({ userAgent: UA, stopGraceMs: -1 }), 'stopGraceMs');
    expectInvalidOption(() => createCrawler({ userAgent: UA, stopGraceMs: Number.NaN }), 'stopGraceMs');
    expect(() => createCrawler({ userAgent: UA, stopGraceMs: 0 })).not.toThrow();
  });
});
