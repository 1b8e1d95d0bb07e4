// When a fetched URL is due again: after its HTTP freshness runs out and its adaptive interval
// has passed, never later than `revisitMaxMs` after the fetch. The interval grows while the page
// stays the same and shrinks when it changes (the idea of Nutch's AdaptiveFetchSchedule); a
// sitemap's `changefreq` caps it and its `lastmod` says whether the page changed since. Pure.

import type { ChangeFrequency, LastFetch, PageChange, RevisitHints } from '@politely/frontier';

export interface RevisitBounds {
  /** The shortest interval (`revisitMinMs`). */
  readonly minMs: number;
  /** The longest wait after a fetch (`revisitMaxMs`). */
  readonly maxMs: number;
}

/** Unchanged: the interval grows by this; changed: it shrinks by `CHANGED_FACTOR`. */
export const UNCHANGED_FACTOR = 1.5;
export const CHANGED_FACTOR = 0.5;

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
/** The longest interval a `changefreq` allows: a page that says it changes daily is not left for a week. */
const CHANGEFREQ_CEILING: Readonly<Record<ChangeFrequency, number>> = {
  always: 0,
  hourly: HOUR,
  daily: DAY,
  weekly: 7 * DAY,
  monthly: 30 * DAY,
  yearly: 365 * DAY,
  never: Infinity,
};

const CHANGE_FREQUENCIES = new Set<string>(Object.keys(CHANGEFREQ_CEILING));

/** A sitemap's `<changefreq>` text as a ChangeFrequency, or undefined when it is not one. */
export function changeFrequencyOf(text: string | undefined): ChangeFrequency | undefined {
  const value = text?.trim().toLowerCase();
  return value !== undefined && CHANGE_FREQUENCIES.has(value) ? (value as ChangeFrequency) : undefined;
}

/**
 * The next interval. The time since the last fetch is evidence too: a page found unchanged after
 * a week stayed the same for at least a week, and one found changed after a day changes at
 * least daily.
 */
export function nextIntervalMs(
  last: LastFetch | undefined,
  change: PageChange,
  fetchedAt: number,
  bounds: RevisitBounds,
  changefreq?: ChangeFrequency,
): number {
  let interval = bounds.minMs;
  if (last !== undefined) {
    const elapsed = Math.max(0, fetchedAt - last.fetchedAt);
    if (change === 'not-modified' || change === 'unchanged')
      interval = Math.max(last.intervalMs, elapsed) * UNCHANGED_FACTOR;
    else interval = Math.min(last.intervalMs, elapsed) * CHANGED_FACTOR;
  }
  const ceiling = Math.min(bounds.maxMs, changefreq === undefined ? Infinity : CHANGEFREQ_CEILING[changefreq]);
  return Math.round(Math.max(bounds.minMs, Math.min(interval, ceiling)));
}

/** The validators and caching policy a response allows keeping (none under `no-store`). */
export interface KeptValidators {
  readonly etag?: string;
  readonly lastModified?: string;
  /** http-cache-semantics' CachePolicy.toObject(). */
  readonly cachePolicy: Readonly<Record<string, unknown>>;
}

/** What a fetch found, as the schedule needs it (fetch/revalidation.ts reads it off the response). */
export interface FetchFacts {
  readonly fetchedAt: number;
  readonly status: number;
  /** Decoded body bytes received (0 for a 304). */
  readonly bytes: number;
  readonly change: PageChange;
  /** How long the response stays fresh (RFC 9111), from the fetch; 0 for `no-cache`. */
  readonly freshMs: number;
  /** Undefined under `no-store`. */
  readonly kept?: KeptValidators | undefined;
  /** The body's hash (after a 304: the last one's). */
  readonly contentHash?: string | undefined;
  /** Why the page was kept from handlers (usage-reserved), to do the same on a 304. */
  readonly withheld?: string | undefined;
}

/**
 * What to remember of a fetch: validators (unless `no-store`), content hash, the new interval,
 * and when the URL is due again. A `lastmod` at or before the fetch means the sitemap knows of no
 * change since: not due until a sitemap says otherwise, or until `latestDueAt`.
 */
export function nextLastFetch(
  last: LastFetch | undefined,
  hints: RevisitHints | undefined,
  facts: FetchFacts,
  bounds: RevisitBounds,
): LastFetch {
  const { fetchedAt, kept } = facts;
  const notModified = facts.change === 'not-modified' && last !== undefined;
  const intervalMs = nextIntervalMs(last, facts.change, fetchedAt, bounds, hints?.changefreq);
  const latestDueAt = fetchedAt + bounds.maxMs;
  const sitemapSaysSame = hints?.lastmod !== undefined && hints.lastmod <= fetchedAt;
  const dueAt = sitemapSaysSame ? latestDueAt : Math.min(latestDueAt, fetchedAt + Math.max(facts.freshMs, intervalMs));
  return {
    fetchedAt,
    status: notModified ? last.status : facts.status,
    ...(kept?.etag === undefined ? {} : { etag: kept.etag }),
    ...(kept?.lastModified === undefined ? {} : { lastModified: kept.lastModified }),
    ...(facts.contentHash === undefined ? {} : { contentHash: facts.contentHash }),
    bytes: notModified ? last.bytes : facts.bytes,
    intervalMs,
    dueAt,
    latestDueAt,
    ...(kept === undefined ? {} : { cachePolicy: kept.cachePolicy }),
    ...(hints === undefined ? {} : { hints }),
    ...(facts.withheld === undefined ? {} : { withheld: facts.withheld }),
  };
}

/**
 * A reopened URL fetched less than `minMs` ago (its `dueAt` was set under a shorter
 * `revisitMinMs`): not fetched now, and its memory kept as `postponed` keeps it (due again from
 * now, so that a later crawl judges it by its own minimum). Else undefined.
 */
export function tooSoonToRevisit(last: LastFetch | undefined, minMs: number, now: number): LastFetch | undefined {
  return last === undefined || now >= last.fetchedAt + minMs ? undefined : postponed(last, now);
}

/**
 * A revisit that fetched nothing (robots.txt now disallows it, it failed, a rule skipped it):
 * its memory is kept, and it is due again from now, so one crawl revisits a URL once.
 */
export function postponed(last: LastFetch, now: number): LastFetch {
  return { ...last, dueAt: Math.max(last.dueAt, now) };
}
