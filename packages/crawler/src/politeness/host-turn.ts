// A turn at a host for a request that is no queued URL: a rendered page's script, API call or
// frame. It waits for the host's clock like a claim does (the store's `takeHostTurn`, shared by
// every worker of the store), holds the clock while its request is out, and paces the host from
// the answer: a sub-request is a request to that server like any other.

import { PolitelyError } from '@politely/core';
import { watchAbort } from '@politely/core/internal';
import type { FrontierStore } from '@politely/frontier';

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
 * A turn's request holds its host's clock far ahead (its longest possible wait) until the answer
 * sets the real pace, so a refused turn is not told the true time to ask again: it asks again at
 * the latest this often, and at once when a turn of this process at that host ends.
 */
const BUSY_POLL_MS = 250;

/** Turns at hosts for one crawl: the store decides, and this process's waiters wake when a turn of theirs ends. */
export class HostTurns {
  private readonly waiters = new Map<string, Set<() => void>>();

  constructor(private readonly settings: HostTurnSettings) {
    if (settings.store.takeHostTurn === undefined)
      throw new PolitelyError(
        'ERR_INVALID_OPTION',
        'createCrawler: rendering needs a store with takeHostTurn (the stores of politely have it)',
      );
  }

  /**
   * Waits for a turn at `hostKey` (`withinLease`: the caller's page holds a lease there) and
   * resolves with it; rejects with `ERR_ABORTED` when `signal` (or the crawl's) fires first.
   */
  async take(hostKey: string, withinLease: boolean, signal: AbortSignal): Promise<HeldTurn> {
    const { settings } = this;
    for (;;) {
      if (signal.aborted || settings.signal.aborted)
        throw new PolitelyError('ERR_ABORTED', `sub-request to ${hostKey}: the page or the crawl stopped`);
      const pace = settings.paceOf(hostKey);
      if (pace !== undefined && pace > Date.now()) {
        await this.sleep(hostKey, pace, signal);
        continue;
      }
      const now = Date.now();
      // The clock is held past the longest the request may take, so that nothing else starts
      // before its answer is in and sets the real pace.
      const turn = await settings.store.takeHostTurn!(hostKey, {
        now,
        busyUntil: now + settings.requestTimeoutMs + 1000,
        withinLease,
      });
      if (turn.granted) return { hostKey, end: (readyAt) => this.end(hostKey, readyAt) };
      await this.sleep(hostKey, Math.min(turn.retryAt, Date.now() + BUSY_POLL_MS), signal);
    }
  }

  private async end(hostKey: string, readyAt: number): Promise<void> {
    try {
      await this.settings.store.setHostPolicy(hostKey, { readyAt });
    } finally {
      const waiting = this.waiters.get(hostKey);
      this.waiters.delete(hostKey);
      for (const wake of waiting ?? []) wake();
    }
  }

  /** Sleeps until `at`, or until a turn at the host ends here, or a signal fires. */
  private async sleep(hostKey: string, at: number, signal: AbortSignal): Promise<void> {
    let wake!: () => void;
    const woken = new Promise<void>((resolve) => (wake = resolve));
    let waiting = this.waiters.get(hostKey);
    if (waiting === undefined) this.waiters.set(hostKey, (waiting = new Set()));
    waiting.add(wake);
    try {
      await Promise.race([woken, sleepUntil(at, [signal, this.settings.signal])]);
    } finally {
      this.waiters.get(hostKey)?.delete(wake);
      if (this.waiters.get(hostKey)?.size === 0) this.waiters.delete(hostKey);
    }
  }
}

/**
 * Resolves at `at` (ms since the epoch), at once when a signal fires, or when the function handed
 * to `wakeable` is called (a wait another event ends: no AbortController of its own, whose abort
 * would build a DOMException per wait).
 */
export function sleepUntil(
  at: number,
  signals: readonly AbortSignal[],
  wakeable?: (wake: () => void) => void,
): Promise<void> {
  return new Promise((resolve) => {
    let over = false;
    const done = (): void => {
      if (over) return;
      over = true;
      clearTimeout(timer);
      for (const unwatch of unwatches) unwatch();
      resolve();
    };
    const timer = setTimeout(done, Math.max(0, at - Date.now()));
    // The crawl's signals are long-lived: watched without a listener per sleep (see watchAbort).
    const unwatches: (() => void)[] = [];
    for (const signal of signals) unwatches.push(watchAbort(signal, done));
    wakeable?.(done);
  });
}
