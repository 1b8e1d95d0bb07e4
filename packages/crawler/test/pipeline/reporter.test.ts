// CrawlReporter: every skip and error is counted in the stats, whether or not anyone listens; the
// events are built only for listeners, and every listener gets the same payload.

import { describe, expect, it } from 'vitest';
import { CrawlerEmitter, type SkipEvent } from '../../src/events.js';
import { CrawlReporter } from '../../src/reporter.js';
import { StatsRecorder } from '../../src/stats.js';

describe('CrawlReporter', () => {
  it('counts skips with no listener, and reports them once one listens', () => {
    const emitter = new CrawlerEmitter();
    const stats = new StatsRecorder();
    const reporter = new CrawlReporter(emitter, stats);
    expect(emitter.listens('skip')).toBe(false);
    reporter.skip('http://a.test/x', { reason: 'scope' });
    reporter.skip(
      'http://a.test/y',
      { reason: 'robots', detail: 'line 2: Disallow: /y', rule: { line: 2, text: 'Disallow: /y' } },
      'http://a.test/',
    );

    const heard: SkipEvent[] = [];
    const stop = emitter.on('skip', (event) => heard.push(event));
    expect(emitter.listens('skip')).toBe(true);
    reporter.skip('http://a.test/z', { reason: 'sitemap-scope' }, undefined, 'sitemap');
    stop();
    expect(emitter.listens('skip')).toBe(false);
    reporter.skip('http://a.test/w', { reason: 'scope' });

    expect(stats.snapshot(0, false).skipped).toEqual({ scope: 2, robots: 1, 'sitemap-scope': 1 });
    expect(heard).toEqual([{ url: 'http://a.test/z', reason: 'sitemap-scope', plugin: 'sitemap' }]);
  });

  it('counts an error as a retry or an error, heard or not', () => {
    const emitter = new CrawlerEmitter();
    const stats = new StatsRecorder();
    const reporter = new CrawlReporter(emitter, stats);
    reporter.error('http://a.test/x', new Error('reset'), 'fetch', 1, true);
    reporter.error('http://a.test/x', 'not an Error', 'handler', 2, false);
    const snapshot = stats.snapshot(0, false);
    expect([snapshot.retries, snapshot.errors]).toEqual([1, 1]);
  });
});
