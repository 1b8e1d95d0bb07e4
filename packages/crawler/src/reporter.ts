// The one place skips and errors become events and counts: every stage reports through it, so
// `stats()` and the events always agree.

import type { CrawlerEmitter, ErrorEvent } from './events.js';
import type { SkipDetail } from './skip-reasons.js';
import type { StatsRecorder } from './stats.js';

export class CrawlReporter {
  constructor(
    private readonly emitter: CrawlerEmitter,
    private readonly stats: StatsRecorder,
  ) {}

  /** A URL that will not be fetched (or followed); `plugin` for a plugin's own reason. */
  skip(url: string, skip: SkipDetail, referrer?: string, plugin?: string): void {
    this.stats.skip(skip.reason);
    if (!this.emitter.listens('skip')) return;
    this.emitter.emit('skip', {
      url,
      reason: skip.reason,
      ...(skip.detail === undefined ? {} : { detail: skip.detail }),
      ...(skip.rule === undefined ? {} : { rule: skip.rule }),
      ...(skip.kind === undefined ? {} : { kind: skip.kind }),
      ...(referrer === undefined ? {} : { referrer }),
      ...(plugin === undefined ? {} : { plugin }),
    });
  }

  /** A failure of one URL's attempt; counted as an error only when the URL is not retried. */
  error(url: string, error: unknown, stage: ErrorEvent['stage'], attempt: number, willRetry: boolean): void {
    this.stats.failure(stage, willRetry);
    const wrapped = error instanceof Error ? error : new Error(String(error));
    this.emitter.emit('error', { url, error: wrapped, attempt, willRetry, stage });
  }
}
