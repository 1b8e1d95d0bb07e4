// Migration 6 (the dedupe hash laid out by host) on a file the schema-5 store wrote
// (fixtures/schema-v5.db, made by fixtures/make-schema-v5.mjs), and the hash's layout.

import { copyFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { FrontierEntry } from '@politely/frontier';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { createSqliteFrontierStore, SCHEMA_VERSION, type SqliteFrontierStore } from '../src/index.js';
import { keyCheck, keyHash } from '../src/key-hash.js';
import { createTempDir, entry } from './helpers.js';

const temp = createTempDir('dedupe-hash');
afterAll(() => temp.remove());

const FIXTURE = fileURLToPath(new URL('./fixtures/schema-v5.db', import.meta.url));
const TWO_32 = 2 ** 32;
const hostPart = (key: string): number => Math.floor(keyHash(key) / TWO_32);

/** Every row of `urls` but its hashes, in id order. */
function rowsOf(db: Database.Database): Record<string, unknown>[] {
  const rows = db.prepare('SELECT * FROM urls ORDER BY id').all() as Record<string, unknown>[];
  return rows.map(({ key_hash: _hash, key_check: _check, ...row }) => row);
}

async function drain(store: SqliteFrontierStore): Promise<string[]> {
  const urls: string[] = [];
  for (let n = 0; n < 100; n++) {
    const { lease } = await store.claim({ now: 2_000_000_000_000, leaseMs: 60_000 });
    if (lease === null) break;
    urls.push(lease.entry.kind === undefined ? lease.entry.url : `${lease.entry.kind} ${lease.entry.url}`);
    await store.complete(lease.id);
  }
  return urls;
}

describe('migration 6: a schema-5 crawl file rehashed', () => {
  it('keeps every row and the crawl as they were, and dedupes every known URL by the new hash', async () => {
    const path = temp.file();
    copyFileSync(FIXTURE, path);
    const raw = new Database(path);
    expect(raw.prepare('SELECT max(version) FROM schema_version').pluck().get()).toBe(5);
    const before = rowsOf(raw);
    const keys = raw.prepare('SELECT key, kind FROM urls').all() as { key: string; kind: string | null }[];
    raw.close();
    expect(before).toHaveLength(34);

    // Shared: no lease is reclaimed on opening, so every row must be exactly as it was.
    const shared = createSqliteFrontierStore({ path, shared: true });
    try {
      expect(SCHEMA_VERSION).toBe(7);
      expect(shared.db.prepare('SELECT max(version) FROM schema_version').pluck().get()).toBe(7);
      expect(rowsOf(shared.db)).toEqual(before);
      const rows = shared.db.prepare('SELECT key, key_hash FROM urls').all() as { key: string; key_hash: number }[];
      expect(rows.filter((row) => row.key_hash !== keyHash(row.key))).toEqual([]);
      // The done URLs of a schema-5 file keep their keys: none has a check.
      expect(
        shared.db.prepare('SELECT count(*) FROM urls WHERE key_check IS NOT NULL OR key = ?').pluck().get(''),
      ).toBe(0);
    } finally {
      await shared.close();
    }

    const store = createSqliteFrontierStore({ path });
    try {
      // The URL the schema-5 store left in flight is back in its queue.
      expect(store.reclaimedLeases).toBe(1);
      expect(await store.counts()).toEqual({ queued: 30, inFlight: 0, done: 4, failed: 1, activeHosts: 3 });
      expect(await store.loadStats()).toEqual({ pages: 4 });
      expect((await store.failures()).map((f) => [f.entry.url, f.failure.message])).toEqual([
        ['https://h0.test/page-1', 'HTTP 500'],
      ]);

      const again: FrontierEntry[] = keys.map(({ key, kind }) => {
        const url = kind === null ? key : key.slice(kind.length + 1);
        const hostKey = new URL(url).hostname;
        return { url, hostKey, depth: 1, priority: 0, ...(kind === null ? {} : { kind }) };
      });
      expect(new Set(await store.add(again))).toEqual(new Set(['duplicate']));
      expect(await store.add([{ url: 'https://h0.test/new', hostKey: 'h0.test', depth: 1, priority: 0 }])).toEqual([
        'added',
      ]);
      // The two URLs done with a LastFetch come due; then everything queued is claimed once.
      expect(await store.reopenDue({ dueBefore: Number.MAX_SAFE_INTEGER, limit: 10 })).toBe(2);
      const claimed = await drain(store);
      expect(claimed).toHaveLength(33);
      expect(new Set(claimed).size).toBe(33);
      expect(claimed).toContain('https://h2.test/page-0');
      expect(claimed).toContain('asset https://h1.test/asset.css');
      expect(claimed).toContain('https://h0.test/new');
      expect(await store.counts()).toMatchObject({ queued: 0, inFlight: 0, failed: 1 });
    } finally {
      await store.close();
    }
  });
});

describe('done URLs', () => {
  it('keeps no URL for a URL done for good, which still dedupes it; keeps a revisit and a failure whole', async () => {
    const store = createSqliteFrontierStore({ path: temp.file(), defaultHostPolicy: { delayMs: 0, maxInFlight: 3 } });
    try {
      const urls = ['http://a.test/1', 'http://a.test/2', 'http://a.test/3'];
      await store.add(urls.map((url) => entry(url, { referrer: 'http://a.test/', label: 'L' })));
      const leases = [];
      for (let n = 0; n < 3; n++) leases.push((await store.claim({ now: 0, leaseMs: 60_000 })).lease!);
      expect(leases.map((lease) => lease.entry.url)).toEqual(urls);
      await store.complete(leases[0]!.id);
      const lastFetch = { fetchedAt: 1, status: 200, bytes: 1, intervalMs: 10, dueAt: 11, latestDueAt: 100 };
      await store.complete(leases[1]!.id, { lastFetch });
      const failure = { kind: 'failed' as const, reason: 'fetch', message: 'HTTP 500', attempts: 1, at: 2 };
      await store.complete(leases[2]!.id, { failure });

      const row = store.db.prepare('SELECT key, key_check, referrer, request FROM urls WHERE id = ?');
      const check = keyCheck(urls[0]!);
      expect(row.get(1)).toEqual({ key: '', key_check: check, referrer: null, request: null });
      expect(row.get(2)).toMatchObject({ key: urls[1], key_check: null, referrer: 'http://a.test/' });
      expect(row.get(3)).toMatchObject({ key: urls[2], key_check: null, referrer: 'http://a.test/' });
      expect(await store.add(urls.map((url) => entry(url)))).toEqual(['duplicate', 'duplicate', 'duplicate']);
      expect((await store.failures()).map((f) => f.entry)).toEqual([
        entry(urls[2]!, { referrer: 'http://a.test/', label: 'L' }),
      ]);
      expect(await store.reopenDue({ dueBefore: 100, limit: 10 })).toBe(1);
      expect((await store.claim({ now: 0, leaseMs: 60_000 })).lease?.entry).toMatchObject({
        url: urls[1],
        label: 'L',
        revisit: lastFetch,
      });

      // Forged: the done row's hash is another URL's; its check is not, so that URL is new.
      const forge = store.db.prepare('UPDATE urls SET key_hash = ?, key_check = ? WHERE id = 1');
      forge.run(keyHash('http://a.test/4'), check);
      expect(await store.add([entry('http://a.test/4')])).toEqual(['added']);
      // Both hashes another URL's: the row is that URL, seen.
      forge.run(keyHash('http://a.test/5'), keyCheck('http://a.test/5'));
      expect(await store.add([entry('http://a.test/5')])).toEqual(['duplicate']);
    } finally {
      await store.close();
    }
  });
});

describe('one add of many queues', () => {
  it('links each queue in order, with duplicates and a relabel in the middle of the add', async () => {
    const store = createSqliteFrontierStore({ path: temp.file(), defaultHostPolicy: { delayMs: 0, maxInFlight: 1 } });
    try {
      await store.add([entry('http://a.test/old')]);
      const batch = [];
      for (let i = 0; i < 12; i++)
        batch.push(entry(`http://${i % 2 === 0 ? 'a' : 'b'}.test/${i}`, { priority: i % 3 }));
      batch.splice(
        5,
        0,
        entry('http://a.test/2'),
        entry('http://a.test/0', { label: 'L' }),
        entry('http://a.test/old'),
      );
      const outcomes = await store.add(batch);
      expect(outcomes.filter((o) => o === 'added')).toHaveLength(12);
      expect(outcomes.slice(5, 8)).toEqual(['duplicate', 'relabelled', 'duplicate']);
      const claimed: string[] = [];
      for (let n = 0; n < 20; n++) {
        const { lease } = await store.claim({ now: n, leaseMs: 60_000 });
        if (lease === null) break;
        claimed.push(`${lease.entry.url} ${lease.entry.priority}${lease.entry.label ?? ''}`);
        await store.complete(lease.id);
      }
      const of = (host: string): string[] => claimed.filter((c) => c.startsWith(`http://${host}.test/`));
      // Highest priority first, FIFO within one; a/0 was relabelled in place (its priority stays).
      expect(of('a')).toEqual([
        'http://a.test/2 2',
        'http://a.test/8 2',
        'http://a.test/4 1',
        'http://a.test/10 1',
        'http://a.test/old 0',
        'http://a.test/0 0L',
        'http://a.test/6 0',
      ]);
      expect(of('b')).toEqual([
        'http://b.test/5 2',
        'http://b.test/11 2',
        'http://b.test/1 1',
        'http://b.test/7 1',
        'http://b.test/3 0',
        'http://b.test/9 0',
      ]);
    } finally {
      await store.close();
    }
  });
});

describe('keyHash', () => {
  it('starts with the host: keys of one host share the top 21 bits, a plugin resource included', () => {
    const a = hostPart('https://www.a.example/x');
    expect(hostPart('https://www.a.example/y?q=1')).toBe(a);
    expect(hostPart('sitemap https://www.a.example/sitemap.xml')).toBe(a);
    expect(hostPart('https://www.a.example')).toBe(a);
    const others = new Set(Array.from({ length: 50 }, (_, i) => hostPart(`https://host-${i}.example/x`)));
    expect(others.size).toBeGreaterThan(45);
    expect(keyHash('https://www.a.example/x')).not.toBe(keyHash('https://www.a.example/y'));
  });

  it('is a safe integer below 2^53, and the same for the same key', () => {
    for (const key of ['', 'no scheme', 'https://h.test/', `https://h.test/${'é'.repeat(300)}`]) {
      const hash = keyHash(key);
      expect(Number.isSafeInteger(hash)).toBe(true);
      expect(hash).toBeGreaterThanOrEqual(0);
      expect(keyHash(key)).toBe(hash);
    }
  });
});
