// @politely/core: the robots.txt engine, the robots gate and the guarded HTTP client. Helpers shared
// by politely's own packages are in @politely/core/internal.

export { PolitelyError } from './errors.js';
export type { PolitelyErrorCode } from './errors.js';

export { parseRobotsTxt } from './robots/parse.js';
export type { ParseRobotsTxtOptions } from './robots/parse.js';
export { productToken } from './robots/user-agent.js';
export { lintRobotsTxt } from './lint/lint-robots-txt.js';
export type { RobotsDiagnostic, RobotsDiagnosticCode, RobotsDiagnosticSeverity } from './lint/lint-robots-txt.js';
export type {
  RobotsTxt,
  RobotsGroup,
  RobotsRule,
  RobotsUserAgentLine,
  RobotsExplanation,
  RobotsDecisionBasis,
  RobotsExtensionLine,
  RobotsAgents,
} from './robots/types.js';

// Usage preferences (AI training, AI input, search, text and data mining): parsers of each
// mechanism, the vocabulary as data, and one conservative verdict per URL and purpose.
export {
  usageOf,
  usageBeforeFetch,
  usageSources,
  combineUsage,
  reservedPurposes,
} from './usage/verdict.js';
export type { UsageInput, UsageReport, UsageVerdict } from './usage/verdict.js';
export type { UsageSource, UsageSourceKind, UsageSourceLocation, UsageEvidence } from './usage/source.js';
export type {
  UsagePreference,
  UsageStatus,
  UsageStatement,
  UsageIssue,
  UsagePurposePreference,
  UsagePurposePreferences,
} from './usage/statement.js';
export {
  USAGE_PURPOSES,
  ALL_USAGE_PURPOSES,
  AIPREF_VOCABULARY,
  CONTENT_SIGNAL_VOCABULARY,
  TDMREP_VOCABULARY,
  ROBOTS_META_DIRECTIVES,
  isUsagePurpose,
  purposeAncestors,
  tdmrepCanDecide,
} from './usage/vocabulary.js';
export type { UsagePurpose, UsagePurposeDefinition, UsageCategory, UsageVocabulary } from './usage/vocabulary.js';
export { parseAiprefStatement } from './usage/aipref.js';
export { parseContentSignal } from './usage/content-signal.js';
export { parseRobotsUsageLine, robotsUsageRules, robotsUsageSources } from './usage/robots-usage.js';
export type { RobotsUsageRule } from './usage/robots-usage.js';
export { parseContentUsageHeader, headerUsageSources, headerValues } from './usage/headers.js';
export type { UsageHeaders } from './usage/headers.js';
export { tdmReservationOf } from './usage/tdm.js';
export { parseRobotsDirectives } from './usage/robots-directives.js';
export type { RobotsDirective } from './usage/robots-directives.js';
export { metaUsageSources } from './usage/meta.js';
export type { UsageMetaTag } from './usage/meta.js';
export { parseTdmrepJson, matchTdmrep, tdmrepUsageSources } from './usage/tdmrep.js';
export type { TdmrepFile, TdmrepRule } from './usage/tdmrep.js';

export { createRobotsGate } from './gate/robots-gate.js';
export type {
  RobotsGate,
  RobotsCheckOptions,
  RobotsSitemapsOptions,
  RobotsGateEvents,
} from './gate/robots-gate.js';
export type { RobotsCheck, RobotsCheckFetch, RobotsCheckReason } from './gate/robots-check.js';
export type { RobotsGateOptions } from './gate/robots-gate-options.js';
export type { RobotsFetchEvent, RobotsRedirectError } from './gate/fetch-robots-txt.js';
export { robotsOriginOf, robotsTxtUrlOf } from './gate/origin.js';
export { createUndiciRobotsFetch } from './gate/fetch-robots.js';
export type {
  RobotsFetch,
  RobotsFetchRequest,
  RobotsFetchResponse,
  UndiciRobotsFetch,
  UndiciRobotsFetchOptions,
} from './gate/fetch-robots.js';
export { createMemoryRobotsCache } from './gate/robots-cache.js';
export type {
  RobotsCacheStore,
  RobotsCacheRecord,
  RobotsCacheCopy,
  RobotsOutcome,
  RobotsBodyEncoding,
  MemoryRobotsCache,
  MemoryRobotsCacheOptions,
} from './gate/robots-cache.js';

export { createHttpClient, exchangeOfError } from './http/http-client.js';
export type { HttpClient, HttpClientOptions, HttpExchange, HttpRequest, HttpResponse } from './http/http-client.js';
export { retryAfterMs, parseHttpDate } from './http/retry-after.js';
export { checkRequestHeaders, checkContactAddress } from './http/request-headers.js';
export { createAddressPolicy, parseCidr } from './http/address-guard.js';
export type { AddressPolicy, AddressLookup, LookupCallback } from './http/address-guard.js';
export { systemResolver } from './http/host-resolver.js';
export type { HostResolver, ResolvedAddress } from './http/host-resolver.js';
export { createAddressBook } from './http/address-book.js';
export type { AddressBook, AddressBookOptions } from './http/address-book.js';
export type { BodyLimit } from './http/read-body.js';
