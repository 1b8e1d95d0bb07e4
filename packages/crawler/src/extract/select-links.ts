// The links under a CSS selector, for `page.enqueueLinks({ selector })`: read from the page's DOM
// (built for this, if the handler had not read `page.$` yet), resolved exactly as the streaming
// extractor resolves them, so that they can be matched against the links it extracted.

import type { CheerioAPI } from 'cheerio';
import { toHttpUrl, trimAscii } from './extract-links.js';

const LINK_ELEMENTS = 'a[href], area[href]';

/**
 * The absolute http(s) URLs of the `a[href]` and `area[href]` elements that `selector` picks or
 * that lie inside them, in document order, distinct. An invalid selector throws (cheerio's error).
 */
export function linksUnder($: CheerioAPI, selector: string, baseUrl: string): string[] {
  const base = new URL(baseUrl);
  const picked = $(selector);
  const elements = picked.filter(LINK_ELEMENTS).add(picked.find(LINK_ELEMENTS));
  const urls = new Set<string>();
  elements.each((_, element) => {
    const href = $(element).attr('href');
    if (href === undefined) return;
    const url = toHttpUrl(trimAscii(href), base);
    if (url !== 'scheme' && url !== 'invalid') urls.add(url);
  });
  return [...urls];
}
