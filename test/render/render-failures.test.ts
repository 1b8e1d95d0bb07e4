// A rendering crawl meets a page that never settles (its script keeps the network busy): the page
// is closed at the render timeout, retried within the retry budget, reported, and the crawl goes
// on. And `render` as a function renders only the pages it picks.

import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ChromiumRenderer } from '@politely/browser';
import { createCrawler, type ErrorEvent, type SkipEvent } from '@politely/crawler';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const UA = 'RenderBot/1.0 (+https://example.test/bot)';

const page = (title: string, body: string, script = ''): string =>
  `<!doctype html><html><head><title>${title}</title><link rel="icon" href="data:,"></head><body>${body}${script === '' ? '' : `<script>${script}</script>`}</body></html>`;

const PAGES: Record<string, string> = {
  '/': page('Home', '<a href="/hang">hang</a> <a href="/picked">picked</a> <a href="/plain">plain</a>'),
  // Asks the server again every 100 ms, for ever: the network is never idle.
  '/hang': page('Hang', '', "setInterval(() => fetch('/ping?' + Date.now()).catch(() => {}), 100);"),
  '/picked': page('Served', '', "document.title = 'Rendered';"),
  '/plain': page('Served', '', "document.title = 'Rendered';"),
  // Small as served, large once its script ran.
  '/grow': page('Grow', '', "document.body.append('x'.repeat(50000));"),
};

let server: Server;
let base: string;
const log: string[] = [];

beforeAll(async () => {
  server = createServer((request, response) => {
    const path = request.url ?? '/';
    log.push(path);
    if (path === '/robots.txt') {
      response.writeHead(200, { 'content-type': 'text/plain' }).end('User-agent: *\nAllow: /\n');
      return;
    }
    if (path.startsWith('/ping')) {
      response.writeHead(204).end();
      return;
    }
    const html = PAGES[path];
    if (html === undefined) response.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
    else response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(html);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

describe('rendering failures and choices', () => {
  it('closes a page that never settles at the render timeout, retries it within the budget, and goes on', async () => {
    log.length = 0;
    const titles = new Map<string, string>();
    const errors: ErrorEvent[] = [];
    const crawler = createCrawler({
      userAgent: UA,
      seeds: [`${base}/`],
      allowNet: ['127.0.0.0/8'],
      minDelayMs: 0,
      maxRetries: 1,
      backoffBaseMs: 50,
      render: true,
      renderer: new ChromiumRenderer(),
      renderTimeoutMs: 1500,
      handler: async (page) => void titles.set(new URL(page.finalUrl).pathname, page.$('title').text()),
    });
    crawler.on('error', (error) => errors.push(error));
    const stats = await crawler.run();
    const hang = errors.filter((error) => error.url === `${base}/hang`);
    expect(hang.map((error) => [error.willRetry, (error.error as { code?: string }).code])).toEqual([
      [true, 'ERR_RENDER_FAILED'],
      [false, 'ERR_RENDER_FAILED'],
    ]);
    expect(log.filter((path) => path === '/hang')).toHaveLength(2);
    expect(titles.has('/hang')).toBe(false);
    expect(titles.get('/picked')).toBe('Rendered');
    expect(titles.get('/plain')).toBe('Rendered');
    expect(stats.errors).toBe(1);
    expect(stats.retries).toBe(1);
  }, 60_000);

  it('applies the body cap to the rendered HTML: a page its script makes too large is skipped, not handled', async () => {
    const skips: SkipEvent[] = [];
    let handled = 0;
    const crawler = createCrawler({
      userAgent: UA,
      seeds: [`${base}/grow`],
      allowNet: ['127.0.0.0/8'],
      minDelayMs: 0,
      maxBodyBytes: 20_000,
      render: true,
      renderer: new ChromiumRenderer(),
      handler: async () => void handled++,
    });
    crawler.on('skip', (skip) => skips.push(skip));
    await crawler.run();
    expect(handled).toBe(0);
    expect(skips).toEqual([
      expect.objectContaining({
        url: `${base}/grow`,
        reason: 'too-large',
        detail: expect.stringMatching(/^rendered HTML of \d+ bytes is past maxBodyBytes \(20000\)$/),
      }),
    ]);
  }, 60_000);

  it('renders only the pages `render` picks; the others are handled as served', async () => {
    const rendered = new Map<string, boolean>();
    const titles = new Map<string, string>();
    const crawler = createCrawler({
      userAgent: UA,
      seeds: [`${base}/`],
      allowNet: ['127.0.0.0/8'],
      minDelayMs: 0,
      render: (request) => new URL(request.url).pathname === '/picked',
      renderer: new ChromiumRenderer(),
      handler: async (page) => {
        rendered.set(new URL(page.finalUrl).pathname, page.rendered);
        titles.set(new URL(page.finalUrl).pathname, page.$('title').text());
        expect(page.browser === undefined).toBe(!page.rendered);
      },
    });
    const stats = await crawler.run();
    expect(Object.fromEntries(rendered)).toEqual({ '/': false, '/hang': false, '/picked': true, '/plain': false });
    expect(titles.get('/picked')).toBe('Rendered');
    expect(titles.get('/plain')).toBe('Served');
    expect(stats.rendering.pageLoads).toBe(1);
  }, 60_000);
});
