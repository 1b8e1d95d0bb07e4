// The crawl's OpenTelemetry metrics against what really happened: a real HTTP server on loopback
// with its own request log, a real MeterProvider (@opentelemetry/sdk-metrics) collected through a
// MetricReader after the crawl, and the crawl's own stats.
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { metrics } from '@opentelemetry/api';
import {
  type DataPoint,
  type Histogram,
  MeterProvider,
  type MetricData,
  MetricReader,
  type ResourceMetrics,
} from '@opentelemetry/sdk-metrics';
import { createCrawler } from '@politely/crawler';
import { createMemoryFrontierStore } from '@politely/frontier';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../../../../test/support/site-server.js';

const UA = 'TestBot/1.0 (+http://example.invalid/bot)';

/** A reader the test collects from when it likes. */
class TestReader extends MetricReader {
  protected async onShutdown(): Promise<void> {}
  protected async onForceFlush(): Promise<void> {}
}

const servers: TestServer[] = [];
let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'politely-metrics-'));
});
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
  await rm(dir, { recursive: true, force: true });
  metrics.disable();
});
const serve = async (...args: Parameters<typeof startServer>) => {
  const server = await startServer(...args);
  servers.push(server);
  return server;
};
const links = (...paths: string[]) => paths.map((p) => `<a href="${p}">${p}</a>`).join('');

function providerWithReader(): { provider: MeterProvider; reader: TestReader } {
  const reader = new TestReader();
  return { provider: new MeterProvider({ readers: [reader] }), reader };
}

async function collect(reader: TestReader): Promise<MetricData[]> {
  const { resourceMetrics, errors } = await reader.collect();
  expect(errors).toEqual([]);
  return allMetrics(resourceMetrics);
}

function allMetrics(resourceMetrics: ResourceMetrics): MetricData[] {
  return resourceMetrics.scopeMetrics.flatMap((scope) => scope.metrics);
}

function metric(all: readonly MetricData[], name: string): MetricData | undefined {
  return all.find((m) => m.descriptor.name === name);
}

/** The sum of a counter's points whose attributes include `where`. */
function counted(all: readonly MetricData[], name: string, where: Record<string, unknown> = {}): number {
  const data = metric(all, name);
  if (data === undefined) return 0;
  return (data.dataPoints as DataPoint<number>[])
    .filter((point) => Object.entries(where).every(([key, value]) => point.attributes[key] === value))
    .reduce((sum, point) => sum + point.value, 0);
}

/** A histogram's points. */
function histogramPoints(all: readonly MetricData[], name: string): DataPoint<Histogram>[] {
  return (metric(all, name)?.dataPoints ?? []) as DataPoint<Histogram>[];
}

const requestsOf = (server: TestServer, path: (p: string) => boolean) => server.log.filter((r) => path(r.path)).length;

describe('crawl metrics (OpenTelemetry)', () => {
  it('count what the server saw and what stats() says: pages, skips, requests by kind, a retried 503, bytes, store latency', async () => {
    let flakyCalls = 0;
    const site = await serve({
      '/robots.txt': 'User-agent: *\nDisallow: /private\n',
      '/': links('/a', '/b', '/private/x', '/flaky', '/missing'),
      '/a': links('/b', '/private/y'),
      '/b': 'b',
      '/flaky': (_req, res) => {
        flakyCalls++;
        if (flakyCalls === 1) {
          res.statusCode = 503;
          res.end('busy');
          return;
        }
        res.end('now fine');
      },
    });
    const { provider, reader } = providerWithReader();
    const out = join(dir, 'records.jsonl');
    let duringCrawl: MetricData[] | undefined;
    const crawler = createCrawler({
      userAgent: UA,
      allowNet: ['127.0.0.0/8'],
      seeds: [`${site.base}/`],
      minDelayMs: 0,
      backoffBaseMs: 10,
      maxRetries: 2,
      meterProvider: provider,
      outputs: [{ path: out }],
      handler: async (page) => {
        await page.push({ url: page.finalUrl, status: page.status });
        if (page.finalUrl.endsWith('/b')) duringCrawl ??= await collect(reader);
      },
    });
    const stats = await crawler.run();
    const all = await collect(reader);

    const pageRequests = requestsOf(site, (p) => p !== '/robots.txt');
    const robotsRequests = requestsOf(site, (p) => p === '/robots.txt');
    // The server's log: 5 pages (/, /a, /b, /missing, /flaky twice) and robots.txt once.
    expect(pageRequests).toBe(6);
    expect(robotsRequests).toBe(1);
    expect(counted(all, 'politely.requests', { 'politely.request.kind': 'page' })).toBe(pageRequests);
    expect(counted(all, 'politely.requests', { 'politely.request.kind': 'robots' })).toBe(robotsRequests);
    expect(counted(all, 'politely.requests')).toBe(stats.requests);
    expect(stats.robotsRequests).toBe(robotsRequests);

    // Pages: 5 done (one of them after its retry), the 503 attempt retried once.
    expect(stats.pages).toBe(5);
    expect(stats.retries).toBe(1);
    expect(counted(all, 'politely.pages', { 'politely.outcome': 'done', 'politely.resource.kind': 'page' })).toBe(
      stats.pages,
    );
    expect(counted(all, 'politely.pages', { 'politely.outcome': 'retried' })).toBe(stats.retries);
    expect(counted(all, 'politely.pages', { 'politely.outcome': 'failed' })).toBe(0);
    expect(counted(all, 'politely.errors', { 'politely.error.retried': true })).toBe(1);
    expect(counted(all, 'politely.errors', { 'politely.error.retried': false })).toBe(stats.errors);

    // Skips: the two links under /private, by reason.
    expect(stats.skipped).toMatchObject({ robots: 2 });
    for (const [reason, count] of Object.entries(stats.skipped))
      expect(counted(all, 'politely.skips', { 'politely.skip.reason': reason })).toBe(count);
    expect(counted(all, 'politely.skips')).toBe(Object.values(stats.skipped).reduce((a, b) => a + b, 0));

    // One duration per request the server answered, by status.
    const durations = histogramPoints(all, 'http.client.request.duration');
    expect(durations.reduce((sum, p) => sum + p.value.count, 0)).toBe(site.log.length);
    const byStatus = new Map<unknown, number>();
    for (const point of durations) {
      expect(point.attributes['http.request.method']).toBe('GET');
      expect(point.attributes['url.scheme']).toBe('http');
      const status = point.attributes['http.response.status_code'];
      byStatus.set(status, (byStatus.get(status) ?? 0) + point.value.count);
    }
    expect(Object.fromEntries(byStatus)).toEqual({ 200: 5, 404: 1, 503: 1 });
    expect(durations.find((p) => p.attributes['http.response.status_code'] === 503)?.attributes['error.type']).toBe(
      '503',
    );
    expect(metric(all, 'http.client.request.duration')?.descriptor.unit).toBe('s');

    expect(counted(all, 'politely.bytes.received')).toBe(stats.bytes);
    expect(counted(all, 'politely.robots.fetches', { 'politely.robots.outcome': 'fetched' })).toBe(1);
    // The 503 held the host (its backoff).
    expect(counted(all, 'politely.host.holds', { 'politely.hold.reason': 'failed-attempt' })).toBe(1);
    // Every page request waited (maybe 0 s) for its host's pace once.
    const waits = histogramPoints(all, 'politely.host.turn.wait');
    expect(waits.reduce((sum, p) => sum + p.value.count, 0)).toBe(pageRequests);

    // The store's latency, by operation.
    const storeOps = histogramPoints(all, 'politely.store.operation.duration');
    const opCount = (op: string) =>
      storeOps.filter((p) => p.attributes['politely.store.operation'] === op).reduce((s, p) => s + p.value.count, 0);
    expect(opCount('claim')).toBeGreaterThanOrEqual(pageRequests);
    expect(opCount('complete')).toBe(stats.pages);
    expect(opCount('retry')).toBe(1);
    expect(opCount('add')).toBeGreaterThanOrEqual(1);

    // Output bytes: the record file's size.
    expect(counted(all, 'politely.output.bytes', { 'politely.output.format': 'jsonl' })).toBe((await stat(out)).size);

    // The frontier's gauges while the crawl ran: something in flight (the page being handled).
    expect(duringCrawl).toBeDefined();
    expect(counted(duringCrawl!, 'politely.frontier.in_flight')).toBeGreaterThanOrEqual(1);
    expect(counted(duringCrawl!, 'politely.frontier.active_hosts')).toBe(1);
    expect(metric(duringCrawl!, 'politely.frontier.queued')).toBeDefined();
    // The limit of requests in flight: the default concurrency (16), or fewer, 4 at the fewest
    // (adaptiveConcurrency).
    const limit = counted(duringCrawl!, 'politely.crawl.concurrency_limit');
    expect(limit).toBeGreaterThanOrEqual(4);
    expect(limit).toBeLessThanOrEqual(16);

    // No attribute value names the host, its port or a URL.
    const port = new URL(site.base).port;
    for (const data of all) {
      for (const point of data.dataPoints) {
        for (const value of Object.values(point.attributes)) {
          const text = String(value);
          expect(text).not.toContain('127.0.0.1');
          expect(text).not.toContain(port);
          expect(text).not.toContain('/');
        }
      }
    }
    await provider.shutdown();
  });

  it('a robots.txt that answers 503: robots fetch outcomes, holds and skips match the server and stats', async () => {
    const site = await serve({
      '/robots.txt': (_req, res) => {
        res.statusCode = 503;
        res.end('down');
      },
      '/': 'never fetched',
    });
    const { provider, reader } = providerWithReader();
    const crawler = createCrawler({
      userAgent: UA,
      allowNet: ['127.0.0.0/8'],
      seeds: [`${site.base}/`],
      minDelayMs: 0,
      backoffBaseMs: 20,
      maxRobotsRetries: 2,
      meterProvider: provider,
    });
    await expect(crawler.run()).rejects.toMatchObject({ code: 'ERR_SEEDS_REFUSED' });
    const all = await collect(reader);
    const stats = crawler.stats();
    expect(site.paths()).toEqual(['/robots.txt', '/robots.txt', '/robots.txt']);
    expect(counted(all, 'politely.requests', { 'politely.request.kind': 'robots' })).toBe(3);
    expect(counted(all, 'politely.robots.fetches', { 'politely.robots.outcome': 'unreachable' })).toBe(3);
    expect(counted(all, 'politely.requests', { 'politely.request.kind': 'page' })).toBe(0);
    expect(counted(all, 'politely.skips', { 'politely.skip.reason': 'robots-unreachable' })).toBe(
      stats.skipped['robots-unreachable'],
    );
    expect(counted(all, 'politely.pages', { 'politely.outcome': 'skipped' })).toBe(1);
    expect(counted(all, 'politely.host.holds', { 'politely.hold.reason': 'robots-unreachable' })).toBe(2);
    const durations = histogramPoints(all, 'http.client.request.duration');
    expect(durations.map((p) => [p.attributes['http.response.status_code'], p.value.count])).toEqual([[503, 3]]);
    await provider.shutdown();
  });

  it('counts the bytes of a WARC archive as its files hold them', async () => {
    const site = await serve({ '/robots.txt': 'User-agent: *\nAllow: /\n', '/': links('/a'), '/a': 'a' });
    const { provider, reader } = providerWithReader();
    const crawler = createCrawler({
      userAgent: UA,
      allowNet: ['127.0.0.0/8'],
      seeds: [`${site.base}/`],
      minDelayMs: 0,
      meterProvider: provider,
      outputs: [{ path: join(dir, 'crawl.warc.gz') }],
    });
    await crawler.run();
    const all = await collect(reader);
    const warc = crawler.outputs().find((output) => output.format === 'warc');
    const files = warc !== undefined && 'files' in warc ? warc.files : [];
    expect(files.length).toBeGreaterThan(0);
    let size = 0;
    for (const file of files) size += (await stat(file)).size;
    expect(counted(all, 'politely.output.bytes', { 'politely.output.format': 'warc' })).toBe(size);
    await provider.shutdown();
  });

  it('reads the global provider by default', async () => {
    const site = await serve({ '/robots.txt': 'User-agent: *\nAllow: /\n', '/': links('/a'), '/a': 'a' });
    const { provider, reader } = providerWithReader();
    metrics.setGlobalMeterProvider(provider);
    const crawler = createCrawler({
      userAgent: UA,
      allowNet: ['127.0.0.0/8'],
      seeds: [`${site.base}/`],
      minDelayMs: 0,
    });
    const stats = await crawler.run();
    const all = await collect(reader);
    expect(counted(all, 'politely.pages', { 'politely.outcome': 'done' })).toBe(2);
    expect(counted(all, 'politely.requests')).toBe(stats.requests);
    expect(stats.requests).toBe(site.log.length);
    await provider.shutdown();
  });

  it('with no provider registered the crawl works, nothing throws, and the store is the one given', async () => {
    const site = await serve({ '/robots.txt': 'User-agent: *\nAllow: /\n', '/': links('/a'), '/a': 'a' });
    const store = createMemoryFrontierStore();
    const crawler = createCrawler({
      userAgent: UA,
      allowNet: ['127.0.0.0/8'],
      seeds: [`${site.base}/`],
      minDelayMs: 0,
      store,
      outputs: [{ path: join(dir, 'out.jsonl') }],
      handler: (page) => page.push({ url: page.finalUrl }),
    });
    expect(crawler.store).toBe(store);
    const stats = await crawler.run();
    expect(stats).toMatchObject({ pages: 2, errors: 0 });
    expect(site.log.length).toBe(3);
  });
});
