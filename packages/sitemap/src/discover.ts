// Discovery: which sitemaps an origin declares. `start()` queues one `sitemap-discovery` entry per
// origin at `${origin}/`; its processor fetches nothing, and runs once the robots gate has read
// the origin's robots.txt in that host's turn, so reading its `Sitemap:` lines costs no request.
// (A consequence: when robots.txt disallows `/` itself for us, the entry is skipped as `robots`
// and that origin's sitemaps are not read.)

import type { PluginContext, ResourceContext, ResourceProcessor } from '@politely/crawler';
import type { CrossSubmissions } from './cross-submission.js';
import type { ResolvedSitemapPluginOptions } from './options.js';
import { sitemapRequest } from './seed-entries.js';
import type { SitemapSkipReason } from './skip-reasons.js';

export const SITEMAP_DISCOVERY_KIND = 'sitemap-discovery';

/** Queues discovery for each origin, and the explicit sitemap URLs, when the crawl starts. */
export async function startSitemapDiscovery(
  context: PluginContext<SitemapSkipReason> & { readonly seeds: readonly string[] },
  options: ResolvedSitemapPluginOptions,
  declarations: CrossSubmissions,
): Promise<void> {
  const origins = options.origins ?? originsOf(context.seeds);
  declarations.reset(origins);
  await context.enqueue([
    ...origins.map((origin) => ({
      url: `${origin}/`,
      depth: 0,
      priority: options.sitemapPriority,
      kind: SITEMAP_DISCOVERY_KIND,
      skipScope: true,
    })),
    // An explicit sitemap counts as declared for its own origin.
    ...options.sitemapUrls.map((url) =>
      sitemapRequest(url, { depth: 0, declaredFor: [new URL(url).origin] }, options.sitemapPriority),
    ),
  ]);
}

export function createDiscoveryProcessor(
  options: ResolvedSitemapPluginOptions,
  declarations: CrossSubmissions,
): ResourceProcessor<SitemapSkipReason> {
  return { fetch: false, process: (context) => discoverSitemaps(context, options, declarations) };
}

async function discoverSitemaps(
  context: ResourceContext<SitemapSkipReason>,
  options: ResolvedSitemapPluginOptions,
  declarations: CrossSubmissions,
): Promise<void> {
  const origin = new URL(context.entry.url).origin;
  const robotsUrl = `${origin}/robots.txt`;
  // Cached by the gate's check of this very entry: no second request.
  const declared = await context.gate.sitemaps(origin, { signal: context.signal, userAgent: context.userAgent });
  const sitemaps: string[] = [];
  for (const line of declared) {
    const url = absoluteHttpUrl(line, robotsUrl);
    if (url === null) context.skip(line, 'invalid-url', `Sitemap: line of ${robotsUrl} is not an http(s) URL`);
    else sitemaps.push(url);
  }
  const guessed = sitemaps.length === 0 && options.guessSitemapXml;
  if (guessed) sitemaps.push(`${origin}/sitemap.xml`);
  options.onDiscovery?.({ origin, sitemaps, guessed });
  // Every origin that declares a sitemap is known to this process, whichever declared it first
  // (only that one's entry is queued: the others are duplicates). URLs a sitemap read earlier
  // listed on this origin wait in the store as held entries, and read its robots.txt themselves.
  declarations.discovered(origin, guessed ? [] : sitemaps);
  // Cross-host sitemaps are allowed (the protocol's cross-submission): they skip the crawl scope.
  await context.enqueue(
    sitemaps.map((url) =>
      sitemapRequest(
        url,
        { depth: 0, declaredFor: [origin], ...(guessed ? { guessed } : {}) },
        options.sitemapPriority,
        robotsUrl,
      ),
    ),
  );
}

function originsOf(urls: readonly string[]): string[] {
  const origins = new Set<string>();
  for (const url of urls) {
    const parsed = absoluteHttpUrl(url, undefined);
    if (parsed !== null) origins.add(new URL(parsed).origin);
  }
  return [...origins];
}

function absoluteHttpUrl(text: string, base: string | undefined): string | null {
  try {
    const url = new URL(text, base);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.href : null;
  } catch {
    return null;
  }
}
