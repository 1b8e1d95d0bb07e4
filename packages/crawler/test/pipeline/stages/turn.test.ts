// The turn stage (pipeline/stages/turn.ts): why a claim may not make its request (deniedTurn),
// and the host's clock and policy after the robots check (paceAfterRobots) with a real gate,
// HostPoliteness and memory store.

import { createRobotsGate, type RobotsGate } from '@politely/core';
import type { FrontierStore } from '@politely/frontier';
import { createMemoryFrontierStore } from '@politely/frontier';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { deniedTurn, paceAfterRobots, type TurnStageSettings } from '../../../src/pipeline/stages/turn.js';
import { HostPoliteness } from '../../../src/politeness/index.js';
import type { LoopbackServer } from '../pipeline-helpers.js';
import { claimAt, entryFor, hostReadyAt, LOOPBACK, startLoopback, UA } from '../pipeline-helpers.js';

// Precedence: robots-turn, then page-budget, then lease-expired; undefined when all is clear.
describe('deniedTurn', () => {
  const clear = { robotsUsedTurn: false, overBudget: false, leaseExpiresAt: 2000, now: 1000 };
  it('lets the claim go when nothing stands in the way', () => {
    expect(deniedTurn(clear)).toBeUndefined();
    expect(deniedTurn({ ...clear, now: 1999 })).toBeUndefined();
  });
  it('names each reason alone', () => {
    expect(deniedTurn({ ...clear, robotsUsedTurn: true })).toBe('robots-turn');
    expect(deniedTurn({ ...clear, overBudget: true })).toBe('page-budget');
    expect(deniedTurn({ ...clear, now: 5000 })).toBe('lease-expired');
  });
  it('counts a lease as expired exactly at its expiry', () => {
    expect(deniedTurn({ ...clear, now: 2000 })).toBe('lease-expired');
  });
  it('puts robots-turn before page-budget before lease-expired', () => {
    expect(deniedTurn({ robotsUsedTurn: true, overBudget: true, leaseExpiresAt: 0, now: 1 })).toBe('robots-turn');
    expect(deniedTurn({ robotsUsedTurn: false, overBudget: true, leaseExpiresAt: 0, now: 1 })).toBe('page-budget');
    expect(deniedTurn({ robotsUsedTurn: true, overBudget: false, leaseExpiresAt: 0, now: 1 })).toBe('robots-turn');
  });
});

// The crawl-delay is learned from a real check, the store told the host's policy, and the clock
// runs from the robots.txt response when the check fetched it, else is handed back.
describe('paceAfterRobots', () => {
  const MIN_DELAY = 100;
  let server: LoopbackServer;
  let gate: RobotsGate;
  let store: FrontierStore;
  let politeness: HostPoliteness;
  let settings: TurnStageSettings;

  beforeAll(async () => {
    server = await startLoopback();
  });
  afterAll(() => server.close());
  afterEach(async () => {
    await gate.close();
    server.reset();
  });

  function setUp(robotsTxt: string): void {
    server.routes['/robots.txt'] = robotsTxt;
    gate = createRobotsGate({ allowNet: LOOPBACK });
    store = createMemoryFrontierStore({ defaultHostPolicy: { delayMs: MIN_DELAY, maxInFlight: 1 } });
    politeness = new HostPoliteness({
      minDelayMs: MIN_DELAY,
      maxCrawlDelayMs: 30_000,
      backoffBaseMs: 1000,
      backoffMaxMs: 60_000,
      adaptive: undefined,
    });
    settings = { politeness, store, perHostConcurrency: 2 };
  }

  /** The delay the store applies to the host: a claim at a far `now` moves its clock by it. */
  async function storeDelayOf(hostKey: string, now: number): Promise<number> {
    const lease = await claimAt(store, now);
    const delay = (await hostReadyAt(store, hostKey)) - now;
    await store.release(lease.id, { hostReadyAt: lease.previousHostReadyAt });
    return delay;
  }

  it('learns a crawl-delay, tells the store, and paces from the robots.txt response when the check fetched', async () => {
    setUp('User-agent: *\nCrawl-delay: 2\nAllow: /\n');
    const entry = entryFor(`${server.base}/page`);
    await store.add([entry, entryFor(`${server.base}/other`)]);
    const check = await gate.check(entry.url, UA);
    expect(check.crawlDelay).toBe(2);
    expect(check.fetch).toBeDefined();

    const clock = await paceAfterRobots(entry, check, 1234, settings);

    expect(politeness.delayMs(entry.hostKey)).toBe(2000);
    expect(clock).toEqual({ readyAt: check.fetch!.respondedAt + 1 + 2000 });
    // The store took the new policy: delay 2000, and two in flight (a second claim one delay later).
    expect(await storeDelayOf(entry.hostKey, 10_000_000)).toBe(2000);
    const a = await claimAt(store, 20_000_000);
    const b = await claimAt(store, 20_002_000);
    expect([a.entry.url, b.entry.url].sort()).toEqual([entry.url, `${server.base}/other`].sort());
  });

  it('hands the claim’s clock back when the check came from the cache, and does not tell the store again', async () => {
    setUp('User-agent: *\nCrawl-delay: 2\nAllow: /\n');
    const entry = entryFor(`${server.base}/page`);
    await store.add([entry]);
    await paceAfterRobots(entry, await gate.check(entry.url, UA), 0, settings);
    // Someone else set the host's policy meanwhile: an unchanged crawl-delay is not announced again.
    await store.setHostPolicy(entry.hostKey, { delayMs: 7 });

    const cached = await gate.check(entry.url, UA);
    expect(cached.fetch).toBeUndefined();
    expect(await paceAfterRobots(entry, cached, 4321, settings)).toEqual({ handBackTo: 4321 });
    expect(await storeDelayOf(entry.hostKey, 10_000_000)).toBe(7);
    expect(server.paths()).toEqual(['/robots.txt']);
  });

  it('announces the minimum delay on the first check of a host without a crawl-delay', async () => {
    setUp('User-agent: *\nDisallow: /private\n');
    const entry = entryFor(`${server.base}/private/x`);
    await store.add([entry]);
    await store.setHostPolicy(entry.hostKey, { delayMs: 9999, maxInFlight: 1 }); // a stale default
    const check = await gate.check(entry.url, UA);
    expect(check.allowed).toBe(false);
    const clock = await paceAfterRobots(entry, check, 0, settings);
    expect(clock).toEqual({ readyAt: check.fetch!.respondedAt + 1 + MIN_DELAY });
    expect(await storeDelayOf(entry.hostKey, 10_000_000)).toBe(MIN_DELAY);
  });

  it('caps a crawl-delay at maxCrawlDelayMs', async () => {
    setUp('User-agent: *\nCrawl-delay: 3600\n');
    politeness = new HostPoliteness({
      minDelayMs: MIN_DELAY,
      maxCrawlDelayMs: 5000,
      backoffBaseMs: 1000,
      backoffMaxMs: 60_000,
      adaptive: undefined,
    });
    settings = { politeness, store, perHostConcurrency: 1 };
    const entry = entryFor(`${server.base}/page`);
    await store.add([entry]);
    const check = await gate.check(entry.url, UA);
    expect(await paceAfterRobots(entry, check, 0, settings)).toEqual({ readyAt: check.fetch!.respondedAt + 1 + 5000 });
    expect(await storeDelayOf(entry.hostKey, 10_000_000)).toBe(5000);
  });
});
