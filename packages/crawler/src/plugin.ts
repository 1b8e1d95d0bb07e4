// Plugins teach the crawler new kinds of resources (sitemaps, feeds, …). A plugin's resources
// wait in the same frontier and pass the same robots gate, host clock and limits as pages: the
// crawler fetches them, the plugin only reads what came back.

import type { BodyLimit, HttpResponse, RobotsGate } from '@politely/core';
import type { FrontierEntry } from '@politely/frontier';
import type { FrontierRequest } from './frontier/frontier.js';
import type { PluginSkipReason, SkipReason } from './skip-reasons.js';

/** What a plugin may do while the crawl runs. `R`: the skip reasons the plugin declared. */
export interface PluginContext<R extends PluginSkipReason = PluginSkipReason> {
  /** Offers URLs to the frontier (any kind); resolves with how many were newly queued. */
  enqueue(requests: readonly FrontierRequest[]): Promise<number>;
  /**
   * Reports a URL that will not be fetched or followed: for one of the reasons the plugin
   * declared in `skipReasons`, or one of the crawler's own (`invalid-url`, say).
   * @throws PolitelyError `ERR_INVALID_INPUT` for a reason that is neither.
   */
  skip(url: string, reason: R | SkipReason, detail?: string): void;
  /** Reports a problem with a resource; the crawl goes on. */
  error(url: string, error: Error): void;
  readonly gate: RobotsGate;
  readonly userAgent: string;
  readonly signal: AbortSignal;
}

/**
 * What a plugin's `ResourceProcessor` is given for one entry: the entry, its response (when
 * fetched) and the plugin context.
 */
export interface ResourceContext<R extends PluginSkipReason = PluginSkipReason> extends PluginContext<R> {
  readonly entry: FrontierEntry;
  /** The final response (redirects already followed); undefined for processors with `fetch: false`. */
  readonly response: HttpResponse | undefined;
}

/**
 * Processes one kind of frontier entry for a plugin: whether it is fetched, its body cap and
 * `Accept` header, and what is done with the response.
 */
export interface ResourceProcessor<R extends PluginSkipReason = PluginSkipReason> {
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
  /** Handles one entry of this kind, after its fetch (when `fetch` is not false). */
  process(context: ResourceContext<R>): Promise<void>;
}

/**
 * A crawler plugin (such as `sitemaps()`): hooks at the crawl's start and end, processors for
 * entries of its own kinds, and the skip reasons it reports.
 */
export interface CrawlerPlugin<R extends PluginSkipReason = PluginSkipReason> {
  readonly name: string;
  /**
   * The plugin's own skip reasons, each with what it means (for people: reports, docs). Names are
   * kebab-case and must not be one of the crawler's own (`CRAWLER_SKIP_REASONS`) nor another
   * plugin's. Skips with them are reported like the crawler's, with `plugin` set to `name`.
   * @default {}
   */
  readonly skipReasons?: Readonly<Record<R, string>>;
  /** Processors by resource kind. */
  readonly processors?: Readonly<Record<string, ResourceProcessor<R>>>;
  /** Called once when `run()` starts, after the seeds are queued. */
  start?(context: PluginContext<R> & { readonly seeds: readonly string[] }): Promise<void>;
  /**
   * Called once when the crawl has ended (nothing queued or in flight, or stopped), before
   * `run()` resolves: to report what the plugin still holds (skips, errors). What it enqueues
   * now waits in the store for the next run.
   */
  end?(context: PluginContext<R>): Promise<void>;
}
