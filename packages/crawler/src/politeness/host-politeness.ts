// What the crawler has learned about each host's pace: its robots.txt crawl-delay, consecutive
// failures (backoff), and the adaptive delay. The store keeps the clock; this keeps the reasons.
// (robots.txt failures are the gate's to count: its record is shared by every worker.)
//
// A "host" here is a politeness key (`politenessKey`): a host name, a registrable domain or an
// address, which several origins may share. robots.txt stays per origin, so each origin's
// crawl-delay is kept, and the key keeps the largest: no origin on it is asked more often than it
// allows. Retry-After and backoff hold the whole key: one server, one pause.

import { adaptiveDelayMs, backoffMs, hostDelayMs } from './delay.js';

export interface HostPolitenessSettings {
  readonly minDelayMs: number;
  readonly maxCrawlDelayMs: number;
  readonly backoffBaseMs: number;
  readonly backoffMaxMs: number;
  readonly adaptive: { readonly targetConcurrency: number; readonly maxDelayMs: number } | undefined;
}

interface HostPace {
  /** From robots.txt and the minimum: the floor (the largest of its origins' delays). */
  baseDelayMs: number;
  /** Each origin's delay from its robots.txt and the minimum. */
  readonly originDelays: Map<string, number>;
  /** The adaptive delay, when enabled. */
  adaptiveMs: number;
  failures: number;
  /** The store has been told this host's policy by this process. */
  announced: boolean;
}

/** Hosts remembered at most; the least recently touched are forgotten (they fall back to defaults). */
const MAX_HOSTS = 100_000;
/** Origins remembered per key; past it the least recently learned is forgotten (its delay with it). */
const MAX_ORIGINS_PER_KEY = 1024;

export class HostPoliteness {
  private readonly hosts = new Map<string, HostPace>();

  constructor(private readonly settings: HostPolitenessSettings) {}

  /** The gap to keep before the next request to this host. */
  delayMs(hostKey: string): number {
    const pace = this.pace(hostKey);
    return Math.max(pace.baseDelayMs, pace.adaptiveMs);
  }

  /**
   * Records `origin`'s robots.txt crawl-delay; returns true when the store should be told the
   * host's policy: its delay changed, or this process has not told it yet (a shared or reopened
   * store may hold another default).
   */
  learnCrawlDelay(hostKey: string, origin: string, crawlDelaySeconds: number | undefined): boolean {
    const pace = this.pace(hostKey);
    const before = this.delayMs(hostKey);
    const delay = hostDelayMs(crawlDelaySeconds, {
      minDelayMs: this.settings.minDelayMs,
      maxDelayMs: this.settings.maxCrawlDelayMs,
    });
    const known = pace.originDelays.get(origin);
    if (known !== delay) {
      pace.originDelays.delete(origin);
      if (pace.originDelays.size >= MAX_ORIGINS_PER_KEY)
        pace.originDelays.delete(pace.originDelays.keys().next().value!);
      pace.originDelays.set(origin, delay);
      pace.baseDelayMs = Math.max(this.settings.minDelayMs, ...pace.originDelays.values());
    }
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
    return Math.max(
      this.delayMs(hostKey),
      backoffMs(pace.failures, { baseMs: this.settings.backoffBaseMs, maxMs: this.settings.backoffMaxMs }),
    );
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
      pace = {
        baseDelayMs: this.settings.minDelayMs,
        originDelays: new Map(),
        adaptiveMs: 0,
        failures: 0,
        announced: false,
      };
    } else {
      this.hosts.delete(hostKey); // re-insert: Map order is our recency order
    }
    this.hosts.set(hostKey, pace);
    return pace;
  }
}
