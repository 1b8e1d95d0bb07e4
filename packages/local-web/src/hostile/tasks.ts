// The timers and background jobs of a running hostile web, kept in one place so that close()
// stops every one of them: a drip timer left behind would keep the process alive.

export interface Tasks {
  /** Calls `fn` every `ms` until the returned function (or `stopAll`) is called. */
  every(ms: number, fn: () => void): () => void;
  /** Calls `fn` once after `ms`, unless the returned function (or `stopAll`) is called first. */
  after(ms: number, fn: () => void): () => void;
  /** Aborted by `stopAll`: background jobs (the bomb builds) listen to it. */
  readonly signal: AbortSignal;
  /** True once `stopAll` ran: nothing new is started. */
  readonly stopped: boolean;
  stopAll(): void;
}

export function createTasks(): Tasks {
  const timers = new Set<NodeJS.Timeout>();
  const controller = new AbortController();
  const track = (timer: NodeJS.Timeout, clear: (timer: NodeJS.Timeout) => void): (() => void) => {
    timers.add(timer);
    return () => {
      clear(timer);
      timers.delete(timer);
    };
  };
  return {
    every(ms, fn) {
      if (controller.signal.aborted) return () => {};
      return track(setInterval(fn, ms), clearInterval);
    },
    after(ms, fn) {
      if (controller.signal.aborted) return () => {};
      const timer: NodeJS.Timeout = setTimeout(() => {
        timers.delete(timer);
        fn();
      }, ms);
      return track(timer, clearTimeout);
    },
    signal: controller.signal,
    get stopped() {
      return controller.signal.aborted;
    },
    stopAll() {
      controller.abort();
      for (const timer of timers) clearTimeout(timer); // clears intervals too
      timers.clear();
    },
  };
}
