// @politely/core: the robots.txt engine, the robots gate and the guarded HTTP client. Helpers shared
// by politely's own packages are in @politely/core/internal.

export { PolitelyError } from './errors.js';
export type { PolitelyErrorCode } from './errors.js';

export { parseRobotsTxt } from './robots/parse.js';
export type { ParseRobotsTxtOptions } from './robots/parse.js';
export { productToken } from './robots/user-agent.js';
export { lintRobotsTxt } from './robots/lint.js';
export type { RobotsDiagnostic, RobotsDiagnosticCode, RobotsDiagnosticSeverity } from './robots/lint.js';
export type {
  RobotsTxt,
  RobotsGroup,
  RobotsRule,
  RobotsUserAgentLine,
  RobotsExplanation,
  RobotsDecisionBasis,
} from './robots/types.js';

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

export { createHttpClient } from './http/http-client.js';
export type { HttpClient, HttpClientOptions, HttpRequest, HttpResponse } from './http/http-client.js';
export { retryAfterMs, parseHttpDate } from './http/retry-after.js';
export { checkRequestHeaders, checkContactAddress } from './http/request-headers.js';
export { createAddressPolicy, parseCidr } from './http/address-guard.js';
export type { AddressPolicy } from './http/address-guard.js';
export type { BodyLimit } from './http/read-body.js';
