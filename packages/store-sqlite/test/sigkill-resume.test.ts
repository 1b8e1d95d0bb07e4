// Kill -9 a crawl mid-way, start it again on the same file, and judge the whole by the servers'
// own request log: every allowed page fetched, duplicates within what was in flight at the kill,
// nothing disallowed fetched, and no two requests to one host closer than its crawl-delay, the
// gap across the kill and restart included.

import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { minGapMsByOrigin, startFleet, violations, type LoggedRequest } from '../../local-web/src/index.js';
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
  return Promise.race([promise, new Promise<T>((_, reject) => setTimeout(() => reject(new Error(`${what}: no end after ${ms} ms`)), ms))]);
}

const keyOf = (request: LoggedRequest): string => request.origin + request.path;

describe('a SQLite-backed crawl killed with SIGKILL', () => {
  it('resumes from the file and finishes: nothing lost, duplicates within the in-flight bound, polite throughout', async () => {
    assertBuilt();
    const web = await startFleet({ hosts: 4, pagesPerHost: 30, crawlDelaySeconds: CRAWL_DELAY_S, firstAddress: 180, userAgent: 'PolitelyTest' });
    try {
      const path = temp.file('resume.db');
      const config = { path, seeds: web.hosts.map((host) => `${host.origin}/`), concurrency: CONCURRENCY, leaseMs: 1500, userAgent: UA };
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
      const done = second.lines.find((line) => line.event === 'done') as { counts: { queued: number; inFlight: number } } | undefined;
      expect(done?.counts).toMatchObject({ queued: 0, inFlight: 0 });
      const start = second.lines.find((line) => line.event === 'start') as { counts: { done: number; queued: number } };
      expect(start.counts.done).toBeGreaterThan(0); // it resumed: the first run's work was in the file

      const log = web.requestLog();
      // Every allowed page fetched, and nothing else but robots.txt.
      for (const host of web.hosts) {
        const paths = new Set(log.filter((r) => r.origin === host.origin && r.path !== '/robots.txt').map((r) => r.path));
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
          expect(after.filter((r) => r.origin === host.origin && r.path === '/robots.txt'), host.name).toEqual([]);
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
});
