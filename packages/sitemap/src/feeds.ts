// RSS 2.0 and Atom feeds, which the sitemaps protocol accepts as sitemaps. sitemapper reads only
// `urlset` and `sitemapindex`, so feeds are read here, from the same safe parse (safe-xml.ts).
// Pure.

import { childrenOf, textOf, type XmlNode } from './safe-xml.js';
import type { RawSitemapEntry } from './sitemapper-reader.js';

/** Parser options for feeds: attributes are needed (Atom's `<link href>`). */
export const FEED_XML_OPTIONS = {
  isArray: (tagName: string) => tagName === 'item' || tagName === 'entry' || tagName === 'link',
  removeNSPrefix: true,
  ignoreAttributes: false,
  attributeNamePrefix: '@_',
} as const;

/** RSS 2.0: `<rss><channel><item><link>`; `<pubDate>` serves as lastmod. */
export function rssEntries(document: XmlNode): RawSitemapEntry[] {
  const entries: RawSitemapEntry[] = [];
  for (const channel of childrenOf(document['rss'], 'channel')) {
    for (const item of childrenOf(channel, 'item')) {
      // An item may also carry `<atom:link href>` elements; its own `<link>` is the text one.
      const loc = childrenOf(item, 'link')
        .map(textOf)
        .find((text) => text !== undefined && text !== '');
      entries.push({ loc, lastmod: textOf((item as XmlNode)['pubDate']) });
    }
  }
  return entries;
}

/** Atom: `<feed><entry><link href>` (the `alternate` link); `<updated>` (or `<published>`) serves as lastmod. */
export function atomEntries(document: XmlNode): RawSitemapEntry[] {
  return childrenOf(document['feed'], 'entry').map((entry) => {
    const links = childrenOf(entry, 'link').filter(
      (link): link is XmlNode => typeof link === 'object' && link !== null,
    );
    const alternate = links.find((link) => link['@_rel'] === undefined || link['@_rel'] === 'alternate');
    const node = entry as XmlNode;
    return { loc: textOf(alternate?.['@_href']), lastmod: textOf(node['updated']) ?? textOf(node['published']) };
  });
}
