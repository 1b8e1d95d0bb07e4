// The crawl's loop: claim the next URL of a ready host, hand it to a worker, sleep until a
// host's clock comes round or something happens. Nothing else.
//
// Global concurrency is the loop's own count of requests in flight against the limit
// (concurrency-governor.ts: `concurrency`, fewer while the process cannot keep up). Per-host pacing is the store's: its claim answers only
// with a URL of a host that is ready now, or with when the next host will be (docs/architecture.md).
// With a store that can (`completeAndClaim`: Redis), a page's completion claims for the slot it
// frees in its own round trip (`claimForSettle`, `dispatchClaimed`), a moment ahead if need be
// (its own host is ready a millisecond after its response at the earliest); the loop claims the rest.

import type { CompletionClaimRequest, FrontierLease, FrontierStore } from '@politely/frontier';
import type { ConcurrencyLimit } from './concurrency-governor.js';
import { sleepUntil } from './politeness/index.js';

/**
 * How far ahead a completion's claim may take a host (`CompletionClaimRequest.readyBy`). The
 * finished URL's own host has its clock set from the response's head plus a millisecond's grain
 * (and its delay), so at a short delay it is ready a moment after the completion is sent: taken
 * then, its next URL costs no round trip of its own. Its lease waits in the slot until the host's
 * clock (`FrontierLease.startAt`), never longer than this.
 */
export const SETTLE_CLAIM_AHEAD_MS = 5;

export interface ClaimLoopSettings {
  readonly store: FrontierStore;
  /** Walks one claimed URL through the pipeline and settles its lease; never rejects. */
  readonly process: (lease: FrontierLease) => Promise<void>;
  /** Requests in flight at most, over every host, now (`concurrency`, `adaptiveConcurrency`). */
  readonly limit: ConcurrencyLimit;
  /** How long a claim holds its URL before another worker may take it (`leaseMs`). */
  readonly leaseMs: number;
  /** Page fetches started so far, and the budget (`maxPages`). */
  readonly pageBudget: { readonly started: number; readonly max: number };
  /** Moves URLs due for a revisit back to the queues; resolves with how many. */
  readonly reopenDue: () => Promise<number>;
  /** Stops the loop at once (an abort, a fatal error): the pipeline aborts what is in flight. */
  readonly signal: AbortSignal;
  /** Stops claiming (`stop()`): what is in flight ends as it will, and the loop waits for it. */
  readonly stopping: AbortSignal;
  /** While true (`pause()`), nothing is claimed; `notify()` after it turns false. */
  readonly paused: () => boolean;
}

export class ClaimLoop {
  private wake: (() => void) | null = null;
  /** URLs claimed and not yet settled. */
  private inFlight = 0;
  /** Of them, pages (plugin resources, such as sitemaps, do not count against maxPages). */
  private inFlightPages = 0;
  /** Resolves `allSettled()` once `inFlight` is back to 0. */
  private idle: (() => void) | null = null;
  /** True while the loop claims: a settle may claim for the loop only then. */
  private claiming = false;

  constructor(private readonly settings: ClaimLoopSettings) {}

  /** Claims until nothing is left, the budget is spent or a signal fires; resolves once no URL is in flight. */
  async run(): Promise<void> {
    const { limit } = this.settings;
    limit.start(() => this.notify());
    try {
      await this.claimUntilDone();
    } finally {
      // Whatever ended the loop, the URLs in flight are handed back or settled before run() returns.
      await this.allSettled();
      limit.stop();
    }
  }

  private settleIdle(): void {
    const idle = this.idle;
    this.idle = null;
    idle?.();
  }

  /** Resolves once no URL is in flight. */
  private allSettled(): Promise<void> {
    if (this.inFlight === 0) return Promise.resolve();
    return new Promise((resolve) => {
      this.idle = resolve;
    });
  }

  /** Wakes the loop: a URL settled, URLs arrived, or the crawl stops. */
  notify(): void {
    this.wake?.();
  }

  /**
   * The claim a settle may make for the loop, in its own round trip to the store
   * (`FrontierStore.completeAndClaim`), for the slot its URL frees; undefined when the loop would
   * not claim once that URL is done (stopping, paused, over the limit or the page budget). The
   * settling URL still counts in flight here, so the test is the loop's own, one URL early. It
   * may take a host up to SETTLE_CLAIM_AHEAD_MS ahead (`readyBy`).
   */
  claimForSettle(): CompletionClaimRequest | undefined {
    const { limit, leaseMs, pageBudget, signal, stopping } = this.settings;
    if (!this.claiming || signal.aborted || stopping.aborted || this.settings.paused()) return undefined;
    if (this.inFlight > limit.current || pageBudget.started + this.inFlightPages >= pageBudget.max) return undefined;
    const now = Date.now();
    return { now, leaseMs, readyBy: now + SETTLE_CLAIM_AHEAD_MS };
  }

  /**
   * Takes a lease a settle claimed for the loop (`claimForSettle`): dispatched at once, as a lease
   * the loop claimed itself is, in the slot the settling URL is about to free.
   */
  dispatchClaimed(lease: FrontierLease): void {
    this.dispatch(lease);
  }

  private dispatch(lease: FrontierLease): void {
    const isPage = lease.entry.kind === undefined || lease.entry.kind === 'page';
    this.inFlight++;
    if (isPage) this.inFlightPages++;
    const walked = lease.startAt === undefined ? this.settings.process(lease) : this.processAt(lease, lease.startAt);
    void walked.finally(() => {
      this.inFlight--;
      if (isPage) this.inFlightPages--;
      if (this.inFlight === 0) this.settleIdle();
      this.notify();
    });
  }

  /**
   * A lease claimed ahead: nothing of it (robots.txt included) before its host's clock. A stop or
   * an abort ends the wait at once, and the walk then hands the URL back.
   */
  private async processAt(lease: FrontierLease, startAt: number): Promise<void> {
    const { signal, stopping } = this.settings;
    // Bounded: each sleep ends at startAt or on a signal; a timer that fires a moment early sleeps again.
    while (Date.now() < startAt && !signal.aborted && !stopping.aborted) await sleepUntil(startAt, [signal, stopping]);
    return this.settings.process(lease);
  }

  private async claimUntilDone(): Promise<void> {
    this.claiming = true;
    try {
      await this.claimLoop();
    } finally {
      this.claiming = false;
    }
  }

  private async claimLoop(): Promise<void> {
    const { store, limit, leaseMs, pageBudget, signal, stopping } = this.settings;
    while (!signal.aborted && !stopping.aborted) {
      if (this.settings.paused()) {
        // Paused: requests in flight end as they will; nothing new until resume() (or a stop) wakes the loop.
        await this.sleep(Infinity);
        continue;
      }
      const budgetUsed = pageBudget.started + this.inFlightPages >= pageBudget.max;
      if (this.inFlight >= limit.current || budgetUsed) {
        if (this.inFlight === 0) break;
        await this.sleep(Infinity);
        continue;
      }
      const result = await store.claim({ now: Date.now(), leaseMs });
      if (result.lease !== null) {
        this.dispatch(result.lease);
        continue;
      }
      if (result.nextReadyAt === null && this.inFlight === 0) {
        // Nothing left, unless a sitemap read during the crawl made more URLs due (a newer lastmod).
        if ((await this.settings.reopenDue()) > 0) continue;
        break;
      }
      await this.sleep(result.nextReadyAt === null ? Infinity : result.nextReadyAt - Date.now());
    }
  }

  /** Sleeps until `ms` pass or something happens (a task ends, URLs arrive, the crawl stops). */
  private sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = Number.isFinite(ms) ? setTimeout(() => this.notify(), Math.max(0, ms)) : undefined;
      this.wake = () => {
        if (timer !== undefined) clearTimeout(timer);
        this.wake = null;
        resolve();
      };
    });
  }
}
