import { describe, expect, it } from 'vitest';
import { HostPoliteness } from '../../src/politeness/host-politeness.js';

const settings = {
  minDelayMs: 250,
  maxCrawlDelayMs: 30_000,
  backoffBaseMs: 1000,
  backoffMaxMs: 60_000,
  adaptive: undefined,
};

describe('HostPoliteness: a key shared by several origins', () => {
  it('keeps the largest crawl-delay any origin on the key asks for, and follows an origin that changes its own', () => {
    const politeness = new HostPoliteness(settings);
    expect(politeness.learnCrawlDelay('10.0.0.1', 'http://a.test', 1)).toBe(true);
    expect(politeness.delayMs('10.0.0.1')).toBe(1000);
    expect(politeness.learnCrawlDelay('10.0.0.1', 'http://b.test', 3)).toBe(true);
    expect(politeness.delayMs('10.0.0.1')).toBe(3000);
    // a.test again, unchanged: the key keeps b.test's 3 s, and the store need not be told.
    expect(politeness.learnCrawlDelay('10.0.0.1', 'http://a.test', 1)).toBe(false);
    expect(politeness.delayMs('10.0.0.1')).toBe(3000);
    // An origin without a crawl-delay adds only the minimum.
    expect(politeness.learnCrawlDelay('10.0.0.1', 'https://c.test', undefined)).toBe(false);
    expect(politeness.delayMs('10.0.0.1')).toBe(3000);
    // b.test lowers its own: the largest left is a.test's.
    expect(politeness.learnCrawlDelay('10.0.0.1', 'http://b.test', 0.5)).toBe(true);
    expect(politeness.delayMs('10.0.0.1')).toBe(1000);
    // Another key is not touched.
    expect(politeness.delayMs('10.0.0.2')).toBe(250);
  });

  it('backs the whole key off on a failure of any origin on it', () => {
    const politeness = new HostPoliteness(settings);
    politeness.learnCrawlDelay('example.test', 'http://a.example.test', undefined);
    politeness.learnCrawlDelay('example.test', 'http://b.example.test', undefined);
    expect(politeness.failed('example.test', 10, 503)).toBe(1000);
    expect(politeness.failed('example.test', 10, 503)).toBe(2000);
    politeness.succeeded('example.test', 10, 200);
    expect(politeness.failed('example.test', 10, 503)).toBe(1000);
  });
});
