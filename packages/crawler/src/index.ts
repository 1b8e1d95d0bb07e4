// @politely/crawler: what users of the crawler need. Internal helpers (option resolution, URL
// canonicalisation, trap detection, extraction) stay in src/; tests import them from there, and
// politely's own packages from @politely/crawler/internal. The frontier store contract is
// @politely/frontier's.

export type { AddSeedsOptions, AddSeedsResult } from './add-seeds.js';
export { addSeeds } from './add-seeds.js';
export type { WarcOutputStatus } from './archive/warc-archive.js';
export type { PageContent, PageRights } from './content/page-content.js';
export { pageRightsOf } from './content/page-content.js';
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
  SentEvent,
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
export type { CrawlerPlugin, PluginContext, ResourceContext, ResourceProcessor } from './plugin.js';
export type { AdaptiveDelayInput, BackoffOptions, DelayBounds, PolitenessKeyMode } from './politeness/index.js';
export { adaptiveDelayMs, backoffMs, hostDelayMs, POLITENESS_KEY_MODES } from './politeness/index.js';
export type { RefusedSeed } from './seed-refusals.js';
export { SeedsRefusedError } from './seed-refusals.js';
export type { PluginSkipReason, RobotsRuleRef, SkipDetail, SkipReason } from './skip-reasons.js';
export { CRAWLER_SKIP_REASONS } from './skip-reasons.js';
export type { CrawlStats, RenderCounts, RenderRefusal, RenderStats, RevisitCounts, RevisitStats } from './stats.js';
