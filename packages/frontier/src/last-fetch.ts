// What the store remembers of a URL's last fetch, so that a later crawl can revalidate it
// (conditional request) and knows when it is due again. Plain JSON, written by the crawler with
// the URL's completion (FrontierStore.complete `lastFetch`); the store only keeps it, finds the
// URLs that are due (`reopenDue`) and applies a sitemap's hints (`lastFetchAfterHints`).

/** What a fetch of a URL found, against its last fetch. */
export type PageChange =
  /** First fetch: nothing to compare with. */
  | 'new'
  /** A `304 Not Modified` answered the validators: no body came. */
  | 'not-modified'
  /** A full response whose body hashes as the last one did. */
  | 'unchanged'
  /** A full response with another body (or another status). */
  | 'changed';

/** A sitemap's `<changefreq>` values (sitemaps.org). */
export type ChangeFrequency = 'always' | 'hourly' | 'daily' | 'weekly' | 'monthly' | 'yearly' | 'never';

/** What a sitemap says about when a URL changes: hints, never a promise. */
export interface RevisitHints {
  /** `<lastmod>`, ms since the epoch. */
  readonly lastmod?: number;
  /** `<changefreq>`. */
  readonly changefreq?: ChangeFrequency;
}

/** The crawler's memory of one URL's last fetch (any status, redirects included). */
export interface LastFetch {
  /** When the response's head arrived (ms since the epoch). */
  readonly fetchedAt: number;
  /** The final status of the last fetch (a 304 keeps the status of the response it revalidated). */
  readonly status: number;
  /** The validators to send on the next visit; absent under `Cache-Control: no-store`. */
  readonly etag?: string;
  readonly lastModified?: string;
  /** Hash of the body last downloaded in full (sha-256, base64url), to tell an unchanged 200. */
  readonly contentHash?: string;
  /** Bytes of the body last downloaded in full: what a 304 saves. */
  readonly bytes: number;
  /** The adaptive revisit interval now (ms): longer each time the URL is found unchanged. */
  readonly intervalMs: number;
  /** The URL is due again from this time (ms since the epoch). */
  readonly dueAt: number;
  /** It is due by this time whatever any hint says: `fetchedAt` + the crawl's `revisitMaxMs`. */
  readonly latestDueAt: number;
  /** The response's caching policy (`http-cache-semantics` CachePolicy.toObject()). */
  readonly cachePolicy?: Readonly<Record<string, unknown>>;
  /** The latest sitemap hints for the URL. */
  readonly hints?: RevisitHints;
  /**
   * Why the page was kept from handlers and outputs (a skip reason: `usage-reserved`), so that a
   * revisit answered 304 — no body, no meta tags to judge again — is kept from them too.
   */
  readonly withheld?: string;
}

/**
 * The URL's memory after a sitemap gave `hints` for it again. A `lastmod` after the last fetch
 * makes the URL due at once (it changed since); one at or before it makes it not due until
 * `latestDueAt` (the sitemap says it has not changed). Pure; every store applies it on an `add`
 * of a URL it already holds (the Redis store in Lua, the same rule).
 */
export function lastFetchAfterHints(last: LastFetch, hints: RevisitHints): LastFetch {
  const merged: RevisitHints = { ...last.hints, ...hints };
  if (hints.lastmod === undefined) return { ...last, hints: merged };
  const dueAt = hints.lastmod > last.fetchedAt ? last.fetchedAt : last.latestDueAt;
  return { ...last, hints: merged, dueAt };
}
