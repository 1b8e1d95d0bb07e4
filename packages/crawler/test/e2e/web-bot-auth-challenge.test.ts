// `signing.sign: 'on-challenge'` on the wire: loopback sites that answer unsigned requests with a
// signature challenge (401, 403 or 429 with `Accept-Signature`) and verify signed ones with the
// independent RFC 9421 verifier (test/support/rfc9421-verify.ts). Judged by the sites' own logs:
// which requests came signed, and when each arrived against when the challenge was sent.

import type { KeyObject } from 'node:crypto';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type DataPoint, MeterProvider, type MetricData, MetricReader } from '@opentelemetry/sdk-metrics';
import { createCrawler } from '@politely/crawler';
import { describe, expect, it } from 'vitest';
import { testKey, verifyRequest } from '../../../../test/support/rfc9421-verify.js';
import { readWarcFile } from '../../../../test/support/warc-reader.js';
import { expectInvalidOption } from '../expect-invalid-option.js';

const UA = 'SignedBot/1.0 (+http://example.invalid/bot)';
const AGENT = 'https://bot.example/.well-known/http-message-signatures-directory';
const ACCEPT_SIGNATURE = 'sig1=("@authority" "signature-agent";key="sig1");tag="web-bot-auth"';
const DELAY = 250;

interface Arrival {
  readonly path: string;
  readonly at: number;
  readonly signed: boolean;
  /** Signed and verified by the site's own verifier. */
  readonly verified: boolean;
  /** When the site finished sending its answer. */
  sentAt: number;
  status: number;
}

interface ChallengeSiteOptions {
  /** Paths whose unsigned requests are challenged (`*`: every path). */
  readonly challenged: readonly string[] | '*';
  /** The challenge's status. @default 403 */
  readonly status?: 401 | 403 | 429;
  /** Retry-After (seconds) on the challenge, for these paths. */
  readonly retryAfter?: Readonly<Record<string, number>>;
  /** Challenge signed requests too (a site that lets no one in). */
  readonly refuseSigned?: boolean;
  /** The robots.txt served. @default allows everything */
  readonly robots?: string;
  readonly publicKey: KeyObject;
}

async function startChallengeSite(options: ChallengeSiteOptions) {
  const arrivals: Arrival[] = [];
  const pages: Record<string, string> = {
    '/robots.txt': options.robots ?? 'User-agent: *\nAllow: /\n',
    '/': '<a href="/a">a</a> <a href="/b">b</a> <a href="/plain-403">p</a>',
    '/a': '<p>a</p>',
    '/b': '<p>b</p>',
  };
  const server = createServer((req, res) => {
    const path = req.url ?? '';
    const signed = req.headers['signature'] !== undefined;
    const check = verifyRequest({ path, authority: req.headers.host ?? '', headers: req.headers }, options.publicKey);
    const arrival: Arrival = { path, at: Date.now(), signed, verified: signed && check.ok, sentAt: 0, status: 0 };
    arrivals.push(arrival);
    const send = (status: number, headers: Record<string, string>, body: string): void => {
      arrival.status = status;
      res.writeHead(status, headers).end(body, () => {
        arrival.sentAt = Date.now();
      });
    };
    const isChallenged = options.challenged === '*' || options.challenged.includes(path);
    if (isChallenged && (!signed || options.refuseSigned === true)) {
      const retryAfter = options.retryAfter?.[path];
      send(
        options.status ?? 403,
        {
          'accept-signature': ACCEPT_SIGNATURE,
          ...(retryAfter === undefined ? {} : { 'retry-after': String(retryAfter) }),
        },
        'sign, please',
      );
      return;
    }
    if (signed && !check.ok) return send(401, {}, check.why);
    if (path === '/plain-403') return send(403, {}, 'no');
    const page = pages[path];
    if (page === undefined) return send(404, {}, '');
    send(200, { 'content-type': path === '/robots.txt' ? 'text/plain' : 'text/html' }, page);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const close = (): Promise<void> =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return { base, arrivals, close };
}

/** A reader the test collects from when it likes. */
class TestReader extends MetricReader {
  protected async onShutdown(): Promise<void> {}
  protected async onForceFlush(): Promise<void> {}
}

/** The sum of a counter's points, from what `reader` collects now. */
async function counterSum(reader: TestReader, name: string): Promise<number> {
  const { resourceMetrics } = await reader.collect();
  const all: MetricData[] = resourceMetrics.scopeMetrics.flatMap((scope) => scope.metrics);
  const data = all.find((m) => m.descriptor.name === name);
  return ((data?.dataPoints ?? []) as DataPoint<number>[]).reduce((sum, point) => sum + point.value, 0);
}

function crawlerFor(
  base: string,
  key: ReturnType<typeof testKey>,
  more: { maxRetries?: number; meterProvider?: MeterProvider; warcPath?: string } = {},
) {
  return createCrawler({
    ...(more.warcPath === undefined ? {} : { outputs: [{ path: more.warcPath }] }),
    ...(more.meterProvider === undefined ? {} : { meterProvider: more.meterProvider }),
    userAgent: UA,
    allowNet: ['127.0.0.0/8'],
    seeds: [`${base}/`],
    minDelayMs: DELAY,
    backoffBaseMs: 10,
    maxRetries: more.maxRetries ?? 2,
    signing: { key: key.jwk, signatureAgent: AGENT, sign: 'on-challenge' },
  });
}

/** Each path's arrivals in order, as `u` (unsigned) or `s` (signed and verified) or `x` (signed, refused). */
function byPath(arrivals: readonly Arrival[]): Record<string, string> {
  const paths: Record<string, string> = {};
  for (const a of arrivals) paths[a.path] = (paths[a.path] ?? '') + (a.signed ? (a.verified ? 's' : 'x') : 'u');
  return paths;
}

/** Arrivals sooner than the host's delay after the previous answer was sent (the site's clock). */
function tooSoon(arrivals: readonly Arrival[]): string[] {
  const found: string[] = [];
  for (let i = 1; i < arrivals.length; i++) {
    const gap = arrivals[i]!.at - arrivals[i - 1]!.sentAt;
    if (gap < DELAY) found.push(`${arrivals[i]!.path} ${gap}ms after ${arrivals[i - 1]!.path}`);
  }
  return found;
}

describe("signing.sign: 'on-challenge', judged by the site", () => {
  it.each([403, 401, 429] as const)(
    'retries a page challenged with %i once, signed, at the host’s pace; the host is signed from then on',
    async (status) => {
      const key = testKey();
      const site = await startChallengeSite({ challenged: ['/'], status, publicKey: key.publicKey });
      const reader = new TestReader();
      const meterProvider = new MeterProvider({ readers: [reader] });
      const stats = await crawlerFor(site.base, key, { maxRetries: 0, meterProvider })
        .run()
        .finally(() => site.close());

      // robots.txt before the challenge: unsigned; `/` once unsigned, once signed; then every
      // request to the host signed up front, the plain 403 (no Accept-Signature) not retried.
      expect(byPath(site.arrivals)).toEqual({ '/robots.txt': 'u', '/': 'us', '/a': 's', '/b': 's', '/plain-403': 's' });
      expect(tooSoon(site.arrivals)).toEqual([]);
      const [challenge, retry] = site.arrivals.filter((a) => a.path === '/');
      expect(challenge!.status).toBe(status);
      expect(retry!.at - challenge!.sentAt).toBeGreaterThanOrEqual(DELAY);
      // The challenge counts no attempt (maxRetries 0 still gets its signed retry) and no page.
      expect(stats).toMatchObject({ retries: 0, errors: 0, byStatus: { 200: 3, 403: 1 } });
      // Signed requests counted as the site saw them, in the stats and the metrics alike.
      const signed = site.arrivals.filter((a) => a.signed).length;
      expect(signed).toBe(4);
      expect(stats.signedRequests).toBe(signed);
      expect(await counterSum(reader, 'politely.requests.signed')).toBe(signed);
      await meterProvider.shutdown();
    },
  );

  it('archives the challenged request unsigned and its retry signed, each as sent', async () => {
    const key = testKey();
    const dir = mkdtempSync(join(tmpdir(), 'politely-wba-challenge-'));
    try {
      const site = await startChallengeSite({ challenged: ['/'], publicKey: key.publicKey });
      await crawlerFor(site.base, key, { warcPath: join(dir, 'crawl.warc') })
        .run()
        .finally(() => site.close());
      // The archive wraps the signing client: a challenge seen through it is still retried.
      expect(byPath(site.arrivals)['/']).toBe('us');
      const files = readdirSync(dir).filter((name) => name.endsWith('.warc'));
      const records = (await Promise.all(files.map((file) => readWarcFile(join(dir, file))))).flatMap((f) => f.records);
      const front = records
        .filter((r) => r.type === 'request' && r.header('WARC-Target-URI') === `${site.base}/`)
        .map((r) => r.http?.header('signature-input'));
      expect(front).toHaveLength(2);
      expect(front[0]).toBeUndefined();
      expect(front[1]).toContain('tag="web-bot-auth"');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('waits for the challenge’s Retry-After before the signed retry', async () => {
    const key = testKey();
    const site = await startChallengeSite({
      challenged: ['/'],
      status: 429,
      retryAfter: { '/': 1 },
      publicKey: key.publicKey,
    });
    await crawlerFor(site.base, key)
      .run()
      .finally(() => site.close());

    expect(byPath(site.arrivals)['/']).toBe('us');
    const [challenge, retry] = site.arrivals.filter((a) => a.path === '/');
    // delay-seconds count from the response; the server's clock has whole milliseconds.
    expect(retry!.at - challenge!.sentAt).toBeGreaterThanOrEqual(1000 - 1);
    expect(tooSoon(site.arrivals)).toEqual([]);
  });

  it('retries a challenged robots.txt signed before judging it, and waits for its Retry-After', async () => {
    const key = testKey();
    const site = await startChallengeSite({
      challenged: ['/robots.txt'],
      retryAfter: { '/robots.txt': 1 },
      publicKey: key.publicKey,
    });
    const stats = await crawlerFor(site.base, key)
      .run()
      .finally(() => site.close());

    expect(byPath(site.arrivals)).toEqual({ '/robots.txt': 'us', '/': 's', '/a': 's', '/b': 's', '/plain-403': 's' });
    const [challenge, retry] = site.arrivals.filter((a) => a.path === '/robots.txt');
    expect(retry!.at - challenge!.sentAt).toBeGreaterThanOrEqual(1000 - 1);
    expect(tooSoon(site.arrivals)).toEqual([]);
    expect(stats.byStatus).toEqual({ 200: 3, 403: 1 });
  });

  it('judges the signed answer of robots.txt by RFC 9309, not the challenge', async () => {
    const key = testKey();
    const site = await startChallengeSite({
      challenged: ['/robots.txt'],
      robots: 'User-agent: *\nDisallow: /b\n',
      publicKey: key.publicKey,
    });
    const stats = await crawlerFor(site.base, key)
      .run()
      .finally(() => site.close());
    // Judged, the 403 challenge would have meant "no rules" (RFC 9309) and /b would be fetched.
    expect(byPath(site.arrivals)).toEqual({ '/robots.txt': 'us', '/': 's', '/a': 's', '/plain-403': 's' });
    expect(stats.skipped).toMatchObject({ robots: 1 });
  });

  it('gives a site that refuses even signed requests exactly one signed retry per URL', async () => {
    const key = testKey();
    const site = await startChallengeSite({ challenged: '*', refuseSigned: true, publicKey: key.publicKey });
    const stats = await crawlerFor(site.base, key)
      .run()
      .finally(() => site.close());
    // robots.txt's signed answer is a 403 too (RFC 9309: no rules); `/`, signed up front, is
    // refused for good: no third request, and no retry of a refused signature.
    expect(byPath(site.arrivals)).toEqual({ '/robots.txt': 'us', '/': 's' });
    expect(stats.byStatus).toEqual({ 403: 1 });
    expect(tooSoon(site.arrivals)).toEqual([]);
  });

  it('sends nothing signed to a site that never challenges (a plain 403 is no challenge)', async () => {
    const key = testKey();
    const site = await startChallengeSite({ challenged: [], publicKey: key.publicKey });
    const stats = await crawlerFor(site.base, key)
      .run()
      .finally(() => site.close());
    expect(byPath(site.arrivals)).toEqual({ '/robots.txt': 'u', '/': 'u', '/a': 'u', '/b': 'u', '/plain-403': 'u' });
    expect(stats.byStatus).toEqual({ 200: 3, 403: 1 });
    expect(stats.signedRequests).toBe(0);
  });

  it('refuses an unknown sign mode, naming both', () => {
    const key = testKey();
    expectInvalidOption(
      () =>
        createCrawler({
          userAgent: UA,
          signing: { key: key.jwk, signatureAgent: AGENT, sign: 'sometimes' as 'always' },
        }),
      "signing.sign must be 'always' or 'on-challenge'",
    );
  });
});
