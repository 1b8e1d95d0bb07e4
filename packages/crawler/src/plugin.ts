// Plugins teach the crawler new kinds of resources (sitemaps, feeds, …). A plugin's resources
// wait in the same frontier and pass the same robots gate, host clock and limits as pages: the
// crawler fetches them, the plugin only reads what came back.

import type { BodyLimit, HttpResponse, RobotsGate } from '@politely/core';
import type { SkipReason } from './events.js';
import type { FrontierRequest } from './frontier/frontier.js';
import type { FrontierEntry } from './frontier/frontier-store.js';

/** What a plugin may do while the crawl runs. */
export interface PluginContext {
  /** Offers URLs to the frontier (any kind); resolves with how many were newly queued. */
  enqueue(requests: readonly FrontierRequest[]): Promise<number>;
  /** Reports a URL that will not be fetched or followed. */
  skip(url: string, reason: SkipReason, detail?: string): void;
  /** Reports a problem with a resource; the crawl goes on. */
  error(url: string, error: Error): void;
  readonly gate: RobotsGate;
  readonly userAgent: string;
  readonly signal: AbortSignal;
}

export interface ResourceContext extends PluginContext {
  readonly entry: FrontierEntry;
  /** The final response (redirects already followed); undefined for processors with `fetch: false`. */
  readonly response: HttpResponse | undefined;
}

export interface ResourceProcessor {
  /**
   * Whether the crawler fetches the URL. With false, the processor runs after robots.txt allowed
   * the URL (its robots.txt request, if one was needed, counts against the host) and fetches nothing.
   * @default true
   */
  readonly fetch?: boolean;
  /** Body cap for this kind. @default the crawler's maxBodyBytes, failing past it */
  readonly bodyLimit?: BodyLimit;
  /** `Accept` header for this kind. @default '*\/*' */
  readonly accept?: string;
  process(context: ResourceContext): Promise<void>;
}

export interface CrawlerPlugin {
  readonly name: string;
  /** Processors by resource kind. */
  readonly processors?: Readonly<Record<string, ResourceProcessor>>;
  /** Called once when `run()` starts, after the seeds are queued. */
  start?(context: PluginContext & { readonly seeds: readonly string[] }): Promise<void>;
}
