// The fetch stage (pipeline/stages/fetch.ts) against loopback servers with the real undici client:
// what each answer means for the URL (fetched, retry, failed, skipped) and for the host's clock,
// judged against the server's own log of when it received and answered.

import { createHttpClient, createRobotsGate, type HttpClient, type RobotsCheck, type RobotsGate } from '@politely/core';
import type { FrontierEntry } from '@politely/frontier';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { CrawlerEmitter, type RequestEvent, type ResponseEvent } from '../../../src/events.js';
import type { UrlOutcome } from '../../../src/pipeline/outcome.js';
import { type FetchedResponse, type FetchStageSettings, fetchStage } from '../../../src/pipeline/stages/fetch.js';
import type { ResourceProcessor } from '../../../src/plugin.js';
import { HostPoliteness } from '../../../src/politeness/index.js';
import { StatsRecorder } from '../../../src/stats.js';
import {
  answer,
  closedPort,
  entryFor,
  LOOPBACK,
  type LoopbackServer,
  type Route,
  startGarbageServer,
  startLoopback,
  UA,
  uncaughtDuring,
} from '../pipeline-helpers.js';

const DELAY = 100;
const BACKOFF_BASE = 500;
const CAP = 10_000;
const MAX_RETRIES = 2;

let server: LoopbackServer;
let gate: RobotsGate;
let client: HttpClient;
let check: RobotsCheck;

beforeAll(async () => {
  server = await startLoopback({ '/robots.txt': 'User-agent: *\nAllow: /\n' });
  gate = createRobotsGate({ allowNet: LOOPBACK });
  client = createHttpClient({ blockPrivateNetworks: true, allowNet: LOOPBACK });
  check = await gate.check(`${server.base}/`, UA);
});
afterAll(async () => {
  await Promise.all([gate.close(), client.close(), server.close()]);
});
afterEach(() => {
  server.reset();
});

interface Harness {
  readonly settings: FetchStageSettings;
  readonly politeness: HostPoliteness;
  readonly stats: StatsRecorder;
  readonly requests: RequestEvent[];
  readonly responses: ResponseEvent[];
}

function harness(overrides: Partial<FetchStageSettings> = {}): Harness {
  const emitter = new CrawlerEmitter();
  const requests: RequestEvent[] = [];
  const responses: ResponseEvent[] = [];
  emitter.on('request', (e) => requests.push(e));
  emitter.on('response', (e) => responses.push(e));
  const politeness = new HostPoliteness({
    minDelayMs: DELAY,
    maxCrawlDelayMs: 30_000,
    backoffBaseMs: BACKOFF_BASE,
    backoffMaxMs: CAP,
    adaptive: undefined,
  });
  const stats = new StatsRecorder();
  const settings: FetchStageSettings = {
    client,
    isSignatureChallenge: () => false,
    connectAddressOf: () => undefined,
    userAgent: UA,
    maxBodyBytes: 64 * 1024,
    requestTimeoutMs: 5000,
    maxRetries: MAX_RETRIES,
    backoffMaxMs: CAP,
    maxRedirects: 10,
    politeness,
    emitter,
    stats,
    signal: new AbortController().signal,
    ...overrides,
  };
  return { settings, politeness, stats, requests, responses };
}

function fetched(result: FetchedResponse | UrlOutcome): FetchedResponse {
  if (result.kind !== 'fetched') throw new Error(`expected a fetched response, got ${JSON.stringify(result)}`);
  return result;
}

/** A route that sends its head, notes when (server clock), and answers the body `bodyMs` later. */
function timedRoute(
  status: number,
  headers: Record<string, string>,
  body: string,
  bodyMs = 0,
): { route: Route; headSentAt: () => number } {
  let sentAt: number | undefined;
  return {
    route: (_req, res) => {
      res.writeHead(status, { 'content-type': 'text/html', ...headers });
      res.flushHeaders();
      sentAt = Date.now();
      setTimeout(() => res.end(body), bodyMs);
    },
    headSentAt: () => {
      if (sentAt === undefined) throw new Error('the server never answered');
      return sentAt;
    },
  };
}

const pageEntry = (path: string, extra: Partial<FrontierEntry> = {}): FrontierEntry =>
  entryFor(`${server.base}${path}`, extra);

// A response to hand on: paced from its head (not from the end of the body), counted and reported.
describe('fetchStage: a final response', () => {
  it('200: fetched, paced from the head plus the delay, one request counted, request and response events', async () => {
    const h = harness();
    const page = timedRoute(200, {}, '<p>late body</p>', 150);
    server.routes['/page'] = page.route;
    const before = Date.now();
    const result = fetched(await fetchStage(pageEntry('/page'), undefined, check, h.settings));
    const after = Date.now();

    expect(result.response.status).toBe(200);
    expect(result.location).toBeUndefined();
    expect(Object.keys(result.clock)).toEqual(['readyAt']);
    const headAt = result.clock.readyAt! - DELAY;
    const arrival = server.arrivals.find((a) => a.path === '/page')!;
    expect(headAt).toBeGreaterThanOrEqual(arrival.at);
    // The head, within a few ms of when the server sent it; well before the body (150 ms later) was in.
    expect(headAt).toBeGreaterThanOrEqual(page.headSentAt() - 2);
    expect(headAt).toBeLessThanOrEqual(page.headSentAt() + 30);
    expect(headAt).toBeLessThan(after - 100);

    expect(h.stats.requests).toBe(1);
    expect(h.requests).toEqual([
      {
        url: `${server.base}/page`,
        hostKey: '127.0.0.1',
        kind: 'page',
        at: expect.any(Number),
        delayMs: DELAY,
        robots: { reason: 'rules', line: 2, text: 'Allow: /' },
      },
    ]);
    expect(h.requests[0]!.at).toBeGreaterThanOrEqual(before);
    expect(h.responses).toEqual([
      { url: `${server.base}/page`, status: 200, durationMs: expect.any(Number), bytes: 16, contentType: 'text/html' },
    ]);
    expect(h.responses[0]!.durationMs).toBeGreaterThanOrEqual(145);
    expect(arrival.headers['user-agent']).toBe(UA);
    expect(arrival.headers.accept).toBe('text/html,application/xhtml+xml,*/*;q=0.8');
  });

  it('301: fetched with the Location as the server wrote it (trimmed), paced', async () => {
    const h = harness();
    server.routes['/old'] = answer(301, { location: '  /new?x=1  ' });
    const result = fetched(await fetchStage(pageEntry('/old'), undefined, check, h.settings));
    expect(result.response.status).toBe(301);
    expect(result.location).toBe('/new?x=1');
    expect(Object.keys(result.clock)).toEqual(['readyAt']);
    expect(server.paths()).toEqual(['/old']); // never followed here
  });

  it('a 302 without a Location is a final response, not a redirect', async () => {
    server.routes['/nowhere'] = answer(302);
    const result = fetched(await fetchStage(pageEntry('/nowhere'), undefined, check, harness().settings));
    expect(result.response.status).toBe(302);
    expect(result.location).toBeUndefined();
  });

  it('a plugin resource: its kind in the request event, its Accept and body limit', async () => {
    const h = harness();
    server.routes['/feed.xml'] = answer(200, { 'content-type': 'application/xml' }, 'x'.repeat(100));
    const processor: ResourceProcessor = {
      accept: 'application/xml',
      bodyLimit: { maxBytes: 10, atLimit: 'truncate' },
      process: async () => {},
    };
    const result = fetched(await fetchStage(pageEntry('/feed.xml', { kind: 'feed' }), processor, check, h.settings));
    expect(result.response.body.length).toBe(10);
    expect(result.response.truncated).toBe(true);
    expect(h.requests[0]!.kind).toBe('feed');
    expect(server.arrivals[0]!.headers.accept).toBe('application/xml');
  });
});

// Retryable answers while attempts are left: a retry held by the longer of backoff and Retry-After.
describe('fetchStage: retryable answers', () => {
  it('503 Retry-After: 2 with retries left: retry, held 2 s from the response (the server’s clock)', async () => {
    const h = harness();
    const refusal = timedRoute(503, { 'retry-after': '2' }, 'busy');
    server.routes['/busy'] = refusal.route;
    const result = await fetchStage(pageEntry('/busy'), undefined, check, h.settings);
    if (result.kind !== 'retry') throw new Error(`expected a retry, got ${result.kind}`);
    expect(result.error).toMatchObject({ code: 'ERR_FETCH_FAILED', message: `GET ${server.base}/busy: HTTP 503` });
    const { notBefore, readyAt } = result.clock;
    expect(readyAt).toBe(notBefore);
    expect(notBefore).toBeGreaterThanOrEqual(refusal.headSentAt() + 2000 - 2);
    expect(notBefore).toBeLessThanOrEqual(refusal.headSentAt() + 2000 + 30);
    expect(notBefore).toBeLessThanOrEqual(refusal.headSentAt() + CAP);
    expect(h.responses.map((r) => r.status)).toEqual([503]);
    expect(h.stats.requests).toBe(1);
  });

  it('503 Retry-After: 2 on the last attempt: fetched (the page is handled), with the hold still there', async () => {
    const h = harness();
    const refusal = timedRoute(503, { 'retry-after': '2' }, 'busy');
    server.routes['/busy'] = refusal.route;
    const result = fetched(
      await fetchStage(pageEntry('/busy', { retries: MAX_RETRIES }), undefined, check, h.settings),
    );
    expect(result.response.status).toBe(503);
    const { notBefore, readyAt } = result.clock;
    expect(notBefore).toBeGreaterThanOrEqual(refusal.headSentAt() + 2000 - 2);
    expect(notBefore).toBeLessThanOrEqual(refusal.headSentAt() + 2000 + 30);
    expect(readyAt).toBeGreaterThanOrEqual(notBefore!);
  });

  it('429 with an HTTP-date Retry-After: held until that date exactly', async () => {
    const h = harness();
    const until = Math.ceil((Date.now() + 3000) / 1000) * 1000;
    server.routes['/limited'] = answer(429, { 'retry-after': new Date(until).toUTCString() });
    const result = await fetchStage(pageEntry('/limited'), undefined, check, h.settings);
    if (result.kind !== 'retry') throw new Error(`expected a retry, got ${result.kind}`);
    expect(result.clock.notBefore).toBeCloseTo(until, 3);
    expect(result.clock.readyAt).toBeCloseTo(until, 3);
  });

  it('a Retry-After longer than backoffMaxMs is capped', async () => {
    const h = harness({ backoffMaxMs: 1500 });
    const refusal = timedRoute(503, { 'retry-after': '3600' }, '');
    server.routes['/long'] = refusal.route;
    const result = await fetchStage(pageEntry('/long'), undefined, check, h.settings);
    if (result.kind !== 'retry') throw new Error(`expected a retry, got ${result.kind}`);
    expect(result.clock.notBefore).toBeGreaterThanOrEqual(refusal.headSentAt() + 1500 - 2);
    expect(result.clock.notBefore).toBeLessThanOrEqual(refusal.headSentAt() + 1500 + 30);
  });

  it('a 503 without Retry-After: held by the backoff, which doubles with each failure at the host', async () => {
    const h = harness();
    server.routes['/down'] = answer(503);
    const holds: number[] = [];
    for (let attempt = 0; attempt < 2; attempt++) {
      const before = Date.now();
      const result = await fetchStage(pageEntry('/down'), undefined, check, h.settings);
      if (result.kind !== 'retry') throw new Error(`expected a retry, got ${result.kind}`);
      holds.push(result.clock.notBefore! - before);
    }
    expect(holds[0]).toBeGreaterThanOrEqual(BACKOFF_BASE - 2);
    expect(holds[0]).toBeLessThan(BACKOFF_BASE + 50);
    expect(holds[1]).toBeGreaterThanOrEqual(2 * BACKOFF_BASE - 2);
    expect(holds[1]).toBeLessThan(2 * BACKOFF_BASE + 50);
  });
});

// Failures without a response: a refused connection is retried (backoff); an answer that is not HTTP is not.
describe('fetchStage: no response', () => {
  it('connection refused: retry held by the backoff; failed for good (still held) on the last attempt', async () => {
    const port = await closedPort();
    const h = harness();
    const url = `http://127.0.0.1:${port}/page`;
    const before = Date.now();
    const first = await fetchStage(entryFor(url), undefined, check, h.settings);
    const after = Date.now();
    if (first.kind !== 'retry') throw new Error(`expected a retry, got ${first.kind}`);
    expect(first.error.message).toContain(url);
    expect(first.clock.notBefore).toBe(first.clock.readyAt);
    expect(first.clock.notBefore).toBeGreaterThanOrEqual(before + BACKOFF_BASE);
    expect(first.clock.notBefore).toBeLessThanOrEqual(after + BACKOFF_BASE);

    const last = await fetchStage(entryFor(url, { retries: MAX_RETRIES }), undefined, check, h.settings);
    expect(last).toMatchObject({ kind: 'failed', stage: 'fetch', clock: { notBefore: expect.any(Number) } });
    expect(h.stats.requests).toBe(2);
    expect(h.requests).toHaveLength(2);
    expect(h.responses).toEqual([]);
  });

  it('an answer that is not HTTP: failed (ERR_PROTOCOL) at once, paced, no backoff counted', async () => {
    const garbage = await startGarbageServer();
    try {
      const h = harness();
      const before = Date.now();
      const result = await fetchStage(entryFor(`${garbage.base}/page`), undefined, check, h.settings);
      const after = Date.now();
      if (result.kind !== 'failed') throw new Error(`expected failed, got ${result.kind}`);
      expect(result.stage).toBe('fetch');
      expect(result.error).toMatchObject({ code: 'ERR_PROTOCOL' });
      expect(Object.keys(result.clock)).toEqual(['readyAt']);
      expect(result.clock.readyAt).toBeGreaterThanOrEqual(before + DELAY);
      expect(result.clock.readyAt).toBeLessThanOrEqual(after + DELAY);
      expect(garbage.connections()).toBe(1);
      // The host's failure count was not raised: the next failure backs off from the base.
      expect(h.politeness.failed('127.0.0.1', 1, null)).toBe(BACKOFF_BASE);
    } finally {
      await garbage.close();
    }
  });
});

// A body past maxBodyBytes: skipped as too-large, declared (Content-Length) or streamed.
describe('fetchStage: too large', () => {
  /** Serves 5000 bytes, with a Content-Length (sent at once) or without one (streamed in two parts). */
  function bigRoute(declared: boolean): Route {
    return (_req, res) => {
      const body = 'x'.repeat(5000);
      res.writeHead(200, {
        'content-type': 'text/html',
        ...(declared ? { 'content-length': String(body.length) } : {}),
      });
      if (declared) return void res.end(body);
      res.write(body.slice(0, 2500));
      setTimeout(() => res.end(body.slice(2500)), 20);
    };
  }

  it.each([
    ['with a Content-Length', true],
    ['streamed without one', false],
  ])('skips a body over maxBodyBytes %s, paced', async (_name, declared) => {
    const h = harness({ maxBodyBytes: 1000 });
    server.routes['/big'] = bigRoute(declared);
    const before = Date.now();
    // The declared case also throws an uncaught error (see the BUG test below): kept out of the run here.
    const { result } = await uncaughtDuring(() => fetchStage(pageEntry('/big'), undefined, check, h.settings));
    if (result.kind !== 'skipped') throw new Error(`expected skipped, got ${result.kind}`);
    expect(result.skip.reason).toBe('too-large');
    expect(result.skip.detail).toContain('1000');
    expect(Object.keys(result.clock)).toEqual(['readyAt']);
    expect(result.clock.readyAt).toBeGreaterThanOrEqual(before + DELAY);
    expect(result.clock.readyAt).toBeLessThanOrEqual(Date.now() + DELAY);
    expect(h.responses).toEqual([]);
  });

  // Over a declared Content-Length the client destroys undici's body stream, which then emits
  // 'error' ("Request aborted"); unhandled, that crashed a plain Node process (exit 1) after the
  // fetch had already resolved as a too-large skip.
  it('a declared body over maxBodyBytes throws nothing past the skip', async () => {
    const h = harness({ maxBodyBytes: 1000 });
    server.routes['/big'] = bigRoute(true);
    const { result, uncaught } = await uncaughtDuring(() =>
      fetchStage(pageEntry('/big'), undefined, check, h.settings),
    );
    expect(result.kind).toBe('skipped');
    expect(uncaught).toEqual([]);
  });
});
