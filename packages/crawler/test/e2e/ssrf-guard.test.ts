import { createCrawler, type SkipEvent } from '@politely/crawler';
import { afterEach, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../../../../test/support/site-server.js';

const UA = 'TestBot/1.0 (+http://example.invalid/bot)';
const servers: TestServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

async function crawl(seed: string, allowNet: string[]): Promise<{ skips: SkipEvent[]; pages: number }> {
  const skips: SkipEvent[] = [];
  const crawler = createCrawler({ userAgent: UA, seeds: [seed], minDelayMs: 0, allowNet, scope: 'any' });
  crawler.on('skip', (skip) => skips.push(skip));
  // A crawl whose every seed was refused rejects (ERR_SEEDS_REFUSED); what it skipped is the same.
  await crawler.run().catch((error: unknown) => {
    if ((error as { code?: unknown }).code !== 'ERR_SEEDS_REFUSED') throw error;
  });
  return { skips, pages: crawler.stats().pages };
}

describe('createCrawler SSRF guard', () => {
  it('is on by default: a loopback seed is a blocked-address skip and the server sees nothing', async () => {
    const site = await startServer({ '/robots.txt': 'User-agent: *\nAllow: /\n', '/': 'home' });
    servers.push(site);
    const { skips, pages } = await crawl(`${site.base}/`, []);
    expect(skips.map((s) => s.reason)).toEqual(['blocked-address']);
    expect(skips[0]?.detail).toMatch(/allowNet/);
    expect(pages).toBe(0);
    expect(site.log).toEqual([]);
  });

  it('checks every redirect hop: an allowed host redirecting to a private address is refused there', async () => {
    const inner = await startServer({ '/robots.txt': 'User-agent: *\nAllow: /\n', '/secret': 'internal' }, '127.0.0.2');
    servers.push(inner);
    const outer = await startServer({
      '/robots.txt': 'User-agent: *\nAllow: /\n',
      '/': (_req, res) => {
        res.writeHead(302, { location: `${inner.base}/secret` });
        res.end();
      },
    });
    servers.push(outer);
    const { skips } = await crawl(`${outer.base}/`, ['127.0.0.1/32']);
    expect(outer.paths()).toEqual(['/robots.txt', '/']);
    expect(inner.log).toEqual([]);
    expect(skips.map((s) => [s.url, s.reason])).toEqual([[`${inner.base}/secret`, 'blocked-address']]);
  });

  it('names a bad allowNet entry with a typed error', () => {
    expect(() => createCrawler({ userAgent: UA, allowNet: ['10.0.0.0/40'] })).toThrowError(
      /allowNet: invalid network '10.0.0.0\/40'/,
    );
  });

  it('lets an allowed network through', async () => {
    const site = await startServer({ '/robots.txt': 'User-agent: *\nAllow: /\n', '/': 'home' });
    servers.push(site);
    const { pages } = await crawl(`${site.base}/`, ['127.0.0.0/8']);
    expect(pages).toBe(1);
  });
});
