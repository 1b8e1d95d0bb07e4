// The report's per-host "Usage preferences" section: which purposes are reserved, by which
// source, how many URLs and how many were skipped; merged across runs; escaped; absent for old data.

import { renderCrawlReport, type UsageReservationReport } from '@politely/cli';
import { describe, expect, it } from 'vitest';
import { mergeReports } from '../src/report/merge-reports.js';
import { host, reportData } from './report-fixtures.js';

const robotsLine: UsageReservationReport = {
  purpose: 'ai-train',
  kind: 'robots-content-usage',
  source: 'robots.txt line 3: Content-Usage: /x/ train-ai=n',
  count: 2,
  skipped: 2,
  examples: ['http://a.test/x/1'],
};
const header: UsageReservationReport = {
  purpose: 'tdm',
  kind: 'tdm-header',
  source: 'header tdm-reservation: 1',
  count: 1,
  skipped: 0,
  examples: ['http://a.test/h'],
};

describe('the usage section of a host', () => {
  it('lists each reserved purpose with its source, URL count and skips', () => {
    const html = renderCrawlReport(reportData([host({ hostKey: 'a.test', usage: [header, robotsLine] })]));
    expect(html).toContain('<h4>Usage preferences</h4>');
    expect(html).toContain('<code>robots.txt line 3: Content-Usage: /x/ train-ai=n</code>');
    expect(html).toContain('<span class="bad">ai-train</span>');
    expect(html).toContain('<code>header tdm-reservation: 1</code>');
    expect(html).toContain('0 (not a --purpose)');
  });

  it('says when nothing was reserved, and is absent from reports made before usage was recorded', () => {
    expect(renderCrawlReport(reportData([host({ hostKey: 'a.test', usage: [] })]))).toContain(
      'No usage reservation seen',
    );
    expect(renderCrawlReport(reportData([host({ hostKey: 'a.test' })]))).not.toContain('Usage preferences');
  });

  it('escapes what the web wrote', () => {
    const hostile = { ...header, source: 'meta <meta name="robots" content="noai"><script>' };
    const html = renderCrawlReport(reportData([host({ hostKey: 'a.test', usage: [hostile] })]));
    expect(html).not.toContain('<script>');
    expect(html).toContain('&lt;meta name=&quot;robots&quot;');
  });

  it('adds up across the runs of a resumed crawl', () => {
    const merged = mergeReports(
      reportData([host({ hostKey: 'a.test', usage: [robotsLine] })]),
      reportData([host({ hostKey: 'a.test', usage: [robotsLine, header] })]),
    );
    expect(merged.hosts[0]!.usage).toEqual([header, { ...robotsLine, count: 4, skipped: 4 }]);
  });
});
