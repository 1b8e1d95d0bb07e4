// What an HTTP outcome means for robots.txt (RFC 9309 2.3.1, 2.4; Google's specification):
// status classes, cache lifetime, backoff, and the verdict a cache record stands for.
// Pure: no I/O, no timers; `now` (ms since the epoch) is always an argument.

import type { PolitelyErrorCode } from '../errors.js';
import { retryAfterMs } from '../http/retry-after.js';
import type { RobotsBodyEncoding, RobotsCacheCopy, RobotsCacheRecord, RobotsOutcome } from './robots-cache.js';

/** The timing rules of the gate, all in milliseconds. */
export interface RobotsCachePolicy {
  /** Lifetime of a result without `Cache-Control: max-age` (RFC 9309 2.4: at most 24 h). */
  readonly defaultTtlMs: number;
  /** Shortest lifetime; also used for `no-store` and `no-cache`. */
  readonly minTtlMs: number;
  /** Longest lifetime a `max-age` can ask for. */
  readonly maxTtlMs: number;
  /** First retry delay after an unreachable fetch; doubles with each failure in a row. */
  readonly minBackoffMs: number;
  /** Longest retry delay from doubling. */
  readonly maxBackoffMs: number;
  /** Longest delay a `Retry-After` (on 429 and 503) is honoured up to. */
  readonly maxRetryAfterMs: number;
  /** After being unreachable this long, an origin with no cached copy is treated as unavailable. */
  readonly unreachableAllowAfterMs: number;
}

const HOUR_MS = 60 * 60 * 1000;
const DAY_MS = 24 * HOUR_MS;

/** The defaults: 24 h cache within [60 s, 24 h], backoff 1 min doubling to 1 h, 30 days. */
export const DEFAULT_ROBOTS_CACHE_POLICY: RobotsCachePolicy = {
  defaultTtlMs: DAY_MS,
  minTtlMs: 60_000,
  maxTtlMs: DAY_MS,
  minBackoffMs: 60_000,
  maxBackoffMs: HOUR_MS,
  maxRetryAfterMs: DAY_MS,
  unreachableAllowAfterMs: 30 * DAY_MS,
};

/** What one response status means: RFC 9309 2.3.1.1–2.3.1.4, with 429 as a server error. */
export function classifyRobotsStatus(status: number): RobotsOutcome | 'redirect' {
  if (status >= 200 && status < 300) return 'success';
  if (status >= 300 && status < 400) return 'redirect';
  if (status >= 400 && status < 500 && status !== 429) return 'unavailable';
  // 429, 5xx, and anything outside the known classes: fail closed.
  return 'unreachable';
}

/** How a fetch of an origin's robots.txt ended, after following redirects. */
export type RobotsFetchResult =
  | {
      readonly outcome: 'success';
      readonly status: number;
      readonly url: string;
      readonly body: string;
      readonly bodyEncoding: RobotsBodyEncoding;
      readonly truncatedAtCap: boolean;
      readonly cacheControl?: string;
    }
  | { readonly outcome: 'unavailable'; readonly status: number; readonly url: string; readonly cacheControl?: string }
  | {
      readonly outcome: 'unreachable';
      /** null for a network error. */
      readonly status: number | null;
      readonly url: string;
      readonly retryAfter?: string;
      /** What the network error said, for people (when `status` is null). */
      readonly error?: string;
      /** The `PolitelyError` code of the network error, when it was one (`ERR_ADDRESS_BLOCKED`, `ERR_TIMEOUT`, …). */
      readonly errorCode?: PolitelyErrorCode;
    };

/**
 * How long a result stands: `max-age` within [minTtlMs, maxTtlMs]; `no-store` or `no-cache`
 * → minTtlMs; nothing usable → defaultTtlMs.
 */
export function cacheLifetimeMs(cacheControl: string | undefined, policy: RobotsCachePolicy): number {
  const directives = parseCacheControl(cacheControl ?? '');
  if (directives.has('no-store') || directives.has('no-cache')) return policy.minTtlMs;
  const maxAge = directives.get('max-age');
  const lifetime = maxAge !== undefined && /^\d+$/.test(maxAge) ? Number(maxAge) * 1000 : policy.defaultTtlMs;
  return clamp(lifetime, policy.minTtlMs, policy.maxTtlMs);
}

function parseCacheControl(value: string): Map<string, string> {
  const directives = new Map<string, string>();
  for (const part of value.split(',')) {
    const eq = part.indexOf('=');
    const name = (eq === -1 ? part : part.slice(0, eq)).trim().toLowerCase();
    const raw = eq === -1 ? '' : part.slice(eq + 1).trim();
    const unquoted = raw.length >= 2 && raw.startsWith('"') && raw.endsWith('"') ? raw.slice(1, -1) : raw;
    if (name !== '' && !directives.has(name)) directives.set(name, unquoted);
  }
  return directives;
}

/**
 * Delay before retrying after `consecutiveFailures` unreachable fetches in a row: a server's
 * `Retry-After` within [minBackoffMs, maxRetryAfterMs], otherwise minBackoffMs doubling per
 * failure up to maxBackoffMs. Deterministic: no jitter.
 */
export function backoffDelayMs(
  consecutiveFailures: number,
  retryAfter: number | undefined,
  policy: RobotsCachePolicy,
): number {
  if (retryAfter !== undefined) return clamp(retryAfter, policy.minBackoffMs, policy.maxRetryAfterMs);
  const doublings = Math.min(Math.max(consecutiveFailures - 1, 0), 40);
  return Math.min(policy.minBackoffMs * 2 ** doublings, Math.max(policy.maxBackoffMs, policy.minBackoffMs));
}

/** The record after a fetch that ended as `result` at `now`, given the record before it. */
export function nextRobotsCacheRecord(
  origin: string,
  previous: RobotsCacheRecord | undefined,
  result: RobotsFetchResult,
  now: number,
  policy: RobotsCachePolicy,
): RobotsCacheRecord {
  const base = { origin, status: result.status, url: result.url, fetchedAt: now };
  switch (result.outcome) {
    case 'success': {
      const { body, bodyEncoding, truncatedAtCap, status, url } = result;
      const lastGood: RobotsCacheCopy = { body, bodyEncoding, status, url, fetchedAt: now, truncatedAtCap };
      const expiresAt = now + cacheLifetimeMs(result.cacheControl, policy);
      return { ...base, outcome: 'success', expiresAt, consecutiveFailures: 0, lastGood };
    }
    case 'unavailable': {
      const expiresAt = now + cacheLifetimeMs(result.cacheControl, policy);
      return { ...base, outcome: 'unavailable', expiresAt, consecutiveFailures: 0 };
    }
    case 'unreachable': {
      const failing = previous?.outcome === 'unreachable';
      const consecutiveFailures = failing ? previous.consecutiveFailures + 1 : 1;
      const unreachableSince = failing ? (previous.unreachableSince ?? now) : now;
      const honoursRetryAfter = result.status === 429 || result.status === 503;
      const retryAfter = honoursRetryAfter ? retryAfterMs(result.retryAfter, now) : undefined;
      return {
        ...base,
        outcome: 'unreachable',
        expiresAt: now + backoffDelayMs(consecutiveFailures, retryAfter, policy),
        consecutiveFailures,
        unreachableSince,
        ...(result.error !== undefined && { error: result.error }),
        ...(result.errorCode !== undefined && { errorCode: result.errorCode }),
        ...(previous?.lastGood !== undefined && { lastGood: previous.lastGood }),
      };
    }
  }
}

/** Why a check is answered as it is; the `RobotsCheck.reason` values that rest on the cache. */
export type RobotsCacheBasis =
  /** Decided by the rules of `copy`: the current file (`rules`) or, while the origin is unreachable, the last good one (`cached`). */
  | { readonly reason: 'rules' | 'cached'; readonly status: number | null; readonly copy: RobotsCacheCopy }
  /** Everything allowed (`unavailable`, `unreachable-too-long`) or disallowed (`unreachable`). */
  | {
      readonly reason: 'unavailable' | 'unreachable' | 'unreachable-too-long';
      readonly status: number | null;
      readonly allowed: boolean;
    };

/** Whether a record still stands at `now`; if not, the next check fetches again. */
export function isRecordCurrent(record: RobotsCacheRecord, now: number): boolean {
  return now < record.expiresAt;
}

/**
 * What a record means at `now` (RFC 9309 2.3.1.3, 2.3.1.4, 2.4): a success is decided by its
 * rules; unavailable allows all; unreachable serves the last good copy if there is one, else
 * disallows all until the origin has been unreachable longer than `unreachableAllowAfterMs`.
 * `status` is the status of the latest fetch (null for a network error).
 */
export function robotsCacheBasisOf(
  record: RobotsCacheRecord,
  now: number,
  policy: RobotsCachePolicy,
): RobotsCacheBasis {
  const { status } = record;
  switch (record.outcome) {
    case 'success':
      if (record.lastGood !== undefined) return { reason: 'rules', status, copy: record.lastGood };
      return { reason: 'unreachable', status, allowed: false }; // a malformed record: fail closed
    case 'unavailable':
      return { reason: 'unavailable', status, allowed: true };
    case 'unreachable': {
      if (record.lastGood !== undefined) return { reason: 'cached', status, copy: record.lastGood };
      const since = record.unreachableSince ?? record.fetchedAt;
      if (now - since > policy.unreachableAllowAfterMs)
        return { reason: 'unreachable-too-long', status, allowed: true };
      return { reason: 'unreachable', status, allowed: false };
    }
  }
}

function clamp(value: number, min: number, max: number): number {
  return Math.min(Math.max(value, min), max);
}
