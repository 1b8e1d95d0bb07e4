import { spawn } from 'node:child_process';
import { readdirSync, writeFileSync } from 'node:fs';
import { basename, dirname } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import type { RobotsCacheRecord } from '@politely/core';
import {
  type ClaimResult,
  createMemoryFrontierStore,
  type FrontierLease,
  type FrontierStore,
  type LastFetch,
} from '@politely/frontier';
import { describeFrontierStoreContract } from '@politely/frontier/testing';
import Database from 'better-sqlite3';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import {
  createSqliteFrontierStore,
  createSqliteRobotsCache,
  SCHEMA_VERSION,
  type SqliteFrontierStore,
} from '../src/index.js';
import { keyHash } from '../src/key-hash.js';
import { assertBuilt, BUILT_STORE, createTempDir, entry } from './helpers.js';

const temp = createTempDir('store-sqlite');

/** Part of making an older file from a new one: no send turns before schema 7. */
const NO_SEND_TURNS =
  'ALTER TABLE hosts DROP COLUMN send_ready_at; ALTER TABLE hosts DROP COLUMN send_busy_until; ALTER TABLE hosts DROP COLUMN send_turn_id;';
/**
 * Part of making an older file from a new one: up to schema 5 a done URL kept its key (the tests
 * below complete http://a.test/1 before), and there was no `key_check`.
 */
const KEPT_DONE_KEY = `${NO_SEND_TURNS} UPDATE urls SET key = 'http://a.test/1' WHERE key = ''; ALTER TABLE urls DROP COLUMN key_check;`;
afterAll(() => temp.remove());

describeFrontierStoreContract(
  'sqlite',
  async (options) => createSqliteFrontierStore({ path: temp.file(), ...options }),
  async (store, options) => {
    const { path } = store as SqliteFrontierStore;
    await store.close();
    return createSqliteFrontierStore({ path, ...options });
  },
);

describe('createSqliteFrontierStore', () => {
  const open: SqliteFrontierStore[] = [];
  const openStore = (path = temp.file(), delayMs = 0, maxInFlight = 1, shared = false): SqliteFrontierStore => {
    const store = createSqliteFrontierStore({ path, defaultHostPolicy: { delayMs, maxInFlight }, shared });
    open.push(store);
    return store;
  };
  /** A memory store and a SQLite store with the same random host policy, to be driven alike. */
  const storesAlike = (random: (n: number) => number): { memory: FrontierStore; sqlite: FrontierStore } => {
    const policy = { delayMs: random(3) * 100, maxInFlight: 1 + random(3) };
    return {
      memory: createMemoryFrontierStore({ defaultHostPolicy: policy }),
      sqlite: openStore(temp.file(), policy.delayMs, policy.maxInFlight),
    };
  };
  afterEach(async () => {
    for (const store of open.splice(0)) await store.close();
  });

  it('opens the file in WAL mode with synchronous=NORMAL, a busy timeout and a versioned schema', () => {
    const store = openStore();
    expect(store.db.pragma('journal_mode', { simple: true })).toBe('wal');
    expect(store.db.pragma('synchronous', { simple: true })).toBe(1); // NORMAL
    expect(store.db.pragma('busy_timeout', { simple: true })).toBe(5000);
    expect(store.db.pragma('cache_size', { simple: true })).toBe(-16_384);
    expect(store.db.prepare('SELECT max(version) FROM schema_version').pluck().get()).toBe(SCHEMA_VERSION);
  });

  it('refuses a file written by a newer schema', async () => {
    const path = temp.file();
    await openStore(path).close();
    const raw = new Database(path);
    raw.prepare('INSERT INTO schema_version (version, applied_at) VALUES (?, 0)').run(SCHEMA_VERSION + 1);
    raw.close();
    expect(() => createSqliteFrontierStore({ path })).toThrow(
      new RegExp(`schema version ${SCHEMA_VERSION + 1} is newer`),
    );
  });

  it('migrates a crawl file of schema 1 (no host holds): queues, clocks and counts kept, holds from then on', async () => {
    const path = temp.file();
    const before = openStore(path, 1000, 2);
    await before.add([entry('http://a.test/1'), entry('http://a.test/2'), entry('http://a.test/3')]);
    const done = (await before.claim({ now: 0, leaseMs: 60_000 })).lease!;
    await before.complete(done.id, { hostReadyAt: 5000 });
    await before.close();
    // The file as schema 1 wrote it: hosts without not_before, one migration recorded.
    const raw = new Database(path);
    raw.exec(`${KEPT_DONE_KEY}
      DROP TABLE failures; ALTER TABLE urls DROP COLUMN moved_to;
      DROP INDEX urls_due; DROP INDEX urls_fetched; ALTER TABLE urls DROP COLUMN due_at; ALTER TABLE urls DROP COLUMN fetched_at;
      ALTER TABLE urls DROP COLUMN last_fetch; ALTER TABLE hosts DROP COLUMN not_before; ALTER TABLE urls DROP COLUMN request; DELETE FROM schema_version WHERE version > 1`);
    raw.close();

    const store = openStore(path, 1000, 2);
    expect(store.db.prepare('SELECT max(version) FROM schema_version').pluck().get()).toBe(SCHEMA_VERSION);
    expect(store.db.prepare('SELECT key, ready_at, not_before FROM hosts').all()).toEqual([
      { key: 'a.test', ready_at: 5000, not_before: 0 },
    ]);
    // Migration 7: no send pace and no send turn held; one is granted at once.
    expect(store.db.prepare('SELECT send_ready_at, send_busy_until, send_turn_id FROM hosts').all()).toEqual([
      { send_ready_at: 0, send_busy_until: 0, send_turn_id: null },
    ]);
    expect(await store.takeSendTurn('a.test', { turnId: 't', now: 1, busyUntil: 100 })).toEqual({ granted: true });
    await store.endSendTurn('a.test', { turnId: 't', readyAt: 1 });
    expect(await store.counts()).toMatchObject({ queued: 2, inFlight: 0, done: 1 });
    expect(await store.claim({ now: 4999, leaseMs: 60_000 })).toEqual({ lease: null, nextReadyAt: 5000 });
    await store.setHostPolicy('a.test', { delayMs: 0 });
    const [refused, ok] = [
      (await store.claim({ now: 5000, leaseMs: 60_000 })).lease!,
      (await store.claim({ now: 5000, leaseMs: 60_000 })).lease!,
    ];
    await store.retry(refused.id, { hostReadyAt: 9000, hostNotBefore: 9000 });
    await store.complete(ok.id, { hostReadyAt: 5100 });
    expect(await store.claim({ now: 8999, leaseMs: 60_000 })).toEqual({ lease: null, nextReadyAt: 9000 });
    expect((await store.claim({ now: 9000, leaseMs: 60_000 })).lease?.entry.url).toBe('http://a.test/2');
  });

  it('migrates a crawl file of schema 3 (no recrawl memory): queues, labels and counts kept, revisits from then on', async () => {
    const path = temp.file();
    const before = openStore(path);
    await before.add([entry('http://a.test/1', { label: 'L' }), entry('http://a.test/2'), entry('http://a.test/3')]);
    await before.complete((await before.claim({ now: 0, leaseMs: 60_000 })).lease!.id);
    await before.close();
    // The file as schema 3 wrote it: urls without last_fetch, due_at and fetched_at, three migrations recorded.
    const raw = new Database(path);
    raw.exec(`${KEPT_DONE_KEY}
      DROP TABLE failures; ALTER TABLE urls DROP COLUMN moved_to;
      DROP INDEX urls_due; DROP INDEX urls_fetched; ALTER TABLE urls DROP COLUMN due_at; ALTER TABLE urls DROP COLUMN fetched_at;
      ALTER TABLE urls DROP COLUMN last_fetch; DELETE FROM schema_version WHERE version > 3`);
    raw.close();

    const store = openStore(path);
    expect(store.db.prepare('SELECT max(version) FROM schema_version').pluck().get()).toBe(SCHEMA_VERSION);
    expect(await store.counts()).toMatchObject({ queued: 2, inFlight: 0, done: 1 });
    expect(await store.reopenDue({ dueBefore: Number.MAX_SAFE_INTEGER, limit: 10 })).toBe(0);
    expect(await store.add([entry('http://a.test/1', { hints: { lastmod: 5 } })])).toEqual(['duplicate']);
    const second = (await store.claim({ now: 0, leaseMs: 60_000 })).lease!;
    expect(second.entry).toEqual(entry('http://a.test/2'));
    await store.complete(second.id, { lastFetch: lastFetchAt(10, 20) });
    expect(await store.reopenDue({ dueBefore: 100, limit: 10 })).toBe(1);
    expect(await drainLeases(store)).toEqual([
      { url: 'http://a.test/3', revisit: undefined },
      { url: 'http://a.test/2', revisit: lastFetchAt(10, 20) },
    ]);
  });

  it('migrates a crawl file of schema 4 (no failures, no relabels): its queued URLs relabelled, failures kept from then on', async () => {
    const path = temp.file();
    const before = openStore(path);
    await before.add([entry('http://a.test/1'), entry('http://a.test/2')]);
    await before.complete((await before.claim({ now: 0, leaseMs: 60_000 })).lease!.id);
    await before.close();
    // The file as schema 4 wrote it: no failures table, no tombstone column, four migrations recorded.
    const raw = new Database(path);
    raw.exec(
      `${KEPT_DONE_KEY} DROP TABLE failures; ALTER TABLE urls DROP COLUMN moved_to; DELETE FROM schema_version WHERE version > 4`,
    );
    raw.close();

    const store = openStore(path);
    expect(store.db.prepare('SELECT max(version) FROM schema_version').pluck().get()).toBe(SCHEMA_VERSION);
    expect(await store.counts()).toEqual({ queued: 1, inFlight: 0, done: 1, failed: 0, activeHosts: 1 });
    expect(await store.add([entry('http://a.test/2', { label: 'L', priority: 1 })])).toEqual(['relabelled']);
    const lease = (await store.claim({ now: 0, leaseMs: 60_000 })).lease!;
    expect(lease.entry).toEqual(entry('http://a.test/2', { label: 'L', priority: 1 }));
    const failure = {
      kind: 'failed' as const,
      reason: 'fetch',
      message: 'HTTP 503',
      code: 'ERR_HTTP_STATUS',
      attempts: 3,
      at: 5,
    };
    await store.complete(lease.id, { failure });
    expect(await store.failures()).toEqual([{ entry: entry('http://a.test/2', { label: 'L', priority: 1 }), failure }]);
    expect(await store.counts()).toMatchObject({ done: 2, failed: 1 });
  });

  it('relabels to a higher priority through a tombstone, skipped and deleted when a claim meets it', async () => {
    const store = openStore();
    const rows = (): unknown[] =>
      store.db.prepare('SELECT key, priority, moved_to IS NOT NULL AS tombstone FROM urls ORDER BY id').all();
    await store.add([entry('http://a.test/1'), entry('http://a.test/2'), entry('http://a.test/3', { priority: 1 })]);
    expect(
      await store.add([
        entry('http://a.test/1', { label: 'L', priority: 2 }),
        entry('http://a.test/2', { label: 'M' }),
      ]),
    ).toEqual(['relabelled', 'relabelled']);
    // a/1 moved (a tombstone in its place, a copy in priority 2's queue); a/2 relabelled in place.
    expect(rows()).toEqual([
      { key: 'http://a.test/1', priority: 0, tombstone: 1 },
      { key: 'http://a.test/2', priority: 0, tombstone: 0 },
      { key: 'http://a.test/3', priority: 1, tombstone: 0 },
      { key: 'http://a.test/1', priority: 2, tombstone: 0 },
    ]);
    expect(await store.counts()).toMatchObject({ queued: 3 });
    expect(await store.add([entry('http://a.test/1'), entry('http://a.test/1', { label: 'X' })])).toEqual([
      'duplicate',
      'duplicate',
    ]);
    const claimed: unknown[] = [];
    for (let i = 0; i < 3; i++) {
      const lease = (await store.claim({ now: 0, leaseMs: 60_000 })).lease!;
      claimed.push([lease.entry.url, lease.entry.label, lease.entry.priority]);
      await store.complete(lease.id);
    }
    expect(claimed).toEqual([
      ['http://a.test/1', 'L', 2],
      ['http://a.test/3', undefined, 1],
      ['http://a.test/2', 'M', 0],
    ]);
    // Done for good: the rows keep no URL, and still dedupe them.
    expect(rows()).toEqual([
      { key: '', priority: 0, tombstone: 0 },
      { key: '', priority: 1, tombstone: 0 },
      { key: '', priority: 2, tombstone: 0 },
    ]);
    expect(await store.add(['1', '2', '3'].map((n) => entry(`http://a.test/${n}`, { label: 'Z' })))).toEqual([
      'duplicate',
      'duplicate',
      'duplicate',
    ]);
    expect(await store.counts()).toEqual({ queued: 0, inFlight: 0, done: 3, failed: 0, activeHosts: 0 });
    expect(await store.claim({ now: 0, leaseMs: 60_000 })).toEqual({ lease: null, nextReadyAt: null });
  });

  it('keeps one process’s hold against another’s settle on a shared file', async () => {
    const path = temp.file();
    const [one, two] = [openStore(path, 0, 2, true), openStore(path, 0, 2, true)];
    await one.add([entry('http://a.test/1'), entry('http://a.test/2'), entry('http://a.test/3')]);
    const refused = (await one.claim({ now: 0, leaseMs: 60_000 })).lease!;
    const ok = (await two.claim({ now: 0, leaseMs: 60_000 })).lease!;
    await one.retry(refused.id, { hostReadyAt: 2000, hostNotBefore: 2000 });
    await two.complete(ok.id, { hostReadyAt: 400 });
    await two.setHostPolicy('a.test', { readyAt: 0 });
    for (const store of [one, two])
      expect(await store.claim({ now: 1999, leaseMs: 60_000 })).toEqual({ lease: null, nextReadyAt: 2000 });
    expect((await two.claim({ now: 2000, leaseMs: 60_000 })).lease?.entry.hostKey).toBe('a.test');
  });

  it('gives a host turn to one of two stores on one file asking at the same moment, and each sees the clock the other moved', async () => {
    const path = temp.file();
    const [one, two] = [openStore(path, 1000, 1, true), openStore(path, 1000, 1, true)];
    for (let round = 0; round < 20; round++) {
      const now = round * 100;
      const request = { now, busyUntil: now + 100, withinLease: round % 2 === 0 };
      const turns = await Promise.all([one.takeHostTurn('t.test', request), two.takeHostTurn('t.test', request)]);
      expect(
        turns.filter((t) => t.granted),
        `round ${round}`,
      ).toHaveLength(1);
      expect(turns.find((t) => !t.granted)).toEqual({ granted: false, retryAt: now + 100 });
      // Whoever got it, neither store grants another before busyUntil.
      for (const store of [one, two])
        expect(await store.takeHostTurn('t.test', { ...request, now: now + 99 })).toEqual({
          granted: false,
          retryAt: now + 100,
        });
    }
    // The host one store made is the other's too: a URL added there waits for the last turn's clock.
    await two.add([entry('http://t.test/1')]);
    expect(await one.claim({ now: 1999, leaseMs: 60_000 })).toEqual({ lease: null, nextReadyAt: 2000 });
    expect((await one.claim({ now: 2000, leaseMs: 60_000 })).lease?.entry.url).toBe('http://t.test/1');
    expect((await two.takeHostTurn('t.test', { now: 3000, busyUntil: 3100, withinLease: false })).granted).toBe(false); // no room: the claim is in flight
  });

  it('never gives two processes on one file a turn at one host at the same moment', async () => {
    assertBuilt();
    const path = temp.file();
    openStore(path, 0, 1, true); // the file exists before the processes race to open it
    const worker = `
      const { createSqliteFrontierStore } = await import(${JSON.stringify(BUILT_STORE)});
      const store = createSqliteFrontierStore({ path: ${JSON.stringify(path)}, shared: true });
      const granted = [];
      const end = Date.now() + 1500;
      while (Date.now() < end) {
        const now = Date.now();
        const turn = await store.takeHostTurn('turns.test', { now, busyUntil: now + 10, withinLease: false });
        if (turn.granted) granted.push(now + ' ' + (now + 10));
        else await new Promise((resolve) => setTimeout(resolve, Math.max(0, turn.retryAt - Date.now())));
      }
      await store.close();
      console.log(granted.join('\\n'));`;
    const outputs = await Promise.all([runNodeCode(worker), runNodeCode(worker)]);
    const turns = outputs
      .flatMap((out, process) =>
        out
          .split('\n')
          .filter(Boolean)
          .map((line) => ({ process, start: Number(line.split(' ')[0]), end: Number(line.split(' ')[1]) })),
      )
      .sort((a, b) => a.start - b.start);
    expect(new Set(turns.map((t) => t.process))).toEqual(new Set([0, 1]));
    for (let i = 1; i < turns.length; i++)
      expect(turns[i]!.start, `turn ${i}`).toBeGreaterThanOrEqual(turns[i - 1]!.end);
  });

  it('rejects invalid options', () => {
    expect(() => createSqliteFrontierStore({ path: '' })).toThrow(/path/);
    expect(() => createSqliteFrontierStore({ path: temp.file(), defaultHostPolicy: { maxInFlight: 0 } })).toThrow(
      /maxInFlight/,
    );
    expect(() => createSqliteFrontierStore({ path: temp.file(), cacheSizeKiB: 1 })).toThrow(/cacheSizeKiB/);
  });

  it('adds thousands of entries in one call, deduping within the batch and against the file', async () => {
    const store = openStore();
    const batch = Array.from({ length: 20_000 }, (_, i) => entry(`http://h${i % 50}.test/p/${i % 15_000}`));
    const outcomes = await store.add(batch);
    expect(outcomes.filter((o) => o === 'added')).toHaveLength(15_000);
    expect(outcomes.slice(15_000).every((o) => o === 'duplicate')).toBe(true);
    expect(await store.counts()).toEqual({ queued: 15_000, inFlight: 0, done: 0, failed: 0, activeHosts: 50 });
    expect(await store.add([entry('http://h0.test/p/0'), entry('http://h0.test/p/new')])).toEqual([
      'duplicate',
      'added',
    ]);
  });

  it('tells two URLs apart whose dedupe hashes are equal', async () => {
    const store = openStore(temp.file(), 0, 10);
    await store.add([entry('http://a.test/one')]);
    // Forge a collision: the stored hash of /one becomes that of /two.
    store.db
      .prepare('UPDATE urls SET key_hash = ? WHERE key = ?')
      .run(keyHash('http://a.test/two'), 'http://a.test/one');
    expect(await store.add([entry('http://a.test/two'), entry('http://a.test/two')])).toEqual(['added', 'duplicate']);
    expect(
      store.db.prepare('SELECT count(*) FROM urls WHERE key_hash = ?').pluck().get(keyHash('http://a.test/two')),
    ).toBe(2);
    const urls = [
      (await store.claim({ now: 0, leaseMs: 1000 })).lease?.entry.url,
      (await store.claim({ now: 0, leaseMs: 1000 })).lease?.entry.url,
    ];
    expect(urls).toEqual(['http://a.test/one', 'http://a.test/two']);
  });

  it('keeps a plugin resource apart from the page at the same URL, and gives both back whole', async () => {
    const store = openStore(temp.file(), 0, 10);
    const sitemap = entry('http://a.test/sitemap.xml', {
      kind: 'sitemap',
      data: { from: 'robots' },
      referrer: 'http://a.test/robots.txt',
    });
    const page = entry('http://a.test/sitemap.xml', {
      redirectedFrom: 'http://a.test/old',
      redirectHops: 1,
      depth: 2,
      priority: -1,
    });
    expect(await store.add([sitemap, page])).toEqual(['added', 'added']);
    const first = await store.claim({ now: 0, leaseMs: 1000 });
    const second = await store.claim({ now: 0, leaseMs: 1000 });
    expect(first.lease?.entry).toEqual(sitemap);
    expect(second.lease?.entry).toEqual(page);
  });

  it('hands out URLs in the same order as the memory store through adds, relabels, claims, releases, retries, failures and expiries', async () => {
    // One host (so that no tie between hosts' clocks is broken differently), random operations.
    // Labelled adds have priority 0: a relabel then keeps the URL's place in both stores (one
    // that raises the priority queues it last in that priority here, in its first place there).
    const random = seededRandom(7);
    for (let round = 0; round < 5; round++) {
      const { memory, sqlite } = storesAlike(random);
      const held: [string, string][] = [];
      const view = (r: ClaimResult) => (r.lease === null ? r : { ...r.lease, id: undefined });
      let now = 0;
      for (let step = 0; step < 400; step++) {
        const op = random(10);
        if (op < 3) {
          const batch = Array.from({ length: 1 + random(4) }, () =>
            random(4) === 0
              ? entry(`http://h.test/${random(60)}`, { label: `L${step}`, userData: { step } })
              : entry(`http://h.test/${random(60)}`, { priority: random(3) }),
          );
          expect(await sqlite.add(batch), `step ${step}`).toEqual(await memory.add(batch));
        } else if (op < 6) {
          const request = { now, leaseMs: 1000 + step }; // distinct expiries: no ties to break
          const [m, q] = [await memory.claim(request), await sqlite.claim(request)];
          // Where the memory store says null while URLs are in flight, the SQLite store says when
          // to look again (another process may hold them): see the next test.
          if (m.lease === null && m.nextReadyAt === null && q.lease === null && q.nextReadyAt !== null) {
            expect(q.nextReadyAt).toBeGreaterThan(now);
            expect((await memory.counts()).inFlight).toBeGreaterThan(0);
          } else expect(view(q), `step ${step}`).toEqual(view(m));
          if (m.lease !== null && q.lease !== null) held.push([m.lease.id, q.lease.id]);
        } else if (op < 9 && held.length > 0) {
          const [m, q] = held.splice(random(held.length), 1)[0]!;
          const how = (['complete', 'release', 'retry', 'fail'] as const)[random(4)]!;
          const options = random(2) === 0 ? {} : { hostReadyAt: now + random(500) };
          if (how === 'fail') {
            const failure = {
              kind: 'failed' as const,
              reason: 'fetch',
              message: `step ${step}`,
              attempts: 1,
              at: step,
            };
            await memory.complete(m, { ...options, failure });
            await sqlite.complete(q, { ...options, failure });
          } else {
            await memory[how](m, options);
            await sqlite[how](q, options);
          }
        } else if (op === 9 && random(4) === 0) {
          expect(await sqlite.requeueFailed(), `step ${step}`).toBe(await memory.requeueFailed());
        } else {
          now += random(800);
        }
        if (step % 50 === 0) expect(await sqlite.counts()).toEqual(await memory.counts());
      }
      expect(await sqlite.counts()).toEqual(await memory.counts());
      expect(await sqlite.failures()).toEqual(await memory.failures());
      for (const [m, q] of held) {
        await memory.complete(m);
        await sqlite.complete(q);
      }
      expect(await drain(sqlite, now)).toEqual(await drain(memory, now));
      expect(await sqlite.counts()).toEqual(await memory.counts());
    }
  });

  it('reopens, revisits and hints like the memory store, in the same order', async () => {
    const random = seededRandom(11);
    for (let round = 0; round < 5; round++) {
      const { memory, sqlite } = storesAlike(random);
      const held: [string, string][] = [];
      // A revisit is told apart by the etag of the fetch it revisits. (The memory store hands out
      // the LastFetch as it was at reopenDue, the SQLite store as it is: hints given in between.)
      const view = (r: ClaimResult) =>
        r.lease === null
          ? r
          : { ...r.lease, id: undefined, entry: { ...r.lease.entry, revisit: r.lease.entry.revisit?.etag } };
      let now = 0;
      for (let step = 0; step < 400; step++) {
        const op = random(14);
        if (op < 3) {
          // Hints on a third of the URLs. Every due time is unique (step × 10 + 0…4, a million
          // more for a far one, two for latestDueAt), so no tie between URLs is broken differently.
          const hints = () =>
            random(3) === 0 ? { hints: { lastmod: random(2) === 0 ? step * 10 - 1 : random(step * 10 + 1) } } : {};
          const batch = Array.from({ length: 1 + random(4) }, () =>
            entry(`http://h.test/${random(40)}`, { priority: random(3), ...hints() }),
          );
          expect(await sqlite.add(batch), `step ${step}`).toEqual(await memory.add(batch));
        } else if (op < 6) {
          const request = { now, leaseMs: 1000 + step };
          const [m, q] = [await memory.claim(request), await sqlite.claim(request)];
          if (m.lease === null && m.nextReadyAt === null && q.lease === null && q.nextReadyAt !== null) {
            expect((await memory.counts()).inFlight).toBeGreaterThan(0);
          } else expect(view(q), `step ${step}`).toEqual(view(m));
          if (m.lease !== null && q.lease !== null) held.push([m.lease.id, q.lease.id]);
        } else if (op < 9 && held.length > 0) {
          const [m, q] = held.splice(random(held.length), 1)[0]!;
          const how = (['complete', 'complete', 'release', 'retry'] as const)[random(4)]!;
          const options = random(2) === 0 ? {} : { hostReadyAt: now + random(500) };
          if (how === 'complete' && random(4) !== 0) {
            const dueAt = step * 10 + 1 + random(4) + (random(2) === 0 ? 1_000_000 : 0);
            const fetched = {
              ...options,
              lastFetch: lastFetchAt(step * 10, dueAt, { etag: `"${step}"`, latestDueAt: 2_000_000 + step * 10 }),
            };
            await memory.complete(m, fetched);
            await sqlite.complete(q, fetched);
          } else {
            await memory[how](m, options);
            await sqlite[how](q, options);
          }
        } else if (op < 11) {
          // fetchedBefore on a third of the calls: every fetchedAt is unique too (step × 10).
          const fetchedBefore = random(3) === 0 ? { fetchedBefore: random(step * 10 + 10) } : {};
          const request = {
            dueBefore: random(5) === 0 ? 1_500_000 : random(step * 10 + 10),
            ...fetchedBefore,
            limit: 1 + random(4),
          };
          expect(await sqlite.reopenDue(request), `step ${step}`).toBe(await memory.reopenDue(request));
        } else {
          now += random(800);
        }
        if (step % 50 === 0) {
          expect(await sqlite.counts()).toEqual(await memory.counts());
          expect(await sqlite.hostCounts()).toEqual(await memory.hostCounts());
        }
      }
      for (const [m, q] of held) {
        await memory.complete(m);
        await sqlite.complete(q);
      }
      expect(await sqlite.reopenDue({ dueBefore: Infinity, limit: Infinity })).toBe(
        await memory.reopenDue({ dueBefore: Infinity, limit: Infinity }),
      );
      const etags = async (store: FrontierStore) =>
        (await drainLeases(store, now)).map(({ url, revisit }) => `${url} ${revisit?.etag}`);
      expect(await etags(sqlite)).toEqual(await etags(memory));
      expect(await sqlite.counts()).toEqual(await memory.counts());
    }
  });

  it('reopens each due URL once with three processes reopening and claiming from one file at once', async () => {
    assertBuilt();
    const path = temp.file();
    const store = openStore(path, 0, 4, true);
    const urls = Array.from({ length: 300 }, (_, i) => `http://h${i % 10}.test/${i}`);
    await store.add(urls.map((url) => entry(url)));
    for (let leases = await claimAll(store); leases.length > 0; leases = await claimAll(store)) {
      for (const lease of leases)
        await store.complete(lease.id, { lastFetch: lastFetchAt(1, 2 + (lease.entry.url.length % 7)) });
    }
    const worker = `
      const { createSqliteFrontierStore } = await import(${JSON.stringify(BUILT_STORE)});
      const store = createSqliteFrontierStore({ path: ${JSON.stringify(path)}, shared: true });
      const lines = [];
      for (;;) {
        const reopened = await store.reopenDue({ dueBefore: 100, limit: 5 });
        if (reopened > 0) lines.push('reopened ' + reopened);
        const { lease } = await store.claim({ now: 0, leaseMs: 60_000 });
        if (lease !== null) {
          lines.push(lease.entry.url + ' ' + lease.entry.revisit.fetchedAt);
          await store.complete(lease.id, { lastFetch: { ...lease.entry.revisit, fetchedAt: 500, dueAt: 1000 } });
        } else if (reopened === 0) break;
      }
      await store.close();
      console.log(lines.join('\\n'));`;
    const lines = (await Promise.all([runNodeCode(worker), runNodeCode(worker), runNodeCode(worker)])).flatMap((out) =>
      out.split('\n').filter(Boolean),
    );
    const reopened = lines
      .filter((line) => line.startsWith('reopened '))
      .map((line) => Number(line.slice('reopened '.length)));
    expect(reopened.reduce((a, b) => a + b, 0)).toBe(300);
    const claimed = lines.filter((line) => !line.startsWith('reopened '));
    expect(claimed.sort()).toEqual(urls.map((url) => `${url} 1`).sort());
    expect(await store.counts()).toEqual({ queued: 0, inFlight: 0, done: 300, failed: 0, activeHosts: 0 });
    expect(await store.reopenDue({ dueBefore: 1000, limit: 1000 })).toBe(0);
    expect(await store.reopenDue({ dueBefore: 1001, limit: 1000 })).toBe(300);
  });

  it('shares one frontier between two shared stores on one file, and never hands one URL to both', async () => {
    const path = temp.file();
    const a = openStore(path, 0, 2, true);
    const b = openStore(path, 0, 2, true);
    await a.add(Array.from({ length: 300 }, (_, i) => entry(`http://h${i % 12}.test/${i}`)));
    expect(await b.add([entry('http://h0.test/0')])).toEqual(['duplicate']);
    const claimed = new Map<string, string>();
    const held: { store: SqliteFrontierStore; id: string }[] = [];
    for (let round = 0; claimed.size < 300 && round < 2000; round++) {
      const store = round % 2 === 0 ? a : b;
      const result = await store.claim({ now: round, leaseMs: 60_000 });
      if (result.lease !== null) {
        expect(claimed.get(result.lease.entry.url), result.lease.entry.url).toBeUndefined();
        claimed.set(result.lease.entry.url, round % 2 === 0 ? 'a' : 'b');
        held.push({ store, id: result.lease.id });
      }
      // Keep several leases out at once; end them from either store (the file is the truth).
      if (held.length > 10 || result.lease === null) {
        const oldest = held.shift();
        if (oldest !== undefined) await (oldest.store === a ? b : a).complete(oldest.id);
      }
    }
    expect(claimed.size).toBe(300);
    expect(new Set(claimed.values())).toEqual(new Set(['a', 'b']));
  });

  it('never hands one URL to two processes claiming from one file at once', async () => {
    assertBuilt();
    const path = temp.file();
    const store = openStore(path, 0, 4, true);
    const urls = Array.from({ length: 2000 }, (_, i) => `http://h${i % 40}.test/${i}`);
    await store.add(urls.map((url) => entry(url)));
    const worker = fileURLToPath(new URL('./fixtures/claim-worker.mjs', import.meta.url));
    // The workers claim only once all three are ready: a slow start must not leave one the whole file.
    const go = `${path}.go`;
    const running = Promise.all([
      runNode(worker, [path, go]),
      runNode(worker, [path, go]),
      runNode(worker, [path, go]),
    ]);
    const readyFiles = (): number =>
      readdirSync(dirname(path)).filter((name) => name.startsWith(`${basename(go)}.ready.`)).length;
    for (let waited = 0; readyFiles() < 3 && waited < 30_000; waited += 10) await sleep(10);
    writeFileSync(go, '');
    const outputs = await running;
    const claimed = outputs.flatMap((out) => out.split('\n').filter(Boolean));
    expect(claimed.length).toBe(2000);
    expect(new Set(claimed).size).toBe(2000);
    expect(outputs.filter((out) => out.trim() !== '').length).toBeGreaterThan(1);
    expect(await store.counts()).toEqual({ queued: 0, inFlight: 0, done: 2000, failed: 0, activeHosts: 0 });
  });

  it('shared: tells a caller blocked by leases in flight elsewhere when to look again, instead of "nothing queued"', async () => {
    const path = temp.file();
    const dead = createSqliteFrontierStore({ path, idlePollMs: 1000, shared: true });
    await dead.add([entry('http://a.test/1'), entry('http://a.test/2')]);
    expect((await dead.claim({ now: 0, leaseMs: 5000 })).lease).not.toBeNull();
    await dead.close(); // the worker dies with its lease out
    const live = createSqliteFrontierStore({ path, idlePollMs: 1000, shared: true });
    open.push(live);
    expect(await live.claim({ now: 100, leaseMs: 5000 })).toEqual({ lease: null, nextReadyAt: 1100 });
    expect(await live.claim({ now: 4500, leaseMs: 5000 })).toEqual({ lease: null, nextReadyAt: 5000 });
    expect((await live.claim({ now: 5000, leaseMs: 5000 })).lease?.entry.url).toBe('http://a.test/1');
  });

  it('owns its file: a second store, in this process or another, is refused with ERR_STORE_IN_USE naming the owner', async () => {
    assertBuilt();
    const path = temp.file();
    const owner = openStore(path);
    expect(() => createSqliteFrontierStore({ path })).toThrow(
      expect.objectContaining({ code: 'ERR_STORE_IN_USE', message: expect.stringContaining(`pid ${process.pid}`) }),
    );
    expect(() => createSqliteFrontierStore({ path, shared: true })).not.toThrow(); // a shared store does not ask
    const other = await runNodeCode(`
      const { createSqliteFrontierStore } = await import(${JSON.stringify(BUILT_STORE)});
      try { createSqliteFrontierStore({ path: ${JSON.stringify(path)} }); console.log('opened'); }
      catch (error) { console.log(error.code); }`);
    expect(other.trim()).toBe('ERR_STORE_IN_USE');
    await owner.close();
    // Let go of: the next one may open it.
    const next = createSqliteFrontierStore({ path });
    await next.close();
  });

  it('hands back every lease left in flight when it takes the file over, at once', async () => {
    const path = temp.file();
    const first = createSqliteFrontierStore({ path, defaultHostPolicy: { delayMs: 0, maxInFlight: 3 } });
    await first.add([
      entry('http://a.test/1'),
      entry('http://a.test/2'),
      entry('http://a.test/3'),
      entry('http://b.test/1'),
    ]);
    for (let i = 0; i < 3; i++) expect((await first.claim({ now: 0, leaseMs: 3_600_000 })).lease).not.toBeNull();
    await first.close(); // as if it had died with three leases out for an hour
    const second = createSqliteFrontierStore({ path });
    open.push(second);
    expect(second.reclaimedLeases).toBe(3);
    expect(await second.counts()).toMatchObject({ queued: 4, inFlight: 0 });
    const claimed: string[] = [];
    for (let i = 0; i < 4; i++) {
      const result = await second.claim({ now: 1, leaseMs: 1000 });
      if (result.lease !== null) claimed.push(result.lease.entry.url);
    }
    expect(claimed.sort()).toEqual(['http://a.test/1', 'http://a.test/2', 'http://a.test/3', 'http://b.test/1']);
  });

  it('is taken over at once after its owner was SIGKILLed with leases out', async () => {
    assertBuilt();
    const path = temp.file();
    const seed = createSqliteFrontierStore({ path, defaultHostPolicy: { delayMs: 0, maxInFlight: 2 } });
    await seed.add([entry('http://a.test/1'), entry('http://a.test/2')]);
    await seed.close();
    // A process that claims both URLs for an hour, says so, and waits to be killed.
    const child = spawn(process.execPath, [
      '--input-type=module',
      '-e',
      `
      const { createSqliteFrontierStore } = await import(${JSON.stringify(BUILT_STORE)});
      const store = createSqliteFrontierStore({ path: ${JSON.stringify(path)} });
      await store.claim({ now: Date.now(), leaseMs: 3_600_000 });
      await store.claim({ now: Date.now(), leaseMs: 3_600_000 });
      console.log('claimed');
      setTimeout(() => {}, 60_000);`,
    ]);
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('the child never claimed')), 15_000);
      child.stdout.on('data', (data: Buffer) => {
        if (String(data).includes('claimed')) {
          clearTimeout(timer);
          resolve();
        }
      });
    });
    expect(() => createSqliteFrontierStore({ path })).toThrow(expect.objectContaining({ code: 'ERR_STORE_IN_USE' }));
    child.kill('SIGKILL');
    await new Promise((resolve) => child.once('exit', resolve));
    const resumed = createSqliteFrontierStore({ path });
    open.push(resumed);
    expect(resumed.reclaimedLeases).toBe(2);
    const first = await resumed.claim({ now: Date.now(), leaseMs: 1000 });
    const second = await resumed.claim({ now: Date.now(), leaseMs: 1000 });
    expect([first.lease?.entry.url, second.lease?.entry.url].sort()).toEqual(['http://a.test/1', 'http://a.test/2']);
  });

  it('keeps the crawl stats and metadata across a reopen', async () => {
    const path = temp.file();
    const store = openStore(path);
    expect(await store.loadStats()).toBeUndefined();
    await store.saveStats({ pages: 3, byStatus: { 200: 3 } });
    await store.saveStats({ pages: 4, byStatus: { 200: 4 } });
    await store.saveMetadata('seeds', ['http://a.test/']);
    await store.close();
    const again = openStore(path);
    expect(await again.loadStats()).toEqual({ pages: 4, byStatus: { 200: 4 } });
    expect(await again.loadMetadata('seeds')).toEqual(['http://a.test/']);
  });
});

describe('createSqliteRobotsCache', () => {
  const record = (origin: string, fetchedAt: number): RobotsCacheRecord => ({
    origin,
    outcome: 'success',
    status: 200,
    url: `${origin}/robots.txt`,
    fetchedAt,
    expiresAt: fetchedAt + 86_400_000,
    consecutiveFailures: 0,
    lastGood: {
      body: 'User-agent: *\nDisallow: /private/\n',
      bodyEncoding: 'utf-8',
      status: 200,
      url: `${origin}/robots.txt`,
      fetchedAt,
      truncatedAtCap: false,
    },
  });

  it('keeps the records in the crawl file, so a restarted crawl has them', async () => {
    const path = temp.file();
    const store = createSqliteFrontierStore({ path });
    const cache = createSqliteRobotsCache(store);
    await cache.set('http://a.test', record('http://a.test', 1));
    await cache.set('http://b.test', record('http://b.test', 2));
    await cache.set('http://b.test', record('http://b.test', 3));
    await cache.delete('http://a.test');
    await cache.close(); // not its connection: does nothing
    await store.close();
    const reopened = createSqliteFrontierStore({ path });
    const again = createSqliteRobotsCache(reopened);
    expect(await again.get('http://a.test')).toBeUndefined();
    expect(await again.get('http://b.test')).toEqual(record('http://b.test', 3));
    await reopened.close();
  });

  it("keeps its records through the store's clear, which keeps the schema and the owner's record too", async () => {
    const path = temp.file();
    const store = createSqliteFrontierStore({ path });
    const cache = createSqliteRobotsCache(store);
    await cache.set('http://a.test', record('http://a.test', 1));
    await store.add([entry('http://a.test/1')]);
    await store.saveStats({ pages: 1 });
    await store.clear();
    expect(await cache.get('http://a.test')).toEqual(record('http://a.test', 1));
    expect(await store.loadStats()).toBeUndefined();
    for (const table of ['urls', 'hosts', 'queues', 'failures'])
      expect(store.db.prepare(`SELECT count(*) FROM ${table}`).pluck().get(), table).toBe(0);
    expect(store.db.prepare('SELECT max(version) FROM schema_version').pluck().get()).toBe(SCHEMA_VERSION);
    // The owner's record is the lock's, not the crawl's: a second store is still told who holds the file.
    expect(() => createSqliteFrontierStore({ path })).toThrow(
      expect.objectContaining({ code: 'ERR_STORE_IN_USE', message: expect.stringContaining(`pid ${process.pid}`) }),
    );
    await store.close();
    const reopened = createSqliteFrontierStore({ path });
    expect(await createSqliteRobotsCache(reopened).get('http://a.test')).toEqual(record('http://a.test', 1));
    await reopened.close();
  });

  it('opens a crawl file by path or uses a connection it is given', async () => {
    const path = temp.file();
    const byPath = createSqliteRobotsCache(path);
    await byPath.set('http://a.test', record('http://a.test', 1));
    await byPath.close();
    const db = new Database(path);
    const byDb = createSqliteRobotsCache(db);
    expect(await byDb.get('http://a.test')).toEqual(record('http://a.test', 1));
    db.close();
    const fresh = new Database(temp.file());
    expect(await createSqliteRobotsCache(fresh).get('http://a.test')).toBeUndefined();
    fresh.close();
  });
});

const lastFetchAt = (fetchedAt: number, dueAt: number, extra: Partial<LastFetch> = {}): LastFetch => ({
  fetchedAt,
  status: 200,
  etag: `"${fetchedAt}"`,
  bytes: 100,
  intervalMs: 0,
  dueAt,
  latestDueAt: fetchedAt + 1000,
  ...extra,
});

/** Claims everything claimable at `now` (delay 0), without ending any lease. */
async function claimAll(store: FrontierStore): Promise<FrontierLease[]> {
  const leases: FrontierLease[] = [];
  for (;;) {
    const { lease } = await store.claim({ now: 0, leaseMs: 60_000 });
    if (lease === null) return leases;
    leases.push(lease);
  }
}

/** Claims and completes everything left; returns each URL with its revisit's memory, in order. */
async function drainLeases(store: FrontierStore, from = 0): Promise<{ url: string; revisit: LastFetch | undefined }[]> {
  const order: { url: string; revisit: LastFetch | undefined }[] = [];
  let now = from;
  for (let i = 0; i < 10_000; i++) {
    const result = await store.claim({ now, leaseMs: 1_000_000 });
    if (result.lease === null) {
      if (result.nextReadyAt === null) break;
      now = Math.max(now + 1, result.nextReadyAt);
      continue;
    }
    order.push({ url: result.lease.entry.url, revisit: result.lease.entry.revisit });
    await store.complete(result.lease.id);
  }
  return order;
}

/** Claims and completes everything left; returns the URLs and claim times in order. */
async function drain(store: FrontierStore, from: number): Promise<string[]> {
  const order: string[] = [];
  let now = from;
  for (let i = 0; i < 10_000; i++) {
    const result = await store.claim({ now, leaseMs: 1_000_000 });
    if (result.lease === null) {
      if (result.nextReadyAt === null) break;
      now = Math.max(now + 1, result.nextReadyAt);
      continue;
    }
    order.push(`${now} ${result.lease.entry.url} p${result.lease.entry.priority} r${result.lease.entry.retries ?? 0}`);
    await store.complete(result.lease.id);
  }
  return order;
}

function runNode(script: string, args: readonly string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [script, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
    child.on('error', reject);
    child.on('exit', (code) =>
      code === 0 ? resolve(out) : reject(new Error(`${script} exited with ${code}: ${err}`)),
    );
  });
}

/** Runs an ES module snippet in a new Node process; resolves with what it printed. */
function runNodeCode(code: string): Promise<string> {
  return runNode('--input-type=module', ['-e', code]);
}

/** A small deterministic generator: the same operations every run, for stores compared step by step. */
function seededRandom(initial: number): (n: number) => number {
  let seed = initial;
  return (n) => {
    seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
    return (seed >>> 8) % n;
  };
}
