// Held URLs (cross-submission.ts, held-url.ts): a URL a sitemap listed on a crawl origin whose
// robots.txt this worker had not read waits in the store as a `sitemap-held` entry. So it lives in
// the store, not in a process: it waits for the origin's host like any URL, passes the robots gate
// (which reads the origin's robots.txt, once, cached), and whichever worker claims it reads the
// origin's `Sitemap:` lines there and lets the URL in as a page if the origin declared its
// sitemap (or an index that listed it), or reports it out of scope. A worker killed at any moment
// loses none: an entry not settled comes back to the queue with its lease, and letting it in twice
// is harmless (the page's own entry dedupes). Costs: one store entry and one claim per held URL
// (no request: the claim hands the host's clock back), counted by `maxPerHost` too.

import type { ResourceContext, ResourceProcessor } from '@politely/crawler';
import type { CrossSubmissions } from './cross-submission.js';
import { heldUrlOf } from './held-url.js';
import type { ResolvedSitemapPluginOptions } from './options.js';
import { seedHeldPages } from './seed-entries.js';
import type { SitemapSkipReason } from './skip-reasons.js';

export function createHeldUrlProcessor(
  options: ResolvedSitemapPluginOptions,
  declarations: CrossSubmissions,
): ResourceProcessor<SitemapSkipReason> {
  return { fetch: false, process: (context) => admitHeldUrl(context, options, declarations) };
}

/** The held URL's origin's robots.txt is read (the gate let the entry through): in, or out of scope. */
async function admitHeldUrl(
  context: ResourceContext<SitemapSkipReason>,
  options: ResolvedSitemapPluginOptions,
  declarations: CrossSubmissions,
): Promise<void> {
  const held = heldUrlOf(context.entry.data);
  if (held === undefined) {
    context.skip(context.entry.url, 'invalid-url', 'a sitemap-held entry without the sitemap entry it holds');
    return;
  }
  const origin = new URL(context.entry.url).origin;
  const robotsUrl = `${origin}/robots.txt`;
  // Cached by the gate's check of this very entry: no second request.
  const lines = await context.gate.sitemaps(origin, { signal: context.signal, userAgent: context.userAgent });
  const declared = new Set(lines.flatMap((line) => absoluteUrlOrEmpty(line, robotsUrl)));
  const byChain = [held.sitemapUrl, ...held.via].some((sitemap) => declared.has(sitemap));
  const admitted = byChain || declarations.declaredFor(held.sitemapUrl, held.declaredFor).includes(origin);
  await seedHeldPages(
    context,
    admitted ? { admitted: [held], refused: [] } : { admitted: [], refused: [held] },
    options,
    declarations,
  );
}

function absoluteUrlOrEmpty(text: string, base: string): string[] {
  try {
    return [new URL(text, base).href];
  } catch {
    return [];
  }
}
