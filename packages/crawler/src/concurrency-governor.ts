// How many requests the crawl keeps in flight: `concurrency` at most, fewer while this process
// cannot keep up with what it fetches (`adaptiveConcurrency`).
//
// A response that arrives while the event loop is saturated only waits for the CPU, and holds
// its body, its decoded text and its buffers in memory while it waits. Once the loop is busy all
// the time, more requests in flight add no pages per second; they add memory, garbage collection
// and latency. So the limit falls while the loop is saturated and ready work waits for it, and
// rises again as soon as the loop has idle time (a slow web: waiting on the network, not on us).
// It only ever holds fewer requests in flight than `concurrency`: politeness is not its business.

import { monitorEventLoopDelay, performance } from 'node:perf_hooks';

/** What the event loop did over one window. */
export interface LoopLoad {
  /** The share of the window the loop was busy, 0 to 1 (`performance.eventLoopUtilization`). */
  readonly busyShare: number;
  /** How late, on average, a timer ran over the window (ms): how long ready work waited for the loop. */
  readonly lateMs: number;
}

export interface ConcurrencyBounds {
  /** The fewest requests in flight the limit falls to. */
  readonly min: number;
  /** `concurrency`: the limit never rises above it. */
  readonly max: number;
}

/** Busy at least this share of a window, the loop is saturated… */
export const SATURATED_BUSY_SHARE = 0.95;
/** …and while its timers run this late, work queues behind it: fewer requests in flight. */
export const OVERLOADED_LATE_MS = 5;
/** Busy less than this share of a window, the loop has room: more requests in flight. */
export const ROOM_BUSY_SHARE = 0.9;
/** How often the limit is reconsidered (ms). */
export const GOVERNOR_WINDOW_MS = 250;
/** The fewest requests in flight the limit falls to (or `concurrency`, when lower). */
export const MIN_ADAPTIVE_CONCURRENCY = 4;
/**
 * Where the limit starts (or `concurrency`, when lower), and climbs from by a quarter a window
 * while the loop has room: a burst of `concurrency` responses at once, before the first window
 * is read, would only wait for the CPU.
 */
export const START_ADAPTIVE_CONCURRENCY = 16;

/**
 * The next limit after a window of `load`. Overloaded: down in proportion to how late the loop
 * runs (a half to nine tenths of the limit). Room to spare: up by a quarter (at least one).
 * Between the two: unchanged, so the limit settles where the loop is just saturated.
 */
export function nextConcurrencyLimit(current: number, load: LoopLoad, bounds: ConcurrencyBounds): number {
  if (load.busyShare >= SATURATED_BUSY_SHARE && load.lateMs > OVERLOADED_LATE_MS) {
    const factor = Math.min(0.9, Math.max(0.5, OVERLOADED_LATE_MS / load.lateMs));
    return Math.max(bounds.min, Math.min(bounds.max, Math.floor(current * factor)));
  }
  if (load.busyShare < ROOM_BUSY_SHARE) {
    return Math.min(bounds.max, Math.max(current + 1, Math.ceil(current * 1.25)));
  }
  return Math.max(bounds.min, Math.min(bounds.max, current));
}

/** Reads the event loop's load window by window (the I/O edge of the governor). */
export interface LoopLoadMeter {
  /** The load since the last call (or since the meter was made). */
  read(): LoopLoad;
  close(): void;
}

/** Timer resolution of the delay histogram (ms): a sample every 10 ms costs nothing measurable. */
const DELAY_RESOLUTION_MS = 10;

/** This process's event loop: its utilisation, and the lateness of a 10 ms timer. */
export function eventLoopLoadMeter(): LoopLoadMeter {
  const delay = monitorEventLoopDelay({ resolution: DELAY_RESOLUTION_MS });
  delay.enable();
  let last = performance.eventLoopUtilization();
  return {
    read() {
      const now = performance.eventLoopUtilization();
      const busyShare = performance.eventLoopUtilization(now, last).utilization;
      last = now;
      // The histogram holds the whole interval between two timer runs: the resolution plus lateness.
      const lateMs = delay.count === 0 ? 0 : Math.max(0, delay.mean / 1e6 - DELAY_RESOLUTION_MS);
      delay.reset();
      return { busyShare, lateMs };
    },
    close() {
      delay.disable();
    },
  };
}

/** The claim loop's view: how many requests may be in flight now. */
export interface ConcurrencyLimit {
  readonly current: number;
  /** Starts reconsidering the limit; `onRaise` is called when it rises (the claim loop may claim more). */
  start(onRaise: () => void): void;
  stop(): void;
}

/** `concurrency` in flight whenever URLs are ready (`adaptiveConcurrency: false`). */
export function fixedConcurrency(concurrency: number): ConcurrencyLimit {
  return { current: concurrency, start() {}, stop() {} };
}

/**
 * A limit that starts at 16 (or `concurrency`, when lower) and follows the event loop's load,
 * window by window, between 4 and `concurrency` (`adaptiveConcurrency`). `makeMeter` and
 * `windowMs` are for tests.
 */
export class ConcurrencyGovernor implements ConcurrencyLimit {
  private limit: number;
  private timer: NodeJS.Timeout | undefined;
  private meter: LoopLoadMeter | undefined;
  private readonly bounds: ConcurrencyBounds;

  constructor(
    concurrency: number,
    private readonly makeMeter: () => LoopLoadMeter = eventLoopLoadMeter,
    private readonly windowMs = GOVERNOR_WINDOW_MS,
  ) {
    this.bounds = { min: Math.min(concurrency, MIN_ADAPTIVE_CONCURRENCY), max: concurrency };
    this.limit = concurrency;
  }

  get current(): number {
    return this.limit;
  }

  start(onRaise: () => void): void {
    if (this.timer !== undefined) return;
    if (this.bounds.min === this.bounds.max) return;
    // Each run starts afresh: an earlier run's load says nothing of this one's.
    this.limit = Math.min(this.bounds.max, START_ADAPTIVE_CONCURRENCY);
    const meter = this.makeMeter();
    this.meter = meter;
    this.timer = setInterval(() => {
      const before = this.limit;
      this.limit = nextConcurrencyLimit(before, meter.read(), this.bounds);
      if (this.limit > before) onRaise();
    }, this.windowMs);
    // The crawl's own work keeps the process alive, not this timer.
    this.timer.unref();
  }

  stop(): void {
    clearInterval(this.timer);
    this.timer = undefined;
    this.meter?.close();
    this.meter = undefined;
  }
}
