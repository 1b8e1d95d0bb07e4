import { type LastFetch, lastFetchAfterHints } from '@politely/frontier';
import { describe, expect, it } from 'vitest';

const fetchedAt = 1_000_000;
const last: LastFetch = {
  fetchedAt,
  status: 200,
  bytes: 10,
  intervalMs: 60_000,
  dueAt: fetchedAt + 60_000,
  latestDueAt: fetchedAt + 86_400_000,
  hints: { lastmod: fetchedAt - 1 },
};

describe('lastFetchAfterHints', () => {
  it('makes the URL due at once for a lastmod after the fetch (it changed since)', () => {
    expect(lastFetchAfterHints(last, { lastmod: fetchedAt + 5 }).dueAt).toBe(fetchedAt);
  });

  it('makes it not due until latestDueAt for a lastmod at or before the fetch', () => {
    expect(lastFetchAfterHints(last, { lastmod: fetchedAt }).dueAt).toBe(last.latestDueAt);
    expect(lastFetchAfterHints(last, { lastmod: fetchedAt - 5 }).dueAt).toBe(last.latestDueAt);
  });

  it('keeps the due time without a lastmod, and merges the hints over the ones it had', () => {
    expect(lastFetchAfterHints(last, { changefreq: 'daily' })).toEqual({
      ...last,
      hints: { lastmod: fetchedAt - 1, changefreq: 'daily' },
    });
  });
});
