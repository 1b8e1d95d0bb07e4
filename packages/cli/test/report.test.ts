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
    expect(html).toContain(
      "Polite: at every one of 2 hosts, requests reached the server at least the host's delay apart",
    );
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
    expect(html).toContain('Gaps shorter than the delay at 1 host(s): <a href="#host-1">c.test</a>.');
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

  it('shows every host the verdict names in full, with the two requests of its gap, among many hosts', () => {
    const T0 = Date.UTC(2026, 0, 1);
    const busy = Array.from({ length: 30 }, (_, i) => host({ hostKey: `busy${i + 1}.test` }));
    // robots.txt only, both attempts written and then reset: not crawled, and impolite.
    const reset = host({
      hostKey: 'reset.test',
      requests: [
        { at: T0, sentAt: T0 + 1, kind: 'robots', url: 'http://reset.test/robots.txt', status: null },
        { at: T0 + 90, sentAt: T0 + 91, kind: 'robots', url: 'https://reset.test/robots.txt', status: null },
      ],
      requestCount: 2,
      gaps: {
        count: 1,
        minMs: 90,
        delayAtMinMs: 200,
        minRatio: 0.45,
        tooShort: 1,
        meanMs: 90,
        tightest: {
          before: { at: T0 + 1, kind: 'robots', url: 'http://reset.test/robots.txt' },
          after: { at: T0 + 91, kind: 'robots', url: 'https://reset.test/robots.txt' },
        },
      },
      robotsFetches: [
        {
          at: T0 + 1,
          url: 'http://reset.test/robots.txt',
          status: null,
          outcome: 'unreachable',
          durationMs: 1,
          error: 'ECONNRESET',
        },
        {
          at: T0 + 91,
          url: 'https://reset.test/robots.txt',
          status: null,
          outcome: 'unreachable',
          durationMs: 1,
          error: 'ECONNRESET',
        },
      ],
      decisions: [],
      statuses: {},
      skips: {},
    });
    // The quietest crawled host: past the 25 busiest, and impolite.
    const quiet = host({
      hostKey: 'quiet.test',
      requests: requests('http://quiet.test', 2, 50, 200),
      requestCount: 2,
      gaps: {
        count: 1,
        minMs: 50,
        delayAtMinMs: 200,
        minRatio: 0.25,
        tooShort: 1,
        meanMs: 50,
        tightest: {
          before: { at: T0, kind: 'robots', url: 'http://quiet.test/robots.txt' },
          after: { at: T0 + 50, kind: 'page', url: 'http://quiet.test/p/1' },
        },
      },
    });
    // Attempts that never reached a server: no gap, so no ✗; grouped by why.
    const dead = host({
      hostKey: 'dead.test',
      requests: [0, 10, 20].map((ms) => ({
        at: T0 + ms,
        kind: 'robots',
        url: 'http://dead.test/robots.txt',
        status: null,
      })),
      requestCount: 3,
      unsent: 3,
      gaps: { count: 0, minMs: null, delayAtMinMs: null, minRatio: null, tooShort: 0, meanMs: null },
      robotsFetches: [0, 10, 20].map((ms) => ({
        at: T0 + ms,
        url: 'http://dead.test/robots.txt',
        status: null,
        outcome: 'unreachable',
        durationMs: 1,
        error: 'cannot resolve dead.test: getaddrinfo ENOTFOUND dead.test',
      })),
      decisions: [],
      statuses: {},
      skips: {},
    });
    const html = renderCrawlReport(reportData([...busy, reset, quiet, dead]));

    const banner = /Gaps shorter than the delay at 2 host\(s\): (.*?)\.<small>/.exec(html)?.[1] ?? '';
    const named = [...banner.matchAll(/<a href="#([^"]+)">([^<]+)<\/a>/g)].map((m) => [m[1], m[2]]);
    expect(named.map(([, name]) => name).sort()).toEqual(['quiet.test', 'reset.test']);
    for (const [id, name] of named) {
      const start = html.indexOf(`<section class="host" id="${id}">`);
      expect(start).toBeGreaterThan(0);
      const section = html.slice(start, html.indexOf('</section>', start));
      expect(section).toContain(name);
      const pair = (name === 'reset.test' ? reset : quiet).gaps.tightest!;
      expect(section).toContain(`<span class="url">${pair.before.url}</span> sent at +`);
      expect(section).toContain(`<span class="url">${pair.after.url}</span> sent at +`);
      expect(section).toContain('<p class="tightest bad">Tightest gap');
    }
    expect(html.match(/<section class="host"/g)).toHaveLength(27);
    expect(html).toMatch(/host name not found<\/span><\/td><td>1<\/td><td>dead\.test/);
    expect(html).not.toContain('id="host-33"'); // dead.test has its group's row, not a section
  });

  it('draws gaps only between requests that reached the server, from when they were written', () => {
    const T0 = Date.UTC(2026, 0, 1);
    const tried = host({
      hostKey: 'tried.test',
      requests: [
        { at: T0, sentAt: T0 + 5, kind: 'robots', url: 'http://tried.test/robots.txt', status: 200 },
        // Two attempts a few ms apart, both refused before anything was written.
        { at: T0 + 100, kind: 'page', url: 'http://tried.test/a', delayMs: 200, status: null },
        { at: T0 + 104, kind: 'page', url: 'http://tried.test/b', delayMs: 200, status: null },
        { at: T0 + 300, sentAt: T0 + 305, kind: 'page', url: 'http://tried.test/c', delayMs: 200, status: 200 },
      ],
      requestCount: 4,
      unsent: 2,
      gaps: { count: 1, minMs: 300, delayAtMinMs: 200, minRatio: 1.5, tooShort: 0, meanMs: 300 },
    });
    const html = renderCrawlReport(reportData([tried]));
    expect(html).not.toContain('class="bar short"');
    expect(html.match(/class="bar"/g)).toHaveLength(1);
    expect(html).toContain('gap 1: 300 ms before http://tried.test/c; delay 200 ms');
    expect(html).toContain('2 never reached the server (failed before being sent: no gap measured)');
    expect(html).toContain('network error before it was sent: no gap');
    expect(html).toContain('<div class="banner ok">');
  });
});
