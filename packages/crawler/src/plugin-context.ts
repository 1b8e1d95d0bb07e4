// What each plugin is handed: the crawl's shared abilities (enqueue, the gate, …) and a `skip`
// that reports only the reasons the plugin declared, naming the plugin on each skip event.

import { PolitelyError } from '@politely/core';
import type { CrawlerPlugin, PluginContext } from './plugin.js';
import type { CrawlReporter } from './reporter.js';
import { CRAWLER_SKIP_REASONS } from './skip-reasons.js';

/** What every plugin may do, before its own `skip` is added. */
export type CrawlContext = Omit<PluginContext, 'skip'>;

export interface PluginWithContext {
  readonly plugin: CrawlerPlugin;
  readonly context: PluginContext;
}

/** One context per plugin (their skip reasons were checked by resolveCrawlerOptions). */
export function pluginContexts(
  plugins: readonly CrawlerPlugin[],
  crawl: CrawlContext,
  reporter: CrawlReporter,
): PluginWithContext[] {
  return plugins.map((plugin) => {
    const declared = new Set<string>([...CRAWLER_SKIP_REASONS, ...Object.keys(plugin.skipReasons ?? {})]);
    const context: PluginContext = {
      ...crawl,
      skip: (url, reason, detail) => {
        if (!declared.has(reason)) {
          throw new PolitelyError(
            'ERR_INVALID_INPUT',
            `plugin '${plugin.name}' reported the skip reason '${reason}', which is neither in its skipReasons nor one of the crawler's own`,
          );
        }
        reporter.skip(url, { reason, ...(detail === undefined ? {} : { detail }) }, undefined, plugin.name);
      },
    };
    return { plugin, context };
  });
}
