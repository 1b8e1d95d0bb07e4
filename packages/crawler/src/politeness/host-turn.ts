// A turn at a host for a request that is no queued URL: a rendered page's script, API call or
// frame. It waits for the host's clock like a claim does (the store's `takeHostTurn`, shared by
// every worker of the store), holds the clock while its request is out, and paces the host from
// the answer: a sub-request is a request to that server like any other.

import { PolitelyError } from '@politely/core';
import type { FrontierStore } from '../frontier/frontier-store.js';

export interface HostTurnSettings {
  readonly store: FrontierStore;
  /** How long a turn's request may be out at most: the host's clock is held that long meanwhile. */
  readonly requestTimeoutMs: number;
  readonly signal: AbortSignal;
  /**
   * The host's pace as this process knows it (its requests in flight that have not settled:
   * a rendered page's own document), which the store may not have heard yet: no turn before it.
   */
  readonly paceOf: (hostKey: string) => number | undefined;
}

/** A granted turn, to end once its request is answered (or was never made). */
export interface HeldTurn {
  readonly hostKey: string;
  /** Sets the host's clock: the next request to it may start at `readyAt`. */
  end(readyAt: number): Promise<void>;
}

/**
 * Waits for a turn at `hostKey` (`withinLease`: the caller's page holds a lease there) and
 * resolves with it; rejects with `ERR_ABORTED` when `signal` (or the crawl's) fires first.
 */
export async function awaitHostTurn(hostKey: string, withinLease: boolean, settings: HostTurnSettings, signal: AbortSignal): Promise<HeldTurn> {
  const { store } = settings;
  if (store.takeHostTurn === undefined) throw new PolitelyError('ERR_INVALID_OPTION', 'createCrawler: rendering needs a store with takeHostTurn (the stores of politely have it)');
  for (;;) {
    if (signal.aborted || settings.signal.aborted) throw new PolitelyError('ERR_ABORTED', `sub-request to ${hostKey}: the page or the crawl stopped`);
    const pace = settings.paceOf(hostKey);
    if (pace !== undefined && pace > Date.now()) {
      await sleepUntil(pace, [signal, settings.signal]);
      continue;
    }
    const now = Date.now();
    // The clock is held past the longest the request may take, so that nothing else starts
    // before its answer is in and sets the real pace.
    const turn = await store.takeHostTurn(hostKey, { now, busyUntil: now + settings.requestTimeoutMs + 1000, withinLease });
    if (turn.granted) return { hostKey, end: (readyAt) => store.setHostPolicy(hostKey, { readyAt }) };
    await sleepUntil(turn.retryAt, [signal, settings.signal]);
  }
}

/** Resolves at `at` (ms since the epoch), or at once when a signal fires. */
export function sleepUntil(at: number, signals: readonly AbortSignal[]): Promise<void> {
  return new Promise((resolve) => {
    const done = (): void => {
      clearTimeout(timer);
      for (const signal of signals) signal.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, Math.max(0, at - Date.now()));
    for (const signal of signals) signal.addEventListener('abort', done, { once: true });
  });
}
