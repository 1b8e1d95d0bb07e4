// The test oracle for the streaming extractor: the page's facts read through the full DOM (cheerio
// over parse5, as `page.$` builds it), with the selectors the crawler used before html-scan.ts.
// The equivalence test holds the streaming pass to what this yields; both go through the same
// resolution (extractFromFacts), so any difference is a difference in what the HTML holds.

import { createLazyDocument } from '../../src/extract/document.js';
import { type ExtractedPage, extractFromFacts } from '../../src/extract/extract-links.js';
import type { ExtractOptions } from '../../src/extract/extract-options.js';
import type { HtmlFacts } from '../../src/extract/html-scan.js';

export function domFactsOf(html: string): HtmlFacts {
  const $ = createLazyDocument(html)();
  const anchors = $('a[href], area[href]').toArray();
  const title = $('title').first();
  return {
    hrefs: anchors.map((anchor) => anchor.attribs['href'] ?? ''),
    rels: anchors.map((anchor) => anchor.attribs['rel']),
    baseHref: $('base[href]').first().attr('href'),
    linkRels: $('link[rel][href]')
      .toArray()
      .map((link) => ({ rel: link.attribs['rel'] ?? '', href: link.attribs['href'] ?? '' })),
    metas: $('meta[name][content]')
      .toArray()
      .map((meta) => ({ name: meta.attribs['name'] ?? '', content: meta.attribs['content'] ?? '' })),
    title: title.length === 0 ? undefined : title.text(),
  };
}

/** Extraction through the DOM: what the crawler yielded before the streaming pass. */
export function extractThroughDom(html: string, pageUrl: string, options: ExtractOptions): ExtractedPage {
  return extractFromFacts(domFactsOf(html), pageUrl, options).page;
}
