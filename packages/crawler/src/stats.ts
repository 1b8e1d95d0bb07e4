// Counts of what a crawl did, kept as it goes and snapshotted for `done` and `run()`.

import type { PluginSkipReason, SkipReason } from './skip-reasons.js';
import type { PageChange } from './frontier/last-fetch.js';

/** What a recrawl's revisits found (`recrawl`). */
export interface RevisitCounts {
  /** URLs fetched again because they were due. */
  readonly revisited: number;
  /** Answered `304 Not Modified`. */
  readonly notModified: number;
  /** Answered in full, with the same body as last time. */
  readonly unchanged: number;
  /** Answered with another body or status. */
  readonly changed: number;
  /** Body bytes the 304s did not send: the sizes of the bodies they stood for (decoded). */
  readonly bytesSaved: number;
}

export interface RevisitStats extends RevisitCounts {
  /** The same, per politeness key (host). */
  readonly byHost: Readonly<Record<string, RevisitCounts>>;
}

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
  /** What revisits found (all zero unless `recrawl`). */
  readonly revisits: RevisitStats;
}

const NO_REVISITS: RevisitCounts = { revisited: 0, notModified: 0, unchanged: 0, changed: 0, bytesSaved: 0 };

function addRevisit(counts: RevisitCounts, change: PageChange, savedBytes: number): RevisitCounts {
  return {
    revisited: counts.revisited + 1,
    notModified: counts.notModified + (change === 'not-modified' ? 1 : 0),
    unchanged: counts.unchanged + (change === 'unchanged' ? 1 : 0),
    changed: counts.changed + (change === 'changed' ? 1 : 0),
    bytesSaved: counts.bytesSaved + savedBytes,
  };
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
  private revisits: RevisitCounts = NO_REVISITS;
  private readonly revisitsByHost = new Map<string, RevisitCounts>();
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

  /** A revisit's answer (`savedBytes`: what a 304 did not send). */
  revisit(hostKey: string, change: PageChange, savedBytes: number): void {
    this.revisits = addRevisit(this.revisits, change, savedBytes);
    this.revisitsByHost.set(hostKey, addRevisit(this.revisitsByHost.get(hostKey) ?? NO_REVISITS, change, savedBytes));
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
      revisits: { ...this.revisits, byHost: Object.fromEntries(this.revisitsByHost) },
    };
  }
}
