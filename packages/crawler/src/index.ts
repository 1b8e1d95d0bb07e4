// @politely/crawler: what users of the crawler need. Internal helpers (option resolution, URL
// canonicalisation, trap detection, extraction) stay in src/; tests import them from there.

export { createCrawler } from './crawler.js';
export type { Crawler } from './crawler.js';
export { isFatalCrawlError } from './fatal-error.js';
export type { CrawlerOptions, SeedRequest, AdaptiveDelayOptions, RenderChoice, RenderRequest } from './options.js';
export type { PageRenderer, RenderCrawl, RenderSession, RenderInput, RenderedPage, BrowserRequest, BrowserAnswer, RenderWaitUntil } from './page-renderer.js';
export type { PageContext, PageRequest, EnqueueOptions, EnqueueLinksOptions, RequestOptions, PageHandler, RouteHandlers } from './page-context.js';
export { MAX_USER_DATA_BYTES } from './frontier/request-data.js';
export type { OutputOptions } from './dataset/output-options.js';
export type { OutputStatus } from './dataset/output-writer.js';
export type { WarcOutputStatus } from './archive/warc-archive.js';
export type { DatasetRecord } from './dataset/record-text.js';
export { CRAWLER_SKIP_REASONS } from './skip-reasons.js';
export type { SkipReason, PluginSkipReason, SkipDetail, RobotsRuleRef } from './skip-reasons.js';
export type {
  CrawlerEvents,
  CrawlerEventName,
  CrawlerListener,
  RequestEvent,
  ResponseEvent,
  SkipEvent,
  ErrorEvent,
  RecordEvent,
  UsageEvent,
  RevisitEvent,
} from './events.js';
export { describeUsageSource, TDMREP_PATH } from './pipeline/stages/usage.js';
export type { CrawlStats } from './stats.js';
export type { CrawlerPlugin, PluginContext, ResourceContext, ResourceProcessor } from './plugin.js';
export type { FrontierRequest } from './frontier/frontier.js';
export { dedupeKeyOf } from './frontier/frontier-store.js';

export { createMemoryFrontierStore } from './frontier/memory-store.js';
export type { MemoryFrontierStoreOptions } from './frontier/memory-store.js';
export type {
  FrontierStore,
  SettleOptions,
  CompleteOptions,
  FrontierEntry,
  FrontierLease,
  ClaimRequest,
  ClaimResult,
  AddOutcome,
  AddOptions,
  HostPolicy,
  FrontierCounts,
  HostCounts,
  HostTurn,
  HostTurnRequest,
  ReopenRequest,
} from './frontier/frontier-store.js';
export { lastFetchAfterHints } from './frontier/last-fetch.js';
export { changeFrequencyOf } from './frontier/revisit-schedule.js';
export { POLITENESS_KEY_MODES } from './politeness/index.js';
export type { PolitenessKeyMode } from './politeness/index.js';
export type { RevisitCounts, RevisitStats, RenderCounts, RenderStats, RenderRefusal } from './stats.js';
export type { LastFetch, RevisitHints, ChangeFrequency, PageChange } from './frontier/last-fetch.js';
export { TRACKING_QUERY_PARAMS } from './frontier/canonical-url.js';
export type { CanonicalUrlOptions, QueryParamPattern } from './frontier/canonical-url.js';
export type { TrapDetectionOptions, TrapCalendarOptions } from './frontier/trap-detector.js';
export type { ScopeOption, ScopeMode, ScopePatterns, ScopePredicate, ScopePattern } from './frontier/scope.js';

export { hostDelayMs, retryAfterMs, backoffMs, adaptiveDelayMs } from './politeness/index.js';
export type { DelayBounds, BackoffOptions, AdaptiveDelayInput } from './politeness/index.js';

export type { PageRobotsDirectives, RobotsDirectiveSource, RobotsDirectiveSourceKind } from './extract/meta-robots.js';
export { isHtmlContentType } from './extract/content-type.js';
