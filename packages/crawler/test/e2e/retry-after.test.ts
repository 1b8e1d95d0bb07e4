// Retry-After at any per-host concurrency, judged by the server's own log (server clock); the
// site and how it is judged: test/support/retry-after-site.ts.

import { createCrawler } from '@politely/crawler';
import { describe, expect, it } from 'vitest';
import { startRetryAfterSite as startSite, violations } from '../../../../test/support/retry-after-site.js';

const UA = 'TestBot/1.0 (+http://example.invalid/bot)';

const cases = [1, 2, 4].flatMap((inFlight) => [0, 100].map((minDelayMs) => ({ inFlight, minDelayMs })));

describe.concurrent.each([
  { status: 503 as const, form: 'seconds' as const },
  { status: 429 as const, form: 'seconds' as const },
  { status: 503 as const, form: 'date' as const },
  { status: 429 as const, form: 'date' as const },
])('Retry-After on $status ($form), judged by the server', ({ status, form }) => {
  it.each(cases)(
    'is obeyed with perHostConcurrency $inFlight and minDelayMs $minDelayMs',
    async ({ inFlight, minDelayMs }) => {
      const pages = Math.max(2, inFlight + 1);
      // Every slow page is still in flight when the 503/429 goes out (they start minDelayMs apart).
      const slowMs = 400 + inFlight * minDelayMs;
      const site = await startSite({ status, form, inFlight, pages, slowMs });
      // Each case closes its own server (the cases run concurrently: no shared afterEach).
      const crawler = createCrawler({
        userAgent: UA,
        allowNet: ['127.0.0.0/8'],
        seeds: [`${site.base}/`],
        minDelayMs,
        perHostConcurrency: inFlight,
        concurrency: 8,
        // A short backoff, so that the Retry-After is what holds the host.
        backoffBaseMs: 10,
        maxRetries: 2,
      });
      const stats = await crawler.run().finally(() => site.close());

      expect(site.refusals).toHaveLength(1);
      const repeats = site.arrivals.filter((a) => a.path === '/p1');
      expect(repeats).toHaveLength(2);
      expect(violations(site)).toEqual({ perUrl: [], hostWide: [] });
      expect(repeats[1]!.at).toBeGreaterThanOrEqual(site.refusals[0]!.notBefore);
      expect(stats).toMatchObject({ pages: pages + 1, retries: 1, errors: 0 });
    },
  );
});

describe.concurrent('Retry-After, more', () => {
  it('holds the host after a URL’s last attempt too (it is not retried)', async () => {
    const site = await startSite({ status: 503, form: 'seconds', inFlight: 2, pages: 3, slowMs: 400 });
    const crawler = createCrawler({
      userAgent: UA,
      allowNet: ['127.0.0.0/8'],
      seeds: [`${site.base}/`],
      minDelayMs: 0,
      perHostConcurrency: 2,
      maxRetries: 0,
    });
    const stats = await crawler.run().finally(() => site.close());
    expect(site.arrivals.filter((a) => a.path === '/p1')).toHaveLength(1);
    expect(site.arrivals.filter((a) => a.path === '/p3')).toHaveLength(1);
    expect(violations(site)).toEqual({ perUrl: [], hostWide: [] });
    expect(stats).toMatchObject({ retries: 0, byStatus: { 200: 3, 503: 1 } });
  });

  it('waits no longer than backoffMaxMs, however long the Retry-After', async () => {
    const site = await startSite({ status: 429, form: 'seconds', seconds: 3600, inFlight: 2, pages: 3, slowMs: 200 });
    const crawler = createCrawler({
      userAgent: UA,
      allowNet: ['127.0.0.0/8'],
      seeds: [`${site.base}/`],
      minDelayMs: 0,
      perHostConcurrency: 2,
      backoffBaseMs: 10,
      backoffMaxMs: 400,
    });
    const stats = await crawler.run().finally(() => site.close());
    const refused = site.refusals[0]!;
    const after = site.arrivals.slice(refused.arrivedBefore);
    expect(after.map((a) => a.path).sort()).toEqual(['/p1', '/p3']);
    for (const arrival of after) expect(arrival.at - refused.sentAt).toBeGreaterThanOrEqual(400);
    expect(Math.max(...after.map((a) => a.at - refused.sentAt))).toBeLessThan(3000);
    expect(stats).toMatchObject({ pages: 4, retries: 1, errors: 0 });
  });
});
