// crawler.pause() and resume() against a real HTTP server on loopback, judged by the server's
// own request log: no request while paused, the crawl complete after the resume.
import { createCrawler } from '@politely/crawler';
import { afterEach, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../../../../test/support/site-server.js';

const UA = 'PauseBot/1.0 (+http://example.invalid/bot)';
const PAGES = 30;

const servers: TestServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

/** /p/N links to /p/N+1, up to /p/PAGES-1. */
function chainPage(path: string): string | undefined {
  const n = Number(/^\/p\/(\d+)$/.exec(path)?.[1] ?? -1);
  if (n < 0 || n >= PAGES) return undefined;
  return n + 1 < PAGES ? `<a href="/p/${n + 1}">next</a>` : '<p>end</p>';
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('crawler.pause() / resume()', () => {
  it('claims nothing while paused (requests in flight finish), and crawls the rest after resume()', async () => {
    // One page after another, 50 ms apart.
    const server = await startServer({ '/robots.txt': 'User-agent: *\nAllow: /\n' }, '127.0.0.1', chainPage);
    servers.push(server);
    const crawler = createCrawler({
      userAgent: UA,
      allowNet: ['127.0.0.0/8'],
      minDelayMs: 50,
      seeds: [`${server.base}/p/0`],
    });
    let responses = 0;
    let pausedAt: number | undefined;
    crawler.on('response', () => {
      responses++;
      if (responses === 5) {
        crawler.pause();
        pausedAt = Date.now();
      }
    });
    const done = crawler.run();
    // Bounded: the fifth response comes within a few seconds.
    for (let i = 0; i < 200 && pausedAt === undefined; i++) await sleep(25);
    expect(crawler.paused).toBe(true);
    await sleep(1000);
    const whilePaused = server.log.filter((entry) => entry.at > pausedAt! + 500);
    expect(whilePaused).toEqual([]);
    expect(server.paths().filter((path) => path.startsWith('/p/')).length).toBeLessThanOrEqual(6);
    crawler.resume();
    expect(crawler.paused).toBe(false);
    const stats = await done;
    expect(stats.pages).toBe(PAGES);
    expect(new Set(server.paths().filter((path) => path.startsWith('/p/'))).size).toBe(PAGES);
  });

  it('stop() ends a paused crawl', async () => {
    const server = await startServer({ '/robots.txt': 'User-agent: *\nAllow: /\n' }, '127.0.0.1', chainPage);
    servers.push(server);
    const crawler = createCrawler({
      userAgent: UA,
      allowNet: ['127.0.0.0/8'],
      minDelayMs: 0,
      seeds: [`${server.base}/p/0`],
    });
    crawler.pause();
    const done = crawler.run();
    await sleep(300);
    expect(server.paths()).toEqual([]);
    crawler.stop();
    const stats = await done;
    expect(stats.aborted).toBe(true);
    expect(stats.pages).toBe(0);
  });
});
