// The enqueue-time robots pre-check: links a known robots.txt disallows are skipped without
// waiting for their host's turn, and a page of many links costs a few cache reads, not one each
// (with a shared Redis cache, each read is a round trip).

import { createMemoryRobotsCache, type RobotsCacheStore } from '@politely/core';
import { createCrawler, type SkipEvent } from '@politely/crawler';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../../../../test/support/site-server.js';

const LINKS = 2000;
let server: TestServer;

beforeAll(async () => {
  const links = Array.from({ length: LINKS }, (_, i) => `<a href="/private/${i}">${i}</a>`).join('');
  server = await startServer({
    '/robots.txt': 'User-agent: *\nDisallow: /private/\n',
    '/': `<html><body><a href="/list">list</a></body></html>`,
    '/list': `<html><body>${links}<a href="/public">public</a></body></html>`,
    '/public': '<html><body>ok</body></html>',
  });
});
afterAll(() => server.close());

describe('robots pre-check at enqueue time', () => {
  it('skips every disallowed link with its deciding line, reading the robots cache a few times only', async () => {
    const memory = createMemoryRobotsCache();
    let reads = 0;
    const counted: RobotsCacheStore = {
      get: (origin) => ((reads += 1), memory.get(origin)),
      set: (origin, record) => memory.set(origin, record),
      delete: (origin) => memory.delete(origin),
    };
    const skips: SkipEvent[] = [];
    const crawler = createCrawler({
      userAgent: 'PrecheckBot/1.0',
      seeds: [`${server.base}/`],
      allowNet: ['127.0.0.0/8'],
      minDelayMs: 0,
      robotsCache: counted,
    });
    crawler.on('skip', (event) => skips.push(event));
    const stats = await crawler.run();
    const robotsSkips = skips.filter((skip) => skip.reason === 'robots');
    expect(robotsSkips).toHaveLength(LINKS);
    expect(robotsSkips[0]!.detail).toBe('line 2: Disallow: /private/');
    expect(server.paths().filter((path) => path.startsWith('/private/'))).toEqual([]);
    expect(server.paths()).toContain('/public');
    expect(stats.skipped.robots).toBe(LINKS);
    // Per-fetch gate checks (4 URLs) and a few pre-check reads, not one per link.
    expect(reads).toBeLessThan(50);
  });
});
