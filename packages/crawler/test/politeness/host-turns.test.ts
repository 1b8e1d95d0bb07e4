// Turns at a host for a rendered page's sub-requests: one at a time by the store's clock, a
// waiter woken when a turn of this process ends (not at the far busy time the store answers with
// while a turn's request is out), and a store without turns refused at once.

import { createMemoryFrontierStore } from '@politely/frontier';
import { describe, expect, it } from 'vitest';
import { HostTurns } from '../../src/politeness/host-turn.js';

const settings = (paceOf: (hostKey: string) => number | undefined = () => undefined) => ({
  store: createMemoryFrontierStore({ defaultHostPolicy: { delayMs: 0, maxInFlight: 1 } }),
  requestTimeoutMs: 30_000,
  signal: new AbortController().signal,
  paceOf,
});

describe('HostTurns', () => {
  it('gives one turn at a time, and the next as soon as the first ends here', async () => {
    const turns = new HostTurns(settings());
    const signal = new AbortController().signal;
    const first = await turns.take('a.test', true, signal);
    let secondAt: number | undefined;
    const second = turns.take('a.test', true, signal).then((turn) => {
      secondAt = Date.now();
      return turn;
    });
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(secondAt).toBeUndefined(); // the store holds the host for the first turn's request
    const endedAt = Date.now();
    await first.end(endedAt);
    await second;
    // Woken by the end, not at the busy time (about 31 s away).
    expect(secondAt! - endedAt).toBeLessThan(100);
  });

  it('waits for the pace this process knows before it asks the store', async () => {
    const paceUntil = Date.now() + 150;
    const turns = new HostTurns(
      settings((hostKey) => (hostKey === 'a.test' && Date.now() < paceUntil ? paceUntil : undefined)),
    );
    const started = Date.now();
    await turns.take('a.test', true, new AbortController().signal);
    expect(Date.now()).toBeGreaterThanOrEqual(paceUntil);
    expect(Date.now() - started).toBeLessThan(1000);
  });

  it('gives up when the page stops waiting', async () => {
    const turns = new HostTurns(settings());
    await turns.take('a.test', true, new AbortController().signal);
    const page = new AbortController();
    const waiting = turns.take('a.test', true, page.signal);
    page.abort();
    await expect(waiting).rejects.toMatchObject({ code: 'ERR_ABORTED' });
  });

  it('refuses a store without turns, naming what is missing', () => {
    const { takeHostTurn: _takeHostTurn, ...store } = createMemoryFrontierStore() as unknown as Record<string, unknown>;
    expect(() => new HostTurns({ ...settings(), store: store as never })).toThrow(/takeHostTurn/);
  });
});
