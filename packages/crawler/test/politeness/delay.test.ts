import { retryAfterMs as coreRetryAfterMs } from '@politely/core';
import * as crawler from '@politely/crawler';
import { describe, expect, it } from 'vitest';
import { adaptiveDelayMs, backoffMs, hostDelayMs, retryAfterMs } from '../../src/politeness/delay.js';

describe('hostDelayMs', () => {
  const bounds = { minDelayMs: 250, maxDelayMs: 10_000 };
  it('is the configured minimum without a crawl-delay', () => expect(hostDelayMs(undefined, bounds)).toBe(250));
  it('follows a larger crawl-delay', () => expect(hostDelayMs(2, bounds)).toBe(2000));
  it('keeps the minimum over a smaller crawl-delay', () => expect(hostDelayMs(0.1, bounds)).toBe(250));
  it('caps the crawl-delay at the maximum', () => expect(hostDelayMs(3600, bounds)).toBe(10_000));
});

describe('retryAfterMs', () => {
  const now = Date.parse('2026-11-22T00:00:00Z');
  it('reads delay-seconds', () => expect(retryAfterMs('120', now)).toBe(120_000));
  it('reads an HTTP-date', () => expect(retryAfterMs('Sun, 22 Nov 2026 00:00:30 GMT', now)).toBe(30_000));
  it('treats a past date as now', () => expect(retryAfterMs('Sat, 21 Nov 2026 00:00:00 GMT', now)).toBe(0));
  it('ignores garbage and absence', () => {
    expect(retryAfterMs('soon', now)).toBeUndefined();
    expect(retryAfterMs(undefined, now)).toBeUndefined();
    expect(retryAfterMs('-5', now)).toBeUndefined();
    expect(retryAfterMs('Abc -3', now)).toBeUndefined();
  });
  it('is core’s one parser (the robots gate reads Retry-After with it too)', () => {
    expect(retryAfterMs).toBe(coreRetryAfterMs);
    // One import path per public name: users import it from @politely/core.
    expect('retryAfterMs' in crawler).toBe(false);
  });
});

describe('backoffMs', () => {
  const options = { baseMs: 1000, maxMs: 60_000 };
  it('doubles per failure and caps', () => {
    expect([1, 2, 3, 4].map((n) => backoffMs(n, options))).toEqual([1000, 2000, 4000, 8000]);
    expect(backoffMs(50, options)).toBe(60_000);
    expect(backoffMs(0, options)).toBe(0);
  });
});

describe('adaptiveDelayMs', () => {
  const base = { targetConcurrency: 1, floorMs: 100, ceilingMs: 5000 };
  it('moves halfway toward latency / target concurrency', () => {
    expect(adaptiveDelayMs({ ...base, previousMs: 1000, latencyMs: 200, status: 200 })).toBe(600);
  });
  it('never goes below the floor set by robots.txt and configuration', () => {
    expect(adaptiveDelayMs({ ...base, previousMs: 100, latencyMs: 1, status: 200 })).toBe(100);
  });
  it('does not shrink on errors and respects the ceiling', () => {
    expect(adaptiveDelayMs({ ...base, previousMs: 1000, latencyMs: 10, status: 503 })).toBe(1000);
    expect(adaptiveDelayMs({ ...base, previousMs: 4000, latencyMs: 20_000, status: null })).toBe(5000);
  });
});
