// The filters a sitemap URL must pass: include/exclude patterns and a lastmod date. Pure.

import { PolitelyError } from '@politely/core';

/** A glob (`*` stands for any run of characters; it must match the whole URL) or a RegExp (matching anywhere). */
export type UrlPattern = string | RegExp;

export type UrlMatcher = (url: string) => boolean;

export function compileUrlPattern(pattern: UrlPattern, optionName: string): UrlMatcher {
  // search() ignores `lastIndex` and the g/y flags, so a user's global RegExp works as expected.
  if (pattern instanceof RegExp) return (url) => url.search(pattern) !== -1;
  if (typeof pattern !== 'string' || pattern === '') {
    throw new PolitelyError(
      'ERR_INVALID_OPTION',
      `sitemaps: ${optionName} patterns must be non-empty strings or RegExps, got ${String(pattern)}`,
    );
  }
  return (url) => matchGlob(pattern, url);
}

/**
 * Whole-string glob match where `*` matches any run of characters (slashes too) and every other
 * character is literal. Greedy with one backtrack point (the classic wildcard algorithm):
 * O(pattern × text) at worst, without building a RegExp.
 */
export function matchGlob(pattern: string, text: string): boolean {
  let p = 0;
  let t = 0;
  let starAt = -1;
  let starText = 0;
  while (t < text.length) {
    if (p < pattern.length && pattern[p] === '*') {
      starAt = p++;
      starText = t;
    } else if (p < pattern.length && pattern[p] === text[t]) {
      p++;
      t++;
    } else if (starAt !== -1) {
      p = starAt + 1;
      t = ++starText;
    } else {
      return false;
    }
  }
  while (p < pattern.length && pattern[p] === '*') p++;
  return p === pattern.length;
}

export interface UrlFilters {
  readonly include: readonly UrlMatcher[] | undefined;
  readonly exclude: readonly UrlMatcher[];
  readonly lastmodSinceMs: number | undefined;
}

/** Why a URL fails the filters, or null when it passes. */
export function filterOutReason(url: string, lastmod: string | undefined, filters: UrlFilters): string | null {
  if (filters.include !== undefined && !filters.include.some((match) => match(url)))
    return 'matches no include pattern';
  if (filters.exclude.some((match) => match(url))) return 'matches an exclude pattern';
  if (filters.lastmodSinceMs !== undefined && lastmod !== undefined) {
    const modified = Date.parse(lastmod);
    // An unreadable lastmod is no evidence that the page is old: the URL is kept.
    if (Number.isFinite(modified) && modified < filters.lastmodSinceMs)
      return `lastmod ${lastmod} is before lastmodSince`;
  }
  return null;
}

/**
 * The frontier priority of a page whose sitemap `<priority>` is `priority`:
 * round(p × scale), with p = 0.5 when the file gives none (the protocol's default).
 */
export function frontierPriorityOf(priority: number | undefined, scale: number): number {
  return Math.round((priority ?? 0.5) * scale);
}
