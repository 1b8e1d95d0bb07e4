// What a crawl has done so far, for the progress display and the status lines: the crawler's
// counts, the frontier's, and a recent rate of pages per second.

import type { Crawler } from '@politely/crawler';

export interface LiveStatus {
  readonly pages: number;
  readonly requests: number;
  readonly errors: number;
  readonly queued: number;
  readonly inFlight: number;
  /** Hosts with URLs queued or in flight. */
  readonly activeHosts: number;
  /** Pages per second over the last few seconds. */
  readonly rate: number;
  readonly elapsedMs: number;
  readonly skipped: Readonly<Record<string, number>>;
}

/** How far back the rate looks. */
const RATE_WINDOW_MS = 5000;

export class LiveStatusReader {
  private readonly samples: { at: number; pages: number }[] = [];

  constructor(
    private readonly crawler: Crawler,
    private readonly startedAt: number,
  ) {}

  async read(): Promise<LiveStatus> {
    const stats = this.crawler.stats();
    const counts = await this.crawler.store
      .counts()
      .catch(() => ({ queued: 0, inFlight: 0, done: 0, failed: 0, activeHosts: 0 }));
    const now = Date.now();
    this.samples.push({ at: now, pages: stats.pages });
    while (this.samples.length > 2 && (this.samples[0]?.at ?? now) < now - RATE_WINDOW_MS) this.samples.shift();
    const first = this.samples[0] ?? { at: this.startedAt, pages: 0 };
    const span = now - first.at;
    const rate = span >= 500 ? ((stats.pages - first.pages) * 1000) / span : 0;
    const skipped: Record<string, number> = {};
    for (const [reason, n] of Object.entries(stats.skipped)) if (n !== undefined) skipped[reason] = n;
    return {
      pages: stats.pages,
      requests: stats.requests,
      errors: stats.errors,
      queued: counts.queued,
      inFlight: counts.inFlight,
      activeHosts: counts.activeHosts,
      rate,
      elapsedMs: now - this.startedAt,
      skipped,
    };
  }
}

/** `robots 3 · nofollow 25` (duplicates left out: every crawl has many). */
export function skipsText(skipped: Readonly<Record<string, number>>, separator = ' · '): string {
  const entries = Object.entries(skipped)
    .filter(([reason]) => reason !== 'duplicate')
    .sort((a, b) => b[1] - a[1]);
  return entries.length === 0 ? 'none' : entries.map(([reason, n]) => `${reason} ${n}`).join(separator);
}

/** `1:05` or `12.3s`. */
export function elapsedText(ms: number): string {
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)}s`;
  const s = Math.floor(ms / 1000);
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`;
}
