import { describe, expect, it } from 'vitest';
import {
  backoffDelayMs,
  cacheLifetimeMs,
  classifyRobotsStatus,
  isRecordCurrent,
  nextRobotsCacheRecord,
  DEFAULT_ROBOTS_CACHE_POLICY as POLICY,
  type RobotsFetchResult,
  robotsCacheBasisOf,
} from '../../src/gate/fetch-policy.js';
import type { RobotsCacheRecord } from '../../src/gate/robots-cache.js';
import { retryAfterMs } from '../../src/http/retry-after.js';

const T0 = Date.parse('2025-01-01T00:00:00Z');
const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
const ORIGIN = 'https://a.example';
const URL_ = `${ORIGIN}/robots.txt`;

const success: RobotsFetchResult = {
  outcome: 'success',
  status: 200,
  url: URL_,
  body: 'User-agent: *\nDisallow: /x\n',
  bodyEncoding: 'utf-8',
  truncatedAtCap: false,
};
const serverError = (status: number | null, retryAfter?: string): RobotsFetchResult => ({
  outcome: 'unreachable',
  status,
  url: URL_,
  ...(retryAfter !== undefined && { retryAfter }),
});

describe('classifyRobotsStatus', () => {
  it.each([200, 204, 299])('rfc9309 2.3.1.1: %i is a success', (status) => {
    expect(classifyRobotsStatus(status)).toBe('success');
  });
  it.each([300, 301, 302, 303, 307, 308])('rfc9309 2.3.1.2: %i is a redirect', (status) => {
    expect(classifyRobotsStatus(status)).toBe('redirect');
  });
  it.each([400, 401, 403, 404, 410, 451, 499])('rfc9309 2.3.1.3: %i is unavailable', (status) => {
    expect(classifyRobotsStatus(status)).toBe('unavailable');
  });
  it.each([500, 502, 503, 504, 599])('rfc9309 2.3.1.4: %i is unreachable', (status) => {
    expect(classifyRobotsStatus(status)).toBe('unreachable');
  });
  it('google: 429 is unreachable, like a server error', () => {
    expect(classifyRobotsStatus(429)).toBe('unreachable');
  });
  it.each([100, 199, 600, 999])('fails closed on the unknown status %i', (status) => {
    expect(classifyRobotsStatus(status)).toBe('unreachable');
  });
});

describe('cacheLifetimeMs', () => {
  it('rfc9309 2.4: defaults to 24 hours', () => {
    expect(cacheLifetimeMs(undefined, POLICY)).toBe(DAY);
    expect(cacheLifetimeMs('public', POLICY)).toBe(DAY);
  });
  it('honours max-age', () => {
    expect(cacheLifetimeMs('max-age=3600', POLICY)).toBe(HOUR);
    expect(cacheLifetimeMs('public, MAX-AGE="120", must-revalidate', POLICY)).toBe(2 * MINUTE);
  });
  it('rfc9309 2.4: holds max-age within the bounds (at most 24 hours)', () => {
    expect(cacheLifetimeMs('max-age=5', POLICY)).toBe(POLICY.minTtlMs);
    expect(cacheLifetimeMs('max-age=0', POLICY)).toBe(POLICY.minTtlMs);
    expect(cacheLifetimeMs('max-age=604800', POLICY)).toBe(DAY);
    expect(cacheLifetimeMs('max-age=604800', { ...POLICY, maxTtlMs: 7 * DAY })).toBe(7 * DAY);
  });
  it('treats no-store and no-cache as the minimum', () => {
    expect(cacheLifetimeMs('no-store', POLICY)).toBe(POLICY.minTtlMs);
    expect(cacheLifetimeMs('max-age=3600, no-cache', POLICY)).toBe(POLICY.minTtlMs);
  });
  it('ignores an unusable max-age', () => {
    expect(cacheLifetimeMs('max-age=soon', POLICY)).toBe(DAY);
    expect(cacheLifetimeMs('max-age=-5', POLICY)).toBe(DAY);
  });
});

describe('retryAfterMs', () => {
  it('reads delta-seconds', () => {
    expect(retryAfterMs('120', T0)).toBe(120 * SECOND);
    expect(retryAfterMs(' 0 ', T0)).toBe(0);
  });
  it('reads an HTTP-date relative to now', () => {
    expect(retryAfterMs(new Date(T0 + 10 * MINUTE).toUTCString(), T0)).toBe(10 * MINUTE);
    expect(retryAfterMs(new Date(T0 - MINUTE).toUTCString(), T0)).toBe(0);
  });
  it('ignores anything else', () => {
    expect(retryAfterMs(undefined, T0)).toBeUndefined();
    expect(retryAfterMs('', T0)).toBeUndefined();
    expect(retryAfterMs('soon', T0)).toBeUndefined();
    expect(retryAfterMs('-3', T0)).toBeUndefined();
  });
});

describe('backoffDelayMs', () => {
  it('doubles from the minimum up to the maximum', () => {
    const delays = [1, 2, 3, 4, 5, 6, 7, 8, 50, 1e9].map((n) => backoffDelayMs(n, undefined, POLICY));
    expect(delays).toEqual([1, 2, 4, 8, 16, 32, 60, 60, 60, 60].map((m) => m * MINUTE));
  });
  it('honours Retry-After within [minBackoffMs, maxRetryAfterMs]', () => {
    expect(backoffDelayMs(1, 5 * HOUR, POLICY)).toBe(5 * HOUR);
    expect(backoffDelayMs(1, 5 * SECOND, POLICY)).toBe(POLICY.minBackoffMs);
    expect(backoffDelayMs(1, 40 * DAY, POLICY)).toBe(POLICY.maxRetryAfterMs);
  });
});

describe('nextRobotsCacheRecord', () => {
  it('keeps a success for its lifetime, with its copy', () => {
    const record = nextRobotsCacheRecord(ORIGIN, undefined, { ...success, cacheControl: 'max-age=600' }, T0, POLICY);
    expect(record).toMatchObject({
      origin: ORIGIN,
      outcome: 'success',
      status: 200,
      fetchedAt: T0,
      consecutiveFailures: 0,
    });
    expect(record.expiresAt).toBe(T0 + 10 * MINUTE);
    expect(record.lastGood).toMatchObject({ body: success.body, bodyEncoding: 'utf-8', status: 200, fetchedAt: T0 });
    expect(JSON.parse(JSON.stringify(record))).toEqual(record);
  });

  it('counts failures in a row and remembers when they began, keeping the last good copy', () => {
    const good = nextRobotsCacheRecord(ORIGIN, undefined, success, T0, POLICY);
    const first = nextRobotsCacheRecord(ORIGIN, good, serverError(500), T0 + DAY, POLICY);
    expect(first).toMatchObject({
      outcome: 'unreachable',
      status: 500,
      consecutiveFailures: 1,
      unreachableSince: T0 + DAY,
    });
    expect(first.expiresAt).toBe(T0 + DAY + MINUTE);
    expect(first.lastGood).toEqual(good.lastGood);
    const second = nextRobotsCacheRecord(ORIGIN, first, serverError(null), first.expiresAt, POLICY);
    expect(second).toMatchObject({ status: null, consecutiveFailures: 2, unreachableSince: T0 + DAY });
    expect(second.expiresAt).toBe(first.expiresAt + 2 * MINUTE);
  });

  it('honours Retry-After on 429 and 503 only', () => {
    expect(nextRobotsCacheRecord(ORIGIN, undefined, serverError(429, '600'), T0, POLICY).expiresAt).toBe(
      T0 + 10 * MINUTE,
    );
    expect(nextRobotsCacheRecord(ORIGIN, undefined, serverError(503, '600'), T0, POLICY).expiresAt).toBe(
      T0 + 10 * MINUTE,
    );
    expect(nextRobotsCacheRecord(ORIGIN, undefined, serverError(500, '600'), T0, POLICY).expiresAt).toBe(T0 + MINUTE);
  });

  it('keeps the PolitelyError code of a network error, as plain JSON, until the next fetch', () => {
    const blocked: RobotsFetchResult = {
      outcome: 'unreachable',
      status: null,
      url: URL_,
      error: 'refused',
      errorCode: 'ERR_ADDRESS_BLOCKED',
    };
    const first = nextRobotsCacheRecord(ORIGIN, undefined, blocked, T0, POLICY);
    expect(first).toMatchObject({
      outcome: 'unreachable',
      consecutiveFailures: 1,
      error: 'refused',
      errorCode: 'ERR_ADDRESS_BLOCKED',
    });
    expect(JSON.parse(JSON.stringify(first))).toEqual(first);
    const then503 = nextRobotsCacheRecord(ORIGIN, first, serverError(503), first.expiresAt, POLICY);
    expect(then503.consecutiveFailures).toBe(2);
    expect(then503.errorCode).toBeUndefined();
    expect(nextRobotsCacheRecord(ORIGIN, first, success, first.expiresAt, POLICY).errorCode).toBeUndefined();
  });

  it('drops the last good copy when the site answers 4xx', () => {
    const good = nextRobotsCacheRecord(ORIGIN, undefined, success, T0, POLICY);
    const gone = nextRobotsCacheRecord(
      ORIGIN,
      good,
      { outcome: 'unavailable', status: 404, url: URL_ },
      T0 + DAY,
      POLICY,
    );
    expect(gone).toMatchObject({ outcome: 'unavailable', consecutiveFailures: 0, expiresAt: T0 + 2 * DAY });
    expect(gone.lastGood).toBeUndefined();
    expect(gone.unreachableSince).toBeUndefined();
  });
});

describe('robotsCacheBasisOf', () => {
  const at = (result: RobotsFetchResult, previous?: RobotsCacheRecord): RobotsCacheRecord =>
    nextRobotsCacheRecord(ORIGIN, previous, result, T0, POLICY);

  it('rfc9309 2.3.1.1: a success is decided by its rules', () => {
    expect(robotsCacheBasisOf(at(success), T0, POLICY)).toMatchObject({ reason: 'rules', status: 200 });
  });
  it('rfc9309 2.3.1.3: unavailable allows everything', () => {
    const record = at({ outcome: 'unavailable', status: 404, url: URL_ });
    expect(robotsCacheBasisOf(record, T0, POLICY)).toEqual({ reason: 'unavailable', status: 404, allowed: true });
  });
  it('rfc9309 2.3.1.4: unreachable disallows everything', () => {
    expect(robotsCacheBasisOf(at(serverError(503)), T0, POLICY)).toEqual({
      reason: 'unreachable',
      status: 503,
      allowed: false,
    });
  });
  it('rfc9309 2.4: unreachable with a cached copy is decided by the copy', () => {
    const record = at(serverError(null), at(success));
    expect(robotsCacheBasisOf(record, T0, POLICY)).toMatchObject({ reason: 'cached', status: null });
  });
  it('rfc9309 2.3.1.4: unreachable for more than 30 days with no copy allows everything', () => {
    const record = at(serverError(500));
    expect(robotsCacheBasisOf(record, T0 + 30 * DAY, POLICY)).toMatchObject({ reason: 'unreachable', allowed: false });
    expect(robotsCacheBasisOf(record, T0 + 30 * DAY + 1, POLICY)).toMatchObject({
      reason: 'unreachable-too-long',
      allowed: true,
    });
  });
  it('rfc9309 2.3.1.4: unreachable for more than 30 days with a copy keeps using the copy', () => {
    const record = at(serverError(500), at(success));
    expect(robotsCacheBasisOf(record, T0 + 31 * DAY, POLICY)).toMatchObject({ reason: 'cached' });
  });
});

describe('isRecordCurrent', () => {
  it('holds until expiresAt', () => {
    const record = nextRobotsCacheRecord(ORIGIN, undefined, success, T0, POLICY);
    expect(isRecordCurrent(record, T0 + DAY - 1)).toBe(true);
    expect(isRecordCurrent(record, T0 + DAY)).toBe(false);
  });
});
