// `politely crawl` stopped by SIGTERM, as a scheduler or `docker stop` stops it: the real bin run
// with node (so the signal reaches the crawl), a SQLite store, and a site on loopback whose own
// log says what was fetched and how often.

import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createSqliteFrontierStore } from '@politely/store-sqlite';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type CliResult, jsonLines, runCli, startCli } from './run-cli.js';

const UA = 'TermBot/1.0 (+https://example.invalid/bot)';
/** A tree of pages: /p/N links to /p/3N+1 … /p/3N+3, each answered after LATENCY_MS. */
const PAGES = 120;
const LATENCY_MS = 100;
/** /slow answers its first request after this long, later ones at once: longer than the short graces below. */
const SLOW_MS = 8000;

let server: Server;
let base: string;
let log: string[] = [];
let slowAsked: (() => void) | undefined;
let dir: string;

beforeAll(async () => {
  server = createServer((req, res) => {
    const path = req.url ?? '';
    log.push(path);
    if (path === '/robots.txt') {
      res.end('User-agent: *\nAllow: /\n');
      return;
    }
    const first = path === '/slow' && log.filter((p) => p === '/slow').length === 1;
    if (path === '/slow') slowAsked?.();
    const match = /^\/p\/(\d+)$/.exec(path);
    const n = match === null ? -1 : Number(match[1]);
    if (path !== '/slow' && (n < 0 || n >= PAGES)) {
      res.statusCode = 404;
      res.end('not here');
      return;
    }
    const links = [1, 2, 3].map((i) => 3 * n + i).filter((m) => n >= 0 && m < PAGES);
    const timer = setTimeout(
      () => {
        res.setHeader('content-type', 'text/html; charset=utf-8');
        res.end(`<html><body>${links.map((m) => `<a href="/p/${m}">${m}</a>`).join(' ')}</body></html>`);
      },
      first ? SLOW_MS : LATENCY_MS,
    );
    res.on('close', () => clearTimeout(timer));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  dir = mkdtempSync(join(tmpdir(), 'politely-sigterm-'));
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
  rmSync(dir, { recursive: true, force: true });
});
beforeEach(() => {
  log = [];
  slowAsked = undefined;
});

const crawlArgs = (name: string, ...extra: string[]): string[] => [
  'crawl',
  '--ua',
  UA,
  '--allow-net',
  '127.0.0.0/8',
  '--delay',
  '0',
  '--per-host-concurrency',
  '4',
  '--log',
  'plain',
  '--store',
  `sqlite:${join(dir, `${name}.db`)}`,
  '--out',
  join(dir, `${name}.jsonl`),
  '--report',
  join(dir, `${name}.html`),
  ...extra,
];
/** Every record's URL (throws on a line that does not parse: the file must be whole). */
const recordUrls = (name: string): string[] =>
  jsonLines(readFileSync(join(dir, `${name}.jsonl`), 'utf8')).map((record) => (record as { url: string }).url);
const allPages = (): string[] => Array.from({ length: PAGES }, (_, n) => `${base}/p/${n}`);
/** How many times the server was asked for each path. */
const timesAsked = (): Map<string, number> => {
  const times = new Map<string, number>();
  for (const path of log) times.set(path, (times.get(path) ?? 0) + 1);
  return times;
};
/** The summary's count of requests the stop aborted (its `cut` line; none: 0). */
const cutIn = (result: CliResult): number => Number(/^ {2}cut +(\d+) /m.exec(result.stdout)?.[1] ?? 0);

/** Every URL a crawl file still has to do. */
function notDoneIn(name: string): string[] {
  const store = createSqliteFrontierStore({ path: join(dir, `${name}.db`), shared: true });
  try {
    return store.db.prepare<[], string>('SELECT key FROM urls WHERE state <> 2').pluck().all();
  } finally {
    void store.close();
  }
}

/** Sends `signal` and resolves with the outcome and how long the process took to exit after it. */
async function signalAndWait(
  run: ReturnType<typeof startCli>,
  signal: NodeJS.Signals,
): Promise<{ result: CliResult; ms: number }> {
  const sentAt = Date.now();
  run.child.kill(signal);
  const result = await run.done;
  return { result, ms: Date.now() - sentAt };
}

/** Resolves when the server is first asked for /slow (a bounded wait). */
const slowRequested = (): Promise<void> =>
  new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('/slow was never requested')), 15_000);
    slowAsked = () => {
      clearTimeout(timer);
      resolve();
    };
  });

describe('politely crawl: SIGTERM', () => {
  it('mid-crawl: exit 143 within the grace period, the output whole; a resume completes every page exactly once', async () => {
    const grace = 2000;
    const args = crawlArgs('mid', '--stop-grace', String(grace), `${base}/p/0`);
    const run = startCli(args);
    await run.waitFor(/(^200 page .*\n(.*\n)*){12}/m, 15_000);
    const { result, ms } = await signalAndWait(run, 'SIGTERM');
    expect(result.code, result.stderr).toBe(143);
    expect(ms).toBeLessThan(grace + 1000);
    expect(result.stderr).toContain('politely: stopping (SIGTERM): no new requests; those in flight get 2.00 s to end');
    expect(result.stdout).toMatch(/^Crawl interrupted after /m);
    expect(result.stdout).toMatch(/^Kept: \d+ pages written to .*; \d+ URLs still queued in .*mid\.db/m);
    const firstRun = recordUrls('mid');
    expect(firstRun.length).toBeGreaterThanOrEqual(12);
    expect(firstRun.length).toBeLessThan(PAGES);
    const cut = cutIn(result);

    const resumed = await runCli(args);
    expect(resumed.code, resumed.stderr).toBe(0);
    const urls = recordUrls('mid');
    expect(urls.length).toBe(PAGES);
    expect(new Set(urls)).toEqual(new Set(allPages()));
    // Each page fetched once, but for a request the stop aborted (counted in the summary).
    const twice = [...timesAsked()].filter(([path, times]) => path !== '/robots.txt' && times > 1);
    expect(twice.length).toBeLessThanOrEqual(cut);
    for (const [, times] of twice) expect(times).toBe(2);
  }, 60_000);

  it('a request that outlasts --stop-grace: exit within grace + 1 s, its URL back in the store, nothing of it written; the resume fetches it once more and the report counts it', async () => {
    const grace = 500;
    const slow = `${base}/slow`;
    const args = crawlArgs('grace', '--stop-grace', String(grace), slow, `${base}/p/0`);
    const asked = slowRequested();
    const run = startCli(args);
    await asked;
    const { result, ms } = await signalAndWait(run, 'SIGTERM');
    expect(result.code, result.stderr).toBe(143);
    expect(ms).toBeLessThan(grace + 1000);
    expect(cutIn(result)).toBe(1);
    expect(result.stdout).toMatch(/^ {2}cut +1 in flight when the crawl stopped at once \(grace period over/m);
    expect(readFileSync(join(dir, 'grace.html'), 'utf8')).toContain(
      '<b>1</b><span>cut by a stop: fetched again</span>',
    );
    expect(recordUrls('grace')).not.toContain(slow);
    expect(notDoneIn('grace')).toContain(slow);

    const resumed = await runCli(args);
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(log.filter((path) => path === '/slow')).toHaveLength(2);
    const urls = recordUrls('grace');
    expect(urls.filter((url) => url === slow)).toHaveLength(1);
    expect(urls.length).toBe(PAGES + 1);
    // The report covers both runs: the request cut by the stop is still counted.
    expect(readFileSync(join(dir, 'grace.html'), 'utf8')).toContain(
      '<b>1</b><span>cut by a stop: fetched again</span>',
    );
  }, 60_000);

  it('a second SIGTERM during the grace period stops at once, still keeping the URL in flight', async () => {
    const grace = 20_000;
    const slow = `${base}/slow`;
    const args = crawlArgs('twice', '--stop-grace', String(grace), slow);
    const asked = slowRequested();
    const run = startCli(args);
    await asked;
    run.child.kill('SIGTERM');
    await new Promise((resolve) => setTimeout(resolve, 300));
    const { result, ms } = await signalAndWait(run, 'SIGTERM');
    expect(result.code, result.stderr).toBe(143);
    // At once: well inside the 20 s grace period, on a machine that may be busy.
    expect(ms).toBeLessThan(8000);
    expect(result.stderr).toContain('politely: stopping at once: requests in flight are aborted');
    expect(cutIn(result)).toBe(1);
    expect(recordUrls('twice')).toEqual([]);
    expect(notDoneIn('twice')).toEqual([slow]);
  }, 30_000);

  it('SIGINT stops the same way, with exit 130', async () => {
    const slow = `${base}/slow`;
    const args = crawlArgs('sigint', '--stop-grace', '300', slow);
    const asked = slowRequested();
    const run = startCli(args);
    await asked;
    const { result, ms } = await signalAndWait(run, 'SIGINT');
    expect(result.code, result.stderr).toBe(130);
    expect(ms).toBeLessThan(300 + 1000);
    expect(cutIn(result)).toBe(1);
    expect(notDoneIn('sigint')).toEqual([slow]);
  }, 30_000);

  it('--stop-grace is a duration', async () => {
    const bad = await runCli(['crawl', '--ua', UA, '--stop-grace', 'soon', `${base}/p/0`]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('crawl: --stop-grace: expected a whole number of milliseconds');
  });
});
