import { renderCrawlReport } from '@politely/cli';
import { describe, expect, it } from 'vitest';
import { mergeGaps, mergeReports } from '../src/report/merge-reports.js';
import { host, reportData, requests } from './report-fixtures.js';

const T = Date.UTC(2026, 10, 23);

describe('mergeReports', () => {
  it("adds up the totals, statuses and skips of two runs, and keeps the later run's queue", () => {
    const first = reportData([host({ hostKey: 'a.test' })], {
      startedAt: T,
      totals: {
        pages: 8,
        requests: 10,
        robotsRequests: 2,
        bytes: 1000,
        errors: 1,
        retries: 2,
        queued: 30,
        durationMs: 2000,
        pagesPerSecond: 4,
      },
    });
    const second = reportData([host({ hostKey: 'a.test' }), host({ hostKey: 'b.test' })], {
      startedAt: T + 60_000,
      totals: {
        pages: 12,
        requests: 13,
        robotsRequests: 1,
        signedRequests: 13,
        bytes: 500,
        errors: 0,
        retries: 1,
        queued: 0,
        durationMs: 3000,
        pagesPerSecond: 4,
      },
    });
    const merged = mergeReports(first, second);
    expect(merged.runs).toBe(2);
    // Only the second run signed: its count stands, and a report of neither shows none.
    expect(mergeReports(first, first).totals.signedRequests).toBeUndefined();
    expect(merged.startedAt).toBe(T);
    expect(merged.totals).toEqual({
      pages: 20,
      requests: 23,
      robotsRequests: 3,
      signedRequests: 13,
      bytes: 1500,
      errors: 1,
      retries: 3,
      queued: 0,
      durationMs: 5000,
      pagesPerSecond: 4,
    });
    expect(merged.statuses).toEqual({ 200: 16 });
    expect(merged.skips).toEqual({ robots: 4, duplicate: 14 });
    expect(merged.hosts.map((h) => [h.hostKey, h.requestCount])).toEqual([
      ['a.test', 10],
      ['b.test', 5],
    ]);
    const a = merged.hosts[0]!;
    expect(a.statuses).toEqual({ 200: 10 });
    expect(a.decisions.find((d) => d.line === 3)?.count).toBe(4);
    expect(a.latency).toEqual({ count: 10, meanMs: 4, maxMs: 6 });
    expect(mergeReports(merged, second).runs).toBe(3);
  });

  it('joins gap summaries exactly: the smaller minimum with its delay, too-short gaps added, the mean weighted', () => {
    const polite = { count: 4, minMs: 250, delayAtMinMs: 200, minRatio: 1.25, tooShort: 0, meanMs: 300 };
    const rude = { count: 1, minMs: 120, delayAtMinMs: 200, minRatio: 0.6, tooShort: 1, meanMs: 120 };
    expect(mergeGaps(polite, rude)).toEqual({
      count: 5,
      minMs: 120,
      delayAtMinMs: 200,
      minRatio: 0.6,
      tooShort: 1,
      meanMs: 264,
    });
    expect(
      mergeGaps({ count: 0, minMs: null, delayAtMinMs: null, minRatio: null, tooShort: 0, meanMs: null }, polite),
    ).toEqual(polite);
  });

  it('keeps the two requests of the smaller minimum, and adds up the attempts that never reached a server', () => {
    const pair = (at: number, gapMs: number) => ({
      before: { at, kind: 'page', url: `http://a.test/${at}` },
      after: { at: at + gapMs, kind: 'page', url: `http://a.test/${at + gapMs}` },
    });
    const polite = {
      count: 4,
      minMs: 250,
      delayAtMinMs: 200,
      minRatio: 1.25,
      tooShort: 0,
      meanMs: 300,
      tightest: pair(0, 250),
    };
    const rude = {
      count: 1,
      minMs: 120,
      delayAtMinMs: 200,
      minRatio: 0.6,
      tooShort: 1,
      meanMs: 120,
      tightest: pair(9000, 120),
    };
    expect(mergeGaps(polite, rude).tightest).toEqual(pair(9000, 120));
    expect(mergeGaps(rude, polite).tightest).toEqual(pair(9000, 120));
    const first = reportData([host({ hostKey: 'a.test', unsent: 2 })]);
    const second = reportData([host({ hostKey: 'a.test', unsent: 3 })]);
    expect(mergeReports(first, second).hosts[0]?.unsent).toBe(5);
    expect(
      mergeReports(reportData([host({ hostKey: 'a.test' })]), reportData([host({ hostKey: 'a.test' })])).hosts[0],
    ).not.toHaveProperty('unsent');
  });

  it('cuts joined timelines to the cap, and the report says it covers several runs', () => {
    const many = requests('http://a.test', 4000, 250, 200);
    const one = reportData([host({ hostKey: 'a.test', requests: many, requestCount: many.length })]);
    const merged = mergeReports(one, one);
    expect(merged.hosts[0]!.requests).toHaveLength(5000);
    expect(merged.hosts[0]!.requestCount).toBe(8000);
    expect(renderCrawlReport(merged)).toContain('One crawl in 2 runs');
    expect(renderCrawlReport(one)).not.toContain('One crawl in');
  });
});
