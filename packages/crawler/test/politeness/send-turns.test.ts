import { describe, expect, it } from 'vitest';
import { HostSendTurns } from '../../src/politeness/send-turns.js';

const never = new AbortController().signal;
const delay100 = () => 100;

describe('HostSendTurns', () => {
  it('lets one request start at once, and the next only once the first is written and its delay has passed', async () => {
    const turns = new HostSendTurns();
    const first = await turns.take('h', delay100, [never]);
    expect(first).toBeDefined();
    let secondAt: number | undefined;
    const second = turns.take('h', delay100, [never]).then((ticket) => {
      secondAt = Date.now();
      return ticket;
    });
    // The first is not written yet: the second waits, however long, for it.
    await new Promise((resolve) => setTimeout(resolve, 150));
    expect(secondAt).toBeUndefined();
    const writtenAt = Date.now();
    first!.sent(writtenAt);
    (await second)!.end(Date.now());
    // One millisecond of clock grain on top of the delay.
    expect(secondAt! - writtenAt).toBeGreaterThanOrEqual(100);
    expect(secondAt! - writtenAt).toBeLessThan(400);
  });

  it('wakes two waiters of one pace, and lets only one of them go', async () => {
    const turns = new HostSendTurns();
    turns.raise('h', Date.now() + 50, Date.now());
    const took: number[] = [];
    const a = turns.take('h', delay100, [never]).then((t) => (took.push(Date.now()), t));
    const b = turns.take('h', delay100, [never]).then((t) => (took.push(Date.now()), t));
    const firstTicket = await Promise.race([a, b]);
    expect(took).toHaveLength(1);
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect(took).toHaveLength(1);
    firstTicket!.sent(Date.now());
    await Promise.all([a, b]);
    expect(took[1]! - took[0]!).toBeGreaterThanOrEqual(100);
  });

  it('counts a request never written as sent when it ends', async () => {
    const turns = new HostSendTurns();
    const ticket = await turns.take('h', delay100, [never]);
    const endedAt = Date.now();
    ticket!.end(endedAt);
    expect(turns.paceOf('h', endedAt)).toBe(endedAt + 101);
    // Sent after it ended: nothing changes (a ticket ends once).
    ticket!.sent(endedAt + 5000);
    expect(turns.paceOf('h', endedAt)).toBe(endedAt + 101);
  });

  it('keeps other hosts apart, waits for holds, and gives up when a signal fires', async () => {
    const turns = new HostSendTurns();
    const held = await turns.take('h', delay100, [never]);
    expect(await turns.take('other', delay100, [never])).toBeDefined();
    const holdUntil = Date.now() + 80;
    const start = Date.now();
    const afterHold = await turns.take('third', delay100, [never], () => holdUntil);
    expect(Date.now() - start).toBeGreaterThanOrEqual(79);
    afterHold!.end(Date.now());
    const stop = new AbortController();
    const waiting = turns.take('h', delay100, [never, stop.signal]);
    setTimeout(() => stop.abort(), 20);
    expect(await waiting).toBeUndefined();
    held!.end(Date.now());
  });
});
