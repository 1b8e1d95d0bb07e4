// The files of the sitemaps protocol (sitemaps.org) and the feeds it accepts as sitemaps.

export interface SitemapEntry {
  readonly loc: string;
  readonly lastmod?: string;
  readonly changefreq?: 'always' | 'hourly' | 'daily' | 'weekly' | 'monthly' | 'yearly' | 'never';
  readonly priority?: number;
}

const XML_ENTITIES: Readonly<Record<string, string>> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&apos;',
};

function escapeXml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => XML_ENTITIES[c] ?? c);
}

function element(name: string, value: string | number | undefined): string {
  return value === undefined ? '' : `<${name}>${escapeXml(String(value))}</${name}>`;
}

export function urlsetXml(entries: readonly SitemapEntry[]): string {
  const urls = entries.map(
    (entry) =>
      `  <url>${element('loc', entry.loc)}${element('lastmod', entry.lastmod)}` +
      `${element('changefreq', entry.changefreq)}${element('priority', entry.priority?.toFixed(1))}</url>`,
  );
  return (
    '<?xml version="1.0" encoding="UTF-8"?>\n' +
    '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n' +
    urls.join('\n') +
    '\n</urlset>\n'
  );
}

export function sitemapIndexXml(entries: readonly SitemapEntry[]): string {
  const sitemaps = entries.map(
    (entry) => `  <sitemap>${element('loc', entry.loc)}${element('lastmod', entry.lastmod)}</sitemap>`,
  );
  return (
    '<?xml version="1.0" encoding="UTF-8"?>\n' +
    '<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n' +
    sitemaps.join('\n') +
    '\n</sitemapindex>\n'
  );
}

/** A text sitemap: one URL per line, UTF-8. */
export function textSitemap(urls: readonly string[]): string {
  return urls.join('\n') + '\n';
}

export interface FeedItem {
  readonly title: string;
  readonly link: string;
  /** ISO 8601 date-time. */
  readonly published: string;
  readonly summary: string;
}

export interface Feed {
  readonly title: string;
  /** The site's front page. */
  readonly link: string;
  /** The feed's own URL. */
  readonly self: string;
  readonly description: string;
  readonly items: readonly FeedItem[];
}

export function rssXml(feed: Feed): string {
  const items = feed.items.map(
    (item) =>
      `  <item>${element('title', item.title)}${element('link', item.link)}${element('guid', item.link)}` +
      `${element('pubDate', new Date(item.published).toUTCString())}${element('description', item.summary)}</item>`,
  );
  return (
    '<?xml version="1.0" encoding="UTF-8"?>\n<rss version="2.0"><channel>\n' +
    `  ${element('title', feed.title)}${element('link', feed.link)}${element('description', feed.description)}\n` +
    items.join('\n') +
    '\n</channel></rss>\n'
  );
}

export function atomXml(feed: Feed): string {
  const updated =
    feed.items
      .map((item) => item.published)
      .sort()
      .at(-1) ?? '2026-01-01T00:00:00Z';
  const entries = feed.items.map(
    (item) =>
      `  <entry>${element('title', item.title)}<link href="${escapeXml(item.link)}"/>${element('id', item.link)}` +
      `${element('updated', item.published)}${element('summary', item.summary)}</entry>`,
  );
  return (
    '<?xml version="1.0" encoding="UTF-8"?>\n<feed xmlns="http://www.w3.org/2005/Atom">\n' +
    `  ${element('title', feed.title)}<link href="${escapeXml(feed.link)}"/><link rel="self" href="${escapeXml(feed.self)}"/>` +
    `${element('id', feed.self)}${element('updated', updated)}\n` +
    entries.join('\n') +
    '\n</feed>\n'
  );
}
