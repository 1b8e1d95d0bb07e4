// Report data made by hand, for the renderer's tests: a polite host, an impolite one, and
// strings from a hostile web.

import type { CrawlReportData, HostReport, ReportRequest } from '@politely/cli';

const T0 = Date.UTC(2026, 0, 1);

/** Requests every `gapMs` from `startMs`, the first one robots.txt. */
export function requests(origin: string, count: number, gapMs: number, delayMs: number, startMs = 0): ReportRequest[] {
  return Array.from({ length: count }, (_, i) =>
    i === 0
      ? { at: T0 + startMs, kind: 'robots', url: `${origin}/robots.txt`, status: 200, durationMs: 3 }
      : { at: T0 + startMs + i * gapMs, kind: 'page', url: `${origin}/p/${i}`, delayMs, status: 200, durationMs: 4 },
  );
}

export function host(overrides: Partial<HostReport> & Pick<HostReport, 'hostKey'>): HostReport {
  const origin = `http://${overrides.hostKey}`;
  const list = overrides.requests ?? requests(origin, 5, 250, 200);
  return {
    origins: [origin],
    requests: list,
    requestCount: list.length,
    delayMs: 200,
    crawlDelaySeconds: 0.2,
    gaps: { count: list.length - 1, minMs: 250, delayAtMinMs: 200, minRatio: 1.25, tooShort: 0, meanMs: 250 },
    robotsFetches: [{ at: T0, url: `${origin}/robots.txt`, status: 200, outcome: 'success', durationMs: 3 }],
    decisions: [
      {
        allowed: false,
        basis: 'rules',
        line: 3,
        text: 'Disallow: /private/',
        count: 2,
        examples: [`${origin}/private/a`],
      },
      { allowed: true, basis: 'rules', count: 4, examples: [`${origin}/p/1`] },
    ],
    statuses: { 200: 5 },
    skips: { robots: 2 },
    latency: { count: 5, meanMs: 4, maxMs: 6 },
    ...overrides,
  };
}

export function reportData(hosts: readonly HostReport[], overrides: Partial<CrawlReportData> = {}): CrawlReportData {
  return {
    title: 'politely crawl report',
    userAgent: 'TestBot/1.0 (+https://example.invalid/bot)',
    seeds: ['http://a.test/'],
    startedAt: T0,
    finishedAt: T0 + 2000,
    aborted: false,
    settings: [['--delay', '200 ms']],
    totals: {
      pages: 8,
      requests: 10,
      robotsRequests: 2,
      bytes: 12_345,
      errors: 0,
      retries: 0,
      queued: 0,
      durationMs: 2000,
      pagesPerSecond: 4,
    },
    statuses: { 200: 8 },
    skips: { robots: 2, duplicate: 7 },
    hosts,
    errors: [],
    ...overrides,
  };
}

/** Strings that would run script if they reached the page unescaped. */
export const HOSTILE = {
  url: 'http://evil.test/"><script>window.__pwned="url"</script>',
  line: 'Disallow: /<img src=x onerror="window.__pwned=\'line\'">',
  label: '</title><script>window.__pwned="label"</script>',
  hostKey: 'evil.test"><svg onload="window.__pwned=\'host\'">',
  message: "<iframe src=javascript:window.__pwned='error'></iframe>",
  outcome: '<b onmouseover=alert(1)>x</b>',
} as const;

/** A report whose every web-sourced string is hostile. */
export function hostileReport(): CrawlReportData {
  const evil = host({
    hostKey: HOSTILE.hostKey,
    label: HOSTILE.label,
    origins: [HOSTILE.url],
    requests: [
      { at: T0, kind: 'robots', url: HOSTILE.url, status: 200 },
      { at: T0 + 300, kind: HOSTILE.outcome, url: HOSTILE.url, delayMs: 200, status: null },
    ],
    robotsFetches: [
      { at: T0, url: HOSTILE.url, status: null, outcome: HOSTILE.outcome, durationMs: 1, error: HOSTILE.message },
    ],
    decisions: [
      {
        allowed: false,
        basis: HOSTILE.outcome,
        line: 1,
        text: HOSTILE.line,
        detail: HOSTILE.message,
        count: 1,
        examples: [HOSTILE.url],
      },
    ],
    statuses: { [HOSTILE.outcome]: 1 },
    skips: { [HOSTILE.label]: 1 },
  });
  return reportData([evil], {
    title: HOSTILE.label,
    userAgent: HOSTILE.label,
    seeds: [HOSTILE.url],
    settings: [[HOSTILE.label, HOSTILE.line]],
    statuses: { [HOSTILE.outcome]: 1 },
    skips: { [HOSTILE.label]: 3 },
    errors: [{ url: HOSTILE.url, message: HOSTILE.message, stage: HOSTILE.outcome }],
  });
}
