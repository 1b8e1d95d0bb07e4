// Checks what a crawl reported against the hostile web's manifest: every good page fetched,
// every bad case reported as the skip or error it should be, on the URLs it concerns.
import type { HostileWeb } from '@politely/local-web';

export interface CrawlReport {
  /** URLs of pages fetched with status 200 (the final URL after redirects). */
  readonly pages: readonly string[];
  readonly skips: readonly { readonly url: string; readonly reason: string }[];
  /** URLs that failed for good (after retries). */
  readonly errors: readonly string[];
}

/** One line per unmet expectation; empty when the crawl did everything right. */
export function unmetExpectations(
  web: HostileWeb,
  report: CrawlReport,
  options: { readonly ignoreSkipReasons?: readonly string[] } = {},
): string[] {
  const problems: string[] = [];
  const pages = new Set(report.pages);
  for (const url of web.goodPageUrls) if (!pages.has(url)) problems.push(`good page not fetched: ${url}`);
  const under = (url: string, prefixes: readonly string[]): boolean =>
    prefixes.some((prefix) => url.startsWith(prefix));
  for (const { name, expect, reportedUrlPrefixes, entryUrl } of web.cases) {
    if (expect.kind === 'page') {
      if (!pages.has(entryUrl)) problems.push(`${name}: page ${entryUrl} not fetched`);
    } else if (expect.kind === 'skip') {
      if (options.ignoreSkipReasons?.includes(expect.reason) === true) continue;
      const found = report.skips.some((skip) => skip.reason === expect.reason && under(skip.url, reportedUrlPrefixes));
      if (!found) problems.push(`${name}: no '${expect.reason}' skip under ${reportedUrlPrefixes.join(' | ')}`);
    } else if (!report.errors.some((url) => under(url, reportedUrlPrefixes))) {
      problems.push(`${name}: no error reported under ${reportedUrlPrefixes.join(' | ')}`);
    }
  }
  return problems;
}

/** Paths under a host's disallowed prefixes that its server saw requested (there must be none). */
export function disallowedRequests(web: HostileWeb): string[] {
  const seen: string[] = [];
  for (const host of web.hosts) {
    const prefixes = host.disallowedPrefixes.filter((prefix) => !prefix.includes('*') && prefix !== '/');
    for (const request of web.requestLog(host.origin)) {
      if (prefixes.some((prefix) => request.path.startsWith(prefix))) seen.push(`${host.origin}${request.path}`);
    }
  }
  return seen;
}
