// A page record from the handler's page context.

import { isHtmlContentType, type PageContext, pageRightsOf } from '@politely/crawler';
import type { ContentFormat } from './crawl-options.js';
import type { PageContentFields, PageRecord } from './page-record.js';

/** Titles longer than this are cut: a record is a summary, not the page. */
const MAX_TITLE_CHARS = 500;

export function pageRecordOf(page: PageContext, now: Date = new Date()): PageRecord {
  return {
    url: page.url,
    finalUrl: page.finalUrl,
    status: page.status,
    contentType: page.contentType ?? null,
    depth: page.depth,
    title: titleOf(page),
    bytes: page.body.length,
    fetchedAt: now.toISOString(),
    noindex: page.robots.noindex,
    nofollow: page.robots.nofollow,
    canonical: page.canonicalUrl,
    ...pageRightsOf(page.usage),
    change: page.change,
  };
}

function titleOf(page: PageContext): string | null {
  if (!isHtmlContentType(page.contentType)) return null;
  const title = page.$('title').first().text().replace(/\s+/g, ' ').trim();
  return title === '' ? null : title.slice(0, MAX_TITLE_CHARS);
}

/** The page record with the page's main content and metadata (`--content`); see PageContentFields. */
export async function pageRecordWithContent(
  page: PageContext,
  format: ContentFormat,
  now: Date = new Date(),
): Promise<PageRecord & PageContentFields> {
  const record = pageRecordOf(page, now);
  if (!isHtmlContentType(page.contentType)) {
    const empty = { authors: [], published: null, modified: null, lang: null, canonicalUrl: null };
    return { ...record, [format]: '', ...empty, description: null, siteName: null };
  }
  const content = await page.content();
  return {
    ...record,
    title: content.title === null ? record.title : content.title.slice(0, MAX_TITLE_CHARS),
    [format]: content[format],
    authors: content.authors,
    published: content.published,
    modified: content.modified,
    lang: content.lang,
    canonicalUrl: content.canonicalUrl,
    description: content.description,
    siteName: content.siteName,
  };
}
