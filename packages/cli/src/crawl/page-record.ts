// One fetched page as `--out` writes it (a JSON line or a CSV row). The fields are the same in
// both formats, in this order.

import type { UsagePurpose, UsageStatus } from '@politely/core';
import type { PageChange } from '@politely/frontier';

/** One line of the CLI's pages output (JSON lines or CSV): what a crawled page was and what the crawl found on it. */
export interface PageRecord {
  /** The URL requested (before redirects). */
  readonly url: string;
  /** The URL the page came from (after redirects). */
  readonly finalUrl: string;
  readonly status: number;
  readonly contentType: string | null;
  /** Link distance from a seed. */
  readonly depth: number;
  /** `<title>` of an HTML page, whitespace collapsed; null when there is none. */
  readonly title: string | null;
  /** Body bytes, decoded. */
  readonly bytes: number;
  /** When the page was handled (ISO 8601). */
  readonly fetchedAt: string;
  readonly noindex: boolean;
  readonly nofollow: boolean;
  /** `<link rel="canonical">`, resolved; null when absent. */
  readonly canonical: string | null;
  /**
   * The usage verdict per purpose (`search`, `ai-input`, `ai-train`, `ai-train-images`, `tdm`):
   * `allowed`, `reserved` or `unknown` (see `page.usage`). A CSV cell holds it as JSON.
   */
  readonly usage: Readonly<Record<UsagePurpose, UsageStatus>>;
  /** Every source that stated a usage preference for the page, for people (`robots.txt line 3: Content-Usage: train-ai=n`). */
  readonly usageSources: readonly string[];
  /**
   * What this fetch found against the URL's last one (`--recrawl`): `new` (first fetch),
   * `not-modified` (a 304: no body, so no title), `unchanged` (the same body), `changed`.
   */
  readonly change: PageChange;
}

export const PAGE_RECORD_FIELDS: readonly (keyof PageRecord)[] = [
  'url',
  'finalUrl',
  'status',
  'contentType',
  'depth',
  'title',
  'bytes',
  'fetchedAt',
  'noindex',
  'nofollow',
  'canonical',
  'usage',
  'usageSources',
  'change',
];

/**
 * What `--content markdown|text` adds to a page record: the page's main content (see
 * `page.content()`), and its metadata. A page that is not HTML has them empty (null, `[]`, `''`).
 * With `--content`, the record's `title` is the content's title (JSON-LD headline, og:title,
 * `<title>` or the first `<h1>`).
 */
export interface PageContentFields {
  /** The main content as Markdown (`--content markdown`), links and images absolute, `<pre>` verbatim. */
  readonly markdown?: string;
  /** The main content as plain text (`--content text`). */
  readonly text?: string;
  readonly authors: readonly string[];
  /** ISO 8601, or null. */
  readonly published: string | null;
  /** ISO 8601, or null. */
  readonly modified: string | null;
  /** A BCP 47 tag, or null. */
  readonly lang: string | null;
  /** `<link rel="canonical">`, else og:url, absolute; null when neither is given. */
  readonly canonicalUrl: string | null;
  readonly description: string | null;
  readonly siteName: string | null;
}

/** The columns `--content` adds, after the page record's, for the format asked for. */
export function contentFields(format: 'markdown' | 'text'): readonly (keyof PageContentFields)[] {
  return [format, 'authors', 'published', 'modified', 'lang', 'canonicalUrl', 'description', 'siteName'];
}
