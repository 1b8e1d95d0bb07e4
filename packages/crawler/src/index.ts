// @politely/crawler: what users of the crawler need. Internal helpers (option resolution, URL
// canonicalisation, trap detection, extraction) stay in src/; tests import them from there.

export type {
  /** @deprecated Import from '@politely/frontier' instead. */
  AddOptions,
  /** @deprecated Import from '@politely/frontier' instead. */
  AddOutcome,
  /** @deprecated Import from '@politely/frontier' instead. */
  ChangeFrequency,
  /** @deprecated Import from '@politely/frontier' instead. */
  ClaimRequest,
  /** @deprecated Import from '@politely/frontier' instead. */
  ClaimResult,
  /** @deprecated Import from '@politely/frontier' instead. */
  CompleteOptions,
  /** @deprecated Import from '@politely/frontier' instead. */
  FrontierCounts,
  /** @deprecated Import from '@politely/frontier' instead. */
  FrontierEntry,
  /** @deprecated Import from '@politely/frontier' instead. */
  FrontierLease,
  /** @deprecated Import from '@politely/frontier' instead. */
  FrontierStore,
  /** @deprecated Import from '@politely/frontier' instead. */
  HostCounts,
  /** @deprecated Import from '@politely/frontier' instead. */
  HostPolicy,
  /** @deprecated Import from '@politely/frontier' instead. */
  HostTurn,
  /** @deprecated Import from '@politely/frontier' instead. */
  HostTurnRequest,
  /** @deprecated Import from '@politely/frontier' instead. */
  LastFetch,
  /** @deprecated Import from '@politely/frontier' instead. */
  MemoryFrontierStoreOptions,
  /** @deprecated Import from '@politely/frontier' instead. */
  PageChange,
  /** @deprecated Import from '@politely/frontier' instead. */
  ReopenRequest,
  /** @deprecated Import from '@politely/frontier' instead. */
  RevisitHints,
  /** @deprecated Import from '@politely/frontier' instead. */
  SettleOptions,
} from '@politely/frontier';
// The frontier store contract moved to @politely/frontier; these names stay here, deprecated,
// so that code importing them from the crawler keeps working.
export {
  /** @deprecated Import from '@politely/frontier' instead. */
  createMemoryFrontierStore,
  /** @deprecated Import from '@politely/frontier' instead. */
  dedupeKeyOf,
  /** @deprecated Import from '@politely/frontier' instead. */
  lastFetchAfterHints,
} from '@politely/frontier';
export type { AddSeedsOptions, AddSeedsResult } from './add-seeds.js';
export { addSeeds } from './add-seeds.js';
export type { WarcOutputStatus } from './archive/warc-archive.js';
export {
  attachLogger,
  type CrawlLogger,
  type LogFields,
  type LoggedCrawler,
  type LogMethod,
} from './crawl-logger.js';
export type { Crawler, RoutesCheck } from './crawler.js';
export { createCrawler } from './crawler.js';
export type { MergeOutputsOptions, MergeOutputsResult } from './dataset/merge-outputs.js';
export { mergeOutputs } from './dataset/merge-outputs.js';
export type { OutputOptions } from './dataset/output-options.js';
export type { OutputStatus } from './dataset/output-writer.js';
export type { DatasetRecord } from './dataset/record-text.js';
export type {
  CrawlerEventName,
  CrawlerEvents,
  CrawlerListener,
  ErrorEvent,
  RecordEvent,
  RequestEvent,
  ResponseEvent,
  RevisitEvent,
  SkipEvent,
  UsageEvent,
  WarningEvent,
} from './events.js';
export { isHtmlContentType } from './extract/content-type.js';
export type { PageRobotsDirectives, RobotsDirectiveSource, RobotsDirectiveSourceKind } from './extract/meta-robots.js';
export { isFatalCrawlError } from './fatal-error.js';
export type { CanonicalUrlOptions, QueryParamPattern } from './frontier/canonical-url.js';
export { TRACKING_QUERY_PARAMS } from './frontier/canonical-url.js';
export type { FrontierRequest } from './frontier/frontier.js';
export type { RequestData, UserData } from './frontier/request-data.js';
export { checkRequestData, MAX_LABEL_LENGTH, MAX_USER_DATA_BYTES } from './frontier/request-data.js';
export { changeFrequencyOf } from './frontier/revisit-schedule.js';
export type { ScopeMode, ScopeOption, ScopePattern, ScopePatterns, ScopePredicate } from './frontier/scope.js';
export { SCOPE_SEEDS_KEY, SCOPE_SEEDS_POLL_MS } from './frontier/scope-seeds.js';
export type { TrapCalendarOptions, TrapDetectionOptions } from './frontier/trap-detector.js';
export type { FailedRequest, FailedRequestHandler } from './handle/failed-request.js';
export type {
  AdaptiveDelayOptions,
  CrawlerOptions,
  RenderChoice,
  RenderRequest,
  SeedRequest,
  SigningOptions,
} from './options.js';
export type {
  EnqueueLinksOptions,
  EnqueueOptions,
  IsUntypedRoutes,
  LabelledRoute,
  PageContext,
  PageHandler,
  PageRequest,
  PageRequestOf,
  RequestOptions,
  RequestRoute,
  RequestSettings,
  RouteHandlers,
  RouteLabel,
  RouteMap,
  UserDataOf,
} from './page-context.js';
export type {
  BrowserAnswer,
  BrowserRequest,
  PageRenderer,
  RenderCrawl,
  RenderedPage,
  RenderInput,
  RenderSession,
  RenderWaitUntil,
} from './page-renderer.js';
export { describeUsageSource, TDMREP_PATH } from './pipeline/stages/usage.js';
export type { CrawlerPlugin, PluginContext, ResourceContext, ResourceProcessor } from './plugin.js';
export type { AdaptiveDelayInput, BackoffOptions, DelayBounds, PolitenessKeyMode } from './politeness/index.js';
export { adaptiveDelayMs, backoffMs, hostDelayMs, POLITENESS_KEY_MODES, retryAfterMs } from './politeness/index.js';
export type { RefusedSeed } from './seed-refusals.js';
export { SeedsRefusedError } from './seed-refusals.js';
export type { PluginSkipReason, RobotsRuleRef, SkipDetail, SkipReason } from './skip-reasons.js';
export { CRAWLER_SKIP_REASONS } from './skip-reasons.js';
export type { CrawlStats, RenderCounts, RenderRefusal, RenderStats, RevisitCounts, RevisitStats } from './stats.js';
