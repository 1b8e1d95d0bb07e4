// `page.content()`: the page's main content (@politely/content) with the page's rights as the
// crawler read them — the usage verdict per purpose, the sources that decided it, and the page's
// robots directives. The content package stays pure; the rights are attached here.

import { type ContentResult, extractContent } from '@politely/content';
import {
  ALL_USAGE_PURPOSES,
  PolitelyError,
  type UsagePurpose,
  type UsageReport,
  type UsageStatus,
} from '@politely/core';
import { isHtmlContentType } from '../extract/content-type.js';
import { describeUsageSource } from '../usage-source-text.js';

/** What a site says a page may be used for, as a record carries it. */
export interface PageRights {
  /**
   * The usage verdict per purpose (`search`, `ai-input`, `ai-train`, `ai-train-images`, `tdm`):
   * `allowed`, `reserved` or `unknown` (see `page.usage`).
   */
  readonly usage: Readonly<Record<UsagePurpose, UsageStatus>>;
  /**
   * Every source that stated a usage preference for the page, for people: a robots.txt line, a
   * `Content-Usage` or `X-Robots-Tag` header, a meta tag (`noai`, `tdm-reservation`), a
   * tdmrep.json entry (`robots.txt line 3 (*): Content-Usage: train-ai=n`).
   */
  readonly usageSources: readonly string[];
}

/** A page's main content (`ContentResult` of @politely/content) with its rights. */
export interface PageContent extends ContentResult, PageRights {
  /** The page's `noindex` / `nofollow` (meta robots and X-Robots-Tag), as `page.robots` has them. */
  readonly robots: { readonly noindex: boolean; readonly nofollow: boolean };
}

/** The page's rights from its usage verdict: the one mapping page records and content share. */
export function pageRightsOf(usage: UsageReport): PageRights {
  return {
    usage: Object.fromEntries(ALL_USAGE_PURPOSES.map((purpose) => [purpose, usage.purposes[purpose].status])) as Record<
      UsagePurpose,
      UsageStatus
    >,
    usageSources: usage.sources.map((source) => describeUsageSource(source, true)),
  };
}

/** What `page.content()` reads of the page. */
export interface ContentSource {
  /** The body as decoded text (the DOM's HTML for a rendered page). */
  readonly text: string;
  /** The URL after redirects: links are made absolute against it. */
  readonly finalUrl: string;
  readonly contentType: string | undefined;
  readonly robots: { readonly noindex: boolean; readonly nofollow: boolean };
  readonly usage: UsageReport;
}

/**
 * The page's content with its rights. A page that is not HTML (by its Content-Type) has no main
 * content to extract: it throws `ERR_INVALID_INPUT` naming the content type.
 */
export function pageContentOf(page: ContentSource): PageContent {
  if (!isHtmlContentType(page.contentType)) {
    throw new PolitelyError(
      'ERR_INVALID_INPUT',
      `page.content(): the page is ${page.contentType === undefined ? 'without a Content-Type' : JSON.stringify(page.contentType)}, not HTML; check isHtmlContentType(page.contentType) first`,
    );
  }
  const content = extractContent(page.text, { url: page.finalUrl, ...contentTypeOf(page.contentType) });
  const { noindex, nofollow } = page.robots;
  return { ...content, ...pageRightsOf(page.usage), robots: { noindex, nofollow } };
}

function contentTypeOf(contentType: string | undefined): { contentType?: string } {
  return contentType === undefined ? {} : { contentType };
}
