// The turn stage, between the gates and the fetch: what the robots check did to the host's clock,
// and whether this claim may still make its request. The store's claim already waited for the
// host's clock; what can still stand in the way is known only after the claim.

import type { RobotsCheck } from '@politely/core';
import type { FrontierEntry, FrontierStore } from '@politely/frontier';
import type { ResolvedCrawlerOptions } from '../../options.js';
import { type ClockChange, clockAfterRobots, type HostPoliteness } from '../../politeness/index.js';
import type { ReleaseReason } from '../outcome.js';
import type { CrawlServices } from '../services.js';

export interface TurnStageSettings {
  readonly politeness: HostPoliteness;
  readonly store: FrontierStore;
  readonly perHostConcurrency: number;
}

export function settingsFrom(options: ResolvedCrawlerOptions, services: CrawlServices): TurnStageSettings {
  return { politeness: services.politeness, store: services.store, perHostConcurrency: options.perHostConcurrency };
}

/**
 * Learns the host's crawl-delay from the check (telling the store when it changed) and returns
 * the clock for the host if the claim ends here: run from the robots.txt response when the check
 * fetched it, else handed back as the claim found it.
 */
export async function paceAfterRobots(
  entry: FrontierEntry,
  check: RobotsCheck,
  previousReadyAt: number,
  settings: TurnStageSettings,
): Promise<ClockChange> {
  const { politeness, store } = settings;
  if (politeness.learnCrawlDelay(entry.hostKey, originOf(entry.url), check.crawlDelay)) {
    await store.setHostPolicy(entry.hostKey, {
      delayMs: politeness.delayMs(entry.hostKey),
      maxInFlight: settings.perHostConcurrency,
    });
  }
  return clockAfterRobots(check.fetch, politeness.delayMs(entry.hostKey), previousReadyAt);
}

/** The origin of a canonical URL (`scheme://host[:port]` before its path), without parsing it again: this runs for every claim. */
function originOf(canonicalUrl: string): string {
  const pathAt = canonicalUrl.indexOf('/', canonicalUrl.indexOf('//') + 2);
  return pathAt < 0 ? canonicalUrl : canonicalUrl.slice(0, pathAt);
}

export interface TurnFacts {
  /** The robots check fetched robots.txt: that request was this claim's turn at the host. */
  readonly robotsUsedTurn: boolean;
  /** `maxPages` page fetches have started (plugin resources do not count). */
  readonly overBudget: boolean;
  /** When the claim's lease runs out. */
  readonly leaseExpiresAt: number;
  readonly now: number;
}

/** Why the claim may not make its request now, or undefined when it may. PURE. */
export function deniedTurn(facts: TurnFacts): ReleaseReason | undefined {
  if (facts.robotsUsedTurn) return 'robots-turn';
  if (facts.overBudget) return 'page-budget';
  // Past its expiry the lease may already be another worker's: the store assumes no request after it.
  if (facts.now >= facts.leaseExpiresAt) return 'lease-expired';
  return undefined;
}
