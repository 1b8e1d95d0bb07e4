// A DOM only when asked for: the crawler finds every link with its streaming pass, and builds the
// cheerio document (`page.$`) only for a handler that reads it, once per page. Counted by the
// document module itself, over a real crawl of a loopback site.

import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { countDocumentsBuilt } from '../../src/extract/document.js';
import { createCrawler, type PageContext } from '../../src/index.js';

const PAGES = 12;
let server: Server;
let base: string;
const requested: string[] = [];

/** Page n links to the next two, so only link extraction reaches them all. */
const pageHtml = (n: number): string =>
  `<html><head><title>Page ${n}</title></head><body><h1>Page ${n}</h1>${[n + 1, n + 2]
    .filter((next) => next < PAGES)
    .map((next) => `<a href="/p/${next}">next</a>`)
    .join('')}</body></html>`;

beforeAll(async () => {
  server = createServer((req, res) => {
    requested.push(req.url ?? '');
    if (req.url === '/robots.txt') return void res.end('User-agent: *\nAllow: /\n');
    const n = Number(/^\/p\/(\d+)$/.exec(req.url ?? '')?.[1] ?? NaN);
    if (!(n >= 0 && n < PAGES)) return void res.writeHead(404).end();
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(pageHtml(n));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

async function crawl(handler: (page: PageContext) => Promise<void>): Promise<{ pages: number; documents: number }> {
  requested.length = 0;
  const before = countDocumentsBuilt();
  const crawler = createCrawler({
    userAgent: 'LazyBot/1.0',
    seeds: [`${base}/p/0`],
    allowNet: ['127.0.0.0/8'],
    minDelayMs: 0,
    handler,
  });
  const stats = await crawler.run();
  return { pages: stats.pages, documents: countDocumentsBuilt() - before };
}

describe('page.$', () => {
  it('a crawl whose handler never reads page.$ builds no DOM, and still follows every link', async () => {
    const titles: string[] = [];
    const result = await crawl(async (page) => {
      titles.push(page.text.slice(0, 40));
    });
    expect(result).toEqual({ pages: PAGES, documents: 0 });
    expect(requested.filter((path) => path.startsWith('/p/')).sort()).toEqual(
      Array.from({ length: PAGES }, (_, n) => `/p/${n}`).sort(),
    );
  });

  it('a handler that reads page.$ gets one DOM per page, however often it reads it', async () => {
    const headings: string[] = [];
    const result = await crawl(async (page) => {
      headings.push(page.$('h1').text());
      expect(page.$('title').text()).toBe(page.$('h1').text());
    });
    expect(result).toEqual({ pages: PAGES, documents: PAGES });
    expect(headings.sort()).toEqual(Array.from({ length: PAGES }, (_, n) => `Page ${n}`).sort());
  });
});
