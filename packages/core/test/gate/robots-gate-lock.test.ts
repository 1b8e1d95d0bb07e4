// The gate with a store shared between processes: the store's fetch lock makes one robots.txt
// request per origin across all gates, and a holder that dies hands over when its lock expires.

import { performance } from 'node:perf_hooks';
import {
  createRobotsGate,
  type RobotsCacheRecord,
  type RobotsCacheStore,
  type RobotsGate,
  type RobotsGateOptions,
} from '@politely/core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { LOOPBACK, robotsTxt, startServer, type TestServer } from '../../../../test/support/robots-server.js';

const UA = 'TestBot/1.0';
let a: TestServer;
const gates: RobotsGate[] = [];

beforeAll(async () => {
  a = await startServer();
});
afterAll(async () => {
  await a.close();
});
afterEach(async () => {
  await Promise.all(gates.splice(0).map((g) => g.close()));
  a.reset();
});

interface LockingStore extends RobotsCacheStore {
  /** Every acquire attempt, granted or not. */
  readonly attempts: string[];
  /** Takes the lock as another process would (one that may never release it). */
  holdLock(origin: string, ttlMs: number): () => void;
  /** Runs just before a lock is granted, as another process might store a record then. */
  beforeGrant?: (origin: string) => void;
}

/**
 * A store as several processes would share it: records kept as JSON text, and a fetch lock per
 * origin with a lifetime (like Redis `SET NX PX`). Each gate stands for one process.
 */
function createLockingStore(): LockingStore {
  const texts = new Map<string, string>();
  const locks = new Map<string, { token: symbol; until: number }>();
  const take = (origin: string, ttlMs: number): symbol | null => {
    const held = locks.get(origin);
    if (held !== undefined && held.until > performance.now()) return null;
    const token = Symbol(origin);
    locks.set(origin, { token, until: performance.now() + ttlMs });
    return token;
  };
  const giveBack = (origin: string, token: symbol): void => {
    if (locks.get(origin)?.token === token) locks.delete(origin);
  };
  const store: LockingStore = {
    attempts: [],
    get: (origin) =>
      Promise.resolve(texts.has(origin) ? (JSON.parse(texts.get(origin) ?? '') as RobotsCacheRecord) : undefined),
    set: (origin, record) => Promise.resolve(void texts.set(origin, JSON.stringify(record))),
    delete: (origin) => Promise.resolve(void texts.delete(origin)),
    acquireFetchLock(origin, ttlMs) {
      store.attempts.push(origin);
      const token = take(origin, ttlMs);
      if (token === null) return Promise.resolve(null);
      store.beforeGrant?.(origin);
      return Promise.resolve(() => Promise.resolve(giveBack(origin, token)));
    },
    holdLock(origin, ttlMs) {
      const token = take(origin, ttlMs);
      if (token === null) throw new Error(`lock on ${origin} already held`);
      return () => giveBack(origin, token);
    },
  };
  return store;
}

function makeGate(store: RobotsCacheStore, options: RobotsGateOptions = {}): RobotsGate {
  const gate = createRobotsGate({ cache: store, allowNet: LOOPBACK, ...options });
  gates.push(gate);
  return gate;
}

/** A record as another process would store it after fetching `body` with a 200. */
function successRecord(origin: string, body: string): RobotsCacheRecord {
  const now = Date.now();
  return {
    origin,
    outcome: 'success',
    status: 200,
    url: `${origin}/robots.txt`,
    fetchedAt: now,
    expiresAt: now + 60_000,
    consecutiveFailures: 0,
    lastGood: {
      body,
      bodyEncoding: 'utf-8',
      status: 200,
      url: `${origin}/robots.txt`,
      fetchedAt: now,
      truncatedAtCap: false,
    },
  };
}

describe('createRobotsGate with a store that has acquireFetchLock', () => {
  it('makes one robots.txt request for concurrent checks from gates in several "processes"', async () => {
    const store = createLockingStore();
    a.handle = (req, res) => setTimeout(() => robotsTxt(200, 'User-agent: *\nDisallow: /x\n')(req, res), 150);
    const workers = [makeGate(store), makeGate(store), makeGate(store)];
    const checks = await Promise.all(
      workers.flatMap((gate) =>
        Array.from({ length: 20 }, (_, i) => gate.check(`${a.origin}/${i % 2 === 0 ? 'x' : 'y'}/${i}`, UA)),
      ),
    );
    expect(a.hits('/robots.txt')).toBe(1);
    expect(checks.filter((check) => !check.allowed)).toHaveLength(30);
    expect(checks.every((check) => check.reason === 'rules')).toBe(true);
    // One attempt per gate at least (its single-flight shares it within the gate).
    expect(store.attempts.length).toBeGreaterThanOrEqual(3);
  });

  it('waits for the record of the process holding the lock instead of fetching', async () => {
    const store = createLockingStore();
    a.handle = robotsTxt(200, 'User-agent: *\nDisallow: /\n');
    const release = store.holdLock(a.origin, 10_000);
    setTimeout(() => {
      void store.set(a.origin, successRecord(a.origin, 'User-agent: *\nDisallow: /held\n')).then(release);
    }, 120);
    const started = performance.now();
    const check = await makeGate(store).check(`${a.origin}/held/page`, UA);
    expect(performance.now() - started).toBeGreaterThanOrEqual(100);
    expect(check).toMatchObject({ allowed: false, reason: 'rules', status: 200 });
    expect(check.rule).toMatchObject({ value: '/held' });
    expect(check.fetch).toBeUndefined(); // another process fetched it
    expect(a.hits()).toBe(0);
  });

  it('fetches itself once the lock of a holder that died expires', async () => {
    const store = createLockingStore();
    a.handle = robotsTxt(200, 'User-agent: *\nDisallow: /x\n');
    store.holdLock(a.origin, 300); // never released: its process was killed
    const started = performance.now();
    const check = await makeGate(store).check(`${a.origin}/x`, UA);
    expect(check).toMatchObject({ allowed: false, reason: 'rules' });
    expect(check.fetch).toBeDefined(); // this gate fetched in the end
    const waited = performance.now() - started;
    expect(waited).toBeGreaterThanOrEqual(290);
    expect(waited).toBeLessThan(2000);
    expect(a.hits('/robots.txt')).toBe(1);
  });

  it('uses a record stored between its read and its lock, without fetching', async () => {
    const store = createLockingStore();
    a.handle = robotsTxt(200, 'User-agent: *\nDisallow: /\n');
    store.beforeGrant = (origin) => void store.set(origin, successRecord(origin, 'User-agent: *\nDisallow: /late\n'));
    const late = await makeGate(store).check(`${a.origin}/late`, UA);
    expect(late).toMatchObject({ allowed: false, reason: 'rules' });
    expect(late.fetch).toBeUndefined();
    expect(await makeGate(store).check(`${a.origin}/other`, UA)).toMatchObject({ allowed: true, reason: 'rules' });
    expect(a.hits()).toBe(0);
  });

  it('fetches anyway when the lock stays held past twice its lifetime', async () => {
    const store = createLockingStore();
    a.handle = robotsTxt(200, 'User-agent: *\nDisallow: /x\n');
    // Lifetime = timeoutMs × (maxRedirects + 1) + 1 s = 1.1 s; a stuck holder keeps the lock for a minute.
    store.holdLock(a.origin, 60_000);
    const started = performance.now();
    const check = await makeGate(store, { timeoutMs: 100, maxRedirects: 0 }).check(`${a.origin}/x`, UA);
    const waited = performance.now() - started;
    expect(check).toMatchObject({ allowed: false, reason: 'rules' });
    expect(waited).toBeGreaterThanOrEqual(2100);
    expect(waited).toBeLessThan(4000);
    expect(a.hits('/robots.txt')).toBe(1);
  });

  it('stops waiting with ERR_ABORTED when the gate is closed', async () => {
    const store = createLockingStore();
    store.holdLock(a.origin, 60_000);
    const gate = makeGate(store);
    const check = gate.check(`${a.origin}/x`, UA);
    setTimeout(() => void gate.close(), 50);
    await expect(check).rejects.toMatchObject({ code: 'ERR_ABORTED' });
    expect(a.hits()).toBe(0);
  });
});
