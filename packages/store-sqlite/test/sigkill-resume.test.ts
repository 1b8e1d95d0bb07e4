// Kill -9 a crawl mid-way, start it again on the same file, and judge the whole by the servers'
// own request log: every allowed page fetched, duplicates within what was in flight at the kill,
// nothing disallowed fetched, and no two requests to one host closer than its crawl-delay, the
// gap across the kill and restart included.

import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { type LoggedRequest, minGapMsByOrigin, violations } from '@politely/demo-web';
import { startFleet } from '@politely/local-web';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { wrongRequestData } from '../../../test/support/labelled-crawl.js';
import { createSqliteFrontierStore } from '../src/index.js';
import { assertBuilt, createTempDir } from './helpers.js';

const WORKER = fileURLToPath(new URL('./fixtures/crawl-worker.mjs', import.meta.url));
const UA = 'PolitelyTest/1.0 (+http://example.invalid/bot)';
const CONCURRENCY = 4;
const CRAWL_DELAY_S = 0.15;
/** Timer granularity: the crawler's clock is Date.now() (whole ms), the server's performance.now(). */
const CLOCK_SLACK_MS = 2;

const temp = createTempDir('sigkill');
afterAll(() => temp.remove());

interface Worker {
  readonly child: ChildProcess;
  readonly lines: Record<string, unknown>[];
  readonly exited: Promise<number | null>;
}

function startWorker(config: Record<string, unknown>): Worker {
  const child = spawn(process.execPath, [WORKER, JSON.stringify(config)], { stdio: ['ignore', 'pipe', 'pipe'] });
  const lines: Record<string, unknown>[] = [];
  let buffer = '';
  let stderr = '';
  child.stdout!.on('data', (chunk: Buffer) => {
    buffer += chunk.toString();
    const parts = buffer.split('\n');
    buffer = parts.pop() ?? '';
    for (const part of parts) if (part.trim() !== '') lines.push(JSON.parse(part) as Record<string, unknown>);
  });
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  void exited.then((code) => {
    if (code !== 0 && code !== null && stderr !== '') console.error(stderr);
  });
  return { child, lines, exited };
}

async function waitFor(condition: () => boolean, timeoutMs: number, what: string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

function withTimeout<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  return Promise.race([
    promise,
    new Promise<T>((_, reject) => setTimeout(() => reject(new Error(`${what}: no end after ${ms} ms`)), ms)),
  ]);
}

const keyOf = (request: LoggedRequest): string => request.origin + request.path;

/** A `handled` line of the fixture's labelled mode: what the page's request carried to its handler. */
interface Handled {
  readonly event: 'handled';
  readonly pid: number;
  readonly url: string;
  readonly label?: string;
  readonly userData: { readonly host?: unknown; readonly chain?: unknown };
}

const handledLines = (worker: Worker): Handled[] =>
  worker.lines.filter((line): line is Record<string, unknown> & Handled => line.event === 'handled');

/** The rows of the crawl file's `urls` table, read-only: URL, state (0 queued, 1 in flight, 2 done) and the request column. */
function urlRows(path: string): { key: string; state: number; request: string | null }[] {
  const db = new Database(path, { readonly: true, fileMustExist: true });
  try {
    return db.prepare('SELECT key, state, request FROM urls').all() as {
      key: string;
      state: number;
      request: string | null;
    }[];
  } finally {
    db.close();
  }
}

describe('a SQLite-backed crawl killed with SIGKILL', () => {
  it('resumes from the file and finishes: nothing lost, duplicates within the in-flight bound, polite throughout', async () => {
    assertBuilt();
    const web = await startFleet({
      hosts: 4,
      pagesPerHost: 30,
      crawlDelaySeconds: CRAWL_DELAY_S,
      firstAddress: 180,
      userAgent: 'PolitelyTest',
    });
    try {
      const path = temp.file('resume.db');
      const config = {
        path,
        seeds: web.hosts.map((host) => `${host.origin}/`),
        concurrency: CONCURRENCY,
        leaseMs: 1500,
        userAgent: UA,
      };
      const expectedPages = web.hosts.reduce((sum, host) => sum + host.expectedAllowedPaths.length, 0);

      // Run 1: killed once the servers have seen about a third of the crawl.
      const first = startWorker(config);
      await waitFor(() => web.requestLog().length >= 45, 30_000, 'the first worker to make 45 requests');
      first.child.kill('SIGKILL');
      expect(await first.exited).toBeNull(); // killed, not finished
      const atKill = web.requestLog();
      expect(atKill.length).toBeLessThan(expectedPages);

      // Run 2: the same file. It must wait out the dead worker's leases and host clocks.
      const second = startWorker(config);
      expect(await withTimeout(second.exited, 60_000, 'the restarted crawl')).toBe(0);
      const done = second.lines.find((line) => line.event === 'done') as
        | { counts: { queued: number; inFlight: number } }
        | undefined;
      expect(done?.counts).toMatchObject({ queued: 0, inFlight: 0 });
      const start = second.lines.find((line) => line.event === 'start') as { counts: { done: number; queued: number } };
      expect(start.counts.done).toBeGreaterThan(0); // it resumed: the first run's work was in the file

      const log = web.requestLog();
      // Every allowed page fetched, and nothing else but robots.txt.
      for (const host of web.hosts) {
        const paths = new Set(
          log.filter((r) => r.origin === host.origin && r.path !== '/robots.txt').map((r) => r.path),
        );
        expect([...paths].sort(), host.name).toEqual(host.expectedAllowedPaths);
      }
      // Nothing disallowed (the /private/ pages are linked from every page).
      expect(violations(web, UA)).toEqual([]);
      // Duplicates: at most one per request in flight at the kill (robots.txt refetches included).
      const counts = new Map<string, number>();
      for (const request of log) counts.set(keyOf(request), (counts.get(keyOf(request)) ?? 0) + 1);
      const duplicates = [...counts.values()].reduce((sum, n) => sum + n - 1, 0);
      expect(duplicates).toBeLessThanOrEqual(CONCURRENCY);
      // The robots.txt cache survived: an origin whose robots.txt answer was in before the kill
      // (a page request followed it) is not asked again.
      const after = log.slice(atKill.length);
      for (const host of web.hosts) {
        const before = atKill.filter((r) => r.origin === host.origin);
        if (before.length >= 2 && before[0]!.path === '/robots.txt') {
          expect(
            after.filter((r) => r.origin === host.origin && r.path === '/robots.txt'),
            host.name,
          ).toEqual([]);
        }
      }
      // Politeness across both processes: the restarted crawl kept the host clocks of the file.
      for (const [origin, gap] of minGapMsByOrigin(log)) {
        expect(gap, origin).toBeGreaterThanOrEqual(CRAWL_DELAY_S * 1000 - CLOCK_SLACK_MS);
      }
      const store = createSqliteFrontierStore({ path });
      expect(await store.counts()).toMatchObject({ queued: 0, inFlight: 0 });
      expect(await store.loadStats()).toMatchObject({ pages: expect.any(Number) });
      await store.close();
    } finally {
      await web.close();
    }
  }, 90_000);

  it('keeps every request’s label and userData through the kill: the resumed crawl routes its queued links as ITEM with their data', async () => {
    assertBuilt();
    const web = await startFleet({
      hosts: 4,
      pagesPerHost: 30,
      crawlDelaySeconds: CRAWL_DELAY_S,
      firstAddress: 190,
      userAgent: 'PolitelyTest',
    });
    try {
      const path = temp.file('labelled.db');
      const seeds = web.hosts.map((host) => `${host.origin}/`);
      const config = { path, seeds, concurrency: CONCURRENCY, leaseMs: 1500, userAgent: UA, labelled: true };
      const expectedPages = web.hosts.reduce((sum, host) => sum + host.expectedAllowedPaths.length, 0);

      // Run 1: killed once some ITEM pages were handled (their links, labelled ITEM, are queued)
      // and well before the end (each host takes 30 × 0.15 s at the least).
      const first = startWorker(config);
      await waitFor(
        () => handledLines(first).filter((line) => line.label === 'ITEM').length >= 8 && web.requestLog().length >= 30,
        30_000,
        'the first worker to handle 8 ITEM pages',
      );
      first.child.kill('SIGKILL');
      expect(await withTimeout(first.exited, 10_000, 'the killed crawl')).toBeNull(); // killed, not finished
      expect(web.requestLog().length).toBeLessThan(expectedPages);

      // The file, as the kill left it: ITEM links waiting in the queue, each with its data.
      const rows = urlRows(path);
      const queuedItems = rows.filter(
        (row) =>
          row.state === 0 && row.request !== null && (JSON.parse(row.request) as { label?: string }).label === 'ITEM',
      );
      expect(queuedItems.length, 'ITEM links queued in the file at the kill').toBeGreaterThan(0);
      for (const row of rows) {
        expect(row.request, row.key).not.toBeNull();
        const request = JSON.parse(row.request!) as { label?: string; userData?: Handled['userData'] };
        const problem = wrongRequestData(
          { url: row.key, ...request, userData: request.userData ?? {} },
          new Set(seeds),
        );
        expect(problem, 'the request column of a row').toBeNull();
      }

      // Run 2: the same file, resumed.
      const second = startWorker(config);
      expect(await withTimeout(second.exited, 60_000, 'the restarted crawl')).toBe(0);
      const start = second.lines.find((line) => line.event === 'start') as { counts: { done: number; queued: number } };
      expect(start.counts.queued).toBeGreaterThan(0); // it resumed with labelled URLs waiting
      expect(start.counts.done).toBeGreaterThan(0);
      const done = second.lines.find((line) => line.event === 'done') as
        | { counts: { queued: number; inFlight: number } }
        | undefined;
      expect(done?.counts).toMatchObject({ queued: 0, inFlight: 0 });

      // Every page either run handled carried the label and data it was enqueued with.
      const seedSet = new Set(seeds);
      const handled = [...handledLines(first), ...handledLines(second)];
      expect(handled.map((line) => wrongRequestData(line, seedSet)).filter((problem) => problem !== null)).toEqual([]);
      const resumedItems = handledLines(second).filter((line) => line.label === 'ITEM');
      expect(resumedItems.length).toBeGreaterThan(0);
      // The queued ITEM links of the file were handled after the restart, with their data.
      const handledAfter = new Set(handledLines(second).map((line) => line.url));
      expect(queuedItems.filter((row) => !handledAfter.has(row.key)).map((row) => row.key)).toEqual([]);

      // The crawl is complete: every allowed page handled (and fetched), nothing disallowed fetched.
      const handledUrls = new Set(handled.map((line) => line.url));
      const log = web.requestLog();
      for (const host of web.hosts) {
        expect(
          host.expectedAllowedPaths.filter((p) => !handledUrls.has(host.origin + p)),
          `${host.name}: allowed pages not handled`,
        ).toEqual([]);
        const fetched = new Set(
          log.filter((r) => r.origin === host.origin && r.path !== '/robots.txt').map((r) => r.path),
        );
        expect([...fetched].sort(), host.name).toEqual(host.expectedAllowedPaths);
      }
      const allowed = new Set(web.hosts.flatMap((host) => host.expectedAllowedPaths.map((p) => host.origin + p)));
      expect([...handledUrls].filter((url) => !allowed.has(url))).toEqual([]);
      expect(violations(web, UA)).toEqual([]);
      // Politeness across both processes, as in the unlabelled crawl.
      for (const [origin, gap] of minGapMsByOrigin(log)) {
        expect(gap, origin).toBeGreaterThanOrEqual(CRAWL_DELAY_S * 1000 - CLOCK_SLACK_MS);
      }
    } finally {
      await web.close();
    }
  }, 90_000);
});
