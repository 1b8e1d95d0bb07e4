// A rendered crawl's metrics (Chromium at /usr/bin/chromium, the render web on loopback): the
// rendering counters equal what the crawl's stats and the servers' logs show.

import { type DataPoint, MeterProvider, type MetricData, MetricReader } from '@opentelemetry/sdk-metrics';
import { ChromiumRenderer } from '@politely/browser';
import { createCrawler } from '@politely/crawler';
import { type RenderWeb, startRenderWeb } from '@politely/demo-web';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

class TestReader extends MetricReader {
  protected async onShutdown(): Promise<void> {}
  protected async onForceFlush(): Promise<void> {}
}

const counted = (all: readonly MetricData[], name: string, where: Record<string, unknown> = {}): number =>
  ((all.find((m) => m.descriptor.name === name)?.dataPoints ?? []) as DataPoint<number>[])
    .filter((point) => Object.entries(where).every(([key, value]) => point.attributes[key] === value))
    .reduce((sum, point) => sum + point.value, 0);

let web: RenderWeb;
beforeAll(async () => {
  web = await startRenderWeb({ firstAddress: 170 });
});
afterAll(async () => {
  await web.close();
});

describe('a rendered crawl’s metrics', () => {
  it('page loads and sub-requests by outcome equal stats().rendering; requests equal the servers’ logs', async () => {
    web.resetLogs();
    const reader = new TestReader();
    const provider = new MeterProvider({ readers: [reader] });
    const crawler = createCrawler({
      userAgent: 'PolitelyDemo/1.0 (+https://example.test/bot)',
      seeds: [web.entryUrl],
      allowNet: ['127.0.0.0/8'],
      minDelayMs: 50,
      concurrency: 4,
      maxPages: 3,
      render: true,
      renderer: new ChromiumRenderer(),
      meterProvider: provider,
    });
    const stats = await crawler.run();
    const { resourceMetrics } = await reader.collect();
    const all = resourceMetrics.scopeMetrics.flatMap((s) => s.metrics);
    const { rendering } = stats;
    expect(rendering.pageLoads).toBeGreaterThan(0);
    expect(counted(all, 'politely.render.page_loads')).toBe(rendering.pageLoads);
    expect(rendering.subRequests).toBeGreaterThan(0);
    expect(counted(all, 'politely.render.sub_requests', { 'politely.render.outcome': 'sent' })).toBe(
      rendering.subRequests,
    );
    expect(counted(all, 'politely.render.sub_requests', { 'politely.render.outcome': 'from-cache' })).toBe(
      rendering.fromCache,
    );
    for (const [why, count] of Object.entries(rendering.refused))
      expect(
        counted(all, 'politely.render.sub_requests', {
          'politely.render.outcome': 'refused',
          'politely.render.refusal': why,
        }),
      ).toBe(count);
    expect(counted(all, 'politely.requests', { 'politely.request.kind': 'sub-resource' })).toBe(rendering.subRequests);
    expect(counted(all, 'politely.requests')).toBe(web.requestLog().length);
    expect(counted(all, 'politely.bytes.received')).toBe(stats.bytes);
    await provider.shutdown();
  }, 60_000);
});
