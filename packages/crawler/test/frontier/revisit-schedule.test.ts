import { type LastFetch, lastFetchAfterHints } from '@politely/frontier';
import { describe, expect, it } from 'vitest';
import { conditionalHeaders, type Revalidation, revalidate, scheduleFactsOf } from '../../src/fetch/revalidation.js';
import { changeFrequencyOf, nextIntervalMs, nextLastFetch, postponed } from '../../src/frontier/revisit-schedule.js';

const URL_A = 'http://127.0.0.1:9/a';
const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const bounds = { minMs: 0, maxMs: 30 * DAY };
const body = (text: string) => new TextEncoder().encode(text);

/** The schedule's facts of a fetch at `fetchedAt` that `revalidation` judged. */
const factsOf = (revalidation: Revalidation, fetchedAt: number, status: number, bytes: number) => ({
  fetchedAt,
  status,
  bytes,
  change: revalidation.change,
  contentHash: revalidation.contentHash,
  ...scheduleFactsOf(revalidation),
});

/** The memory of a first fetch at `at` of a response with `headers`. */
function firstFetch(headers: Record<string, string>, at = Date.now(), text = 'hello'): LastFetch {
  const revalidation = revalidate(URL_A, undefined, { status: 200, headers, body: body(text) });
  return nextLastFetch(undefined, undefined, factsOf(revalidation, at, 200, text.length), bounds);
}

describe('revalidation', () => {
  it('keeps the validators and sends them back: If-None-Match and If-Modified-Since', () => {
    const last = firstFetch({
      etag: '"abc"',
      'last-modified': 'Mon, 02 Nov 2026 10:00:00 GMT',
      'set-cookie': 'a=b',
      server: 'x',
    });
    expect(last).toMatchObject({ etag: '"abc"', lastModified: 'Mon, 02 Nov 2026 10:00:00 GMT', status: 200, bytes: 5 });
    expect(conditionalHeaders(URL_A, last)).toEqual({
      'if-none-match': '"abc"',
      'if-modified-since': 'Mon, 02 Nov 2026 10:00:00 GMT',
    });
    // Only the caching headers are kept: not cookies, not the server's name.
    expect(JSON.stringify(last.cachePolicy)).not.toContain('a=b');
  });

  it('sends a weak ETag too (a simple GET may)', () => {
    expect(conditionalHeaders(URL_A, firstFetch({ etag: 'W/"w1"' }))).toEqual({ 'if-none-match': 'W/"w1"' });
  });

  it('keeps no validators under no-store, and sends none', () => {
    const last = firstFetch({ etag: '"abc"', 'cache-control': 'no-store' });
    expect(last.etag).toBeUndefined();
    expect(last.cachePolicy).toBeUndefined();
    expect(conditionalHeaders(URL_A, last)).toEqual({});
    expect(last.contentHash).toBeDefined();
  });

  it('sends nothing for a URL never fetched, or a policy it cannot read', () => {
    expect(conditionalHeaders(URL_A, undefined)).toEqual({});
    const last = firstFetch({ etag: '"abc"' });
    expect(conditionalHeaders(URL_A, { ...last, cachePolicy: { v: 999 } })).toEqual({});
  });

  it('tells a 304, an unchanged body and a changed one apart', () => {
    const last = firstFetch({ etag: '"abc"' }, Date.now(), 'same');
    expect(revalidate(URL_A, last, { status: 304, headers: { etag: '"abc"' }, body: new Uint8Array() }).change).toBe(
      'not-modified',
    );
    expect(revalidate(URL_A, last, { status: 200, headers: { etag: '"abc"' }, body: body('same') }).change).toBe(
      'unchanged',
    );
    expect(revalidate(URL_A, last, { status: 200, headers: { etag: '"def"' }, body: body('other') }).change).toBe(
      'changed',
    );
    expect(revalidate(URL_A, last, { status: 404, headers: {}, body: body('same') }).change).toBe('changed');
    expect(revalidate(URL_A, undefined, { status: 200, headers: {}, body: body('same') }).change).toBe('new');
  });

  it('after a 304 keeps the last body’s status, hash and size, and the validators the 304 updates', () => {
    const now = Date.now();
    const last = firstFetch(
      { etag: '"abc"', 'last-modified': 'Mon, 02 Nov 2026 10:00:00 GMT' },
      now - DAY,
      'x'.repeat(5000),
    );
    const revalidation = revalidate(URL_A, last, {
      status: 304,
      headers: { etag: '"abc"', 'cache-control': 'max-age=600' },
      body: new Uint8Array(),
    });
    const next = nextLastFetch(last, undefined, factsOf(revalidation, now, 304, 0), bounds);
    expect(next).toMatchObject({
      status: 200,
      bytes: 5000,
      contentHash: last.contentHash,
      etag: '"abc"',
      lastModified: 'Mon, 02 Nov 2026 10:00:00 GMT',
    });
    // Fresh for the 304's max-age; unchanged for a day, so the interval grew past it.
    expect(next.intervalMs).toBe(Math.round(DAY * 1.5));
    expect(next.dueAt).toBe(now + next.intervalMs);
  });
});

describe('when a URL is due', () => {
  it('at once without freshness, after max-age with it; no-cache is not fresh', () => {
    const at = Date.now();
    expect(firstFetch({}, at).dueAt).toBe(at);
    expect(firstFetch({ 'cache-control': 'max-age=3600' }, at).dueAt).toBeGreaterThanOrEqual(at + 3_599_000);
    expect(firstFetch({ 'cache-control': 'no-cache, max-age=3600' }, at).dueAt).toBe(at);
    // No heuristic freshness from Last-Modified: a page without caching headers is revalidated.
    expect(firstFetch({ 'last-modified': 'Thu, 01 Jan 2015 00:00:00 GMT' }, at).dueAt).toBe(at);
  });

  it('never later than revisitMaxMs after the fetch', () => {
    const at = Date.now();
    const last = firstFetch({ 'cache-control': 'max-age=31536000' }, at);
    expect(last.dueAt).toBe(at + bounds.maxMs);
    expect(last.latestDueAt).toBe(at + bounds.maxMs);
  });

  it('grows the interval while a page stays the same and shrinks it when it changes, within the bounds', () => {
    const last: LastFetch = { ...firstFetch({}, 0), intervalMs: 2 * DAY };
    expect(nextIntervalMs(undefined, 'new', 0, { minMs: HOUR, maxMs: DAY })).toBe(HOUR);
    expect(nextIntervalMs(last, 'not-modified', 3 * DAY, bounds)).toBe(4.5 * DAY);
    expect(nextIntervalMs(last, 'unchanged', DAY, bounds)).toBe(3 * DAY);
    expect(nextIntervalMs(last, 'changed', DAY, bounds)).toBe(DAY / 2);
    expect(nextIntervalMs(last, 'changed', 10 * DAY, bounds)).toBe(DAY);
    expect(nextIntervalMs(last, 'unchanged', 40 * DAY, bounds)).toBe(30 * DAY);
    expect(nextIntervalMs(last, 'changed', HOUR, { minMs: 2 * HOUR, maxMs: DAY })).toBe(2 * HOUR);
  });

  it('caps the interval by a sitemap changefreq, never below the minimum', () => {
    const last: LastFetch = { ...firstFetch({}, 0), intervalMs: 20 * DAY };
    expect(nextIntervalMs(last, 'unchanged', 20 * DAY, bounds, 'daily')).toBe(DAY);
    expect(nextIntervalMs(last, 'unchanged', 20 * DAY, bounds, 'never')).toBe(30 * DAY);
    expect(nextIntervalMs(last, 'unchanged', 20 * DAY, { minMs: 2 * DAY, maxMs: 30 * DAY }, 'always')).toBe(2 * DAY);
    expect(changeFrequencyOf(' Weekly ')).toBe('weekly');
    expect(changeFrequencyOf('fortnightly')).toBeUndefined();
  });

  it('a sitemap lastmod at or before the fetch keeps it until latestDueAt; a later one makes it due', () => {
    const at = 1_000_000;
    const revalidation = revalidate(URL_A, undefined, { status: 200, headers: {}, body: body('x') });
    const same = nextLastFetch(undefined, { lastmod: at - 1 }, factsOf(revalidation, at, 200, 1), bounds);
    expect(same.dueAt).toBe(at + bounds.maxMs);
    expect(lastFetchAfterHints(same, { lastmod: at + 5 }).dueAt).toBe(at);
    expect(lastFetchAfterHints(same, { lastmod: at - 5 }).dueAt).toBe(same.latestDueAt);
    expect(lastFetchAfterHints(same, { changefreq: 'daily' })).toMatchObject({
      dueAt: same.dueAt,
      hints: { lastmod: at - 1, changefreq: 'daily' },
    });
  });

  it('a revisit that fetched nothing is due again from now, not before', () => {
    const last = firstFetch({}, 1000);
    expect(postponed(last, 5000).dueAt).toBe(5000);
    expect(postponed({ ...last, dueAt: 9000 }, 5000).dueAt).toBe(9000);
  });
});
