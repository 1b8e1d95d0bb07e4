import { getEventListeners } from 'node:events';
import { watchAbort } from '@politely/core/internal';
import { describe, expect, it } from 'vitest';

describe('watchAbort', () => {
  it('calls every watcher once when the signal fires, through one listener on the signal', () => {
    const controller = new AbortController();
    const calls: number[] = [];
    for (let i = 0; i < 5; i++) watchAbort(controller.signal, () => calls.push(i));
    expect(getEventListeners(controller.signal, 'abort')).toHaveLength(1);
    controller.abort();
    controller.abort();
    expect(calls).toEqual([0, 1, 2, 3, 4]);
  });

  it('calls no watcher that stopped watching, and leaves no listener once the signal fired', () => {
    const controller = new AbortController();
    const calls: string[] = [];
    const stopA = watchAbort(controller.signal, () => calls.push('a'));
    watchAbort(controller.signal, () => calls.push('b'));
    stopA();
    stopA();
    controller.abort();
    expect(calls).toEqual(['b']);
    expect(getEventListeners(controller.signal, 'abort')).toHaveLength(0);
  });

  it('watches the same function twice as two watches, each stopped on its own', () => {
    const controller = new AbortController();
    let calls = 0;
    const onAbort = (): void => void calls++;
    const stop = watchAbort(controller.signal, onAbort);
    watchAbort(controller.signal, onAbort);
    stop();
    controller.abort();
    expect(calls).toBe(1);
  });

  it('calls at once, synchronously, for a signal that has already fired', () => {
    const signal = AbortSignal.abort(new Error('gone'));
    let called = false;
    const stop = watchAbort(signal, () => (called = true));
    expect(called).toBe(true);
    expect(() => stop()).not.toThrow();
  });

  it('lets a watcher stop another while the signal fires', () => {
    const controller = new AbortController();
    const calls: string[] = [];
    let stopB = (): void => {};
    watchAbort(controller.signal, () => {
      calls.push('a');
      stopB();
    });
    stopB = watchAbort(controller.signal, () => calls.push('b'));
    controller.abort();
    expect(calls).toEqual(['a']);
  });
});
