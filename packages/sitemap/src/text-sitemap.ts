// Plain-text sitemaps: one absolute URL per line (sitemaps.org, "Text file"). sitemapper reads
// XML only, so these are read here. Pure.

import type { RawSitemapEntry } from './sitemapper-reader.js';

/** A first line longer than this is not a URL (the crawler caps URLs far below it). */
const MAX_FIRST_LINE = 8192;

/** Whether `text` reads as a text sitemap: its first non-empty line is an absolute http(s) URL. */
export function looksLikeTextSitemap(text: string): boolean {
  const start = text.search(/\S/);
  if (start === -1) return false;
  const end = text.slice(start, start + MAX_FIRST_LINE + 1).search(/[\r\n]/);
  const line = text.slice(start, end === -1 ? start + MAX_FIRST_LINE + 1 : start + end).trim();
  if (line.length > MAX_FIRST_LINE) return false;
  try {
    const url = new URL(line);
    return url.protocol === 'http:' || url.protocol === 'https:';
  } catch {
    return false;
  }
}

/** Its lines, trimmed, empty ones left out, without splitting the whole text at once. */
export function* textSitemapEntries(text: string): Generator<RawSitemapEntry> {
  let start = 0;
  while (start < text.length) {
    let end = text.indexOf('\n', start);
    if (end === -1) end = text.length;
    const line = text.slice(start, end).trim();
    if (line !== '') yield { loc: line };
    start = end + 1;
  }
}
