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
