// One request's deadline and its caller's signal as one AbortSignal. A plain AbortController and a
// timer cost a fraction of AbortSignal.timeout plus AbortSignal.any, which a crawl pays per request.

export interface Deadline {
  /** Aborts when the caller's signal does, or when the deadline passes. */
  readonly signal: AbortSignal;
  /** The deadline passed (not the caller's abort). */
  readonly passed: boolean;
  /** Stops the timer and lets go of the caller's signal; call once the exchange is over. */
  dispose(): void;
}

export function startDeadline(timeoutMs: number, callerSignal: AbortSignal | undefined): Deadline {
  const controller = new AbortController();
  let passed = false;
  const timer = setTimeout(() => {
    passed = true;
    controller.abort(new DOMException(`timed out after ${timeoutMs} ms`, 'TimeoutError'));
  }, timeoutMs);
  const onCallerAbort = (): void => controller.abort(callerSignal?.reason);
  if (callerSignal?.aborted === true) onCallerAbort();
  else callerSignal?.addEventListener('abort', onCallerAbort, { once: true });
  return {
    signal: controller.signal,
    get passed() {
      return passed;
    },
    dispose() {
      clearTimeout(timer);
      callerSignal?.removeEventListener('abort', onCallerAbort);
    },
  };
}
