// The options of createRobotsGate, validated once and filled with their defaults.

import { checkNetworks } from '../http/address-guard.js';
import { optionChecks } from '../options/option-checks.js';
import { MIN_ROBOTS_TXT_BYTES } from '../robots/parse.js';
import { DEFAULT_ROBOTS_CACHE_POLICY, type RobotsCachePolicy } from './fetch-policy.js';
import type { RobotsFetch } from './fetch-robots.js';
import type { RobotsCacheStore } from './robots-cache.js';

/**
 * Options of `createRobotsGate`: the user agent, how robots.txt is fetched and cached, and how
 * long an answer is kept.
 */
export interface RobotsGateOptions {
  /**
   * Fetches one robots.txt hop. The crawler passes its politeness-scheduled fetcher.
   * @default createUndiciRobotsFetch({ timeoutMs, blockPrivateNetworks, allowNet }), closed by `gate.close()`
   */
  readonly fetch?: RobotsFetch;
  /**
   * Where records live; share one store between gates (or processes) to share robots.txt.
   * @default createMemoryRobotsCache() (10,000 origins, least recently used evicted)
   */
  readonly cache?: RobotsCacheStore;
  /**
   * Body bytes read and parsed; the rest is ignored (RFC 9309 2.5). At least 500 KiB.
   * @default 512000
   */
  readonly maxBytes?: number;
  /**
   * Lifetime of a robots.txt without `Cache-Control: max-age`.
   * @default 86400000 (24 h)
   */
  readonly defaultTtlMs?: number;
  /**
   * Shortest lifetime, whatever `max-age` says; `no-store` and `no-cache` get this.
   * @default 60000 (60 s)
   */
  readonly minTtlMs?: number;
  /**
   * Longest lifetime, whatever `max-age` says (RFC 9309 2.4: not more than 24 h).
   * @default 86400000 (24 h)
   */
  readonly maxTtlMs?: number;
  /**
   * Delay before the first retry of an unreachable robots.txt; doubles with each failure.
   * @default 60000 (1 min)
   */
  readonly minBackoffMs?: number;
  /**
   * Longest retry delay reached by doubling.
   * @default 3600000 (1 h)
   */
  readonly maxBackoffMs?: number;
  /**
   * Longest `Retry-After` (on 429 and 503) honoured; longer ones are cut to this.
   * @default 86400000 (24 h)
   */
  readonly maxRetryAfterMs?: number;
  /**
   * Redirects followed (RFC 9309 2.3.1.2: at least 5); one more is treated as a 404.
   * @default 5
   */
  readonly maxRedirects?: number;
  /**
   * After an origin has been unreachable this long with no cached copy, everything is allowed.
   * @default 2592000000 (30 days)
   */
  readonly unreachableAllowAfterMs?: number;
  /**
   * Deadline of each robots.txt request (each hop); past it the origin is unreachable.
   * @default 10000 (10 s)
   */
  readonly timeoutMs?: number;
  /**
   * The SSRF guard on the gate's own fetch (not on a `fetch` you pass): robots.txt is never
   * requested from a loopback, private, link-local (169.254.169.254), unique-local or unspecified
   * address, checked after DNS on every hop; such an origin is `unreachable`.
   * @default true
   */
  readonly blockPrivateNetworks?: boolean;
  /** Networks the guard lets through (CIDRs or addresses), e.g. `['127.0.0.0/8']` for a local test web. @default [] */
  readonly allowNet?: readonly string[];
  /**
   * The clock, in ms since the epoch, for cache lifetimes and backoff.
   * @default Date.now
   */
  readonly now?: () => number;
  /**
   * Parsed robots.txt files kept in memory (least recently used evicted) so checks don't re-parse.
   * @default 1000
   */
  readonly maxParsedOrigins?: number;
  /**
   * How long a current record read from the cache store is reused by this gate before it reads
   * the store again. With a store in another process (Redis, SQLite) a check per fetch is
   * otherwise a round trip per page; another worker's newer record is seen at most this late.
   * 0 reads the store on every check.
   * @default 2000
   */
  readonly reuseRecordMs?: number;
  /**
   * User-Agent sent when a fetch is started by `sitemaps()` without one.
   * @default 'politely'
   */
  readonly userAgent?: string;
}

export interface ResolvedRobotsGateOptions {
  readonly fetch: RobotsFetch | undefined;
  readonly cache: RobotsCacheStore | undefined;
  readonly maxBytes: number;
  readonly policy: RobotsCachePolicy;
  readonly maxRedirects: number;
  readonly timeoutMs: number;
  readonly blockPrivateNetworks: boolean;
  readonly allowNet: readonly string[];
  readonly now: () => number;
  readonly maxParsedOrigins: number;
  readonly reuseRecordMs: number;
  readonly userAgent: string;
}

/** Every option `createRobotsGate` knows: a key missing here, or one too many, is a type error. */
const ROBOTS_GATE_OPTION_KEYS: Record<keyof RobotsGateOptions, true> = {
  fetch: true,
  cache: true,
  maxBytes: true,
  defaultTtlMs: true,
  minTtlMs: true,
  maxTtlMs: true,
  minBackoffMs: true,
  maxBackoffMs: true,
  maxRetryAfterMs: true,
  maxRedirects: true,
  unreachableAllowAfterMs: true,
  timeoutMs: true,
  blockPrivateNetworks: true,
  allowNet: true,
  now: true,
  maxParsedOrigins: true,
  reuseRecordMs: true,
  userAgent: true,
};

export function resolveRobotsGateOptions(options: RobotsGateOptions = {}): ResolvedRobotsGateOptions {
  const check = optionChecks('createRobotsGate');
  check.knownKeys(options, ROBOTS_GATE_OPTION_KEYS);
  const defaults = DEFAULT_ROBOTS_CACHE_POLICY;
  const policy: RobotsCachePolicy = {
    defaultTtlMs: check.durationMs('defaultTtlMs', options.defaultTtlMs, defaults.defaultTtlMs),
    minTtlMs: check.durationMs('minTtlMs', options.minTtlMs, defaults.minTtlMs),
    maxTtlMs: check.durationMs('maxTtlMs', options.maxTtlMs, defaults.maxTtlMs),
    minBackoffMs: check.durationMs('minBackoffMs', options.minBackoffMs, defaults.minBackoffMs),
    maxBackoffMs: check.durationMs('maxBackoffMs', options.maxBackoffMs, defaults.maxBackoffMs),
    maxRetryAfterMs: check.durationMs('maxRetryAfterMs', options.maxRetryAfterMs, defaults.maxRetryAfterMs),
    unreachableAllowAfterMs: check.durationMs(
      'unreachableAllowAfterMs',
      options.unreachableAllowAfterMs,
      defaults.unreachableAllowAfterMs,
    ),
  };
  check.ordered('minTtlMs', policy.minTtlMs, 'defaultTtlMs', policy.defaultTtlMs);
  check.ordered('defaultTtlMs', policy.defaultTtlMs, 'maxTtlMs', policy.maxTtlMs);
  check.ordered('minBackoffMs', policy.minBackoffMs, 'maxBackoffMs', policy.maxBackoffMs);
  check.ordered('minBackoffMs', policy.minBackoffMs, 'maxRetryAfterMs', policy.maxRetryAfterMs);
  const maxBytes = check.count('maxBytes', options.maxBytes, MIN_ROBOTS_TXT_BYTES, MIN_ROBOTS_TXT_BYTES);
  const userAgent = options.userAgent ?? 'politely';
  if (userAgent.trim() === '') check.fail('userAgent must not be empty');
  return {
    fetch: options.fetch,
    cache: options.cache,
    maxBytes,
    policy,
    maxRedirects: check.count('maxRedirects', options.maxRedirects, 5, 0),
    timeoutMs: check.timeoutMs('timeoutMs', options.timeoutMs, 10_000),
    blockPrivateNetworks: check.flag('blockPrivateNetworks', options.blockPrivateNetworks, true),
    allowNet: checkNetworks(check, 'allowNet', options.allowNet),
    now: options.now ?? Date.now,
    maxParsedOrigins: check.count('maxParsedOrigins', options.maxParsedOrigins, 1000, 1),
    reuseRecordMs: check.durationMs('reuseRecordMs', options.reuseRecordMs, 2000),
    userAgent,
  };
}
