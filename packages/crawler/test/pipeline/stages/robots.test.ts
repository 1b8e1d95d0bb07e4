// The robots gate stage (pipeline/stages/robots.ts) with a real gate against a loopback server: a
// verdict, or the outcome that ends the turn (robots-retry hold, robots-unreachable, blocked-address),
// and the robots skip built from the deciding rule.

import { createRobotsGate, type RobotsGate, type RobotsGateOptions } from '@politely/core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { rejection } from '../../../../../test/support/rejection.js';
import { released, skipped } from '../../../src/pipeline/outcome.js';
import { type RobotsStageSettings, robotsStage } from '../../../src/pipeline/stages/robots.js';
import { robotsSkip } from '../../../src/skip-reasons.js';
import { answer, closedPort, entryFor, LOOPBACK, type LoopbackServer, startLoopback, UA } from '../pipeline-helpers.js';

const ROBOTS = [
  '# politely test', // 1
  'User-agent: OtherBot', // 2
  'Disallow: /', // 3
  '', // 4
  'User-agent: *', // 5
  'Allow: /private/open', // 6
  'Disallow: /private   # keep out', // 7
].join('\n');

let server: LoopbackServer;
const gates: RobotsGate[] = [];

beforeAll(async () => {
  server = await startLoopback();
});
afterAll(() => server.close());
afterEach(async () => {
  await Promise.all(gates.splice(0).map((gate) => gate.close()));
  server.reset();
});

/** A gate's clock the test moves by hand. */
function manualClock(start = Date.parse('2025-06-01T00:00:00Z')): { now: () => number; advance(ms: number): void } {
  let time = start;
  return { now: () => time, advance: (ms) => void (time += ms) };
}

function stageSettings(
  gateOptions: RobotsGateOptions = { allowNet: LOOPBACK },
  maxRobotsRetries = 3,
  signal = new AbortController().signal,
): RobotsStageSettings {
  const gate = createRobotsGate(gateOptions);
  gates.push(gate);
  return { gate, userAgent: UA, maxRobotsRetries, delayMsOf: () => 0, signal };
}

const robotsHits = (): number => server.paths().filter((p) => p === '/robots.txt').length;

// Allowed and disallowed URLs come back as the gate's verdict; the check says whether it fetched.
describe('robotsStage: a verdict', () => {
  it('allows a URL, with the fetch on the first check of the origin and none on a cached one', async () => {
    server.routes['/robots.txt'] = ROBOTS;
    const settings = stageSettings();
    const before = Date.now();
    const first = await robotsStage(entryFor(`${server.base}/public`), settings);
    const after = Date.now();
    expect(first).toMatchObject({ kind: 'verdict', check: { allowed: true, reason: 'rules', status: 200 } });
    if (first.kind !== 'verdict') throw new Error('expected a verdict');
    expect(first.check.fetch!.requestedAt).toBeGreaterThanOrEqual(before);
    expect(first.check.fetch!.respondedAt).toBeGreaterThanOrEqual(first.check.fetch!.requestedAt);
    expect(first.check.fetch!.respondedAt).toBeLessThanOrEqual(after);

    const second = await robotsStage(entryFor(`${server.base}/private/open/a`), settings);
    expect(second).toMatchObject({
      kind: 'verdict',
      check: { allowed: true, reason: 'rules', rule: { line: 6, text: 'Allow: /private/open', type: 'allow' } },
    });
    if (second.kind !== 'verdict') throw new Error('expected a verdict');
    expect(second.check.fetch).toBeUndefined();
    expect(robotsHits()).toBe(1);
  });

  it('disallows a URL with the deciding rule, and robotsSkip makes it a skip with that line', async () => {
    server.routes['/robots.txt'] = ROBOTS;
    const verdict = await robotsStage(entryFor(`${server.base}/private/x`), stageSettings());
    if (verdict.kind !== 'verdict') throw new Error(`expected a verdict, got ${verdict.kind}`);
    expect(verdict.check).toMatchObject({
      allowed: false,
      reason: 'rules',
      rule: { line: 7, text: 'Disallow: /private   # keep out' },
    });
    expect(robotsSkip(verdict.check.rule, verdict.check.reason)).toEqual({
      reason: 'robots',
      rule: { line: 7, text: 'Disallow: /private   # keep out' },
      detail: 'line 7: Disallow: /private   # keep out',
    });
    expect(server.paths()).toEqual(['/robots.txt']);
  });

  it('robotsSkip without a rule keeps the gate’s reason as the detail, and copies only line and text', () => {
    expect(robotsSkip(undefined, 'unreachable')).toEqual({ reason: 'robots', detail: 'unreachable' });
    const rule = { line: 3, text: 'Disallow: /', type: 'disallow', value: '/', pattern: '/' };
    expect(robotsSkip(rule, 'rules')).toEqual({
      reason: 'robots',
      detail: 'line 3: Disallow: /',
      rule: { line: 3, text: 'Disallow: /' },
    });
  });

  it('allows everything when robots.txt is a 404 (unavailable)', async () => {
    const verdict = await robotsStage(entryFor(`${server.base}/private/x`), stageSettings());
    expect(verdict).toMatchObject({ kind: 'verdict', check: { allowed: true, reason: 'unavailable', status: 404 } });
  });
});

// Unreachable robots.txt: a hold until the gate's next attempt, then a skip once retries run out.
describe('robotsStage: robots.txt unreachable', () => {
  it('releases with robots-retry, held until the gate’s retryAt (the 503’s Retry-After)', async () => {
    server.routes['/robots.txt'] = answer(503, { 'retry-after': '120' });
    const clock = manualClock();
    const settings = stageSettings({ allowNet: LOOPBACK, now: clock.now });
    const entry = entryFor(`${server.base}/page`);

    const outcome = await robotsStage(entry, settings);
    const retryAt = clock.now() + 120_000;
    expect(outcome).toEqual(released('robots-retry', { readyAt: retryAt, notBefore: retryAt }));
    // The gate's own facts agree (the record is cached: no second request).
    const check = await settings.gate.check(entry.url, UA);
    expect(check).toMatchObject({ allowed: false, reason: 'unreachable', status: 503, failures: 1, retryAt });
    expect(check.fetch).toBeUndefined();
    expect(robotsHits()).toBe(1);
  });

  it('holds the host at least its delay after the failed fetch when the gate’s backoff is shorter', async () => {
    server.routes['/robots.txt'] = answer(503);
    const clock = manualClock();
    const settings = {
      ...stageSettings({ allowNet: LOOPBACK, now: clock.now, minBackoffMs: 1000, maxBackoffMs: 60_000 }),
      delayMsOf: () => 5000,
    };
    const outcome = await robotsStage(entryFor(`${server.base}/page`), settings);
    // The fetch responded at the manual clock's now: +1 ms grain, + the 5 s delay (not the 1 s backoff).
    const until = clock.now() + 1 + 5000;
    expect(outcome).toEqual(released('robots-retry', { readyAt: until, notBefore: until }));
  });

  it('skips as robots-unreachable once the gate has failed more than maxRobotsRetries times', async () => {
    server.routes['/robots.txt'] = answer(503);
    const clock = manualClock();
    const settings = stageSettings({ allowNet: LOOPBACK, now: clock.now, minBackoffMs: 1000, maxBackoffMs: 60_000 }, 2);
    const entry = entryFor(`${server.base}/page`);
    for (const backoff of [1000, 2000]) {
      const outcome = await robotsStage(entry, settings);
      expect(outcome).toEqual(
        released('robots-retry', { readyAt: clock.now() + backoff, notBefore: clock.now() + backoff }),
      );
      // Before retryAt the record answers: the same hold again, and no request.
      clock.advance(backoff - 1);
      expect(await robotsStage(entry, settings)).toEqual(outcome);
      clock.advance(1);
    }
    expect(robotsHits()).toBe(2);
    const third = await robotsStage(entry, settings);
    expect(third).toEqual(skipped({ reason: 'robots-unreachable', detail: 'robots.txt 503 after 3 attempts' }));
    expect(robotsHits()).toBe(3);
    // Another URL of the host, before the gate's next attempt: skipped too, without a request.
    expect(await robotsStage(entryFor(`${server.base}/other`), settings)).toMatchObject({
      kind: 'skipped',
      skip: { reason: 'robots-unreachable' },
    });
    expect(robotsHits()).toBe(3);
  });

  it('says "network error" for a robots.txt nobody answers (maxRobotsRetries 0: the first failure skips)', async () => {
    const port = await closedPort();
    const outcome = await robotsStage(
      entryFor(`http://127.0.0.1:${port}/page`),
      stageSettings({ allowNet: LOOPBACK }, 0),
    );
    expect(outcome).toEqual(
      skipped({ reason: 'robots-unreachable', detail: 'robots.txt network error after 1 attempt' }),
    );
  });
});

// The SSRF guard refused the host: skipped as blocked-address, naming the host, with no request made.
describe('robotsStage: blocked address', () => {
  it('skips a loopback host when the gate does not allow it, on the check that fetched and on a cached one', async () => {
    server.routes['/robots.txt'] = ROBOTS;
    const settings = stageSettings({});
    const detail = '127.0.0.1 resolves to a non-public address (allow it with allowNet / --allow-net)';
    expect(await robotsStage(entryFor(`${server.base}/public`), settings)).toEqual(
      skipped({ reason: 'blocked-address', detail }),
    );
    expect(await robotsStage(entryFor(`${server.base}/other`), settings)).toEqual(
      skipped({ reason: 'blocked-address', detail }),
    );
    expect(server.paths()).toEqual([]);
  });
});

describe('robotsStage: abort', () => {
  it('rejects with ERR_ABORTED when the crawl has stopped', async () => {
    server.routes['/robots.txt'] = ROBOTS;
    const stop = new AbortController();
    stop.abort();
    const error = await rejection(
      robotsStage(entryFor(`${server.base}/public`), stageSettings(undefined, 3, stop.signal)),
    );
    expect(error.code).toBe('ERR_ABORTED');
    expect(server.paths()).toEqual([]);
  });
});
