// sitemapper reads `urlset` and `sitemapindex` documents here; it never fetches anything.
//
// sitemapper fuses fetching and parsing in one private step, `parse(url)`: a `got` request with
// up to 10 files of a host in flight, no robots.txt, a gunzip without a size cap, then
// fast-xml-parser with entity expansion on. Its walk over a parsed document, `crawl(url)`, is
// what we keep: it picks `<url>` and `<sitemap>` entries and their fields. So `DocumentSitemapper`
// overrides `parse(url)` to hand `crawl` the document the crawler already fetched politely and
// we parsed safely (see safe-xml.ts). For an index, `crawl` recurses into every child through
// `parse(child)`: there the override only notes the child URL and answers with an empty urlset,
// so the child becomes a frontier entry, fetched later in its host's turn, instead of a request.
//
// What sitemapper cannot do is written here and next door: report what it drops (its lastmod and
// exclusion filters drop silently, so both are off and url-filter.ts applies ours, with counts),
// RSS/Atom/text sitemaps (feeds.ts, text-sitemap.ts), and bounded gzip (read-sitemap.ts).

import Sitemapper, { type SitemapperErrorData, type SitemapperOptions, type SitemapperSiteData } from 'sitemapper';
import { textOf, type XmlNode } from './safe-xml.js';

/** The part of sitemapper's class used here (its typings declare `parse` and `crawl` private). */
interface SitemapperWalk {
  parse(url?: string): Promise<{ error: string | null; data: unknown }>;
  crawl(url: string): Promise<{ sites?: (string | SitemapperSiteData)[]; errors?: SitemapperErrorData[] } | undefined>;
}

// The cast lets a subclass override `parse`, which sitemapper's typings mark private.
const SitemapperBase = Sitemapper as unknown as new (options: SitemapperOptions) => SitemapperWalk;

const EMPTY_URLSET = { urlset: { url: [] } };

/** The parser options sitemapper uses (its `parse` step), for documents read with it. */
export const SITEMAPPER_XML_OPTIONS = {
  isArray: (tagName: string) => tagName === 'sitemap' || tagName === 'url',
  removeNSPrefix: true,
} as const;

class DocumentSitemapper extends SitemapperBase {
  readonly children: unknown[] = [];
  private served = false;

  constructor(
    private readonly documentUrl: string,
    private readonly document: XmlNode,
  ) {
    // Fields on (so entries come back with lastmod, changefreq, priority); lastmod and
    // exclusion filters off (ours report what they leave out).
    super({
      url: documentUrl,
      fields: { loc: true, lastmod: true, changefreq: true, priority: true },
      lastmod: 0,
      exclusions: [],
    });
  }

  override parse(url?: string): Promise<{ error: null; data: unknown }> {
    // Only the first call is the document itself: an index that lists itself is a child like
    // any other (the frontier reports it as a duplicate), not an endless recursion.
    if (!this.served && url === this.documentUrl) {
      this.served = true;
      return Promise.resolve({ error: null, data: this.document });
    }
    this.children.push(url);
    return Promise.resolve({ error: null, data: EMPTY_URLSET });
  }
}

/** One entry of a sitemap file, its fields as text (XML references decoded), not yet checked. */
export interface RawSitemapEntry {
  readonly loc: string | undefined;
  readonly lastmod?: string | undefined;
  readonly changefreq?: string | undefined;
  readonly priority?: string | undefined;
}

/** The `<url>` entries of a parsed `urlset`, in file order. */
export async function urlsetEntries(documentUrl: string, document: XmlNode): Promise<RawSitemapEntry[]> {
  const urlset = document['urlset'];
  // An empty urlset is no error (sitemapper would call it an unknown state).
  if (typeof urlset !== 'object' || urlset === null || (urlset as XmlNode)['url'] === undefined) return [];
  const result = await new DocumentSitemapper(documentUrl, document).crawl(documentUrl);
  return (result?.sites ?? []).map((site) =>
    typeof site === 'string'
      ? { loc: textOf(site) }
      : {
          loc: textOf(site.loc),
          lastmod: textOf(site.lastmod),
          changefreq: textOf(site.changefreq),
          priority: textOf(site.priority),
        },
  );
}

/** The child sitemaps of a parsed `sitemapindex`, in file order. */
export async function sitemapIndexChildren(documentUrl: string, document: XmlNode): Promise<RawSitemapEntry[]> {
  const index = document['sitemapindex'];
  if (typeof index !== 'object' || index === null || (index as XmlNode)['sitemap'] === undefined) return [];
  const walker = new DocumentSitemapper(documentUrl, document);
  await walker.crawl(documentUrl);
  return walker.children.map((loc) => ({ loc: textOf(loc) }));
}
