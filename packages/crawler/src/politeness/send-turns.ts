// The order in which this process's own requests to one host go out, and when each may.
//
// The store spaces claims of a host by its delay, but a claimed request reaches the server some
// time later (robots.txt, a cookie lookup, a wait for a connection, a busy event loop), and that
// lag differs from request to request. With several requests in flight at a host
// (`perHostConcurrency` > 1), two claims made a delay apart could then reach the server closer
// together than the delay. So requests to one host start here one at a time:
//   - a request may start once the host's pace (the latest request's start or answer plus the
//     delay) has come, and no earlier request of the host is still waiting to be written;
//   - its pace runs from the moment its head is written to the socket (`onSent`), not from when
//     it was dispatched.
// The check and the taking of the turn happen in one synchronous step, so two waiters woken at
// the same moment cannot both go.

import { HostHolds } from './host-clock.js';
import { sleepUntil } from './host-turn.js';

/**
 * `Date.now()` truncates to whole milliseconds and the server's clock does not: one more
 * millisecond keeps a gap from being measured a fraction short (as in pace.ts).
 */
const CLOCK_GRAIN_MS = 1;
/** How often a request waiting behind an unwritten one looks again, if nothing woke it. */
const UNSENT_RECHECK_MS = 1000;

/** A request's place in its host's line: say when it was written, and end it once it is over. */
export interface SendTicket {
  /** The request's head was written at `at`: the host's next request waits for `at` plus the delay. */
  sent(at: number): void;
  /**
   * The request is over (answered, failed or never made); unsent, it counts as sent at `now`.
   * Resolves once the turn's end is recorded (in the store, for a shared turn).
   */
  end(now: number): Promise<void>;
}

interface HostLine {
  /** Requests that took their turn and have not been written yet. */
  unsent: number;
  readonly waiters: Set<() => void>;
}

export class HostSendTurns {
  private readonly paces = new HostHolds();
  private readonly lines = new Map<string, HostLine>();

  /** Raises the host's pace: no request of this process to it starts before `readyAt`. */
  raise(hostKey: string, readyAt: number, now: number): void {
    this.paces.hold(hostKey, readyAt, now);
  }

  /** The host's pace while still ahead of `now`. */
  paceOf(hostKey: string, now: number): number | undefined {
    return this.paces.current(hostKey, now);
  }

  /** The clock a settle may set: never before the host's pace (see `HostHolds.readyAt`). */
  readyAt(hostKey: string, proposed: number | undefined, now: number): number | undefined {
    return this.paces.readyAt(hostKey, proposed, now);
  }

  /**
   * Waits until a request to `hostKey` may start (its pace has come, and no earlier request is
   * unwritten), also past `notBefore(now)` (holds this process knows), then takes the turn. The
   * delay is read when the request is written. Resolves undefined when a signal fires first.
   */
  async take(
    hostKey: string,
    delayMs: () => number,
    signals: readonly AbortSignal[],
    notBefore: (now: number) => number | undefined = () => undefined,
  ): Promise<SendTicket | undefined> {
    for (;;) {
      if (signals.some((signal) => signal.aborted)) return undefined;
      const now = Date.now();
      const line = this.lines.get(hostKey);
      const pace = later(this.paceOf(hostKey, now), notBefore(now));
      if ((line === undefined || line.unsent === 0) && (pace === undefined || pace <= now))
        return this.ticket(hostKey, delayMs);
      await this.wait(hostKey, line !== undefined && line.unsent > 0 ? undefined : pace, signals);
    }
  }

  private ticket(hostKey: string, delayMs: () => number): SendTicket {
    const line = this.lineOf(hostKey);
    line.unsent++;
    let written = false;
    const sent = (at: number): void => {
      if (written) return;
      written = true;
      this.raise(hostKey, at + CLOCK_GRAIN_MS + delayMs(), Date.now());
      line.unsent--;
      this.wake(hostKey, line);
    };
    return { sent, end: async (now) => sent(now) };
  }

  private lineOf(hostKey: string): HostLine {
    let line = this.lines.get(hostKey);
    if (line === undefined) this.lines.set(hostKey, (line = { unsent: 0, waiters: new Set() }));
    return line;
  }

  /** Sleeps until `at` (or, undefined, until woken), or until a request of the host is written or a signal fires. */
  private async wait(hostKey: string, at: number | undefined, signals: readonly AbortSignal[]): Promise<void> {
    const line = this.lineOf(hostKey);
    let wake: (() => void) | undefined;
    try {
      // An unwritten request always ends (written, failed or over) and wakes the line; the
      // recheck is a safety net, so that no wait depends on that alone.
      await sleepUntil(at ?? Date.now() + UNSENT_RECHECK_MS, signals, (wakeSleep) => {
        wake = wakeSleep;
        line.waiters.add(wakeSleep);
      });
    } finally {
      if (wake !== undefined) line.waiters.delete(wake);
      this.forget(hostKey, line);
    }
  }

  private wake(hostKey: string, line: HostLine): void {
    for (const wake of line.waiters) wake();
    this.forget(hostKey, line);
  }

  /** A host with nothing unwritten and nobody waiting keeps no line (hosts are unbounded). */
  private forget(hostKey: string, line: HostLine): void {
    if (line.unsent === 0 && line.waiters.size === 0 && this.lines.get(hostKey) === line) this.lines.delete(hostKey);
  }
}

function later(a: number | undefined, b: number | undefined): number | undefined {
  return a === undefined ? b : b === undefined ? a : Math.max(a, b);
}
