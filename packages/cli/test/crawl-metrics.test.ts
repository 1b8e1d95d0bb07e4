// `politely crawl --metrics`: the real bin serving /metrics, /healthz and /readyz while it crawls
// the demo web on loopback. The counters scraped during and after the crawl are checked against
// the servers' own request log and the crawl's summary; /readyz against a Redis of the test's own
// that is stopped under the crawl; the example Grafana dashboard against a real scrape.

import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type LocalWeb, startDemoWeb, violations } from '@politely/demo-web';
import { startFleet } from '@politely/local-web';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type OwnRedis, redisServerMissing, startOwnRedis } from '../../../test/support/redis-server.js';
import { skipWithout } from '../../../test/support/requirements.js';
import { jsonLines, type RunningCli, runCli, startCli } from './run-cli.js';

const UA = 'MetricsBot/1.0 (+https://example.invalid/bot)';
const DASHBOARD = fileURLToPath(new URL('../../../examples/grafana-dashboard.json', import.meta.url));
const serverMissing = redisServerMissing();
if (serverMissing !== null) console.warn(`[cli] crawl-metrics /readyz: SKIPPED: ${serverMissing}`);

/** One sample of a scrape: its metric name, labels and value. */
interface Sample {
  readonly name: string;
  readonly labels: Readonly<Record<string, string>>;
  readonly value: number;
}

/** Parses Prometheus text format (the samples; comments skipped). */
function parseScrape(text: string): Sample[] {
  const samples: Sample[] = [];
  for (const line of text.split('\n')) {
    const match = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (match === null) continue;
    const labels: Record<string, string> = {};
    for (const pair of (match[2] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)) labels[pair[1]!] = pair[2]!;
    samples.push({ name: match[1]!, labels, value: Number(match[3]) });
  }
  return samples;
}

/** The sum of a metric's samples whose labels include `where`. */
function total(samples: readonly Sample[], name: string, where: Readonly<Record<string, string>> = {}): number {
  return samples
    .filter((s) => s.name === name && Object.entries(where).every(([key, value]) => s.labels[key] === value))
    .reduce((sum, s) => sum + s.value, 0);
}

async function scrape(base: string): Promise<Sample[]> {
  const response = await fetch(`${base}/metrics`);
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toContain('text/plain');
  return parseScrape(await response.text());
}

/** Resolves with the server's address once the crawl has said it: on stderr in text, in a JSON line with `--log json`. */
async function metricsBase(run: RunningCli, json = false): Promise<string> {
  const said = json
    ? /"event":"metrics","url":"(http:\/\/\S+)\/metrics"/
    : /politely: metrics at (http:\/\/\S+)\/metrics/;
  await run.waitFor(said, 20_000, json ? 'stdout' : 'stderr');
  return said.exec(json ? run.stdout() : run.stderr())![1]!;
}

/** Resolves when `check` holds (polled every 100 ms), rejects after `timeoutMs`. */
async function eventually(what: string, timeoutMs: number, check: () => Promise<boolean>): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

const status = async (url: string): Promise<number> => (await fetch(url)).status;

describe.concurrent('politely crawl --metrics: usage errors', () => {
  it('refuses a malformed address, naming it, and --metrics-linger without --metrics', async () => {
    for (const bad of ['127.0.0.1', 'example.com:9464', '127.0.0.1:70000', ':9464', '[::1:9464', '1.2.3:80']) {
      const result = await runCli(['crawl', '--ua', UA, '--metrics', bad, 'http://127.0.0.1:1/']);
      expect(result.code, bad).toBe(2);
      expect(result.stderr).toContain(`politely: crawl: --metrics: expected [HOST:]PORT`);
      expect(result.stderr).toContain(`got "${bad}"`);
    }
    // A port already taken: a usage error naming the address, before anything is crawled.
    const taken = createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    const port = (taken.address() as AddressInfo).port;
    try {
      const busy = await runCli(['crawl', '--ua', UA, '--metrics', `127.0.0.1:${port}`, 'http://127.0.0.1:1/']);
      expect(busy.code).toBe(2);
      expect(busy.stderr).toBe(`politely: crawl: --metrics "127.0.0.1:${port}": cannot listen there (EADDRINUSE)\n`);
    } finally {
      await new Promise((resolve) => taken.close(resolve));
    }
    const linger = await runCli(['crawl', '--ua', UA, '--metrics-linger', '5s', 'http://127.0.0.1:1/']);
    expect(linger.code).toBe(2);
    expect(linger.stderr).toBe(
      'politely: crawl: --metrics-linger keeps the metrics server up: give --metrics [HOST:]PORT too\n',
    );
  });
});

describe('politely crawl --metrics', () => {
  let web: LocalWeb;
  let dir: string;
  beforeAll(async () => {
    web = await startDemoWeb();
    dir = mkdtempSync(join(tmpdir(), 'politely-metrics-'));
  });
  afterAll(async () => {
    await web.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('serves counters that equal the servers’ log and the summary, during and after the crawl', async () => {
    const run = startCli([
      'crawl',
      '--ua',
      UA,
      '--allow-net',
      '127.0.0.0/8',
      '--delay',
      '100',
      '--max-depth',
      '2',
      '--log',
      'json',
      '--metrics',
      '127.0.0.1:0',
      '--metrics-linger',
      '60s',
      '--report',
      join(dir, 'report.html'),
      web.url('docs', '/'),
      web.url('legacy', '/'),
    ]);
    try {
      const base = await metricsBase(run, true);
      expect(base).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);

      // During: some pages done, the frontier's gauges observed, health and readiness 200.
      await run.waitFor(/"event":"response"/);
      const during = await scrape(base);
      expect(await status(`${base}/healthz`)).toBe(200);
      expect(await status(`${base}/readyz`)).toBe(200);
      expect(await status(`${base}/nothing`)).toBe(404);
      expect(during.some((s) => s.name === 'politely_frontier_queued')).toBe(true);

      // After: the crawl has ended and printed its summary; the server lingers for a last scrape.
      await run.waitFor(/"event":"metrics-linger"/, 60_000);
      const after = await scrape(base);
      const summary = jsonLines(run.stdout()).find((line) => (line as { event: string }).event === 'summary') as {
        event: string;
        pages: number;
        requests: number;
        robotsRequests: number;
        skipped: Record<string, number>;
      };
      expect(summary.event).toBe('summary');
      const log = web.requestLog();
      expect(summary.pages).toBeGreaterThan(5);

      // Requests: kind by kind and status by status, as the servers logged them and the summary counts them.
      const pageLog = log.filter((entry) => entry.path !== '/robots.txt');
      expect(total(after, 'politely_requests_total', { politely_request_kind: 'page' })).toBe(pageLog.length);
      expect(total(after, 'politely_requests_total', { politely_request_kind: 'robots' })).toBe(
        log.length - pageLog.length,
      );
      expect(total(after, 'politely_requests_total', { politely_request_kind: 'robots' })).toBe(summary.robotsRequests);
      expect(total(after, 'politely_requests_total')).toBe(summary.requests);
      expect(total(after, 'politely_requests_total')).toBe(log.length);
      for (const code of new Set(log.map((entry) => String(entry.status))))
        expect(total(after, 'http_client_request_duration_count', { http_response_status_code: code }), code).toBe(
          log.filter((entry) => String(entry.status) === code).length,
        );
      // Pages: every claimed URL fetched is `done` (a redirect's hop is a URL of its own); the
      // summary's pages are the final responses, the done URLs less the redirects.
      const done = total(after, 'politely_pages_total', { politely_outcome: 'done' });
      expect(done).toBe(pageLog.length);
      const redirects = after
        .filter((s) => s.name === 'http_client_request_duration_count')
        .filter((s) => /^3\d\d$/.test(s.labels['http_response_status_code'] ?? ''))
        .reduce((sum, s) => sum + s.value, 0);
      expect(redirects).toBeGreaterThan(0);
      expect(done - redirects).toBe(summary.pages);
      // Skips: reason by reason, as the summary counts them (robots and depth among them).
      const skips = Object.fromEntries(
        after.filter((s) => s.name === 'politely_skips_total').map((s) => [s.labels['politely_skip_reason'], s.value]),
      );
      expect(skips).toEqual(summary.skipped);
      expect(skips['robots']).toBeGreaterThan(0);
      expect(skips['depth']).toBeGreaterThan(0);
      // The HTML report counts the same pages and requests.
      const report = readFileSync(join(dir, 'report.html'), 'utf8');
      expect(report).toContain(`<b>${summary.pages}</b><span>pages fetched</span>`);
      expect(report).toContain(`<b>${summary.requests}</b><span>requests</span>`);
      // Counters only grow: what was scraped during the crawl is at most what is there after.
      expect(total(during, 'politely_pages_total', { politely_outcome: 'done' })).toBeLessThanOrEqual(summary.pages);
      expect(total(during, 'politely_requests_total')).toBeLessThan(summary.requests);
      expect(violations(web, UA)).toEqual([]);

      // SIGTERM ends the linger at once; the exit code is the crawl's.
      run.child.kill('SIGTERM');
      expect((await run.done).code).toBe(0);
    } finally {
      if (run.child.exitCode === null) run.child.kill('SIGKILL');
    }
  });

  it('the example Grafana dashboard queries only metric names a real scrape exports', async () => {
    const dashboard = JSON.parse(readFileSync(DASHBOARD, 'utf8')) as { panels: { targets?: { expr: string }[] }[] };
    const exprs = dashboard.panels.flatMap((panel) => (panel.targets ?? []).map((target) => target.expr));
    expect(exprs.length).toBeGreaterThanOrEqual(4);
    // A metric name in PromQL is the name before a selector's `{`.
    const queried = new Set(exprs.flatMap((expr) => [...expr.matchAll(/([a-zA-Z_:][\w:]*)\{/g)].map((m) => m[1]!)));
    expect(queried.size).toBeGreaterThanOrEqual(6);
    const run = startCli([
      'crawl',
      '--ua',
      UA,
      '--allow-net',
      '127.0.0.0/8',
      '--delay',
      '0',
      '--max-pages',
      '10',
      '--log',
      'json',
      '--metrics',
      '127.0.0.1:0',
      '--metrics-linger',
      '60s',
      web.url('docs', '/'),
      // Its robots.txt answers 503: the host is held (politely.host.holds).
      web.url('status', '/'),
    ]);
    try {
      const base = await metricsBase(run, true);
      // The frontier's gauges are observed while the crawl runs; the rest are there at its end.
      await run.waitFor(/"event":"response"/);
      const exported = new Set((await scrape(base)).map((s) => s.name));
      await run.waitFor(/"event":"metrics-linger"/, 60_000);
      for (const sample of await scrape(base)) exported.add(sample.name);
      expect([...queried].filter((name) => !exported.has(name))).toEqual([]);
      run.child.kill('SIGTERM');
      expect((await run.done).code).toBe(0);
    } finally {
      if (run.child.exitCode === null) run.child.kill('SIGKILL');
    }
  });
});

describe.skipIf(skipWithout('redis-server', serverMissing))(
  `politely crawl --metrics /readyz with its own Redis${serverMissing === null ? '' : ` [SKIPPED: ${serverMissing}]`}`,
  () => {
    let web: LocalWeb;
    let redis: OwnRedis;
    beforeAll(async () => {
      // 1 host × 80 pages, 0.25 s apart: about 20 s of crawling, long enough to stop Redis under it.
      web = await startFleet({ hosts: 1, pagesPerHost: 80, crawlDelaySeconds: 0.25, firstAddress: 141 });
      redis = await startOwnRedis({ persistent: true });
    });
    afterAll(async () => {
      await web.close();
      await redis.stop();
    });

    it('answers 503 while the store is down and 200 again once it is back; /healthz stays 200', async () => {
      const run = startCli([
        'crawl',
        '--ua',
        UA,
        '--allow-net',
        '127.0.0.0/8',
        '--store',
        redis.url,
        '--crawl-id',
        `metrics-readyz-${process.pid}`,
        '--log',
        'plain',
        '--metrics',
        '127.0.0.1:0',
        `${web.hosts[0]!.origin}/`,
      ]);
      try {
        const base = await metricsBase(run);
        await run.waitFor(/^200 page /m);
        expect(await status(`${base}/readyz`)).toBe(200);
        // Redis down for 4 s (persistent: it comes back with the crawl).
        const restarting = redis.restart({ downMs: 4000 });
        await eventually('/readyz to answer 503', 5000, async () => (await status(`${base}/readyz`)) === 503);
        expect(await status(`${base}/healthz`)).toBe(200);
        const body = await (await fetch(`${base}/readyz`)).text();
        expect(body).toBe('store unavailable\n'); // no detail for an unauthenticated caller
        expect(run.stderr()).toMatch(/^politely: \/readyz: store unavailable: \S/m); // the detail is logged
        await restarting;
        await eventually('/readyz to answer 200 again', 10_000, async () => (await status(`${base}/readyz`)) === 200);
        run.child.kill('SIGTERM');
        expect((await run.done).code).toBe(143);
      } finally {
        if (run.child.exitCode === null) run.child.kill('SIGKILL');
      }
    });
  },
);
