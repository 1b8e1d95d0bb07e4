// The crawl report of a crawl that met many hosts, most of them unreachable (issue 32, item 7):
// 30 hosts with content (3 busy ones) and 109 seeds whose robots.txt cannot be reached. Opened in
// a real browser: the busy hosts come first, the rest are summarised, the unreachable hosts are
// grouped by why, a lane per shown host plots its requests, and every in-page link has a target.

import { mkdirSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { type CrawlReportData, createCrawlReportCollector, renderCrawlReport } from '@politely/cli';
import { createCrawler } from '@politely/crawler';
import type { LocalWeb } from '@politely/demo-web';
import { startFleet } from '@politely/local-web';
import { type Browser, chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromiumMissing, skipWithout } from '../../../test/support/requirements.js';

const CHROMIUM = '/usr/bin/chromium';
const HAS_CHROMIUM = !skipWithout('Chromium', chromiumMissing(CHROMIUM));
const OUTPUT = fileURLToPath(new URL('./output/', import.meta.url));
const UA = 'PolitelyReportScale/0.1 (+https://example.invalid/bot)';
const UNREACHABLE = 109;

/** A loopback port on which nothing listens (taken, then released). */
async function closedPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address !== null ? resolve(address.port) : reject()));
    });
  });
}

describe.skipIf(!HAS_CHROMIUM)(
  `a report of 139 hosts in Chromium${HAS_CHROMIUM ? '' : ' (skipped: /usr/bin/chromium is missing)'}`,
  () => {
    let busy: LocalWeb;
    let quiet: LocalWeb;
    let browser: Browser;
    let data: CrawlReportData;
    let file: string;

    beforeAll(async () => {
      busy = await startFleet({ hosts: 3, pagesPerHost: 12, crossHostLinks: false, firstAddress: 2 });
      quiet = await startFleet({ hosts: 27, pagesPerHost: 2, crossHostLinks: false, firstAddress: 10 });
      const port = await closedPort();
      // 127.0.1.x is loopback too: each address is a host of its own, refusing every connection.
      const nowhere = Array.from({ length: UNREACHABLE }, (_, i) => `http://127.0.1.${i + 2}:${port}/`);
      const seeds = [...busy.hosts, ...quiet.hosts].map((host) => `${host.origin}/`).concat(nowhere);
      const collector = createCrawlReportCollector({ userAgent: UA, seeds, minDelayMs: 20, title: 'report at scale' });
      const crawler = createCrawler({
        userAgent: UA,
        allowNet: ['127.0.0.0/8'],
        seeds,
        minDelayMs: 20,
        concurrency: 32,
        maxRobotsRetries: 0,
        robotsCache: collector.robotsCache(),
      });
      collector.attach(crawler);
      data = collector.finish(await crawler.run());
      mkdirSync(OUTPUT, { recursive: true });
      file = `${OUTPUT}report-scale.html`;
      writeFileSync(file, renderCrawlReport(data));
      browser = await chromium.launch({
        executablePath: CHROMIUM,
        args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'],
      });
    }, 120_000);

    afterAll(async () => {
      await browser?.close();
      await busy?.close();
      await quiet?.close();
    });

    it('the crawl met every host: 30 with content, 109 whose robots.txt could not be reached', () => {
      expect(data.hosts).toHaveLength(30 + UNREACHABLE);
      const crawled = data.hosts.filter((host) => host.requests.some((request) => request.kind === 'page'));
      expect(crawled).toHaveLength(30);
    });

    it('reads at a glance: busiest first, the rest summarised, unreachable grouped, lanes plotted', async () => {
      const page = await browser.newPage({ viewport: { width: 1100, height: 900 } });
      const problems: string[] = [];
      page.on('console', (message) => {
        if (message.type() === 'error' || message.type() === 'warning') problems.push(message.text());
      });
      page.on('pageerror', (error) => problems.push(error.message));
      await page.goto(pathToFileURL(file).href, { waitUntil: 'load' });

      // The glance table: the 25 busiest crawled hosts, the three busy ones first.
      const glanceHosts = await page.locator('table.glance tbody tr td:nth-child(2)').allInnerTexts();
      expect(glanceHosts).toHaveLength(25);
      const busyNames = busy.hosts.map((host) => new URL(host.origin).hostname).sort();
      expect(glanceHosts.slice(0, 3).sort()).toEqual(busyNames);
      const requests = (await page.locator('table.glance tbody tr td:nth-child(3)').allInnerTexts()).map(Number);
      expect(requests).toEqual([...requests].sort((a, b) => b - a));
      for (const name of glanceHosts) expect(name).toMatch(/^127\.0\.0\.\d+$/);
      await expect(page.locator('main > p.muted', { hasText: 'busiest of 139 hosts' }).count()).resolves.toBe(1);

      // The other 5 crawled hosts, one row each; the 109 unreachable ones in one group.
      await expect(page.locator('table.other-hosts tbody tr').count()).resolves.toBe(5);
      const groups = await page.locator('table.not-crawled tbody tr').allInnerTexts();
      expect(groups).toHaveLength(1);
      expect(groups[0]).toMatch(/^connection refused\s+109\s+127\.0\.1\.\d+/);
      expect(groups[0]).toContain('… and 101 more');

      // Full sections and overview lanes for the shown hosts only.
      await expect(page.locator('section.host').count()).resolves.toBe(25);
      await expect(page.locator('svg.overview g.lane').count()).resolves.toBe(25);
      const firstLane = await page.locator('svg.overview g.lane').first().locator('line.mark').count();
      expect(firstLane).toBeGreaterThan(12);

      await page.screenshot({
        path: `${OUTPUT}report-scale-top.png`,
        fullPage: true,
        clip: { x: 0, y: 0, width: 1100, height: 1900 },
      });
      // Every in-page link lands on an element of the page.
      // (A string: the test's own types know no DOM.)
      const broken = await page.evaluate(
        `[...document.querySelectorAll('a[href^="#"]')].map((a) => a.getAttribute('href').slice(1)).filter((id) => document.getElementById(id) === null)`,
      );
      expect(broken).toEqual([]);
      await page.locator('svg.overview a').first().click();
      expect(page.url()).toMatch(/#host-\d+$/);

      expect(problems).toEqual([]);
      await page.close();
    });
  },
);
