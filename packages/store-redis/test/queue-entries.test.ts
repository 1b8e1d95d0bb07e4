// Queued entries (layout 4): plain ones kept as text in a LIST per priority band, their URL
// relative to the host's origin; others as JSON. Each entry goes through a real Redis (add, then
// claim, retry, release) and must come back as it was given; the lists' members are checked too.

import type { FrontierEntry, FrontierStore } from '@politely/frontier';
import { Redis } from 'ioredis';
import { afterEach, describe, expect, it } from 'vitest';
import { skipWithout } from '../../../test/support/requirements.js';
import { decodeEntry, encodeEntry } from '../src/entry-codec.js';
import { createRedisFrontierStore } from '../src/index.js';
import {
  bucketPrefixOf,
  deleteCrawls,
  REDIS_URL,
  redisDownReason,
  redisSuiteTitle,
  uniqueCrawlId,
  warnIfSkipped,
} from './redis-helpers.js';

const redisDown = await redisDownReason();
const skipRedis = skipWithout('Redis (REDIS_URL)', redisDown);
warnIfSkipped('queue-entries.test.ts', redisDown);

const HOST = 'h.test';
const ORIGIN = 'https://h.test';
const entry = (path: string, more: Partial<FrontierEntry> = {}): FrontierEntry => ({
  url: `${ORIGIN}${path}`,
  hostKey: HOST,
  depth: 2,
  priority: 0,
  ...more,
});

const LONG = `/${'x'.repeat(20_000)}?q=${'y'.repeat(5_000)}`;
/** Entries kept as plain text, and how their member starts (retries, then a tab). */
const PLAIN: FrontierEntry[] = [
  entry('/a/b.html?x=1', { referrer: `${ORIGIN}/index.html` }),
  entry('/no-referrer'),
  entry('/other-origin', { referrer: 'http://elsewhere.test/page' }),
  entry('/same-host-other-port', { referrer: 'https://h.test:8443/p' }),
  entry('/bücher/ünï?q=🚀', { referrer: `${ORIGIN}/ä`, depth: 0, priority: -3 }),
  entry('/space in path', { retries: 2, priority: 7 }),
  entry(LONG, { referrer: `${ORIGIN}${LONG}` }),
  entry('/', { referrer: `${ORIGIN}/` }),
];
/** Entries kept as JSON: a tab or newline in a URL, anything beyond the plain fields. */
const JSONS: FrontierEntry[] = [
  entry('/tab\there'),
  entry('/newline\nhere'),
  entry('/ref-tab', { referrer: `${ORIGIN}/a\tb` }),
  entry('/fraction', { priority: 0.5 }),
  entry('/sitemap.xml', { kind: 'sitemap', data: { n: 1.5e300 } }),
  entry('/labelled', { label: 'L', userData: { a: [1, 'b'] } }),
  entry('/headers', { headers: { 'x-a': '1' } }),
  entry('/redirected', { redirectedFrom: `${ORIGIN}/old`, redirectHops: 1 }),
  entry('/relative-referrer', { referrer: '/not-whole' }),
  entry('/empty-referrer', { referrer: '' }),
];

describe('entry-codec', () => {
  it('keeps plain entries as text and gives them back whole, with the host and priority of their lease', () => {
    for (const e of PLAIN) {
      const member = encodeEntry(e);
      expect(member).toMatch(/^\d*\t/);
      expect(decodeEntry(member, HOST, e.priority)).toEqual(e);
    }
    // A same-origin referrer as its path, another origin's whole.
    expect(encodeEntry(PLAIN[0]!)).toBe(`\t${ORIGIN}/a/b.html?x=1\t2\t/index.html`);
    expect(encodeEntry(PLAIN[2]!)).toBe(`\t${ORIGIN}/other-origin\t2\thttp://elsewhere.test/page`);
    expect(encodeEntry(PLAIN[5]!)).toBe(`2\t${ORIGIN}/space in path\t2\t`);
  });

  it('keeps other entries as JSON, a labelled one after "|", and gives them back as they were', () => {
    for (const e of JSONS) {
      const member = encodeEntry(e);
      expect(member).toMatch(e.label === undefined ? /^\d* \{/ : /^\d*\|\{/);
      expect(decodeEntry(member, 'ignored', 99)).toEqual(e);
    }
  });
});

describe.skipIf(skipRedis)(redisSuiteTitle('queued entries in Redis', redisDown), () => {
  const crawlIds = new Set<string>();
  const opened: FrontierStore[] = [];
  function open(): { store: FrontierStore; crawlId: string } {
    const crawlId = uniqueCrawlId('queue');
    crawlIds.add(crawlId);
    const store = createRedisFrontierStore({
      redis: REDIS_URL,
      crawlId,
      defaultHostPolicy: { delayMs: 0, maxInFlight: 100 },
      clock: 'caller', // the cases pass times of their own
    });
    opened.push(store);
    return { store, crawlId };
  }
  afterEach(async () => {
    await Promise.all(opened.splice(0).map((store) => store.close().catch(() => {})));
    expect(await deleteCrawls(crawlIds)).toBe(0);
  });

  async function claimAll(store: FrontierStore): Promise<FrontierEntry[]> {
    const out: FrontierEntry[] = [];
    for (let i = 0; i < 100; i++) {
      const { lease } = await store.claim({ now: 0, leaseMs: 60_000 });
      if (!lease) return out;
      out.push(lease.entry);
      await store.complete(lease.id);
    }
    throw new Error('more than 100 claims');
  }

  it('gives back every entry as added, through retry and release, and keeps plain URLs relative to the origin', async () => {
    const { store, crawlId } = open();
    const all = [...PLAIN, ...JSONS];
    expect(await store.add(all)).toEqual(all.map(() => 'added'));
    const admin = new Redis(REDIS_URL);
    try {
      const prefix = bucketPrefixOf(crawlId, HOST);
      expect(await admin.hget(`${prefix}h:${HOST}`, 'o')).toBe(ORIGIN);
      expect(await admin.hget(`${prefix}h:${HOST}`, 'qb')).toBe('7 1 0 -3');
      const band0 = await admin.lrange(`${prefix}q:${HOST}:0`, 0, -1);
      expect(band0[0]).toBe('\t/a/b.html?x=1\t2\t/index.html');
      expect(band0).toContain('\t/no-referrer\t2\t');
      // Every plain member of the band keeps its URL as a path; JSON members keep it whole.
      for (const member of band0)
        expect(member.startsWith('\t/') || /^\d*[ |]\{"url":"https:\/\/h\.test\//.test(member)).toBe(true);
    } finally {
      admin.disconnect();
    }
    // Retried and released, each comes back with its retry count (a retry's at the tail).
    const leases = [];
    for (let i = 0; i < all.length; i++) leases.push((await store.claim({ now: 0, leaseMs: 60_000 })).lease!);
    for (const [i, lease] of leases.entries()) {
      if (i % 2 === 0) await store.retry(lease.id);
      else await store.release(lease.id);
    }
    const back = await claimAll(store);
    const expected = leases.map((lease, i) =>
      i % 2 === 0 ? { ...lease.entry, retries: (lease.entry.retries ?? 0) + 1 } : lease.entry,
    );
    const byUrl = (a: FrontierEntry, b: FrontierEntry): number => (a.url < b.url ? -1 : a.url > b.url ? 1 : 0);
    expect([...back].sort(byUrl)).toEqual([...expected].sort(byUrl));
    expect([...leases.map((l) => l.entry)].sort(byUrl)).toEqual([...all].sort(byUrl));
  });

  it('keeps a plain URL of another origin than the host origin whole, and its same-origin referrer as a path', async () => {
    const { store, crawlId } = open();
    const first = entry('/first');
    const other = { ...entry('/x'), url: 'http://h.test/x', referrer: 'http://h.test/r' };
    await store.add([first, other]);
    const admin = new Redis(REDIS_URL);
    try {
      expect(await admin.lrange(`${bucketPrefixOf(crawlId, HOST)}q:${HOST}:0`, 0, -1)).toEqual([
        '\t/first\t2\t',
        '\thttp://h.test/x\t2\t/r',
      ]);
    } finally {
      admin.disconnect();
    }
    expect(await claimAll(store)).toEqual([first, other]);
  });

  it('relabels a plain queued URL: its referrer and depth kept, the label, userData and higher priority given', async () => {
    const { store } = open();
    const plain = entry('/p', { referrer: `${ORIGIN}/from` });
    await store.add([entry('/before'), plain, entry('/after')]);
    expect(await store.add([entry('/p', { label: 'L', userData: { n: 1 }, priority: 2, depth: 9 })])).toEqual([
      'relabelled',
    ]);
    expect(await store.counts()).toMatchObject({ queued: 3 });
    expect(await claimAll(store)).toEqual([
      { ...plain, label: 'L', userData: { n: 1 }, priority: 2 },
      entry('/before'),
      entry('/after'),
    ]);
  });
});
