import { renderCrawlReport } from '@politely/cli';
import { describe, expect, it } from 'vitest';
import { host, hostileReport, reportData, requests } from './report-fixtures.js';

describe('renderCrawlReport', () => {
  it('is one self-contained HTML document: inline CSS and SVG, no script, no external resource', () => {
    const html = renderCrawlReport(reportData([host({ hostKey: 'a.test', label: 'alpha' })]));
    expect(html.startsWith('<!doctype html>')).toBe(true);
    expect(html).toContain('<style>');
    expect(html).toContain('<svg class="timeline"');
    expect(html).toContain('<svg class="gaps"');
    expect(html).not.toMatch(/<script|<link rel="stylesheet"|<img|\bsrc=|url\(/i);
    expect(html.match(/href="([^"#][^"]*)"/g)).toEqual(['href="data:,"']);
  });

  it('says the crawl was polite when every gap is at least its delay, host by host', () => {
    const html = renderCrawlReport(
      reportData([host({ hostKey: 'a.test', label: 'alpha' }), host({ hostKey: 'b.test' })]),
    );
    expect(html).toContain("Polite: at every one of 2 hosts, requests started at least the host's delay apart.");
    expect(html).toContain('<span class="verdict ok">✓</span>');
    expect(html).not.toContain('verdict bad');
    expect(html).toContain('250 ms ≥ 200 ms');
    expect(html).toContain('alpha <span class="key">a.test</span>');
    expect(html).toContain('<code>line 3: Disallow: /private/</code>');
    expect(html).toContain('delay kept 200 ms (Crawl-delay 0.2 s)');
    expect(html).not.toContain('class="bar short"');
  });

  it('marks a host whose gaps were shorter than its delay with ✗ and red bars', () => {
    const list = requests('http://c.test', 4, 120, 200);
    const rude = host({
      hostKey: 'c.test',
      requests: list,
      requestCount: list.length,
      gaps: { count: 3, minMs: 120, delayAtMinMs: 200, minRatio: 0.6, tooShort: 3, meanMs: 120 },
    });
    const html = renderCrawlReport(reportData([rude, host({ hostKey: 'd.test' })]));
    expect(html).toContain('<div class="banner bad">');
    expect(html).toContain('Gaps shorter than the delay at 1 host(s): c.test.');
    expect(html).toContain('3 of 3 gaps shorter than the delay');
    expect(html).toContain('120 ms &lt; 200 ms');
    expect(html.match(/class="bar short"/g)).toHaveLength(3);
  });

  it('shows robots.txt fetch outcomes, the 503 host included, and statuses, skips and the slowest hosts', () => {
    const down = host({
      hostKey: 'status.test',
      requests: requests('http://status.test', 1, 0, 200),
      requestCount: 3,
      gaps: { count: 2, minMs: 400, delayAtMinMs: 100, minRatio: 4, tooShort: 0, meanMs: 600 },
      robotsFetches: [1, 2, 3].map((n) => ({
        at: Date.UTC(2026, 0, 1) + n * 400,
        url: 'http://status.test/robots.txt',
        status: 503,
        outcome: 'unreachable',
        durationMs: 2,
      })),
      decisions: [
        {
          allowed: false,
          basis: 'robots-unreachable',
          detail: 'robots.txt 503 after 3 attempts',
          count: 1,
          examples: ['http://status.test/'],
        },
      ],
      latency: { count: 3, meanMs: 90, maxMs: 120 },
    });
    const html = renderCrawlReport(reportData([host({ hostKey: 'a.test' }), down]));
    expect(html).toContain('503 · unreachable: all disallowed (3 fetches)');
    expect(html).toContain('<span class="outcome unreachable">unreachable</span>');
    expect(html).toContain(
      'robots.txt unreachable: all disallowed <span class="muted">robots.txt 503 after 3 attempts</span>',
    );
    const slowest = html.slice(html.indexOf('<h2>Slowest hosts</h2>'), html.indexOf('<h2>Hosts</h2>'));
    expect(slowest.indexOf('status.test')).toBeLessThan(slowest.indexOf('a.test'));
    expect(html).toMatch(/<td>duplicate<\/td><td>7<\/td>/);
  });

  it('escapes every string from the web: URLs, robots.txt lines, labels, errors cannot inject markup', () => {
    const html = renderCrawlReport(hostileReport());
    for (const bad of ['<script', '<img', '<svg onload', '<iframe', '<b onmouseover', '"window', '="window'])
      expect(html).not.toContain(bad);
    expect(html).toContain('&lt;script&gt;window.__pwned=&quot;url&quot;&lt;/script&gt;');
    expect(html).toContain('Disallow: /&lt;img src=x onerror=&quot;window.__pwned=&#39;line&#39;&quot;&gt;');
    expect(html).toContain('&lt;/title&gt;&lt;script&gt;');
    expect(html).toContain(
      '<title>&lt;/title&gt;&lt;script&gt;window.__pwned=&quot;label&quot;&lt;/script&gt;</title>',
    );
  });

  it('marks an interrupted crawl and lists final errors', () => {
    const html = renderCrawlReport(
      reportData([host({ hostKey: 'a.test' })], {
        aborted: true,
        totals: {
          pages: 1,
          requests: 2,
          robotsRequests: 1,
          bytes: 10,
          errors: 1,
          retries: 0,
          queued: 42,
          durationMs: 900,
          pagesPerSecond: 1.1,
        },
        errors: [{ url: 'http://a.test/x', message: 'connect ECONNREFUSED', stage: 'fetch' }],
      }),
    );
    expect(html).toContain('Stopped before the end (interrupted): 42 URLs were still queued.');
    expect(html).toContain('<h2>Errors</h2>');
    expect(html).toContain('connect ECONNREFUSED');
  });
});
