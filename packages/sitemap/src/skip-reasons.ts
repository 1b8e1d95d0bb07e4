// The sitemap plugin's own skip reasons, declared to the crawler (CrawlerPlugin.skipReasons).

/** What each of the sitemap plugin's skip reasons means. */
export const SITEMAP_SKIP_REASONS = {
  'sitemap-scope':
    "A sitemap listed a URL outside its host and path, and no robots.txt declared that sitemap for the URL's host.",
  'sitemap-filter': 'Left out by a sitemap filter (lastmod, include/exclude).',
  'sitemap-limit': "Past a sitemap file's limits (50,000 URLs, 50 MB, index depth).",
} as const;

/** Why the sitemap plugin left a URL out. */
export type SitemapSkipReason = keyof typeof SITEMAP_SKIP_REASONS;
