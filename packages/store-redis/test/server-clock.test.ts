import { describe, expect, it } from 'vitest';
import { ServerClock, type TimeReply } from '../src/server-clock.js';

/** A TIME reply of a server whose clock runs `offsetMs` from this process's, answered after `delayMs`. */
function server(offsetMs: number, delayMs = 0): () => Promise<TimeReply> {
  return async () => {
    const ms = Date.now() + offsetMs;
    if (delayMs > 0) await new Promise((resolve) => setTimeout(resolve, delayMs));
    return [String(Math.floor(ms / 1000)), String(Math.round((ms % 1000) * 1000))];
  };
}

describe('ServerClock', () => {
  it('keeps the caller’s clock: offset 0, nothing asked', async () => {
    const clock = new ServerClock('caller');
    let asked = 0;
    await clock.sample(async () => {
      asked++;
      return ['0', '0'];
    });
    expect(asked).toBe(0);
    expect(clock.offsetMs).toBe(0);
    expect(clock.toStore(1000)).toBe(1000);
  });

  it('learns the server’s offset and converts both ways', async () => {
    const clock = new ServerClock('server');
    await clock.sample(server(5000));
    expect(Math.abs(clock.offsetMs - 5000)).toBeLessThanOrEqual(2);
    expect(clock.toLocal(clock.toStore(123_456))).toBe(123_456);
    expect(clock.toStore(0)).toBe(clock.offsetMs);
  });

  it('takes the sample with the shortest round trip: a reply late by queueing does not move the offset', async () => {
    const clock = new ServerClock('server');
    await clock.sample(server(-300));
    const decided = clock.offsetMs;
    // Read at once, answered 40 ms later: its middle is 20 ms off, and its round trip the longest.
    await clock.sample(server(-300, 40));
    expect(clock.offsetMs).toBe(decided);
    expect(clock.uncertaintyMs).toBeLessThan(20);
  });

  it('starts again from a sample that disagrees with the estimate by more than both round trips (a clock stepped)', async () => {
    const clock = new ServerClock('server');
    await clock.sample(server(400));
    await clock.sample(server(400));
    await clock.sample(server(-2600));
    expect(Math.abs(clock.offsetMs + 2600)).toBeLessThanOrEqual(2);
  });
});
