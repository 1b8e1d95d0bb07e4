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
// The frontier store contract moved to @politely/frontier; these names stay here, deprecated,
// so that code importing them from the crawler keeps working.
export {
  /** @deprecated Import from '@politely/frontier' instead. */
  dedupeKeyOf,
  /** @deprecated Import from '@politely/frontier' instead. */
  createMemoryFrontierStore,
  /** @deprecated Import from '@politely/frontier' instead. */
  lastFetchAfterHints,
} from '@politely/frontier';
export type {
  /** @deprecated Import from '@politely/frontier' instead. */
  MemoryFrontierStoreOptions,
  /** @deprecated Import from '@politely/frontier' instead. */
  FrontierStore,
  /** @deprecated Import from '@politely/frontier' instead. */
  SettleOptions,
  /** @deprecated Import from '@politely/frontier' instead. */
  CompleteOptions,
  /** @deprecated Import from '@politely/frontier' instead. */
  FrontierEntry,
  /** @deprecated Import from '@politely/frontier' instead. */
  FrontierLease,
  /** @deprecated Import from '@politely/frontier' instead. */
  ClaimRequest,
  /** @deprecated Import from '@politely/frontier' instead. */
  ClaimResult,
  /** @deprecated Import from '@politely/frontier' instead. */
  AddOutcome,
  /** @deprecated Import from '@politely/frontier' instead. */
  AddOptions,
  /** @deprecated Import from '@politely/frontier' instead. */
  HostPolicy,
  /** @deprecated Import from '@politely/frontier' instead. */
  FrontierCounts,
  /** @deprecated Import from '@politely/frontier' instead. */
  HostCounts,
  /** @deprecated Import from '@politely/frontier' instead. */
  HostTurn,
  /** @deprecated Import from '@politely/frontier' instead. */
  HostTurnRequest,
  /** @deprecated Import from '@politely/frontier' instead. */
  ReopenRequest,
  /** @deprecated Import from '@politely/frontier' instead. */
  LastFetch,
  /** @deprecated Import from '@politely/frontier' instead. */
  RevisitHints,
  /** @deprecated Import from '@politely/frontier' instead. */
  ChangeFrequency,
  /** @deprecated Import from '@politely/frontier' instead. */
  PageChange,
} from '@politely/frontier';
export { changeFrequencyOf } from './frontier/revisit-schedule.js';
export { POLITENESS_KEY_MODES } from './politeness/index.js';
export type { PolitenessKeyMode } from './politeness/index.js';
export type { RevisitCounts, RevisitStats, RenderCounts, RenderStats, RenderRefusal } from './stats.js';
export { TRACKING_QUERY_PARAMS } from './frontier/canonical-url.js';
export type { CanonicalUrlOptions, QueryParamPattern } from './frontier/canonical-url.js';
export type { TrapDetectionOptions, TrapCalendarOptions } from './frontier/trap-detector.js';
export type { ScopeOption, ScopeMode, ScopePatterns, ScopePredicate, ScopePattern } from './frontier/scope.js';

export { hostDelayMs, retryAfterMs, backoffMs, adaptiveDelayMs } from './politeness/index.js';
export type { DelayBounds, BackoffOptions, AdaptiveDelayInput } from './politeness/index.js';

export type { PageRobotsDirectives, RobotsDirectiveSource, RobotsDirectiveSourceKind } from './extract/meta-robots.js';
export { isHtmlContentType } from './extract/content-type.js';
