import { describe, expect, it } from 'vitest';
import {
  nextRobotsCacheRecord,
  DEFAULT_ROBOTS_CACHE_POLICY as POLICY,
  type RobotsFetchResult,
} from '../../src/gate/fetch-policy.js';
import { robotsCheckFactsOf } from '../../src/gate/robots-check.js';

const T0 = Date.parse('2025-01-01T00:00:00Z');
const ORIGIN = 'https://a.example';
const URL_ = `${ORIGIN}/robots.txt`;
const unreachable = (errorCode?: 'ERR_ADDRESS_BLOCKED' | 'ERR_TIMEOUT'): RobotsFetchResult => ({
  outcome: 'unreachable',
  status: null,
  url: URL_,
  ...(errorCode !== undefined && { errorCode }),
});
const success: RobotsFetchResult = {
  outcome: 'success',
  status: 200,
  url: URL_,
  body: '',
  bodyEncoding: 'utf-8',
  truncatedAtCap: false,
};

describe('robotsCheckFactsOf', () => {
  it('gives failures and retryAt on unreachable answers only', () => {
    const first = nextRobotsCacheRecord(ORIGIN, undefined, unreachable(), T0, POLICY);
    const second = nextRobotsCacheRecord(ORIGIN, first, unreachable(), first.expiresAt, POLICY);
    expect(robotsCheckFactsOf(first, 'unreachable', undefined)).toEqual({
      failures: 1,
      retryAt: T0 + POLICY.minBackoffMs,
    });
    expect(robotsCheckFactsOf(second, 'unreachable', undefined)).toEqual({ failures: 2, retryAt: second.expiresAt });
    expect(robotsCheckFactsOf(second, 'unreachable-too-long', undefined)).toEqual({});
    expect(
      robotsCheckFactsOf(nextRobotsCacheRecord(ORIGIN, undefined, success, T0, POLICY), 'rules', undefined),
    ).toEqual({});
  });

  it('carries the fetch it is given', () => {
    const record = nextRobotsCacheRecord(ORIGIN, undefined, success, T0, POLICY);
    const fetch = { requestedAt: T0 - 5, respondedAt: T0 };
    expect(robotsCheckFactsOf(record, 'rules', fetch)).toEqual({ fetch });
  });

  it('says addressBlocked for a record whose latest fetch the SSRF guard refused, whatever the reason', () => {
    const good = nextRobotsCacheRecord(ORIGIN, undefined, success, T0, POLICY);
    const blocked = nextRobotsCacheRecord(ORIGIN, good, unreachable('ERR_ADDRESS_BLOCKED'), T0, POLICY);
    expect(robotsCheckFactsOf(blocked, 'cached', undefined)).toEqual({ addressBlocked: true });
    const timedOut = nextRobotsCacheRecord(ORIGIN, undefined, unreachable('ERR_TIMEOUT'), T0, POLICY);
    expect(robotsCheckFactsOf(timedOut, 'unreachable', undefined)).not.toHaveProperty('addressBlocked');
  });
});
