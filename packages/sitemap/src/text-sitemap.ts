// Plain-text sitemaps: one absolute URL per line (sitemaps.org, "Text file"). sitemapper reads
// XML only, so these are read here. Pure.

import type { RawSitemapEntry } from './sitemapper-reader.js';

/** A line longer than this is not a URL (the crawler caps URLs far below it). */
const MAX_LINE = 8192;
/** Non-empty lines looked at to tell a text sitemap: one bad line at the top must not lose a file. */
const LINES_LOOKED_AT = 100;

/**
 * Whether `text` reads as a text sitemap: among its first non-empty lines, one is an absolute
 * http(s) URL. (Its other lines are read too, each bad one a reported skip, not a lost file.)
 */
export function looksLikeTextSitemap(text: string): boolean {
  let seen = 0;
  for (const line of textSitemapLines(text)) {
    if (isHttpUrl(line)) return true;
    if (++seen >= LINES_LOOKED_AT) return false;
  }
  return false;
}

function isHttpUrl(line: string): boolean {
  if (line.length > MAX_LINE) return false;
  try {
    const url = new URL(line);
    return url.protocol === 'http:' || url.protocol === 'https:';
  } catch {
    return false;
  }
}

/** Its lines as entries: each line's URL is checked where entries are (a bad one is a reported skip). */
export function* textSitemapEntries(text: string): Generator<RawSitemapEntry> {
  for (const line of textSitemapLines(text)) yield { loc: line };
}

/** Its lines, trimmed (Unicode spaces too), empty ones left out, without splitting the whole text at once. */
function* textSitemapLines(text: string): Generator<string> {
  let start = 0;
  while (start < text.length) {
    let end = text.indexOf('\n', start);
    if (end === -1) end = text.length;
    const line = text.slice(start, end).trim();
    if (line !== '') yield line;
    start = end + 1;
  }
}
