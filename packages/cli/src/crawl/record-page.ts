// A page record from the handler's page context.

import { ALL_USAGE_PURPOSES, type UsagePurpose, type UsageStatus } from '@politely/core';
import { isHtmlContentType, type PageContext } from '@politely/crawler';
import { describeUsageSource } from '@politely/crawler/internal';
import type { PageRecord } from './page-record.js';

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
    usage: Object.fromEntries(
      ALL_USAGE_PURPOSES.map((purpose) => [purpose, page.usage.purposes[purpose].status]),
    ) as Record<UsagePurpose, UsageStatus>,
    usageSources: page.usage.sources.map((source) => describeUsageSource(source, true)),
    change: page.change,
  };
}

function titleOf(page: PageContext): string | null {
  if (!isHtmlContentType(page.contentType)) return null;
  const title = page.$('title').first().text().replace(/\s+/g, ' ').trim();
  return title === '' ? null : title.slice(0, MAX_TITLE_CHARS);
}
