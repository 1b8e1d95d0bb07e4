// The handler stage for a plugin's resource (a sitemap, say): its processor reads what came
// back. A processor's failure is reported and the crawl goes on; an abort or an error that ends
// the crawl is thrown on.

import { type HttpResponse, PolitelyError } from '@politely/core';
import type { FrontierEntry } from '@politely/frontier';
import { isFatalCrawlError } from '../fatal-error.js';
import type { PluginContext, ResourceProcessor } from '../plugin.js';
import type { CrawlReporter } from '../reporter.js';

/** A plugin's processor for one resource kind, with the context of the plugin that declared it. */
export interface PluginResourceKind {
  readonly processor: ResourceProcessor;
  readonly context: PluginContext;
}

export async function runProcessor(
  entry: FrontierEntry,
  kind: PluginResourceKind,
  response: HttpResponse | undefined,
  attempt: number,
  reporter: CrawlReporter,
): Promise<void> {
  try {
    await kind.processor.process({ ...kind.context, entry, response });
  } catch (error) {
    if ((error instanceof PolitelyError && error.code === 'ERR_ABORTED') || isFatalCrawlError(error)) throw error;
    reporter.error(entry.url, error, 'processor', attempt, false);
  }
}
