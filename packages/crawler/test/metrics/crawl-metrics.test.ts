// The metrics module on its own: what it wraps, what it records when a wrapped call fails, and how
// often the gauges read the store. A real MeterProvider (@opentelemetry/sdk-metrics), a real HTTP
// server on loopback, the real memory store.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createNoopMeter } from '@opentelemetry/api';
import { type DataPoint, type Histogram, MeterProvider, MetricReader } from '@opentelemetry/sdk-metrics';
import { createHttpClient, type HttpRequest, PolitelyError } from '@politely/core';
import { createMemoryFrontierStore, type FrontierCounts } from '@politely/frontier';
import { afterEach, describe, expect, it } from 'vitest';
import { CrawlMetrics, errorType, robotsOutcomeOf } from '../../src/metrics/crawl-metrics.js';

class TestReader extends MetricReader {
  protected async onShutdown(): Promise<void> {}
  protected async onForceFlush(): Promise<void> {}
}

const providers: MeterProvider[] = [];
afterEach(async () => {
  await Promise.all(providers.splice(0).map((p) => p.shutdown()));
});

function setUp(): { metrics: CrawlMetrics; reader: TestReader } {
  const reader = new TestReader();
  const provider = new MeterProvider({ readers: [reader] });
  providers.push(provider);
  return { metrics: new CrawlMetrics(provider), reader };
}

async function points(reader: TestReader, name: string): Promise<DataPoint<unknown>[]> {
  const { resourceMetrics } = await reader.collect();
  const all = resourceMetrics.scopeMetrics.flatMap((s) => s.metrics);
  return all.find((m) => m.descriptor.name === name)?.dataPoints ?? [];
}

const request = (url: string): HttpRequest => ({
  url,
  headers: { 'user-agent': 'TestBot/1.0' },
  timeoutMs: 5000,
  bodyLimit: { maxBytes: 1024, atLimit: 'truncate' },
});

describe('CrawlMetrics', () => {
  it('with a no-op meter wraps nothing: the client and the store are the ones given', () => {
    const metrics = new CrawlMetrics({ getMeter: () => createNoopMeter() });
    const store = createMemoryFrontierStore();
    const client = createHttpClient();
    expect(metrics.enabled).toBe(false);
    expect(metrics.store(store)).toBe(store);
    expect(metrics.client(client)).toBe(client);
    metrics.observe();
    metrics.stopObserving();
    metrics.page('done', 'page');
    return client.close();
  });

  it('times the store’s claim, add and complete; other members pass through, bound to the store', async () => {
    const { metrics, reader } = setUp();
    const store = metrics.store(createMemoryFrontierStore());
    await store.add([{ url: 'http://a.test/', hostKey: 'a.test', depth: 0, priority: 0 }]);
    const claimed = await store.claim({ now: Date.now(), leaseMs: 60_000 });
    expect(claimed.lease).not.toBeNull();
    await store.complete(claimed.lease!.id);
    expect((await store.counts()).done).toBe(1);
    // A store's failure is timed too, with its code; the error is the store's own.
    const down = new PolitelyError('ERR_STORE', 'the store is down');
    const failing = metrics.store({ claim: () => Promise.reject(down) } as never);
    await expect(failing.claim({ now: Date.now(), leaseMs: 1000 })).rejects.toBe(down);
    const byOperation = new Map<unknown, number>();
    for (const point of (await points(reader, 'politely.store.operation.duration')) as DataPoint<Histogram>[]) {
      const key = `${point.attributes['politely.store.operation']}${point.attributes['error.type'] === undefined ? '' : ' failed'}`;
      byOperation.set(key, (byOperation.get(key) ?? 0) + point.value.count);
    }
    expect(Object.fromEntries(byOperation)).toEqual({ add: 1, claim: 1, complete: 1, 'claim failed': 1 });
    const failed = (await points(reader, 'politely.store.operation.duration')).find(
      (p) => p.attributes['error.type'] !== undefined,
    );
    expect(failed?.attributes).toEqual({ 'politely.store.operation': 'claim', 'error.type': 'ERR_STORE' });
  });

  it('a class store with #private members works through the wrapper', async () => {
    class PrivateStore {
      #calls = 0;
      async counts(): Promise<FrontierCounts> {
        this.#calls++;
        return { queued: this.#calls, inFlight: 0, done: 0, failed: 0, activeHosts: 0 };
      }
    }
    const { metrics } = setUp();
    const store = metrics.store(new PrivateStore() as never) as unknown as PrivateStore;
    expect((await store.counts()).queued).toBe(1);
    expect((await store.counts()).queued).toBe(2);
  });

  it('times HTTP requests with the status, and a request that fails with its error code', async () => {
    const server = createServer((req, res) => {
      res.statusCode = req.url === '/gone' ? 410 : 200;
      res.end('x');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const { metrics, reader } = setUp();
    const client = metrics.client(createHttpClient());
    try {
      await client.get(request(`${base}/`));
      await client.get(request(`${base}/gone`));
      await new Promise<void>((resolve) => server.close(() => resolve()));
      // Nothing listens on the port now: refused.
      await expect(client.get(request(`${base}/`))).rejects.toBeInstanceOf(PolitelyError);
    } finally {
      server.closeAllConnections();
      server.close();
      await client.close();
    }
    const durations = (await points(reader, 'http.client.request.duration')) as DataPoint<Histogram>[];
    const seen: Record<string, unknown>[] = durations.map((p) => ({ ...p.attributes, count: p.value.count }));
    expect(seen).toContainEqual({
      'http.request.method': 'GET',
      'http.response.status_code': 200,
      'url.scheme': 'http',
      count: 1,
    });
    expect(seen).toContainEqual({
      'http.request.method': 'GET',
      'http.response.status_code': 410,
      'url.scheme': 'http',
      'error.type': '410',
      count: 1,
    });
    const failed = seen.find((p) => p['http.response.status_code'] === undefined);
    expect(failed?.['error.type']).toMatch(/^ERR_[A-Z_]+$/);
  });

  it('the gauges read the store once for collections a second apart or less, and stop when told', async () => {
    const reader = new TestReader();
    const other = new TestReader();
    const provider = new MeterProvider({ readers: [reader, other] });
    providers.push(provider);
    const metrics = new CrawlMetrics(provider);
    let reads = 0;
    const store = createMemoryFrontierStore();
    const counted = {
      counts: () => {
        reads++;
        return store.counts();
      },
    };
    metrics.store(counted as never);
    await store.add([{ url: 'http://a.test/', hostKey: 'a.test', depth: 0, priority: 0 }]);
    expect(await points(reader, 'politely.frontier.queued')).toEqual([]);
    metrics.observe();
    const [queued] = (await points(reader, 'politely.frontier.queued')) as DataPoint<number>[];
    expect(queued?.value).toBe(1);
    await points(other, 'politely.frontier.queued');
    expect(reads).toBe(1);
    metrics.stopObserving();
    await points(reader, 'politely.frontier.queued');
    expect(reads).toBe(1);
  });

  it('names errors with bounded values', () => {
    expect(errorType(new PolitelyError('ERR_TIMEOUT', 'slow'))).toBe('ERR_TIMEOUT');
    expect(errorType(Object.assign(new Error('x'), { code: 'ECONNRESET' }))).toBe('ECONNRESET');
    expect(errorType(new TypeError('x'))).toBe('TypeError');
    expect(errorType(new Error('http://a.test/ failed'))).toBe('_OTHER');
    expect(errorType(Object.assign(new Error('x'), { code: 'http://a.test/' }))).toBe('_OTHER');
    expect(errorType('a string')).toBe('_OTHER');
    expect(errorType(null)).toBe('_OTHER');
  });

  it('robots.txt outcomes by status (RFC 9309)', () => {
    expect([200, 301, 404, 429, 500, 503].map(robotsOutcomeOf)).toEqual([
      'fetched',
      'redirected',
      'unavailable',
      'unreachable',
      'unreachable',
      'unreachable',
    ]);
  });
});
