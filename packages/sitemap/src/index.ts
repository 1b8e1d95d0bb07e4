// @politely/sitemap: the sitemaps() plugin (seeds a crawl from the sitemaps robots.txt declares) and
// readSitemap (one sitemap document's entries). Internals stay in src/; tests import them from there.

export type {
  SitemapDiscoveryRecord,
  SitemapPluginOptions,
  SitemapUrlRecord,
  SitemapUserData,
} from './options.js';
export { DEFAULT_MAX_BYTES_PER_FILE, DEFAULT_MAX_URLS_PER_FILE } from './options.js';
export type {
  PartialSitemap,
  ReadSitemap,
  ReadSitemapOptions,
  SitemapDocument,
  SitemapEntries,
  SitemapFormat,
} from './read-sitemap.js';
export { DEFAULT_CHUNK_CHARS, readSitemap } from './read-sitemap.js';
export type { RawSitemapEntry } from './sitemapper-reader.js';
export { sitemaps } from './sitemaps-plugin.js';
export type { SitemapSkipReason } from './skip-reasons.js';
export { SITEMAP_SKIP_REASONS } from './skip-reasons.js';
export type { UrlPattern } from './url-filter.js';
