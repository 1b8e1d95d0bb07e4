// The first stage a claimed URL meets (process-url.ts walks it through them): the robots gate. May
// it be fetched, by its origin's robots.txt (RFC 9309)? It answers with the gate's check, or ends
// the URL's turn: the host's address is refused by the SSRF guard, or robots.txt is unreachable
// (fail closed: the host waits for the gate's next attempt, and its URLs are skipped once its
// retries, `maxRobotsRetries`, have failed too).

import type { RobotsCheck, RobotsGate } from '@politely/core';
import type { FrontierEntry } from '@politely/frontier';
import type { ResolvedCrawlerOptions } from '../../options.js';
import { clockAfterRobotsFailure } from '../../politeness/index.js';
import { released, skipped, type UrlOutcome } from '../outcome.js';
import type { CrawlServices } from '../services.js';

export interface RobotsStageSettings {
  readonly gate: RobotsGate;
  readonly userAgent: string;
  /** The product tokens robots.txt is evaluated for (the user agent's first); several: every one's groups apply. */
  readonly tokens?: readonly string[];
  /** Retries of an unreachable robots.txt: after 1 + this many failed fetches in a row the host's URLs are skipped. */
  readonly maxRobotsRetries: number;
  /** The host's delay now (a failed robots.txt fetch paces the host like any request). */
  readonly delayMsOf: (hostKey: string) => number;
  readonly signal: AbortSignal;
}

export function settingsFrom(options: ResolvedCrawlerOptions, services: CrawlServices): RobotsStageSettings {
  return {
    gate: services.gate,
    userAgent: options.userAgent,
    tokens: options.robotsTokens,
    maxRobotsRetries: options.maxRobotsRetries,
    delayMsOf: (hostKey) => services.politeness.delayMs(hostKey),
    signal: services.signal,
  };
}

/** The gate's answer for a URL it did not turn away: allowed or disallowed by the rules. */
export interface RobotsVerdict {
  readonly kind: 'verdict';
  readonly check: RobotsCheck;
}

export async function robotsStage(
  entry: FrontierEntry,
  settings: RobotsStageSettings,
): Promise<RobotsVerdict | UrlOutcome> {
  const tokens = settings.tokens !== undefined && settings.tokens.length > 1 ? { tokens: settings.tokens } : {};
  const check = await settings.gate.check(entry.url, settings.userAgent, { signal: settings.signal, ...tokens });
  if (check.addressBlocked === true) {
    return skipped({
      reason: 'blocked-address',
      detail: `${entry.hostKey} resolves to a non-public address (allow it with allowNet / --allow-net)`,
    });
  }
  if (check.reason !== 'unreachable') return { kind: 'verdict', check };
  // The gate counts the failures and times the next attempt (backoff, Retry-After): one count,
  // shared by every worker of a shared robots cache.
  const failures = check.failures ?? 1;
  if (failures > settings.maxRobotsRetries) {
    return skipped({
      reason: 'robots-unreachable',
      detail: `robots.txt ${check.status ?? 'network error'} after ${failures} attempt${failures === 1 ? '' : 's'}`,
    });
  }
  // Nothing but robots.txt goes to this host until it recovers: a hold, like a backoff.
  return released(
    'robots-retry',
    clockAfterRobotsFailure(check.retryAt ?? Date.now(), check.fetch, settings.delayMsOf(entry.hostKey)),
  );
}
