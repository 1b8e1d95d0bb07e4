// Counts of what a crawl did, kept as it goes and snapshotted for `done` and `run()`.

import type { PageChange } from '@politely/frontier';
import { type CrawlMetrics, NO_METRICS } from './metrics/crawl-metrics.js';
import type { PluginSkipReason, SkipReason } from './skip-reasons.js';

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

/** Revisits' counts for the whole crawl and by host. */
export interface RevisitStats extends RevisitCounts {
  /** The same, per politeness key (host). */
  readonly byHost: Readonly<Record<string, RevisitCounts>>;
}

/** Why a rendered page's request was not sent (`render`). */
export type RenderRefusal =
  /** robots.txt of its origin disallows it (also a `robots` skip, of kind `sub-resource`). */
  | 'robots'
  /** Its origin's robots.txt stayed unreachable. */
  | 'robots-unreachable'
  /** Its host resolves to an address the crawl does not allow (the address guard). */
  | 'blocked-address'
  /** Its resource type is one the crawl does not load (`renderBlockResourceTypes`). */
  | 'resource-type'
  /** A method other than GET and HEAD. */
  | 'method'
  /** A WebSocket: never opened. */
  | 'websocket'
  /** Neither http nor https. */
  | 'scheme'
  /** Sent, but no answer came (network error, timeout, a body past `maxBodyBytes`). */
  | 'failed';

/** What rendering cost one host, or the crawl (`render`). */
export interface RenderCounts {
  /** Pages of the host loaded in the browser (each one request: the crawler's own page fetch). */
  readonly pageLoads: number;
  /** Requests rendered pages made to the host that the crawler sent (scripts, API calls, frames, …). */
  readonly subRequests: number;
  /** Requests rendered pages asked of the host that the crawl's cache answered, fresh, without a request. */
  readonly fromCache: number;
  /** Requests rendered pages asked of the host that were not sent, by why. */
  readonly refused: Readonly<Partial<Record<RenderRefusal, number>>>;
}

/** Rendering's counts for the whole crawl and by host. */
export interface RenderStats extends RenderCounts {
  /** The same, per politeness key (host). */
  readonly byHost: Readonly<Record<string, RenderCounts>>;
}

/**
 * What a crawl did, returned by `run()` and sent with the `done` event: pages, requests, statuses,
 * skips by reason, errors, bytes, time, revisits and rendering.
 */
export interface CrawlStats {
  /** Pages fetched (final responses, any status). */
  readonly pages: number;
  /** HTTP requests made, robots.txt requests included. */
  readonly requests: number;
  /** robots.txt requests among them. */
  readonly robotsRequests: number;
  /**
   * Requests sent signed (Web Bot Auth, `signing`), every kind and every retry included: all of
   * them with `sign: 'always'`, those to challenging hosts with `'on-challenge'`, 0 without signing.
   */
  readonly signedRequests: number;
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
  /** The crawl was stopped before its end: by `crawler.stop()`, its AbortSignal or a fatal error. */
  readonly aborted: boolean;
  /**
   * URLs the stop cut short: in flight when `stopGraceMs` ran out (or at a second `stop()`, an
   * abort of the signal, a fatal error). Their requests were aborted and their URLs released
   * back to the store unfinished, so the next run fetches them again.
   */
  readonly releasedAtStop: number;
  /** What revisits found (all zero unless `recrawl`). */
  readonly revisits: RevisitStats;
  /** What rendering did (all zero unless `render`): sub-requests count in `requests` too. */
  readonly rendering: RenderStats;
}

interface MutableRenderCounts {
  pageLoads: number;
  subRequests: number;
  fromCache: number;
  refused: Partial<Record<RenderRefusal, number>>;
}

const noRenders = (): MutableRenderCounts => ({ pageLoads: 0, subRequests: 0, fromCache: 0, refused: {} });
const copyRenders = (counts: MutableRenderCounts): RenderCounts => ({ ...counts, refused: { ...counts.refused } });

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
  signedRequests = 0;
  errors = 0;
  retries = 0;
  bytes = 0;
  releasedAtStop = 0;
  readonly byStatus: Record<string, number> = {};
  readonly skipped: Record<string, number> = {};
  private revisits: RevisitCounts = NO_REVISITS;
  private readonly revisitsByHost = new Map<string, RevisitCounts>();
  private readonly renders = noRenders();
  private readonly rendersByHost = new Map<string, MutableRenderCounts>();
  /** When `run()` started (construction until then); stats count from it. */
  private startedAt = Date.now();
  /** When `run()` ended; the clock of the stats stops there. */
  private finishedAt: number | undefined;
  /** The same counts as metrics (OpenTelemetry, `meterProvider`): recording nothing until the crawler sets its own. */
  metrics: CrawlMetrics = NO_METRICS;

  /** The crawl starts now: its store's counts are observed while it runs. */
  start(now = Date.now()): void {
    this.startedAt = now;
    this.finishedAt = undefined;
    this.metrics.observe();
  }

  /** The crawl ended now. */
  finish(now = Date.now()): void {
    this.finishedAt = now;
    this.metrics.stopObserving();
  }

  /** An HTTP request of `kind` starts (a page, robots.txt, a sitemap, a rendered page's sub-resource, tdmrep.json). */
  request(kind: string): void {
    this.requests++;
    if (kind === 'robots') this.robotsRequests++;
    this.metrics.request(kind);
  }

  /** A request went out signed (Web Bot Auth). */
  signed(): void {
    this.signedRequests++;
    this.metrics.signedRequest();
  }

  /** A page's final response. */
  response(status: number, bytes: number): void {
    this.pages++;
    this.bytes += bytes;
    this.byStatus[status] = (this.byStatus[status] ?? 0) + 1;
    this.metrics.received(bytes, 'page');
  }

  /** A rendered page's sub-request was answered with `bytes`. */
  subResourceReceived(bytes: number): void {
    this.bytes += bytes;
    this.metrics.received(bytes, 'sub-resource');
  }

  /** A failed attempt: retried, or failed for good (an error). */
  failure(stage: string, willRetry: boolean): void {
    if (willRetry) this.retries++;
    else this.errors++;
    this.metrics.error(stage, willRetry);
  }

  /** A revisit's answer (`savedBytes`: what a 304 did not send). */
  revisit(hostKey: string, change: PageChange, savedBytes: number): void {
    this.revisits = addRevisit(this.revisits, change, savedBytes);
    this.revisitsByHost.set(hostKey, addRevisit(this.revisitsByHost.get(hostKey) ?? NO_REVISITS, change, savedBytes));
  }

  /** A page of `hostKey` loaded in the browser. */
  renderPageLoad(hostKey: string): void {
    this.metrics.renderPageLoad();
    this.renders.pageLoads++;
    this.rendersOf(hostKey).pageLoads++;
  }

  /** A rendered page's request to `hostKey`, sent. */
  renderSubRequest(hostKey: string): void {
    this.metrics.renderSubRequest('sent');
    this.renders.subRequests++;
    this.rendersOf(hostKey).subRequests++;
  }

  /** A rendered page's request to `hostKey`, answered by the crawl's cache. */
  renderFromCache(hostKey: string): void {
    this.metrics.renderSubRequest('from-cache');
    this.renders.fromCache++;
    this.rendersOf(hostKey).fromCache++;
  }

  /** A rendered page's request to `hostKey`, not sent. */
  renderRefused(hostKey: string, why: RenderRefusal): void {
    this.metrics.renderSubRequest('refused', why);
    this.renders.refused[why] = (this.renders.refused[why] ?? 0) + 1;
    const host = this.rendersOf(hostKey);
    host.refused[why] = (host.refused[why] ?? 0) + 1;
  }

  private rendersOf(hostKey: string): MutableRenderCounts {
    let counts = this.rendersByHost.get(hostKey);
    if (counts === undefined) this.rendersByHost.set(hostKey, (counts = noRenders()));
    return counts;
  }

  skip(reason: SkipReason | PluginSkipReason): void {
    this.skipped[reason] = (this.skipped[reason] ?? 0) + 1;
    this.metrics.skip(reason);
  }

  snapshot(queued: number, aborted: boolean): CrawlStats {
    const finishedAt = this.finishedAt ?? Date.now();
    const durationMs = finishedAt - this.startedAt;
    return {
      pages: this.pages,
      requests: this.requests,
      robotsRequests: this.robotsRequests,
      signedRequests: this.signedRequests,
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
      releasedAtStop: this.releasedAtStop,
      revisits: { ...this.revisits, byHost: Object.fromEntries(this.revisitsByHost) },
      rendering: {
        ...copyRenders(this.renders),
        byHost: Object.fromEntries([...this.rendersByHost].map(([host, counts]) => [host, copyRenders(counts)])),
      },
    };
  }
}
