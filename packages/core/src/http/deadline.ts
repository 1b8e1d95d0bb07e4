// One request's deadline and its caller's signal as one AbortSignal. A plain AbortController and a
// timer cost a fraction of AbortSignal.timeout plus AbortSignal.any, which a crawl pays per request.
// The caller's signal (a crawl's, long-lived) is watched through watchAbort: no listener per request.
// A class, not an object literal with a getter: see HandlerPage (crawler) for what a literal's
// getter costs per object.

import { watchAbort } from '../abort-watch.js';

export interface Deadline {
  /** Aborts when the caller's signal does, or when the deadline passes. */
  readonly signal: AbortSignal;
  /** The deadline passed (not the caller's abort). */
  readonly passed: boolean;
  /** Stops the timer and lets go of the caller's signal; call once the exchange is over. */
  dispose(): void;
}

class RequestDeadline implements Deadline {
  passed = false;
  readonly #controller = new AbortController();
  readonly #timer: ReturnType<typeof setTimeout>;
  readonly #unwatch: (() => void) | undefined;

  constructor(timeoutMs: number, callerSignal: AbortSignal | undefined) {
    const controller = this.#controller;
    this.#timer = setTimeout(() => {
      this.passed = true;
      controller.abort(new DOMException(`timed out after ${timeoutMs} ms`, 'TimeoutError'));
    }, timeoutMs);
    this.#unwatch =
      callerSignal === undefined ? undefined : watchAbort(callerSignal, () => controller.abort(callerSignal.reason));
  }

  get signal(): AbortSignal {
    return this.#controller.signal;
  }

  dispose(): void {
    clearTimeout(this.#timer);
    this.#unwatch?.();
  }
}

export function startDeadline(timeoutMs: number, callerSignal: AbortSignal | undefined): Deadline {
  return new RequestDeadline(timeoutMs, callerSignal);
}
