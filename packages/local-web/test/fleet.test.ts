import { parseRobotsTxt } from '@politely/core';
import { violations } from '@politely/demo-web';
import { describe, expect, it } from 'vitest';
import { LocalWebError, startFleet } from '../src/index.js';
import { getText, hrefs, rawGet, UA } from './helpers.js';

/** A tiny breadth-first crawl of one origin from `/`, skipping what robots.txt disallows. */
async function crawlHost(origin: string, maxFetches: number): Promise<{ reached: Set<string>; skipped: Set<string> }> {
  const robots = parseRobotsTxt((await rawGet(`${origin}/robots.txt`)).body);
  const queue = [`${origin}/`];
  const seen = new Set(queue);
  const reached = new Set<string>();
  const skipped = new Set<string>();
  for (let head = 0; head < queue.length && head < maxFetches; head++) {
    const url = queue[head] as string;
    const path = url.slice(origin.length);
    if (!robots.isAllowed(url, UA)) {
      skipped.add(path);
      continue;
    }
    const { status, text } = await getText(url);
    expect(status, url).toBe(200);
    reached.add(path);
    for (const link of hrefs(text, url)) {
      if (link.startsWith(`${origin}/`) && !seen.has(link)) {
        seen.add(link);
        queue.push(link);
      }
    }
  }
  return { reached, skipped };
}

describe('startFleet', () => {
  it('gives every host a connected link graph from /, with linked /private/ pages that robots.txt disallows', async () => {
    const web = await startFleet({ hosts: 3, pagesPerHost: 20, crawlDelaySeconds: 0.5, firstAddress: 60 });
    try {
      expect(web.hosts.map((host) => host.address)).toEqual(['127.0.0.60', '127.0.0.61', '127.0.0.62']);
      for (const host of web.hosts) {
        const { reached, skipped } = await crawlHost(host.origin, 200);
        expect([...reached].sort()).toEqual(host.expectedAllowedPaths);
        expect(reached.size).toBe(20);
        expect([...skipped].sort()).toEqual(host.disallowedKnownPaths);
        expect(host.disallowedKnownPaths).toEqual(['/private/0', '/private/1']);
        expect(host.robotsTxt).toContain('Disallow: /private/');
        expect(host.crawlDelaySeconds).toBe(0.5);
        expect(host.disallowedPrefixes).toEqual(['/private/']);
      }
      expect(violations(web, UA)).toEqual([]);
      for (const host of web.hosts) {
        for (const path of host.disallowedKnownPaths) expect((await rawGet(host.origin + path)).status).toBe(200);
      }
      expect(violations(web, UA)).toHaveLength(6); // the test's own requests for /private/ pages
    } finally {
      await web.close();
    }
  });

  it('serves deterministic pages of 2–5 KB with navigation and a footer', async () => {
    const web = await startFleet({ hosts: 2, pagesPerHost: 50 });
    try {
      const origin = web.hosts[1]?.origin ?? '';
      const sizes: number[] = [];
      for (const path of web.hosts[1]?.expectedAllowedPaths ?? []) {
        const first = await getText(origin + path);
        const again = await getText(origin + path);
        expect(again.text).toBe(first.text);
        expect(first.text).toContain('<nav aria-label="Main">');
        expect(first.text).toContain('<footer class="site-footer">');
        sizes.push(Buffer.byteLength(first.text));
      }
      expect(Math.min(...sizes)).toBeGreaterThanOrEqual(2048);
      expect(Math.max(...sizes)).toBeLessThanOrEqual(5120);
      expect((await rawGet(`${origin}/pages/50`)).status).toBe(404);
      expect((await rawGet(`${origin}/pages/007`)).status).toBe(404);
    } finally {
      await web.close();
    }
  });

  it('links each front page to the next host, and serves sitemaps when asked', async () => {
    const web = await startFleet({ hosts: 3, pagesPerHost: 10, sitemaps: true, disallowFraction: 0 });
    try {
      const [first, second] = web.hosts;
      const front = await getText(`${first?.origin ?? ''}/`);
      expect(hrefs(front.text, `${first?.origin ?? ''}/`)).toContain(`${second?.origin ?? ''}/`);
      expect(first?.sitemaps).toEqual([`${first?.origin ?? ''}/sitemap.xml`]);
      const sitemap = await getText(`${first?.origin ?? ''}/sitemap.xml`);
      expect(sitemap.text.match(/<loc>/g)).toHaveLength(10);
      expect(first?.disallowedKnownPaths).toEqual([]);
      expect(first?.crawlDelaySeconds).toBeUndefined();
    } finally {
      await web.close();
    }
  });

  it('runs 250 hosts on 127.0.0.2–251', async () => {
    const web = await startFleet({ hosts: 250, pagesPerHost: 40 });
    try {
      expect(web.hosts).toHaveLength(250);
      expect(web.hosts.at(-1)?.address).toBe('127.0.0.251');
      const responses = await Promise.all(web.hosts.map((host) => rawGet(`${host.origin}/pages/39`)));
      expect(responses.every((response) => response.status === 200)).toBe(true);
      expect(web.requestLog()).toHaveLength(250);
    } finally {
      await web.close();
    }
  });

  it('rejects options out of range with ERR_INVALID_OPTION', async () => {
    const codeOf = (options: Parameters<typeof startFleet>[0]): Promise<unknown> =>
      startFleet(options).then(
        () => 'started',
        (error: unknown) => (error instanceof LocalWebError ? error.code : error),
      );
    expect(await codeOf({ hosts: 254, pagesPerHost: 1 })).toBe('ERR_INVALID_OPTION');
    expect(await codeOf({ hosts: 1, pagesPerHost: 0 })).toBe('ERR_INVALID_OPTION');
    expect(await codeOf({ hosts: 1, pagesPerHost: 5, firstAddress: 1 })).toBe('ERR_INVALID_OPTION');
    expect(await codeOf({ hosts: 1, pagesPerHost: 5, disallowFraction: 2 })).toBe('ERR_INVALID_OPTION');
    expect(await codeOf({ hosts: 1, pagesPerHost: 5, crawlDelaySeconds: -1 })).toBe('ERR_INVALID_OPTION');
    expect(await codeOf({ hosts: 1, pagesPerHost: 5, port: 70000 })).toBe('ERR_INVALID_OPTION');
  });
});
