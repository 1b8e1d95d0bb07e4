// What one sitemap file left out, counted per reason and reported once per file: a file of
// 50,000 out-of-scope URLs is one skip event with a count and an example, not 50,000 events.

import type { PluginContext, SkipReason } from '@politely/crawler';
import type { SitemapSkipReason } from './skip-reasons.js';

interface Tally {
  count: number;
  readonly example: string;
  readonly why: string | undefined;
}

export type TallyReason = 'invalid' | 'scope' | 'filter' | 'depth' | 'over-limit';

export class FileTally {
  private readonly tallies = new Map<TallyReason, Tally>();

  /** Counts one entry left out; the first one of each reason is kept as the example. */
  note(reason: TallyReason, example: string, why?: string): void {
    const tally = this.tallies.get(reason);
    if (tally === undefined) this.tallies.set(reason, { count: 1, example, why });
    else tally.count++;
  }

  count(reason: TallyReason): number {
    return this.tallies.get(reason)?.count ?? 0;
  }

  /**
   * One skip event per reason. The event's URL is the first entry left out (or, past the URL
   * limit, the sitemap itself); the detail gives the count and the sitemap.
   */
  report(
    context: Pick<PluginContext<SitemapSkipReason>, 'skip'>,
    sitemapUrl: string,
    facts: { readonly scope: string; readonly maxUrlsPerFile: number; readonly maxDepth: number },
  ): void {
    for (const [reason, { count, example, why }] of this.tallies) {
      const of = `${count} ${count === 1 ? 'entry' : 'entries'} of sitemap ${sitemapUrl}`;
      const [skipReason, url, detail]: [SitemapSkipReason | SkipReason, string, string] =
        reason === 'invalid'
          ? ['invalid-url', example, `${of} not absolute http(s) URLs, e.g. ${JSON.stringify(example)}`]
          : reason === 'scope'
            ? ['sitemap-scope', example, `${of} outside its scope (${facts.scope}), e.g. this one`]
            : reason === 'filter'
              ? ['sitemap-filter', example, `${of} left out by the filters, e.g. this one (${why ?? 'filtered'})`]
              : reason === 'depth'
                ? [
                    'sitemap-limit',
                    example,
                    `${of} are sitemaps nested deeper than maxDepth ${facts.maxDepth}, e.g. this one`,
                  ]
                : ['sitemap-limit', sitemapUrl, `${of} past maxUrlsPerFile (${facts.maxUrlsPerFile}) not read`];
      context.skip(url, skipReason, detail);
    }
  }
}
