// What became of one claimed URL: the value every stage of the pipeline returns when it ends the
// URL's turn, and the only thing `settle` (pipeline/settle.ts) acts on. A stage never ends a
// lease itself: it says what happened, and what that means for the host's clock.

import type { FrontierEntry, FrontierLease, LastFetch, UrlFailure } from '@politely/frontier';
import type { ErrorEvent } from '../events.js';
import type { ClockChange } from '../politeness/index.js';
import type { SkipDetail } from '../skip-reasons.js';

/** Why a URL goes back to its queue without an attempt being counted. */
export type ReleaseReason =
  /** This host is held (Retry-After, backoff) by a response the store has not heard of yet. */
  | 'host-held'
  /** The claim's turn at the host went to the host's robots.txt request. */
  | 'robots-turn'
  /** The claim's turn at the host went to the origin's /.well-known/tdmrep.json request (see `purposes`). */
  | 'tdmrep-turn'
  /** robots.txt is unreachable for now: the host waits for its next robots.txt attempt. */
  | 'robots-retry'
  /** The server asked for a signature (`signing.sign: 'on-challenge'`): the URL is retried signed. */
  | 'signature-challenge'
  /** `maxPages` page fetches have started. */
  | 'page-budget'
  /** The lease ran out before the request: the URL may be another worker's now. */
  | 'lease-expired'
  /** The crawl is stopping (an abort, a fatal error): the URL stays in the store. */
  | 'stopping';

export type UrlOutcome =
  /**
   * Fetched and handled (any status): the URL is done. `links`: the entries it leads to that the
   * frontier admitted, and `lastFetch`: what to remember of the fetch for a recrawl, both stored
   * with its completion in one step (FrontierStore.complete).
   */
  | {
      readonly kind: 'done';
      readonly clock: ClockChange;
      readonly links?: readonly FrontierEntry[];
      readonly lastFetch?: LastFetch;
    }
  /** Not fetched, for good: the URL is done and a skip is reported. */
  | { readonly kind: 'skipped'; readonly skip: SkipDetail; readonly clock: ClockChange }
  /**
   * Failed for good: the URL is done (stored as failed) and an error is reported. `links`: those
   * of a page whose handler failed, still followed (the page itself was read).
   */
  | {
      readonly kind: 'failed';
      readonly error: Error;
      readonly stage: ErrorEvent['stage'];
      readonly clock: ClockChange;
      readonly links?: readonly FrontierEntry[];
    }
  /** The attempt failed and counts: the URL goes back for another, and the error is reported. */
  | { readonly kind: 'retry'; readonly error: Error; readonly stage: ErrorEvent['stage']; readonly clock: ClockChange }
  /** No attempt was made: the URL goes back to the head of its queue. */
  | { readonly kind: 'released'; readonly reason: ReleaseReason; readonly clock: ClockChange };

/** How the store ends the lease for an outcome. */
export type Settlement = 'complete' | 'release' | 'retry';

export function settlementOf(outcome: UrlOutcome): Settlement {
  switch (outcome.kind) {
    case 'released':
      return 'release';
    case 'retry':
      return 'retry';
    default:
      return 'complete';
  }
}

/** The clock for a claim that made no request: handed back as it stood before the claim. */
export const handBack = (lease: Pick<FrontierLease, 'previousHostReadyAt'>): ClockChange => ({
  handBackTo: lease.previousHostReadyAt,
});

export const done = (
  clock: ClockChange = {},
  links: readonly FrontierEntry[] = [],
  lastFetch?: LastFetch,
): UrlOutcome => ({
  kind: 'done',
  clock,
  ...(links.length === 0 ? {} : { links }),
  ...(lastFetch === undefined ? {} : { lastFetch }),
});
/**
 * A failed attempt at the URL (its fetch, its render, its handler): retried while attempts are
 * left (`maxRetries` after the first), else failed for good.
 */
export function attemptFailed(
  entry: FrontierEntry,
  error: Error,
  stage: ErrorEvent['stage'],
  clock: ClockChange,
  maxRetries: number,
): UrlOutcome {
  const willRetry = (entry.retries ?? 0) + 1 <= maxRetries;
  return willRetry ? { kind: 'retry', error, stage, clock } : { kind: 'failed', error, stage, clock };
}

/** A seed as the user gave it: a page at depth 0 that no link or redirect led to. */
export function isSeed(entry: FrontierEntry): boolean {
  const isPage = entry.kind === undefined || entry.kind === 'page';
  return isPage && entry.depth === 0 && entry.referrer === undefined && entry.redirectedFrom === undefined;
}

/**
 * What the store keeps of a URL that ended without success, for `requeueFailed`: a URL failed
 * for good, or a seed that was refused (a later run may be allowed it). Undefined otherwise.
 */
export function failureOf(entry: FrontierEntry, outcome: UrlOutcome, now: number): UrlFailure | undefined {
  const attempts = (entry.retries ?? 0) + 1;
  if (outcome.kind === 'failed') {
    const { error, stage } = outcome;
    const code = (error as { code?: unknown }).code;
    const coded = typeof code === 'string' ? { code } : {};
    return { kind: 'failed', reason: stage, message: error.message, ...coded, attempts, at: now };
  }
  if (outcome.kind === 'skipped' && isSeed(entry)) {
    const { reason, detail } = outcome.skip;
    return { kind: 'refused', reason, message: detail ?? reason, attempts, at: now };
  }
  return undefined;
}

export const skipped = (skip: SkipDetail, clock: ClockChange = {}): UrlOutcome => ({ kind: 'skipped', skip, clock });
export const released = (reason: ReleaseReason, clock: ClockChange): UrlOutcome => ({
  kind: 'released',
  reason,
  clock,
});
