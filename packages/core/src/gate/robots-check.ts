// The gate's answer for one URL, and what it says beyond allowed or not: the robots.txt fetch
// the check waited on, the failures in a row and when robots.txt is fetched again, and whether the
// SSRF guard refused the host. Pure: built from a cache record and the fetch's times.

import type { RobotsRule, RobotsTxt } from '../robots/types.js';
import type { RobotsCacheRecord } from './robots-cache.js';

/** Why a check answered as it did. */
export type RobotsCheckReason =
  /** Decided by the rules of the current robots.txt (2xx). */
  | 'rules'
  /** robots.txt is unavailable (4xx other than 429, or redirects not followable): all allowed. */
  | 'unavailable'
  /** robots.txt is unreachable (429, 5xx, network error, timeout) and no copy is cached: all disallowed for now. */
  | 'unreachable'
  /** robots.txt is unreachable now; decided by the rules of the last good copy. */
  | 'cached'
  /** Unreachable for longer than `unreachableAllowAfterMs` with no copy: all allowed. */
  | 'unreachable-too-long'
  /** The URL is `/robots.txt` itself, which is always allowed. */
  | 'robots-txt';

/** The robots.txt fetch a check waited on, in the gate's wall clock (its `now` option, ms since the epoch). */
export interface RobotsCheckFetch {
  /** When the fetch's first request (`/robots.txt` of the origin) started. */
  readonly requestedAt: number;
  /** When the response of its last hop (after redirects) was in, or the request failed. */
  readonly respondedAt: number;
}

/** The gate's answer for one URL. */
export interface RobotsCheck {
  readonly allowed: boolean;
  readonly reason: RobotsCheckReason;
  /** HTTP status of the latest robots.txt fetch (after redirects); null for a network error or `robots-txt`. */
  readonly status: number | null;
  /**
   * Present when this check waited on a robots.txt fetch that this gate made: the check started
   * it, or joined this gate's fetch in flight for the origin (concurrent checks share one fetch,
   * and each of them says so). Absent when the answer came from the cache or store, including a
   * record that another process (another gate sharing the store) fetched.
   */
  readonly fetch?: RobotsCheckFetch;
  /**
   * On `unreachable` answers: unreachable robots.txt fetches in a row for the origin (the
   * record's `consecutiveFailures`, shared by every gate that shares the store; 1 after the
   * first failure).
   */
  readonly failures?: number;
  /**
   * On `unreachable` answers: when the gate will fetch robots.txt again (ms since the epoch, the
   * record's `expiresAt`): after the backoff, or the server's `Retry-After` on 429 and 503.
   * Until then every check of the origin is answered from the record, without a request.
   */
  readonly retryAt?: number;
  /**
   * The latest robots.txt fetch of the origin was refused by the SSRF guard (its address is not
   * globally reachable and not in `allowNet`): whether or not this check made that fetch.
   */
  readonly addressBlocked?: true;
  /** `crawl-delay` (seconds) of the groups chosen for the user agent, when the rules set one. */
  readonly crawlDelay?: number;
  /** The deciding rule, when a rule decided (`rules` or `cached`). */
  readonly rule?: RobotsRule;
  /**
   * With several product tokens (the check's `tokens` option), the one whose verdict decided: the
   * first that is disallowed, or the first when all are allowed. Absent with one user agent.
   */
  readonly token?: string;
  /**
   * The parsed robots.txt the check was decided by (`rules` or `cached`), for what else it says
   * about the URL (usage preferences: `Content-Usage`, `Content-Signal`) without a second parse.
   * Absent when no copy decided (unavailable, unreachable, `/robots.txt` itself).
   */
  readonly robots?: RobotsTxt;
  /** The origin whose robots.txt applies. */
  readonly origin: string;
  /** That origin's robots.txt URL (before any redirect). */
  readonly robotsUrl: string;
}

/** The facts a check carries besides its verdict. */
export type RobotsCheckFacts = Pick<RobotsCheck, 'fetch' | 'failures' | 'retryAt' | 'addressBlocked'>;

/**
 * The facts of a check answered as `reason` from `record`, after waiting on `fetch` (the fetch
 * this gate made for it, if any): `failures` and `retryAt` on `unreachable` answers, and
 * `addressBlocked` whenever the record's latest fetch was refused by the SSRF guard.
 */
export function robotsCheckFactsOf(
  record: RobotsCacheRecord,
  reason: RobotsCheckReason,
  fetch: RobotsCheckFetch | undefined,
): RobotsCheckFacts {
  const addressBlocked = record.outcome === 'unreachable' && record.errorCode === 'ERR_ADDRESS_BLOCKED';
  return {
    ...(fetch !== undefined && { fetch }),
    ...(reason === 'unreachable' && { failures: record.consecutiveFailures, retryAt: record.expiresAt }),
    ...(addressBlocked && { addressBlocked: true as const }),
  };
}
