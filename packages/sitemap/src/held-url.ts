// A held URL (cross-submission.ts) as a frontier entry of its own: a URL a sitemap listed on a
// crawl origin whose robots.txt this worker has not read is queued as a `sitemap-held` entry, at
// the URL itself, carrying the sitemap entry it holds (plain JSON, so every store keeps it). Its
// processor (admit-held-url.ts) lets it in, or not, once the origin's robots.txt is read.

import type { FrontierRequest } from '@politely/crawler';
import type { SitemapUrlRecord } from './options.js';

export const SITEMAP_HELD_KIND = 'sitemap-held';

/** A URL a sitemap listed on an origin whose declarations are not known yet. */
export interface HeldUrl {
  readonly record: SitemapUrlRecord;
  /** The sitemap that listed it. */
  readonly sitemapUrl: string;
  /** The indexes that listed that sitemap, nearest first: a declaration of any of them counts. */
  readonly via: readonly string[];
  /** The origins known to declare the sitemap when it was read (for the report). */
  readonly declaredFor: readonly string[];
}

/** The frontier request that holds `held` in the store until its origin's robots.txt is read. */
export function heldUrlRequest(held: HeldUrl, priority: number): FrontierRequest {
  return {
    url: held.record.url,
    depth: 0,
    priority,
    kind: SITEMAP_HELD_KIND,
    skipScope: true,
    referrer: held.sitemapUrl,
    data: {
      record: { ...held.record },
      via: [...held.via],
      declaredFor: [...held.declaredFor],
    },
  };
}

/** Reads a held entry's data defensively: it comes back from a durable store. */
export function heldUrlOf(data: Readonly<Record<string, unknown>> | undefined): HeldUrl | undefined {
  const record = data?.['record'] as Partial<Record<keyof SitemapUrlRecord, unknown>> | undefined;
  if (typeof record?.url !== 'string' || typeof record.sitemap !== 'string') return undefined;
  const strings = (value: unknown): string[] =>
    Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : [];
  return {
    record: {
      url: record.url,
      sitemap: record.sitemap,
      ...(typeof record.lastmod === 'string' ? { lastmod: record.lastmod } : {}),
      ...(typeof record.changefreq === 'string' ? { changefreq: record.changefreq } : {}),
      ...(typeof record.priority === 'number' ? { priority: record.priority } : {}),
    },
    sitemapUrl: record.sitemap,
    via: strings(data?.['via']),
    declaredFor: strings(data?.['declaredFor']),
  };
}
