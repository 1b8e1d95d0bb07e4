// The limit of requests in flight under `adaptiveConcurrency`: the rule window by window, and the
// governor that applies it (a meter of chosen loads stands in for the event loop here; the
// end-to-end test, e2e/adaptive-concurrency.test.ts, runs on the real one).

import { describe, expect, it } from 'vitest';
import {
  ConcurrencyGovernor,
  eventLoopLoadMeter,
  type LoopLoad,
  type LoopLoadMeter,
  nextConcurrencyLimit,
} from '../src/concurrency-governor.js';

const bounds = { min: 4, max: 64 };
const overloaded = (lateMs: number): LoopLoad => ({ busyShare: 1, lateMs });
const idle: LoopLoad = { busyShare: 0.3, lateMs: 0 };

describe('nextConcurrencyLimit', () => {
  it('falls in proportion to how late the loop runs, a half to nine tenths at a time', () => {
    expect(nextConcurrencyLimit(64, overloaded(40), bounds)).toBe(32);
    expect(nextConcurrencyLimit(64, overloaded(8), bounds)).toBe(40);
    expect(nextConcurrencyLimit(64, overloaded(5.5), bounds)).toBe(57);
  });

  it('never falls below the floor', () => {
    expect(nextConcurrencyLimit(5, overloaded(100), bounds)).toBe(4);
    expect(nextConcurrencyLimit(4, overloaded(100), bounds)).toBe(4);
  });

  it('holds while the loop is saturated but work does not wait, or is busy but not saturated', () => {
    expect(nextConcurrencyLimit(12, { busyShare: 1, lateMs: 3 }, bounds)).toBe(12);
    expect(nextConcurrencyLimit(12, { busyShare: 0.92, lateMs: 30 }, bounds)).toBe(12);
  });

  it('rises by a quarter, at least one, while the loop has idle time, up to concurrency', () => {
    expect(nextConcurrencyLimit(16, idle, bounds)).toBe(20);
    expect(nextConcurrencyLimit(4, idle, bounds)).toBe(5);
    expect(nextConcurrencyLimit(60, idle, bounds)).toBe(64);
    expect(nextConcurrencyLimit(64, idle, bounds)).toBe(64);
  });
});

/** A meter that reads whatever load the test sets now. */
function settableMeter(initial: LoopLoad) {
  const state = { load: initial, closed: false, made: 0 };
  const make = (): LoopLoadMeter => {
    state.made++;
    return {
      read: () => state.load,
      close: () => {
        state.closed = true;
      },
    };
  };
  return { state, make };
}

const windows = (n: number, windowMs: number) => new Promise((resolve) => setTimeout(resolve, n * windowMs));

describe('ConcurrencyGovernor', () => {
  it('starts at 16, falls while overloaded, rises when the loop has room, and tells the claim loop', async () => {
    const meter = settableMeter(overloaded(20));
    const governor = new ConcurrencyGovernor(64, meter.make, 20);
    expect(governor.current).toBe(64);
    let raised = 0;
    governor.start(() => raised++);
    expect(governor.current).toBe(16);
    await windows(5, 20);
    expect(governor.current).toBe(4);
    expect(raised).toBe(0);
    meter.state.load = idle;
    await windows(4, 20);
    expect(governor.current).toBeGreaterThan(4);
    expect(raised).toBeGreaterThan(0);
    governor.stop();
    expect(meter.state.closed).toBe(true);
    const stopped = governor.current;
    await windows(3, 20);
    expect(governor.current).toBe(stopped);
  });

  it('climbs from 16 to concurrency, and no further, while the loop has room', async () => {
    const meter = settableMeter(idle);
    const governor = new ConcurrencyGovernor(40, meter.make, 10);
    governor.start(() => {});
    await windows(12, 10);
    expect(governor.current).toBe(40);
    governor.stop();
  });

  it('keeps a concurrency of 4 or less as it is, with no meter', () => {
    const meter = settableMeter(overloaded(50));
    const governor = new ConcurrencyGovernor(3, meter.make);
    governor.start(() => {});
    expect(governor.current).toBe(3);
    expect(meter.state.made).toBe(0);
    governor.stop();
  });
});

describe('eventLoopLoadMeter', () => {
  it('reads a loop held busy as saturated and late, and an idle one as neither', async () => {
    const meter = eventLoopLoadMeter();
    try {
      meter.read();
      // Held busy in slices of 30 ms for 300 ms: a 10 ms timer runs about 20 ms late.
      for (let slice = 0; slice < 10; slice++) {
        const until = performance.now() + 30;
        while (performance.now() < until) {}
        await new Promise((resolve) => setImmediate(resolve));
      }
      const busy = meter.read();
      expect(busy.busyShare).toBeGreaterThan(0.9);
      expect(busy.lateMs).toBeGreaterThan(5);
      await new Promise((resolve) => setTimeout(resolve, 200));
      const quiet = meter.read();
      expect(quiet.busyShare).toBeLessThan(0.5);
      expect(quiet.lateMs).toBeLessThan(5);
    } finally {
      meter.close();
    }
  });
});
