// The crawl's metrics, through OpenTelemetry's API: the one module that owns the instruments. The
// rest of the crawler calls it from the places that already count things (the reporter, the
// stats recorder, the outcome of each URL), and it wraps the crawl's HTTP client and store to time
// them. docs/metrics.md lists every metric.
//
// Without a registered MeterProvider the API hands out a no-op meter: every instrument is a no-op,
// nothing wraps the client or the store, and no gauge reads the store.
//
// Host names and URLs never become attribute values: a crawl meets hosts without bound, and a
// metric backend keeps one series per distinct set of attributes. Every attribute value here comes
// from a short, fixed list (a kind, a reason, a status code).

import {
  type Attributes,
  type BatchObservableCallback,
  type BatchObservableResult,
  type Counter,
  createNoopMeter,
  type Histogram,
  type Meter,
  type MeterProvider,
  metrics,
  type ObservableGauge,
} from '@opentelemetry/api';
import type { HttpClient, HttpRequest, HttpResponse } from '@politely/core';
import type { FrontierCounts, FrontierStore } from '@politely/frontier';

/** The meter's name (the instrumentation scope). */
export const METER_NAME = '@politely/crawler';

/** What became of a claimed URL (`politely.pages`). */
export type PageOutcome = 'done' | 'skipped' | 'failed' | 'retried' | 'released';

/** Why a host holds (`politely.host.holds`). */
export type HoldReason = 'failed-attempt' | 'retry-after' | 'robots-unreachable';

/** What a robots.txt fetch got (`politely.robots.fetches`). */
export type RobotsFetchOutcome = 'fetched' | 'redirected' | 'unavailable' | 'unreachable' | 'error';

/** The store operations timed (`politely.store.operation.duration`). */
const TIMED_STORE_OPERATIONS = new Set(['claim', 'complete', 'completeAndClaim', 'add', 'release', 'retry']);

/** How long the frontier's counts are reused by the gauges: several readers collecting at once read the store once. */
const COUNTS_CACHE_MS = 1000;

/** Buckets (seconds) for the durations: from a local store call to a slow server. */
const SECONDS_BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60];

/** Buckets (seconds) for waits at a host: a delay is often a second to a minute. */
const WAIT_BUCKETS = [0, 0.01, 0.05, 0.1, 0.25, 0.5, 1, 2, 5, 10, 30, 60, 120, 300];

/** A bounded name for an error: its code (`ERR_…`, `ECONNRESET`), else its class name, else `_OTHER`. */
export function errorType(error: unknown): string {
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code === 'string' && /^[A-Z][A-Z0-9_]{1,63}$/.test(code)) return code;
  const name = (error as { name?: unknown } | null)?.name;
  if (typeof name === 'string' && /^[A-Za-z]{1,64}$/.test(name) && name !== 'Error') return name;
  return '_OTHER';
}

const seconds = (ms: number): number => Math.max(0, ms) / 1000;

const MAX_ATTRIBUTE_SETS = 256;

/** Frozen one-attribute sets by value, made once each (up to a bound: values are a few names). */
class AttributeSets {
  private readonly sets = new Map<string, Attributes>();

  constructor(private readonly key: string) {}

  of(value: string): Attributes {
    const known = this.sets.get(value);
    if (known !== undefined) return known;
    const made: Attributes = Object.freeze({ [this.key]: value });
    if (this.sets.size < MAX_ATTRIBUTE_SETS) this.sets.set(value, made);
    return made;
  }
}

export class CrawlMetrics {
  /** No provider registered: nothing is recorded, nothing is wrapped. */
  readonly enabled: boolean;
  private readonly meter: Meter;
  private readonly pages: Counter;
  private readonly skips: Counter;
  /** One attribute set per skip reason and per request kind: recorded for every skipped link. */
  private readonly skipAttributes = new AttributeSets('politely.skip.reason');
  private readonly requestAttributes = new AttributeSets('politely.request.kind');
  private readonly errors: Counter;
  private readonly requests: Counter;
  private readonly signedRequests: Counter;
  private readonly bytesReceived: Counter;
  private readonly requestDuration: Histogram;
  private readonly turnWait: Histogram;
  private readonly holds: Counter;
  private readonly robotsFetches: Counter;
  private readonly storeDuration: Histogram;
  private readonly renderSubRequests: Counter;
  private readonly renderPageLoads: Counter;
  private readonly outputBytes: Counter;
  private readonly gauges: {
    readonly queued: ObservableGauge;
    readonly inFlight: ObservableGauge;
    readonly done: ObservableGauge;
    readonly failed: ObservableGauge;
    readonly activeHosts: ObservableGauge;
    readonly concurrencyLimit: ObservableGauge;
  };
  private observing: BatchObservableCallback | undefined;
  /** The store whose counts the gauges observe (`store`). */
  private counted: Pick<FrontierStore, 'counts'> | undefined;
  /** The crawl's limit of requests in flight (`concurrency`), observed by its gauge. */
  private limited: { readonly current: number } | undefined;

  /** `provider`: the crawl's (`meterProvider`), else the global one. */
  constructor(provider: MeterProvider = metrics.getMeterProvider()) {
    const meter = provider.getMeter(METER_NAME);
    this.meter = meter;
    this.enabled = meter !== createNoopMeter();
    this.pages = meter.createCounter('politely.pages', {
      description: 'URLs claimed from the frontier, by what became of them',
      unit: '{url}',
    });
    this.skips = meter.createCounter('politely.skips', {
      description: 'URLs not fetched or not followed, by reason',
      unit: '{url}',
    });
    this.errors = meter.createCounter('politely.errors', {
      description: 'Failed attempts, by stage; retried or not',
      unit: '{error}',
    });
    this.requests = meter.createCounter('politely.requests', {
      description: 'HTTP requests started, by kind',
      unit: '{request}',
    });
    this.signedRequests = meter.createCounter('politely.requests.signed', {
      description: 'HTTP requests sent signed (Web Bot Auth), of every kind',
      unit: '{request}',
    });
    this.bytesReceived = meter.createCounter('politely.bytes.received', {
      description: 'Response body bytes received (decoded), pages and rendered pages’ sub-requests',
      unit: 'By',
    });
    this.requestDuration = meter.createHistogram('http.client.request.duration', {
      description: 'Duration of HTTP client requests',
      unit: 's',
      advice: { explicitBucketBoundaries: SECONDS_BUCKETS },
    });
    this.turnWait = meter.createHistogram('politely.host.turn.wait', {
      description: 'Time a claimed request waited for its host’s pace before going out',
      unit: 's',
      advice: { explicitBucketBoundaries: WAIT_BUCKETS },
    });
    this.holds = meter.createCounter('politely.host.holds', {
      description: 'Holds put on a host (Retry-After, backoff after a failed attempt, robots.txt unreachable)',
      unit: '{hold}',
    });
    this.robotsFetches = meter.createCounter('politely.robots.fetches', {
      description: 'robots.txt fetches, by what they got',
      unit: '{request}',
    });
    this.storeDuration = meter.createHistogram('politely.store.operation.duration', {
      description: 'Duration of frontier store operations',
      unit: 's',
      advice: { explicitBucketBoundaries: SECONDS_BUCKETS },
    });
    this.renderSubRequests = meter.createCounter('politely.render.sub_requests', {
      description: 'Requests rendered pages asked for, by outcome',
      unit: '{request}',
    });
    this.renderPageLoads = meter.createCounter('politely.render.page_loads', {
      description: 'Pages loaded in the browser',
      unit: '{page}',
    });
    this.outputBytes = meter.createCounter('politely.output.bytes', {
      description: 'Bytes written to the record outputs, by format',
      unit: 'By',
    });
    this.gauges = {
      queued: meter.createObservableGauge('politely.frontier.queued', {
        description: 'URLs queued in the store',
        unit: '{url}',
      }),
      inFlight: meter.createObservableGauge('politely.frontier.in_flight', {
        description: 'URLs claimed and not settled',
        unit: '{url}',
      }),
      done: meter.createObservableGauge('politely.frontier.done', {
        description: 'URLs finished: fetched, skipped or failed',
        unit: '{url}',
      }),
      failed: meter.createObservableGauge('politely.frontier.failed', {
        description: 'Of the finished URLs, those that failed',
        unit: '{url}',
      }),
      activeHosts: meter.createObservableGauge('politely.frontier.active_hosts', {
        description: 'Hosts with URLs queued or in flight',
        unit: '{host}',
      }),
      concurrencyLimit: meter.createObservableGauge('politely.crawl.concurrency_limit', {
        description: 'Requests the crawl may have in flight now: concurrency, or fewer under adaptiveConcurrency',
        unit: '{request}',
      }),
    };
  }

  /** A claimed URL's outcome; `releaseReason` for a released one. */
  page(outcome: PageOutcome, resourceKind: string, releaseReason?: string): void {
    const attributes: Attributes = { 'politely.outcome': outcome, 'politely.resource.kind': resourceKind };
    if (releaseReason !== undefined) attributes['politely.release.reason'] = releaseReason;
    this.pages.add(1, attributes);
  }

  skip(reason: string): void {
    this.skips.add(1, this.skipAttributes.of(reason));
  }

  error(stage: string, willRetry: boolean): void {
    this.errors.add(1, { 'politely.error.stage': stage, 'politely.error.retried': willRetry });
  }

  request(kind: string): void {
    this.requests.add(1, this.requestAttributes.of(kind));
  }

  /** A request went out signed (Web Bot Auth). */
  signedRequest(): void {
    this.signedRequests.add(1);
  }

  received(bytes: number, kind: string): void {
    this.bytesReceived.add(bytes, { 'politely.request.kind': kind });
  }

  /** A request of `kind` waited `ms` for its host's pace (0 when it did not). */
  turnWaited(ms: number, kind: string): void {
    this.turnWait.record(seconds(ms), { 'politely.request.kind': kind });
  }

  hold(reason: HoldReason): void {
    this.holds.add(1, { 'politely.hold.reason': reason });
  }

  robotsFetched(outcome: RobotsFetchOutcome): void {
    this.robotsFetches.add(1, { 'politely.robots.outcome': outcome });
  }

  /** A rendered page's request: sent, answered by the cache, or refused (`refusal`: why). */
  renderSubRequest(outcome: 'sent' | 'from-cache' | 'refused', refusal?: string): void {
    const attributes: Attributes = { 'politely.render.outcome': outcome };
    if (refusal !== undefined) attributes['politely.render.refusal'] = refusal;
    this.renderSubRequests.add(1, attributes);
  }

  renderPageLoad(): void {
    this.renderPageLoads.add(1);
  }

  written(bytes: number, format: string): void {
    this.outputBytes.add(bytes, { 'politely.output.format': format });
  }

  /**
   * The client, its requests timed (`http.client.request.duration`); the client itself when no
   * provider is registered.
   */
  client(client: HttpClient): HttpClient {
    if (!this.enabled) return client;
    const histogram = this.requestDuration;
    return {
      async get(request: HttpRequest): Promise<HttpResponse> {
        const startedAt = performance.now();
        const scheme = request.url.startsWith('https:') ? 'https' : 'http';
        try {
          const response = await client.get(request);
          histogram.record(seconds(performance.now() - startedAt), {
            'http.request.method': 'GET',
            'http.response.status_code': response.status,
            'url.scheme': scheme,
            ...(response.status >= 400 ? { 'error.type': String(response.status) } : {}),
          });
          return response;
        } catch (error) {
          histogram.record(seconds(performance.now() - startedAt), {
            'http.request.method': 'GET',
            'url.scheme': scheme,
            'error.type': errorType(error),
          });
          throw error;
        }
      },
      close: () => client.close(),
    };
  }

  /**
   * The store, its claim, complete, add, release and retry timed
   * (`politely.store.operation.duration`); the store itself when no provider is registered.
   * Every other member is the store's own.
   */
  store(store: FrontierStore): FrontierStore {
    this.counted = store;
    if (!this.enabled) return store;
    const histogram = this.storeDuration;
    const timed = new Map<PropertyKey, unknown>();
    return new Proxy(store, {
      get(target, key) {
        const value: unknown = Reflect.get(target, key, target);
        if (typeof value !== 'function') return value;
        let wrapped = timed.get(key);
        if (wrapped === undefined) {
          const method = value as (...args: unknown[]) => unknown;
          const operation = String(key);
          wrapped = TIMED_STORE_OPERATIONS.has(operation)
            ? async (...args: unknown[]) => {
                const startedAt = performance.now();
                try {
                  const result = await method.apply(target, args);
                  histogram.record(seconds(performance.now() - startedAt), { 'politely.store.operation': operation });
                  return result;
                } catch (error) {
                  histogram.record(seconds(performance.now() - startedAt), {
                    'politely.store.operation': operation,
                    'error.type': errorType(error),
                  });
                  throw error;
                }
              }
            : method.bind(target);
          timed.set(key, wrapped);
        }
        return wrapped;
      },
    });
  }

  /** The crawl's limit of requests in flight, observed by `politely.crawl.concurrency_limit`. */
  concurrency<Limit extends { readonly current: number }>(limit: Limit): Limit {
    this.limited = limit;
    return limit;
  }

  /**
   * Observes the counts of the store given to `store` (the `politely.frontier.*` gauges) until
   * `stopObserving`: read at
   * most once per collection, and reused for a second while fresh (readers collecting together
   * read the store once). Never on the claim path: only a collection reads them.
   */
  observe(): void {
    const store = this.counted;
    if (!this.enabled || this.observing !== undefined || store === undefined) return;
    let cached: { readonly at: number; readonly counts: Promise<FrontierCounts | undefined> } | undefined;
    const { gauges } = this;
    const callback: BatchObservableCallback = async (result: BatchObservableResult) => {
      if (this.limited !== undefined) result.observe(gauges.concurrencyLimit, this.limited.current);
      const now = Date.now();
      if (cached === undefined || now - cached.at >= COUNTS_CACHE_MS) {
        cached = { at: now, counts: store.counts().catch(() => undefined) };
      }
      const counts = await cached.counts;
      if (counts === undefined) return;
      result.observe(gauges.queued, counts.queued);
      result.observe(gauges.inFlight, counts.inFlight);
      result.observe(gauges.done, counts.done);
      result.observe(gauges.failed, counts.failed);
      result.observe(gauges.activeHosts, counts.activeHosts);
    };
    this.observing = callback;
    this.meter.addBatchObservableCallback(callback, Object.values(gauges));
  }

  /** The gauges stop reading the store (the crawl has ended). */
  stopObserving(): void {
    if (this.observing === undefined) return;
    this.meter.removeBatchObservableCallback(this.observing, Object.values(this.gauges));
    this.observing = undefined;
  }
}

/** Records nothing: a crawl's metrics before its crawler gives it its own. */
export const NO_METRICS = new CrawlMetrics({ getMeter: () => createNoopMeter() });

/** The robots.txt fetch outcome of a response's status. */
export function robotsOutcomeOf(status: number): RobotsFetchOutcome {
  if (status >= 200 && status < 300) return 'fetched';
  if (status >= 300 && status < 400) return 'redirected';
  if (status >= 400 && status < 500 && status !== 429) return 'unavailable';
  return 'unreachable';
}
