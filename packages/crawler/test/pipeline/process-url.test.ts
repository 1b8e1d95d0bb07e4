// UrlProcessor (pipeline/process-url.ts) over real parts wired as crawler.ts wires them (real gate
// with the crawler's robots fetch, undici client, memory store, frontier, reporter), one claimed
// URL at a time: the outcomes the e2e tests do not isolate, judged by the store, the events and
// the server's log.

import { createHttpClient, createRobotsGate, type HttpClient, PolitelyError, type RobotsGate } from '@politely/core';
import { createMemoryFrontierStore, type FrontierLease, type FrontierStore } from '@politely/frontier';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createPolitenessKeys, HostPoliteness } from '../../src/politeness/index.js';

const hostKeys = createPolitenessKeys('host', undefined);

import { Dataset } from '../../src/dataset/dataset.js';
import { CrawlerEmitter, type ErrorEvent, type RequestEvent, type SkipEvent } from '../../src/events.js';
import { createCrawlerRobotsFetch } from '../../src/fetch/robots-fetch.js';
import { createFrontier, type Frontier } from '../../src/frontier/frontier.js';
import { createScope } from '../../src/frontier/scope.js';
import type { PluginResourceKind } from '../../src/handle/run-processor.js';
import { type CrawlerOptions, resolveCrawlerOptions } from '../../src/options.js';
import { UrlProcessor } from '../../src/pipeline/process-url.js';
import { LeaseSettler } from '../../src/pipeline/settle.js';
import { type CrawlContext, pluginContexts } from '../../src/plugin-context.js';
import { CrawlReporter } from '../../src/reporter.js';
import { SeedRefusals } from '../../src/seed-refusals.js';
import { StatsRecorder } from '../../src/stats.js';
import { answer, claimAt, hostReadyAt, LOOPBACK, type LoopbackServer, startLoopback, UA } from './pipeline-helpers.js';

const DELAY = 50;
const HOST = '127.0.0.1';

let server: LoopbackServer;
const pipelines: Pipeline[] = [];

beforeAll(async () => {
  server = await startLoopback();
});
afterAll(() => server.close());
afterEach(async () => {
  await Promise.all(pipelines.splice(0).map((p) => p.close()));
  server.reset();
});

interface Pipeline {
  readonly processor: UrlProcessor;
  readonly store: FrontierStore;
  readonly frontier: Frontier;
  readonly gate: RobotsGate;
  readonly stats: StatsRecorder;
  readonly skips: SkipEvent[];
  readonly errors: ErrorEvent[];
  readonly requests: RequestEvent[];
  readonly fatal: unknown[];
  close(): Promise<void>;
}

/** The store methods called, in order, by every pipeline of the current test (complete with its links' URLs). */
const storeCalls: string[] = [];

/** `store`, with each call of add, claim and the settles written to `calls`. */
function recordingCalls(store: FrontierStore, calls: string[]): FrontierStore {
  return {
    ...store,
    add: (entries, options) => (calls.push(`add ${entries.map((e) => e.url).join(' ')}`), store.add(entries, options)),
    claim: (request) => (calls.push('claim'), store.claim(request)),
    complete: (id, options) => (
      calls.push(`complete${(options?.add ?? []).map((e) => ` ${e.url}`).join('')}`), store.complete(id, options)
    ),
    release: (id, options) => (calls.push('release'), store.release(id, options)),
    retry: (id, options) => (calls.push('retry'), store.retry(id, options)),
    setHostPolicy: (hostKey, policy) => store.setHostPolicy(hostKey, policy),
    counts: () => store.counts(),
    hostCounts: (limit) => store.hostCounts(limit),
    close: () => store.close(),
  };
}

/** The processor and its parts, built as crawler.ts builds them. */
function buildPipeline(
  raw: Omit<Partial<CrawlerOptions>, 'userAgent'> = {},
  signal = new AbortController().signal,
  stopping = new AbortController().signal,
): Pipeline {
  const options = resolveCrawlerOptions({ userAgent: UA, allowNet: LOOPBACK, minDelayMs: DELAY, ...raw });
  const client: HttpClient = createHttpClient({
    blockPrivateNetworks: options.blockPrivateNetworks,
    allowNet: options.allowNet,
    connectTimeoutMs: options.connectTimeoutMs,
    maxHeaderBytes: options.maxHeaderBytes,
  });
  const store = recordingCalls(
    createMemoryFrontierStore({
      defaultHostPolicy: { delayMs: options.minDelayMs, maxInFlight: options.perHostConcurrency },
    }),
    storeCalls,
  );
  const emitter = new CrawlerEmitter();
  const stats = new StatsRecorder();
  const reporter = new CrawlReporter(emitter, stats);
  const gate = createRobotsGate({
    userAgent: options.userAgent,
    minBackoffMs: Math.max(1, options.backoffBaseMs),
    maxBackoffMs: Math.max(1, options.backoffMaxMs),
    fetch: createCrawlerRobotsFetch(client, Math.min(options.requestTimeoutMs, 10_000), {
      onRequest: (url, startedAt) => {
        stats.requests++;
        stats.robotsRequests++;
        emitter.emit('request', { url: url.href, hostKey: hostKeys.knownKeyOf(url), kind: 'robots', at: startedAt });
      },
    }),
  });
  const frontier = createFrontier({
    store,
    inScope: createScope(options.scope, [`${server.base}/`]),
    canonicalUrl: options.canonicalUrl,
    maxDepth: options.maxDepth,
    maxPagesPerHost: options.maxPagesPerHost,
    trapDetection: options.trapDetection,
    hostKeyOf: hostKeys.keyOf,
    onSkip: (url, skip, referrer) => reporter.skip(url, skip, referrer),
  });
  const crawl: CrawlContext = {
    enqueue: (requests) => frontier.add(requests),
    error: (url, error) => reporter.error(url, error, 'processor', 1, false),
    gate,
    userAgent: options.userAgent,
    signal,
  };
  const resourceKinds = new Map<string, PluginResourceKind>();
  for (const { plugin, context } of pluginContexts(options.plugins, crawl, reporter)) {
    for (const [kind, processor] of Object.entries(plugin.processors ?? {}))
      resourceKinds.set(kind, { processor, context });
  }
  const fatal: unknown[] = [];
  const processor = new UrlProcessor(options, {
    keys: hostKeys,
    isSignatureChallenge: () => false,
    knownRobots: async () => undefined,
    renderSession: () => Promise.reject(new Error('this pipeline renders nothing')),
    store,
    settler: new LeaseSettler(store, options.perHostConcurrency, frontier.addOptions),
    frontier,
    gate,
    client,
    politeness: new HostPoliteness({
      minDelayMs: options.minDelayMs,
      maxCrawlDelayMs: options.maxCrawlDelayMs,
      backoffBaseMs: options.backoffBaseMs,
      backoffMaxMs: options.backoffMaxMs,
      adaptive: options.adaptiveDelay,
    }),
    emitter,
    stats,
    reporter,
    seeds: new SeedRefusals(options.canonicalUrl),
    signal,
    stopping,
    pageBudget: { started: 0, max: options.maxPages },
    resourceKinds,
    onFatal: (error) => void fatal.push(error),
    dataset: new Dataset([], {
      onRecord: undefined,
      listens: () => false,
      onFailure: (error) => void fatal.push(error),
    }),
  });
  const skips: SkipEvent[] = [];
  const errors: ErrorEvent[] = [];
  const requests: RequestEvent[] = [];
  emitter.on('skip', (e) => skips.push(e));
  emitter.on('error', (e) => errors.push(e));
  emitter.on('request', (e) => requests.push(e));
  const pipeline: Pipeline = {
    processor,
    store,
    frontier,
    gate,
    stats,
    skips,
    errors,
    requests,
    fatal,
    close: async () => void (await Promise.all([gate.close(), client.close()])),
  };
  pipelines.push(pipeline);
  return pipeline;
}

const url = (path: string): string => `${server.base}${path}`;

/** Queues `paths` as seeds (depth 0, in scope). */
async function queue(p: Pipeline, ...paths: string[]): Promise<void> {
  await p.frontier.add(paths.map((path) => ({ url: url(path), depth: 0, skipScope: true })));
}

/** Waits (a short while at most) for the host's clock, claims its next URL, and processes it. */
async function processNext(p: Pipeline): Promise<FrontierLease> {
  const readyAt = await hostReadyAt(p.store, HOST);
  if (readyAt - Date.now() > 2000) throw new Error(`the host is not ready for ${readyAt - Date.now()} ms`);
  while (Date.now() < readyAt) await new Promise((resolve) => setTimeout(resolve, readyAt - Date.now() + 1));
  const lease = await claimAt(p.store, Date.now());
  await p.processor.process(lease);
  return lease;
}

/** Fetches robots.txt once through the pipeline's gate, so that later checks come from the cache. */
async function warmRobots(p: Pipeline): Promise<void> {
  await p.gate.check(url('/'), UA);
  server.arrivals.length = 0;
}

const arrivalOf = (path: string): number => server.arrivals.find((a) => a.path === path)!.at;

// The robots gate decides first: a disallowed URL is skipped with its rule, and a robots.txt
// fetch takes the claim's turn at the host.
describe('UrlProcessor: robots', () => {
  it('a URL whose check fetched robots.txt goes back (robots-turn), paced from that response; the next claim fetches it', async () => {
    server.routes['/robots.txt'] = 'User-agent: *\nAllow: /\n';
    server.routes['/page'] = '<p>hello</p>';
    const p = buildPipeline();
    await queue(p, '/page');
    const before = Date.now();
    await processNext(p);

    expect(server.paths()).toEqual(['/robots.txt']);
    expect(await p.store.counts()).toMatchObject({ queued: 1, inFlight: 0, done: 0 });
    const readyAt = await hostReadyAt(p.store, HOST);
    expect(readyAt).toBeGreaterThanOrEqual(arrivalOf('/robots.txt') + DELAY);
    expect(readyAt).toBeLessThanOrEqual(Date.now() + 1 + DELAY);
    expect(p.requests.map((r) => [r.kind, r.url])).toEqual([['robots', url('/robots.txt')]]);
    expect(p.requests[0]!.at).toBeGreaterThanOrEqual(before);
    expect([p.skips, p.errors]).toEqual([[], []]);

    await processNext(p);
    expect(server.paths()).toEqual(['/robots.txt', '/page']);
    expect(arrivalOf('/page')).toBeGreaterThanOrEqual(readyAt);
    expect(await p.store.counts()).toMatchObject({ queued: 0, done: 1 });
    expect(p.stats).toMatchObject({ pages: 1, requests: 2, robotsRequests: 1, byStatus: { 200: 1 } });
  });

  it('a disallowed URL is skipped with its rule as { line, text }; the page is never requested', async () => {
    server.routes['/robots.txt'] = '# rules\nUser-agent: *\nDisallow: /private\n';
    const p = buildPipeline();
    await p.frontier.add([{ url: url('/private/x'), depth: 1, referrer: url('/list'), skipScope: true }]);
    await processNext(p);

    expect(p.skips).toEqual([
      {
        url: url('/private/x'),
        reason: 'robots',
        detail: 'line 3: Disallow: /private',
        rule: { line: 3, text: 'Disallow: /private' },
        referrer: url('/list'),
      },
    ]);
    expect(p.stats.skipped).toEqual({ robots: 1 });
    expect(server.paths()).toEqual(['/robots.txt']);
    expect(await p.store.counts()).toMatchObject({ queued: 0, inFlight: 0, done: 1 });
    // The robots.txt request used the host's turn: the clock runs from its response.
    expect(await hostReadyAt(p.store, HOST)).toBeGreaterThanOrEqual(arrivalOf('/robots.txt') + DELAY);
  });

  it('a disallowed URL decided from the cache costs the host nothing: the claim’s clock is handed back', async () => {
    server.routes['/robots.txt'] = 'User-agent: *\nDisallow: /private\n';
    const p = buildPipeline();
    await warmRobots(p);
    await queue(p, '/private/y');
    const lease = await processNext(p);
    expect(p.skips.map((s) => [s.reason, s.rule])).toEqual([['robots', { line: 2, text: 'Disallow: /private' }]]);
    expect(await hostReadyAt(p.store, HOST)).toBe(lease.previousHostReadyAt);
    expect(server.paths()).toEqual([]);
  });

  it('robots.txt unreachable: robots-retry holds the host, and a URL claimed meanwhile goes back with no request at all', async () => {
    server.routes['/robots.txt'] = answer(503, { 'retry-after': '30' });
    const p = buildPipeline({ backoffBaseMs: 100 });
    await queue(p, '/a', '/b');
    await processNext(p);
    const hold = await hostReadyAt(p.store, HOST);
    expect(hold).toBeGreaterThanOrEqual(arrivalOf('/robots.txt') + 30_000);
    expect(hold).toBeLessThanOrEqual(Date.now() + 30_000);
    expect(await p.store.counts()).toMatchObject({ queued: 2, done: 0 });

    // Claimed at the hold by the store's clock, but the process knows the hold is still on: host-held.
    const lease = await claimAt(p.store, hold);
    await p.processor.process(lease);
    expect(server.paths()).toEqual(['/robots.txt']);
    expect(await p.store.counts()).toMatchObject({ queued: 2, done: 0 });
    expect(await hostReadyAt(p.store, HOST)).toBe(hold);
    expect([p.skips, p.errors]).toEqual([[], []]);
  });

  // The gate's retryAt is respondedAt + its backoff (crawler.ts passes minBackoffMs =
  // backoffBaseMs): with minDelayMs > backoffBaseMs the next robots.txt request once went out
  // sooner than the host's delay. The hold is at least the pace: max(retryAt, respondedAt + delay).
  it('after a failed robots.txt fetch the next request waits at least the host delay', async () => {
    server.routes['/robots.txt'] = answer(503);
    const p = buildPipeline({ minDelayMs: 2000, backoffBaseMs: 100 });
    await queue(p, '/a');
    await processNext(p);
    expect(await hostReadyAt(p.store, HOST)).toBeGreaterThanOrEqual(arrivalOf('/robots.txt') + 2000);
  });
});

// After robots: turns denied without a request (a hold known here, the page budget, the lease).
describe('UrlProcessor: turns without a request', () => {
  it('a URL claimed while a sibling’s Retry-After is known here but not yet settled: host-held, no request', async () => {
    let entered!: () => void;
    const handlerEntered = new Promise<void>((resolve) => (entered = resolve));
    let finish!: () => void;
    const handlerDone = new Promise<void>((resolve) => (finish = resolve));
    server.routes['/robots.txt'] = 'User-agent: *\nAllow: /\n';
    server.routes['/busy'] = answer(503, { 'retry-after': '5' }, 'busy');
    server.routes['/next'] = '<p>next</p>';
    const p = buildPipeline({
      perHostConcurrency: 2,
      maxRetries: 0,
      handler: async (page) => {
        if (page.status !== 503) return;
        entered();
        await handlerDone;
      },
    });
    await warmRobots(p);
    await queue(p, '/busy', '/next');
    const busy = await claimAt(p.store, Date.now());
    const busyDone = p.processor.process(busy);
    await handlerEntered; // the 503 is in; its URL has not settled, so the store knows no hold yet

    const next = await claimAt(p.store, Math.max(Date.now(), await hostReadyAt(p.store, HOST)));
    expect(next.entry.url).toBe(url('/next'));
    await p.processor.process(next);
    expect(server.paths()).toEqual(['/busy']);
    expect(await p.store.counts()).toMatchObject({ queued: 1, inFlight: 1 });

    finish();
    await busyDone;
    expect(await p.store.counts()).toMatchObject({ queued: 1, inFlight: 0, done: 1 });
    const readyAt = await hostReadyAt(p.store, HOST);
    expect(readyAt).toBeGreaterThanOrEqual(arrivalOf('/busy') + 5000);
    expect(readyAt).toBeLessThanOrEqual(Date.now() + 5000 + 1);
    expect(p.errors).toEqual([]);
    expect(p.stats).toMatchObject({ pages: 1, byStatus: { 503: 1 } });
  });

  it('maxPages reached: page-budget, no request, the URL back in the store and the clock handed back', async () => {
    server.routes['/robots.txt'] = 'User-agent: *\nAllow: /\n';
    server.routes['/one'] = '<p>one</p>';
    server.routes['/two'] = '<p>two</p>';
    const p = buildPipeline({ maxPages: 1, followLinks: false });
    await warmRobots(p);
    await queue(p, '/one', '/two');
    await processNext(p);
    const lease = await processNext(p);
    expect(lease.entry.url).toBe(url('/two'));
    expect(server.paths()).toEqual(['/one']);
    expect(await p.store.counts()).toMatchObject({ queued: 1, done: 1 });
    expect(await hostReadyAt(p.store, HOST)).toBe(lease.previousHostReadyAt);
    expect(p.stats.pages).toBe(1);
  });

  it('a lease already expired: lease-expired, no request, the URL back in the store', async () => {
    server.routes['/robots.txt'] = 'User-agent: *\nAllow: /\n';
    const p = buildPipeline();
    await warmRobots(p);
    await queue(p, '/late');
    const lease = await claimAt(p.store, Date.now() - 10_000, 1000);
    await p.processor.process(lease);
    expect(server.paths()).toEqual([]);
    expect(await p.store.counts()).toMatchObject({ queued: 1, inFlight: 0, done: 0 });
    expect([p.skips, p.errors]).toEqual([[], []]);
  });

  it('a stopped crawl: the URL goes back (stopping), no request, and an abort is not fatal', async () => {
    server.routes['/robots.txt'] = 'User-agent: *\nAllow: /\n';
    const stop = new AbortController();
    const p = buildPipeline({}, stop.signal);
    await queue(p, '/page');
    const lease = await claimAt(p.store, Date.now());
    stop.abort();
    await p.processor.process(lease);
    expect(server.paths()).toEqual([]);
    expect(p.fatal).toEqual([]);
    expect(await p.store.counts()).toMatchObject({ queued: 1, inFlight: 0 });
    expect(await hostReadyAt(p.store, HOST)).toBe(lease.previousHostReadyAt);
    expect(p.stats.releasedAtStop).toBe(1);
  });

  it('a claim made as stop() came: the URL goes back (stopping), no request (robots.txt neither), nothing cut', async () => {
    server.routes['/robots.txt'] = 'User-agent: *\nAllow: /\n';
    const stopping = new AbortController();
    const p = buildPipeline({}, new AbortController().signal, stopping.signal);
    await queue(p, '/page');
    const lease = await claimAt(p.store, Date.now());
    stopping.abort();
    await p.processor.process(lease);
    expect(server.paths()).toEqual([]);
    expect([p.fatal, p.skips, p.errors]).toEqual([[], [], []]);
    expect(await p.store.counts()).toMatchObject({ queued: 1, inFlight: 0 });
    expect(await hostReadyAt(p.store, HOST)).toBe(lease.previousHostReadyAt);
    expect(p.stats.releasedAtStop).toBe(0);
  });

  // The gate turns a fired signal into ERR_TIMEOUT when its reason is a TimeoutError (as with
  // `AbortSignal.timeout(ms)`): whether the crawl's signal has fired decides that a walk's error
  // is the stop, not the error's code (run() once rejected with ERR_TIMEOUT).
  it('a crawl stopped by AbortSignal.timeout is not a fatal error either', async () => {
    server.routes['/robots.txt'] = 'User-agent: *\nAllow: /\n';
    const signal = AbortSignal.timeout(1);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(signal.aborted).toBe(true);
    const p = buildPipeline({}, signal);
    await queue(p, '/page');
    await p.processor.process(await claimAt(p.store, Date.now()));
    expect(await p.store.counts()).toMatchObject({ queued: 1, inFlight: 0 });
    expect(p.fatal).toEqual([]);
  });
});

// What a fetched URL turns into: handled, redirected, retried, or an error for a kind nobody processes.
describe('UrlProcessor: after the fetch', () => {
  it('a page is handled, its links queued with it as referrer, and the clock paced from its response', async () => {
    server.routes['/robots.txt'] = 'User-agent: *\nAllow: /\n';
    server.routes['/'] = '<a href="/a">a</a><a href="/b" rel="nofollow">b</a>';
    const seen: string[] = [];
    const p = buildPipeline({ handler: (page) => void seen.push(`${page.status} ${page.url}`) });
    await warmRobots(p);
    await queue(p, '/');
    await processNext(p);
    expect(seen).toEqual([`200 ${url('/')}`]);
    expect(p.skips).toEqual([{ url: url('/b'), reason: 'nofollow', detail: 'rel', referrer: url('/') }]);
    const readyAt = await hostReadyAt(p.store, HOST);
    expect(readyAt).toBeGreaterThanOrEqual(arrivalOf('/') + DELAY);
    expect(readyAt).toBeLessThanOrEqual(Date.now() + 1 + DELAY);
    expect(await p.store.counts()).toMatchObject({ queued: 1, done: 1 });
    const next = await claimAt(p.store, readyAt);
    expect(next.entry).toMatchObject({ url: url('/a'), depth: 1, referrer: url('/') });
    expect(p.stats).toMatchObject({ pages: 1, requests: 2, robotsRequests: 1, byStatus: { 200: 1 } });
  });

  it('a page’s links reach the store with its completion, in one call; a known link is reported as a duplicate after it', async () => {
    server.routes['/robots.txt'] = 'User-agent: *\nAllow: /\n';
    server.routes['/'] = '<a href="/a">a</a><a href="/b">b</a>';
    const p = buildPipeline();
    await warmRobots(p);
    await queue(p, '/', '/b');
    storeCalls.length = 0;
    await processNext(p);
    expect(storeCalls).toEqual(['claim', `complete ${url('/a')} ${url('/b')}`]);
    expect(p.skips).toEqual([{ url: url('/b'), reason: 'duplicate', referrer: url('/') }]);
    expect(await p.store.counts()).toMatchObject({ queued: 2, inFlight: 0, done: 1 });
  });

  it('links enqueued by the handler go to the store at once, before the page completes', async () => {
    server.routes['/robots.txt'] = 'User-agent: *\nAllow: /\n';
    server.routes['/'] = '<p>no links</p>';
    const p = buildPipeline({ handler: async (page) => void expect(await page.enqueue(url('/x'))).toBe(1) });
    await warmRobots(p);
    await queue(p, '/');
    storeCalls.length = 0;
    await processNext(p);
    expect(storeCalls).toEqual(['claim', `add ${url('/x')}`, 'complete']);
  });

  it('a redirect queues its target; a hop past maxRedirects is skipped and reported', async () => {
    server.routes['/robots.txt'] = 'User-agent: *\nAllow: /\n';
    server.routes['/old'] = answer(301, { location: '/new' });
    server.routes['/new'] = answer(302, { location: '/newer' });
    const p = buildPipeline({ maxRedirects: 1 });
    await warmRobots(p);
    await queue(p, '/old');
    await processNext(p);
    const hop = await processNext(p);
    expect(hop.entry).toMatchObject({ url: url('/new'), redirectedFrom: url('/old'), redirectHops: 1 });
    expect(p.skips).toEqual([{ url: url('/new'), reason: 'too-many-redirects', detail: 'more than 1 redirects' }]);
    expect(server.paths()).toEqual(['/old', '/new']);
    expect(await p.store.counts()).toMatchObject({ queued: 0, done: 2 });
    expect(p.stats).toMatchObject({ pages: 0, requests: 3, robotsRequests: 1, skipped: { 'too-many-redirects': 1 } });
  });

  it('a retryable failure: an error event that will retry, the URL back with retries + 1', async () => {
    server.routes['/robots.txt'] = 'User-agent: *\nAllow: /\n';
    server.routes['/flaky'] = answer(500);
    const p = buildPipeline({ maxRetries: 1, backoffBaseMs: 20 });
    await warmRobots(p);
    await queue(p, '/flaky');
    await processNext(p);
    expect(p.errors).toMatchObject([
      { url: url('/flaky'), stage: 'fetch', attempt: 1, willRetry: true, error: { code: 'ERR_FETCH_FAILED' } },
    ]);
    expect(p.stats).toMatchObject({ retries: 1, errors: 0, pages: 0 });
    const again = await processNext(p);
    expect(again.entry.retries).toBe(1);
    // The last attempt's 500 is a final response: handled as a page, no further error.
    expect(p.errors).toHaveLength(1);
    expect(p.stats).toMatchObject({ retries: 1, errors: 0, pages: 1, byStatus: { 500: 1 } });
    expect(server.paths()).toEqual(['/flaky', '/flaky']);
  });

  it('a plugin kind nobody processes: an error event naming the kind, no request, the URL done', async () => {
    server.routes['/robots.txt'] = 'User-agent: *\nAllow: /\n';
    const p = buildPipeline();
    await warmRobots(p);
    await p.frontier.add([{ url: url('/feed.xml'), depth: 0, kind: 'feed', skipScope: true }]);
    await processNext(p);
    expect(p.errors).toHaveLength(1);
    expect(p.errors[0]).toMatchObject({ url: url('/feed.xml'), stage: 'processor', attempt: 1, willRetry: false });
    expect(p.errors[0]!.error).toBeInstanceOf(PolitelyError);
    expect(p.errors[0]!.error).toMatchObject({ code: 'ERR_INVALID_INPUT' });
    expect(p.errors[0]!.error.message).toContain("no plugin processes resources of kind 'feed'");
    expect(p.stats.errors).toBe(1);
    expect(server.paths()).toEqual([]);
    expect(await p.store.counts()).toMatchObject({ queued: 0, done: 1 });
  });

  it('a fatal handler error: the URL stays in the store and onFatal hears the error', async () => {
    server.routes['/robots.txt'] = 'User-agent: *\nAllow: /\n';
    server.routes['/page'] = '<p>page</p>';
    const failure = new PolitelyError('ERR_OUTPUT', 'disk full');
    const p = buildPipeline({ handler: () => Promise.reject(failure) });
    await warmRobots(p);
    await queue(p, '/page');
    await processNext(p);
    expect(p.fatal).toEqual([failure]);
    expect(p.errors).toEqual([]);
    expect(await p.store.counts()).toMatchObject({ queued: 1, inFlight: 0, done: 0 });
    expect(server.paths()).toEqual(['/page']);
  });

  // A walk that throws after its request was made (a fatal handler error, an abort mid-fetch)
  // keeps the request's pace: the URL stays in the store, and a worker sharing the store, or a
  // crawl resumed on it, must not request the host at once.
  it('a fatal handler error after the fetch still paces the host from the response', async () => {
    server.routes['/robots.txt'] = 'User-agent: *\nAllow: /\n';
    server.routes['/page'] = '<p>page</p>';
    const p = buildPipeline({
      minDelayMs: 5000,
      handler: () => Promise.reject(new PolitelyError('ERR_OUTPUT', 'disk full')),
    });
    await warmRobots(p);
    await queue(p, '/page');
    await processNext(p);
    expect(server.paths()).toEqual(['/page']);
    expect(await hostReadyAt(p.store, HOST)).toBeGreaterThanOrEqual(arrivalOf('/page') + 5000);
  });
});
