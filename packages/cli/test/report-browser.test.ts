// The crawl report of a real crawl of the demo web, opened in a real browser (Debian's chromium,
// driven by playwright-core): it renders, shows the verdicts, logs no console error, and a
// screenshot is kept in test/output/ for people to look at.

import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { type CrawlReportData, createCrawlReportCollector, renderCrawlReport } from '@politely/cli';
import { createCrawler } from '@politely/crawler';
import { type LocalWeb, startDemoWeb, violations } from '@politely/demo-web';
import { sitemaps } from '@politely/sitemap';
import { type Browser, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromiumMissing, skipWithout } from '../../../test/support/requirements.js';
import { HOSTILE, hostileReport } from './report-fixtures.js';

const CHROMIUM = '/usr/bin/chromium';
const HAS_CHROMIUM = !skipWithout('Chromium', chromiumMissing(CHROMIUM));
const OUTPUT = fileURLToPath(new URL('./output/', import.meta.url));
const UA = 'PolitelyDemo/0.1 (+https://example.invalid/bot)';

/** Crawls the demo web briefly (a few pages per host) and returns the report's data. */
async function crawlDemoWeb(web: LocalWeb): Promise<CrawlReportData> {
  const minDelayMs = 100;
  const collector = createCrawlReportCollector({
    userAgent: UA,
    seeds: web.hosts.map((host) => `${host.origin}/`),
    minDelayMs,
    title: 'politely crawl report (browser test)',
    labels: new Map(web.hosts.map((host) => [host.address, host.name])),
    settings: [['max pages per host', '6']],
  });
  const crawler = createCrawler({
    userAgent: UA,
    allowNet: ['127.0.0.0/8'],
    seeds: web.hosts.map((host) => `${host.origin}/`),
    minDelayMs,
    maxPagesPerHost: 6,
    backoffBaseMs: 250,
    maxRobotsRetries: 2,
    robotsCache: collector.robotsCache(),
    plugins: [sitemaps({ origins: [web.host('shop').origin] })],
  });
  collector.attach(crawler);
  const stats = await crawler.run();
  return collector.finish(stats);
}

interface Opened {
  readonly page: Page;
  readonly problems: string[];
}

async function open(browser: Browser, load: (page: Page) => Promise<unknown>): Promise<Opened> {
  const page = await browser.newPage({ viewport: { width: 1100, height: 900 } });
  const problems: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error' || message.type() === 'warning')
      problems.push(`console ${message.type()}: ${message.text()}`);
  });
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  page.on('dialog', (dialog) => {
    problems.push(`dialog: ${dialog.message()}`);
    void dialog.dismiss();
  });
  page.on('request', (request) => {
    if (!/^(file|data|about):/.test(request.url())) problems.push(`request: ${request.url()}`);
  });
  page.on('requestfailed', (request) => problems.push(`failed: ${request.url()}`));
  await load(page);
  return { page, problems };
}

describe.skipIf(!HAS_CHROMIUM)(
  `the crawl report in Chromium${HAS_CHROMIUM ? '' : ' (skipped: /usr/bin/chromium is missing; apt-get install -y chromium)'}`,
  () => {
    let web: LocalWeb;
    let browser: Browser;
    let data: CrawlReportData;
    let file: string;

    beforeAll(async () => {
      web = await startDemoWeb();
      data = await crawlDemoWeb(web);
      mkdirSync(OUTPUT, { recursive: true });
      file = `${OUTPUT}report.html`;
      writeFileSync(file, renderCrawlReport(data));
      browser = await chromium.launch({
        executablePath: CHROMIUM,
        args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'],
      });
    }, 60_000);

    afterAll(async () => {
      await browser?.close();
      await web?.close();
    });

    it('the crawl behind it was polite by the servers’ logs, and the data says so too', () => {
      expect(violations(web, UA)).toEqual([]);
      expect(data.hosts.map((host) => host.label)).toEqual(web.hosts.map((host) => host.name));
      for (const host of data.hosts) expect(host.gaps.tooShort).toBe(0);
      const status = data.hosts.find((host) => host.label === 'status');
      expect(status?.robotsFetches.map((fetch) => fetch.status)).toEqual([503, 503, 503]);
      expect(status?.decisions).toEqual([expect.objectContaining({ allowed: false, basis: 'robots-unreachable' })]);
      expect(data.hosts.find((host) => host.label === 'shop')?.crawlDelaySeconds).toBe(0.2);
    });

    it('renders from a file: every host, ✓ verdicts, the 503 host; no console error; a screenshot', async () => {
      const { page, problems } = await open(browser, (p) => p.goto(pathToFileURL(file).href, { waitUntil: 'load' }));
      await expect(page.locator('section.host').count()).resolves.toBe(data.hosts.length);
      await expect(page.locator('svg.timeline').count()).resolves.toBe(data.hosts.length);
      await expect(page.locator('.banner.ok').innerText()).resolves.toMatch(/^✓ Polite: at every one of 8 hosts/);
      const verdicts = await page.locator('table.glance tbody tr td:first-child').allInnerTexts();
      expect(verdicts).toEqual(data.hosts.map(() => '✓'));
      await expect(page.locator('.verdict.bad').count()).resolves.toBe(0);
      await expect(page.locator('.bar.short').count()).resolves.toBe(0);
      const glance = await page.locator('table.glance').innerText();
      expect(glance).toMatch(/status\s+127\.0\.0\.\d+\s+3\s+503 · unreachable: all disallowed \(3 fetches\)/);
      expect(glance).toMatch(/cdn\s+127\.0\.0\.\d+\s+\d+\s+404 · none: all allowed/);
      const statusSection = page.locator('section.host', { hasText: 'robots.txt unreachable: all disallowed' });
      await expect(statusSection.count()).resolves.toBe(1);
      await expect(statusSection.innerText()).resolves.toContain('503');
      const shop = page.locator('section.host', { has: page.locator('h3', { hasText: 'shop' }) });
      await expect(shop.innerText()).resolves.toMatch(/delay kept 200 ms \(Crawl-delay 0\.2 s\)/);
      const box = await page.locator('svg.gaps').first().boundingBox();
      expect(box?.width).toBeGreaterThan(500);
      await page.screenshot({ path: `${OUTPUT}report.png`, fullPage: true });
      await page.screenshot({ path: `${OUTPUT}report-top.png` });
      expect(existsSync(`${OUTPUT}report.png`)).toBe(true);
      expect(problems).toEqual([]);
      await page.close();
    });

    it('shows hostile URLs and robots.txt lines as text: nothing runs, nothing loads', async () => {
      const { page, problems } = await open(browser, (p) =>
        p.setContent(renderCrawlReport(hostileReport()), { waitUntil: 'load' }),
      );
      await page.locator('section.host').first().hover();
      await expect(page.evaluate(() => (globalThis as { __pwned?: unknown }).__pwned)).resolves.toBeUndefined();
      await expect(page.title()).resolves.toBe(HOSTILE.label);
      const text = await page.locator('body').innerText();
      for (const value of [HOSTILE.url, HOSTILE.line, HOSTILE.message]) expect(text).toContain(value);
      await expect(page.locator('script, img, iframe, [onmouseover], [onerror], [onload]').count()).resolves.toBe(0);
      await page.screenshot({ path: `${OUTPUT}report-hostile.png` });
      expect(problems).toEqual([]);
      await page.close();
    });
  },
);
