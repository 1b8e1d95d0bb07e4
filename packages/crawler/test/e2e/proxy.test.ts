// A crawl through one egress proxy (a real forwarding proxy on loopback): it reaches its targets,
// the SSRF guard still refuses a private target behind it (the proxy is never asked for it), and a
// private proxy is refused unless allowNet allows it.

import { createCrawler, type SkipEvent } from '@politely/crawler';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type LoopbackProxy, startLoopbackProxy } from '../../../../test/support/loopback-proxy.js';
import { startServer, type TestServer } from '../../../../test/support/site-server.js';
import { expectInvalidOption } from '../expect-invalid-option.js';

const UA = 'ProxyBot/1.0 (+http://example.invalid/bot)';
let proxy: LoopbackProxy;
let allowed: TestServer;
let forbidden: TestServer;

beforeAll(async () => {
  // Three loopback addresses, so allowNet can open the proxy and one target only.
  proxy = await startLoopbackProxy('127.0.0.4');
  allowed = await startServer(
    { '/robots.txt': 'User-agent: *\nAllow: /\n', '/': '<a href="/a">a</a>', '/a': '<p>a</p>' },
    '127.0.0.2',
  );
  forbidden = await startServer({ '/robots.txt': 'User-agent: *\nAllow: /\n', '/': '<p>internal</p>' }, '127.0.0.3');
});
afterAll(async () => {
  await Promise.all([proxy.close(), allowed.close(), forbidden.close()]);
});

describe('createCrawler({ proxy })', () => {
  it('crawls through the proxy, and the guard refuses a private target behind it before the proxy is asked', async () => {
    const skips: SkipEvent[] = [];
    const crawler = createCrawler({
      userAgent: UA,
      from: 'ops@example.com',
      seeds: [`${allowed.base}/`, `${forbidden.base}/`, 'http://localhost:9/'],
      scope: 'any',
      proxy: proxy.url,
      allowNet: ['127.0.0.4/32', '127.0.0.2/32'],
      minDelayMs: 0,
    });
    crawler.on('skip', (skip) => skips.push(skip));
    const stats = await crawler.run();

    expect(stats.pages).toBe(2);
    expect(allowed.paths().sort()).toEqual(['/', '/a', '/robots.txt']);
    expect(allowed.log.every((r) => r.headers['user-agent'] === UA && r.headers['from'] === 'ops@example.com')).toBe(
      true,
    );
    // Every request to the allowed target went through the proxy's tunnels; nothing else did.
    const asked = new Set(proxy.log.map((entry) => `${entry.method} ${entry.target}`));
    expect([...asked]).toEqual([`CONNECT ${new URL(allowed.base).host}`]);
    // The private target and the name that resolves to loopback: refused by the crawler itself.
    expect(forbidden.log).toEqual([]);
    const blocked = skips
      .filter((skip) => skip.reason === 'blocked-address')
      .map((skip) => skip.url)
      .sort();
    expect(blocked).toEqual([`${forbidden.base}/`, 'http://localhost:9/'].sort());
  });

  it('refuses a private proxy that allowNet does not allow, saying how to allow it', () => {
    expectInvalidOption(
      () => createCrawler({ userAgent: UA, proxy: proxy.url, allowNet: ['127.0.0.2/32'] }),
      `proxy ${proxy.url}: 127.0.0.4 is Loopback`,
      'allowNet (--allow-net 127.0.0.4)',
    );
  });
});
