// @politely/core: the robots.txt engine, the robots gate and the guarded HTTP client. Helpers shared
// by politely's own packages are in @politely/core/internal.

export type { PolitelyErrorCode } from './errors.js';
export { PolitelyError } from './errors.js';
export type {
  RobotsFetch,
  RobotsFetchRequest,
  RobotsFetchResponse,
  UndiciRobotsFetch,
  UndiciRobotsFetchOptions,
} from './gate/fetch-robots.js';
export { createUndiciRobotsFetch } from './gate/fetch-robots.js';
export type { RobotsFetchEvent, RobotsRedirectError } from './gate/fetch-robots-txt.js';
export { robotsOriginOf, robotsTxtUrlOf } from './gate/origin.js';
export type {
  MemoryRobotsCache,
  MemoryRobotsCacheOptions,
  RobotsBodyEncoding,
  RobotsCacheCopy,
  RobotsCacheRecord,
  RobotsCacheStore,
  RobotsOutcome,
} from './gate/robots-cache.js';
export { createMemoryRobotsCache } from './gate/robots-cache.js';
export type { RobotsCheck, RobotsCheckFetch, RobotsCheckReason } from './gate/robots-check.js';
export type {
  RobotsCheckOptions,
  RobotsGate,
  RobotsGateEvents,
  RobotsSitemapsOptions,
} from './gate/robots-gate.js';
export { createRobotsGate } from './gate/robots-gate.js';
export type { RobotsGateOptions } from './gate/robots-gate-options.js';
export type { AddressBook, AddressBookOptions } from './http/address-book.js';
export { createAddressBook } from './http/address-book.js';
export type { AddressLookup, AddressPolicy, LookupCallback } from './http/address-guard.js';
export { createAddressPolicy, parseCidr } from './http/address-guard.js';
export type { HostResolver, ResolvedAddress } from './http/host-resolver.js';
export { systemResolver } from './http/host-resolver.js';
export type { HttpClient, HttpClientOptions, HttpExchange, HttpRequest, HttpResponse } from './http/http-client.js';
export { createHttpClient, exchangeOfError } from './http/http-client.js';
export type { BodyLimit } from './http/read-body.js';
export { checkContactAddress, checkRequestHeaders } from './http/request-headers.js';
export { parseHttpDate, retryAfterMs } from './http/retry-after.js';
export type { RobotsDiagnostic, RobotsDiagnosticCode, RobotsDiagnosticSeverity } from './lint/lint-robots-txt.js';
export { lintRobotsTxt } from './lint/lint-robots-txt.js';
export type { ParseRobotsTxtOptions } from './robots/parse.js';
export { parseRobotsTxt } from './robots/parse.js';
export type {
  RobotsAgents,
  RobotsDecisionBasis,
  RobotsExplanation,
  RobotsExtensionLine,
  RobotsGroup,
  RobotsRule,
  RobotsTxt,
  RobotsUserAgentLine,
} from './robots/types.js';
export { productToken } from './robots/user-agent.js';
// Secrets out of messages: URL passwords, credential query parameters and header values masked.
export {
  isSecretHeaderName,
  isSecretParameterName,
  MASK,
  maskHeaderLine,
  maskHeaderValue,
  maskHttpHead,
  maskSecrets,
  maskUrl,
} from './secrets/mask-secrets.js';
// Web Bot Auth: RFC 9421 request signatures with an Ed25519 key, its thumbprint, the key directory.
// Listed one by one: a name the signing folder adds is public only once it is listed here.
export type {
  DirectoryResponseSignature,
  Ed25519PrivateJwk,
  Ed25519PublicJwk,
  RequestSignature,
  RequestSigner,
  RequestSignerOptions,
  SignedKeyDirectory,
  SignedKeyDirectoryOptions,
  SigningClient,
  SigningClientOptions,
  SigningKey,
  SigningKeyFile,
  SignMode,
  WebBotAuthDraft,
} from './signing/index.js';
export {
  authorityOf,
  createRequestSigner,
  DEFAULT_WEB_BOT_AUTH_DRAFT,
  generateSigningKey,
  importSigningKey,
  isSignatureChallenge,
  jwkThumbprint,
  KEY_DIRECTORY_MEDIA_TYPE,
  KEY_DIRECTORY_PATH,
  KEY_DIRECTORY_TAG,
  keyDirectory,
  publicJwkOf,
  readSigningKeyFile,
  SIGNATURE_CHALLENGE_STATUSES,
  SIGNATURE_HEADER_NAMES,
  signDirectoryResponse,
  signedKeyDirectory,
  signingClient,
  WEB_BOT_AUTH_TAG,
} from './signing/index.js';
export { parseAiprefStatement } from './usage/aipref.js';
export { parseContentSignal } from './usage/content-signal.js';
export type { UsageHeaders } from './usage/headers.js';
export { headerUsageSources, parseContentUsageHeader } from './usage/headers.js';
export type { UsageMetaTag } from './usage/meta.js';
export { metaUsageSources } from './usage/meta.js';
export type { RobotsDirective } from './usage/robots-directives.js';
export { parseRobotsDirectives } from './usage/robots-directives.js';
export type { RobotsUsageRule } from './usage/robots-usage.js';
export { parseRobotsUsageLine, robotsUsageRules, robotsUsageSources } from './usage/robots-usage.js';
export type { UsageEvidence, UsageSource, UsageSourceKind, UsageSourceLocation } from './usage/source.js';
export type {
  UsageIssue,
  UsagePreference,
  UsagePurposePreference,
  UsagePurposePreferences,
  UsageStatement,
  UsageStatus,
} from './usage/statement.js';
export { tdmReservationOf } from './usage/tdm.js';
export type { TdmrepFile, TdmrepRule } from './usage/tdmrep.js';
export { matchTdmrep, parseTdmrepJson, tdmrepUsageSources } from './usage/tdmrep.js';
export type { UsageInput, UsageReport, UsageVerdict } from './usage/verdict.js';
// Usage preferences (AI training, AI input, search, text and data mining): parsers of each
// mechanism, the vocabulary as data, and one conservative verdict per URL and purpose.
export {
  combineUsage,
  reservedPurposes,
  usageBeforeFetch,
  usageOf,
  usageSources,
} from './usage/verdict.js';
export type { UsageCategory, UsagePurpose, UsagePurposeDefinition, UsageVocabulary } from './usage/vocabulary.js';
export {
  AIPREF_VOCABULARY,
  ALL_USAGE_PURPOSES,
  CONTENT_SIGNAL_VOCABULARY,
  isUsagePurpose,
  purposeAncestors,
  ROBOTS_META_DIRECTIVES,
  TDMREP_VOCABULARY,
  USAGE_PURPOSES,
} from './usage/vocabulary.js';
