// What the crawler has learned about each host's pace: its robots.txt crawl-delay, consecutive
// failures (backoff), and the adaptive delay. The store keeps the clock; this keeps the reasons.
// (robots.txt failures are the gate's to count: its record is shared by every worker.)

import { adaptiveDelayMs, backoffMs, hostDelayMs } from './delay.js';

export interface HostPolitenessSettings {
  readonly minDelayMs: number;
  readonly maxCrawlDelayMs: number;
  readonly backoffBaseMs: number;
  readonly backoffMaxMs: number;
  readonly adaptive: { readonly targetConcurrency: number; readonly maxDelayMs: number } | undefined;
}

interface HostPace {
  /** From robots.txt and the minimum: the floor. */
  baseDelayMs: number;
  /** The adaptive delay, when enabled. */
  adaptiveMs: number;
  failures: number;
  /** The store has been told this host's policy by this process. */
  announced: boolean;
}

/** Hosts remembered at most; the least recently touched are forgotten (they fall back to defaults). */
const MAX_HOSTS = 100_000;

export class HostPoliteness {
  private readonly hosts = new Map<string, HostPace>();

  constructor(private readonly settings: HostPolitenessSettings) {}

  /** The gap to keep before the next request to this host. */
  delayMs(hostKey: string): number {
    const pace = this.pace(hostKey);
    return Math.max(pace.baseDelayMs, pace.adaptiveMs);
  }

  /**
   * Records the robots.txt crawl-delay; returns true when the store should be told the host's
   * policy: the delay changed, or this process has not told it yet (a shared or reopened store
   * may hold another default).
   */
  learnCrawlDelay(hostKey: string, crawlDelaySeconds: number | undefined): boolean {
    const pace = this.pace(hostKey);
    const before = this.delayMs(hostKey);
    pace.baseDelayMs = hostDelayMs(crawlDelaySeconds, { minDelayMs: this.settings.minDelayMs, maxDelayMs: this.settings.maxCrawlDelayMs });
    const announce = !pace.announced || this.delayMs(hostKey) !== before;
    pace.announced = true;
    return announce;
  }

  succeeded(hostKey: string, latencyMs: number, status: number): void {
    const pace = this.pace(hostKey);
    pace.failures = 0;
    this.adapt(pace, latencyMs, status);
  }

  /** Records a failure; returns the backoff to wait before the host's next request. */
  failed(hostKey: string, latencyMs: number, status: number | null): number {
    const pace = this.pace(hostKey);
    pace.failures++;
    this.adapt(pace, latencyMs, status);
    return Math.max(this.delayMs(hostKey), backoffMs(pace.failures, { baseMs: this.settings.backoffBaseMs, maxMs: this.settings.backoffMaxMs }));
  }

  private adapt(pace: HostPace, latencyMs: number, status: number | null): void {
    const adaptive = this.settings.adaptive;
    if (adaptive === undefined) return;
    pace.adaptiveMs = adaptiveDelayMs({
      previousMs: Math.max(pace.adaptiveMs, pace.baseDelayMs),
      latencyMs,
      status,
      targetConcurrency: adaptive.targetConcurrency,
      floorMs: pace.baseDelayMs,
      ceilingMs: adaptive.maxDelayMs,
    });
  }

  private pace(hostKey: string): HostPace {
    let pace = this.hosts.get(hostKey);
    if (pace === undefined) {
      if (this.hosts.size >= MAX_HOSTS) this.hosts.delete(this.hosts.keys().next().value!);
      pace = { baseDelayMs: this.settings.minDelayMs, adaptiveMs: 0, failures: 0, announced: false };
    } else {
      this.hosts.delete(hostKey); // re-insert: Map order is our recency order
    }
    this.hosts.set(hostKey, pace);
    return pace;
  }
}
