// A crawl with many requests waiting for their turn at one host listens to its signals from each
// of them. That is by design, and must not make Node print a MaxListenersExceededWarning (a user
// would take it for a leak).

import { createCrawler } from '@politely/crawler';
import { afterEach, expect, it } from 'vitest';
import { startServer, type TestServer } from '../../../../test/support/site-server.js';

const UA = 'TestBot/1.0 (+http://example.invalid/bot)';
const servers: TestServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

it('prints no MaxListenersExceededWarning with 16 requests waiting at one host', async () => {
  const paths = Array.from({ length: 40 }, (_, i) => `/p${i}`);
  const routes: Parameters<typeof startServer>[0] = {
    '/robots.txt': 'User-agent: *\nAllow: /\n',
    '/': paths.map((p) => `<a href="${p}">${p}</a>`).join(''),
  };
  for (const p of paths) routes[p] = 'page';
  const site = await startServer(routes);
  servers.push(site);
  const warnings: string[] = [];
  const onWarning = (warning: Error) => warnings.push(`${warning.name}: ${warning.message}`);
  process.on('warning', onWarning);
  try {
    const stats = await createCrawler({
      userAgent: UA,
      allowNet: ['127.0.0.0/8'],
      seeds: [`${site.base}/`],
      minDelayMs: 0,
      concurrency: 16,
      perHostConcurrency: 16,
    }).run();
    expect(stats.pages).toBe(41);
    // Warnings are emitted on the next tick.
    await new Promise((resolve) => setImmediate(resolve));
  } finally {
    process.off('warning', onWarning);
  }
  expect(warnings.filter((w) => w.startsWith('MaxListenersExceededWarning'))).toEqual([]);
});
