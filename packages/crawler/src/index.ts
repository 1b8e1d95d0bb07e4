export { createCrawler, hostKeyOf } from './crawler.js';
export type { Crawler } from './crawler.js';
export { isFatalCrawlError } from './fatal-error.js';
export { resolveCrawlerOptions } from './options.js';
export type { CrawlerOptions, ResolvedCrawlerOptions, SeedRequest, AdaptiveDelayOptions } from './options.js';
export type { PageContext, EnqueueOptions } from './page-context.js';
export type {
  SkipReason,
  CrawlerEvents,
  CrawlerEventName,
  CrawlerListener,
  RequestEvent,
  ResponseEvent,
  SkipEvent,
  ErrorEvent,
} from './events.js';
export type { CrawlStats } from './stats.js';
export type { CrawlerPlugin, PluginContext, ResourceContext, ResourceProcessor } from './plugin.js';
export type { FrontierRequest } from './frontier/frontier.js';
export { dedupeKeyOf } from './frontier/frontier-store.js';

export { createMemoryFrontierStore } from './frontier/memory-store.js';
export type { MemoryFrontierStoreOptions } from './frontier/memory-store.js';
export type {
  FrontierStore,
  SettleOptions,
  FrontierEntry,
  FrontierLease,
  ClaimRequest,
  ClaimResult,
  AddOutcome,
  AddOptions,
  HostPolicy,
  FrontierCounts,
  HostCounts,
} from './frontier/frontier-store.js';
export { canonicalizeUrl, resolveCanonicalUrlOptions, TRACKING_QUERY_PARAMS, DEFAULT_MAX_URL_LENGTH } from './frontier/canonical-url.js';
export type { CanonicalUrlOptions, ResolvedCanonicalUrlOptions, CanonicalUrlResult, CanonicalUrlFailureReason, QueryParamPattern } from './frontier/canonical-url.js';
export { detectTrap, resolveTrapDetection } from './frontier/trap-detector.js';
export type { TrapDetectionOptions, TrapCalendarOptions, ResolvedTrapDetection } from './frontier/trap-detector.js';
export { createScope, DEFAULT_SCOPE } from './frontier/scope.js';
export type { ScopeOption, ScopeMode, ScopePatterns, ScopePredicate, ScopePattern } from './frontier/scope.js';

export { hostDelayMs, retryAfterMs, backoffMs, adaptiveDelayMs } from './politeness/delay.js';
export type { DelayBounds, BackoffOptions, AdaptiveDelayInput } from './politeness/delay.js';

export { extractPage, extractFromDocument } from './extract/extract-links.js';
export type { ExtractedPage, SkippedLinkCounts, NofollowReason } from './extract/extract-links.js';
export { resolveExtractOptions } from './extract/extract-options.js';
export type { ExtractOptions, ResolvedExtractOptions } from './extract/extract-options.js';
export { resolveRobotsDirectives } from './extract/meta-robots.js';
export type {
  PageRobotsDirectives,
  RobotsDirectiveSource,
  RobotsDirectiveSourceKind,
  ResolveRobotsDirectivesInput,
} from './extract/meta-robots.js';
export { isHtmlContentType } from './extract/content-type.js';
