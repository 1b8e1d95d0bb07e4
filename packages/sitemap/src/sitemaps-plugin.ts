// `sitemaps()`: the crawler plugin that turns the `Sitemap:` lines of robots.txt (and any
// sitemap URLs given) into URLs in the frontier. Sitemap files are frontier entries of their own
// kind, so they wait in the store, pass the robots gate and the host clock, and are size-capped
// and counted like pages: one file of a host at a time, with that host's delay.

import type { CrawlerPlugin } from '@politely/crawler';
import { createHeldUrlProcessor } from './admit-held-url.js';
import { CrossSubmissions } from './cross-submission.js';
import { createDiscoveryProcessor, SITEMAP_DISCOVERY_KIND, startSitemapDiscovery } from './discover.js';
import { SITEMAP_HELD_KIND } from './held-url.js';
import { resolveSitemapPluginOptions, type SitemapPluginOptions } from './options.js';
import { SITEMAP_KIND } from './seed-entries.js';
import { createSitemapProcessor } from './sitemap-processor.js';
import { SITEMAP_SKIP_REASONS, type SitemapSkipReason } from './skip-reasons.js';

/**
 * Seeds a crawl from sitemaps: `createCrawler({ seeds, plugins: [sitemaps()] })` reads the
 * sitemaps each seed's origin declares in its robots.txt and crawls the pages they list.
 * @throws PolitelyError `ERR_INVALID_OPTION` for an invalid option.
 */
export function sitemaps(options?: SitemapPluginOptions): CrawlerPlugin<SitemapSkipReason>;
/**
 * The sitemaps plugin for a crawl with typed routes (`sitemaps<Routes>(…)`, the crawler's
 * `Routes`): its `label` is one of the routes' labels, its `userData` one of their userData types.
 * @throws PolitelyError `ERR_INVALID_OPTION` for an invalid option.
 */
export function sitemaps<Routes extends object>(
  options?: SitemapPluginOptions<NoInfer<Routes>>,
): CrawlerPlugin<SitemapSkipReason>;
export function sitemaps(options: SitemapPluginOptions = {}): CrawlerPlugin<SitemapSkipReason> {
  const resolved = resolveSitemapPluginOptions(options);
  // Which origins declared which sitemap, for this crawl (cross-submission.ts).
  const declarations = new CrossSubmissions();
  return {
    name: 'sitemap',
    skipReasons: SITEMAP_SKIP_REASONS,
    processors: {
      [SITEMAP_KIND]: createSitemapProcessor(resolved, declarations),
      [SITEMAP_DISCOVERY_KIND]: createDiscoveryProcessor(resolved, declarations),
      [SITEMAP_HELD_KIND]: createHeldUrlProcessor(resolved, declarations),
    },
    start: (context) => startSitemapDiscovery(context, resolved, declarations),
  };
}
