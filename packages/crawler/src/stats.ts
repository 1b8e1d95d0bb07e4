// Counts of what a crawl did, kept as it goes and snapshotted for `done` and `run()`.

import type { PluginSkipReason, SkipReason } from './skip-reasons.js';

export interface CrawlStats {
  /** Pages fetched (final responses, any status). */
  readonly pages: number;
  /** HTTP requests made, robots.txt requests included. */
  readonly requests: number;
  /** robots.txt requests among them. */
  readonly robotsRequests: number;
  /** Responses by status code. */
  readonly byStatus: Readonly<Record<string, number>>;
  /** Skips by reason (the reasons that occurred; a plugin's too). */
  readonly skipped: Readonly<Record<string, number>>;
  /** URLs that failed for good (after retries), and handler errors. */
  readonly errors: number;
  /** Attempts that were retried. */
  readonly retries: number;
  /** Body bytes received (decoded). */
  readonly bytes: number;
  /** URLs still queued when the crawl ended (kept in the store). */
  readonly queued: number;
  readonly startedAt: number;
  readonly finishedAt: number;
  readonly durationMs: number;
  readonly pagesPerSecond: number;
  /** The crawl was stopped by its AbortSignal. */
  readonly aborted: boolean;
}

export class StatsRecorder {
  pages = 0;
  requests = 0;
  robotsRequests = 0;
  errors = 0;
  retries = 0;
  bytes = 0;
  readonly byStatus: Record<string, number> = {};
  readonly skipped: Record<string, number> = {};
  /** When `run()` started (construction until then); stats count from it. */
  private startedAt = Date.now();
  /** When `run()` ended; the clock of the stats stops there. */
  private finishedAt: number | undefined;

  /** The crawl starts now. */
  start(now = Date.now()): void {
    this.startedAt = now;
    this.finishedAt = undefined;
  }

  /** The crawl ended now. */
  finish(now = Date.now()): void {
    this.finishedAt = now;
  }

  response(status: number, bytes: number): void {
    this.pages++;
    this.bytes += bytes;
    this.byStatus[status] = (this.byStatus[status] ?? 0) + 1;
  }

  skip(reason: SkipReason | PluginSkipReason): void {
    this.skipped[reason] = (this.skipped[reason] ?? 0) + 1;
  }

  snapshot(queued: number, aborted: boolean): CrawlStats {
    const finishedAt = this.finishedAt ?? Date.now();
    const durationMs = finishedAt - this.startedAt;
    return {
      pages: this.pages,
      requests: this.requests,
      robotsRequests: this.robotsRequests,
      byStatus: { ...this.byStatus },
      skipped: { ...this.skipped },
      errors: this.errors,
      retries: this.retries,
      bytes: this.bytes,
      queued,
      startedAt: this.startedAt,
      finishedAt,
      durationMs,
      pagesPerSecond: durationMs > 0 ? (this.pages * 1000) / durationMs : 0,
      aborted,
    };
  }
}
