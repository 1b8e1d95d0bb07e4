// Sitemap documents for the tests, written out by hand so that each test shows what it serves.

export interface UrlEntry {
  readonly loc: string;
  readonly lastmod?: string;
  readonly changefreq?: string;
  readonly priority?: string;
}

const escapeXml = (text: string): string => text.replace(/&/g, '&amp;').replace(/</g, '&lt;');

export function urlset(entries: readonly (string | UrlEntry)[]): string {
  const urls = entries.map((entry) => {
    const { loc, lastmod, changefreq, priority } = typeof entry === 'string' ? ({ loc: entry } as UrlEntry) : entry;
    return (
      `<url><loc>${escapeXml(loc)}</loc>` +
      (lastmod === undefined ? '' : `<lastmod>${lastmod}</lastmod>`) +
      (changefreq === undefined ? '' : `<changefreq>${changefreq}</changefreq>`) +
      (priority === undefined ? '' : `<priority>${priority}</priority>`) +
      '</url>'
    );
  });
  return `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${urls.join('\n')}\n</urlset>\n`;
}

export function sitemapIndex(locs: readonly string[]): string {
  const sitemaps = locs.map((loc) => `<sitemap><loc>${escapeXml(loc)}</loc><lastmod>2024-01-01</lastmod></sitemap>`);
  return `<?xml version="1.0" encoding="UTF-8"?>\n<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${sitemaps.join('\n')}\n</sitemapindex>\n`;
}

export function rss(items: readonly { link: string; pubDate?: string }[]): string {
  const body = items
    .map(
      (item) =>
        `<item><title>t</title><link>${escapeXml(item.link)}</link>${item.pubDate === undefined ? '' : `<pubDate>${item.pubDate}</pubDate>`}</item>`,
    )
    .join('\n');
  return `<?xml version="1.0"?>\n<rss version="2.0" xmlns:atom="http://www.w3.org/2005/Atom"><channel><title>feed</title><link>http://example.invalid/</link>\n<atom:link href="http://example.invalid/feed" rel="self"/>\n${body}\n</channel></rss>\n`;
}

export function atom(entries: readonly { href: string; updated?: string }[]): string {
  const body = entries
    .map(
      (entry) =>
        `<entry><title>t</title><link rel="edit" href="/edit"/><link href="${escapeXml(entry.href)}"/>` +
        `${entry.updated === undefined ? '' : `<updated>${entry.updated}</updated>`}</entry>`,
    )
    .join('\n');
  return `<?xml version="1.0" encoding="utf-8"?>\n<feed xmlns="http://www.w3.org/2005/Atom"><title>feed</title>\n${body}\n</feed>\n`;
}

/** The "billion laughs" document: ten levels of ten-fold entity references (10^9 "lol"s if expanded). */
export function billionLaughs(inside: string): string {
  let entities = '<!ENTITY lol "lol">';
  for (let level = 1; level <= 9; level++) {
    const previous = level === 1 ? '&lol;' : `&lol${level - 1};`;
    entities += `\n<!ENTITY lol${level} "${previous.repeat(10)}">`;
  }
  return `<?xml version="1.0"?>\n<!DOCTYPE urlset [\n${entities}\n]>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${inside}</urlset>\n`;
}

/** `count` page URLs under `base`. */
export function pageUrls(base: string, count: number, prefix = '/p/'): string[] {
  return Array.from({ length: count }, (_, i) => `${base}${prefix}${i}`);
}
