// Send turns shared through a store: two SharedSendTurns on one store stand for two workers.

import { createMemoryFrontierStore, type FrontierStore } from '@politely/frontier';
import { describe, expect, it } from 'vitest';
import { HostSendTurns } from '../../src/politeness/send-turns.js';
import { SharedSendTurns } from '../../src/politeness/shared-send-turns.js';

const never = new AbortController().signal;
const delay100 = () => 100;

function worker(store: FrontierStore, errors: unknown[] = []): SharedSendTurns {
  return new SharedSendTurns(new HostSendTurns(), {
    store: { takeSendTurn: store.takeSendTurn!.bind(store), endSendTurn: store.endSendTurn!.bind(store) },
    busyForMs: 30_000,
    onError: (error) => errors.push(error),
  });
}

describe('SharedSendTurns', () => {
  it("holds another worker's request until this one is written, then for the delay after the write", async () => {
    const store = createMemoryFrontierStore();
    const [a, b] = [worker(store), worker(store)];
    const first = await a.take('h', delay100, [never]);
    expect(first).toBeDefined();
    let secondAt: number | undefined;
    const second = b.take('h', delay100, [never]).then((ticket) => {
      secondAt = Date.now();
      return ticket;
    });
    await new Promise((resolve) => setTimeout(resolve, 120));
    // Not written yet: the other worker waits, whatever time has passed since the turn was taken.
    expect(secondAt).toBeUndefined();
    const writtenAt = Date.now();
    first!.sent(writtenAt);
    const ticket = await second;
    expect(secondAt! - writtenAt).toBeGreaterThanOrEqual(100);
    await ticket!.end(Date.now());
    await first!.end(Date.now());
  });

  it('ends the store turn of a request never written at its end, with the delay after it', async () => {
    const store = createMemoryFrontierStore();
    const ticket = await worker(store).take('h', delay100, [never]);
    const endedAt = Date.now();
    await ticket!.end(endedAt);
    const refused = await store.takeSendTurn!('h', { turnId: 'other', now: endedAt, busyUntil: endedAt + 1000 });
    expect(refused.granted).toBe(false);
    expect(refused.granted === false && refused.retryAt).toBeGreaterThanOrEqual(endedAt + 100);
    // Over before its pace; the pace only: no turn is left held.
    const after = refused.granted === false ? refused.retryAt : 0;
    expect(await store.takeSendTurn!('h', { turnId: 'other', now: after, busyUntil: after + 1000 })).toEqual({
      granted: true,
    });
  });

  it("gives this process's turn back when a signal fires while the store's is awaited", async () => {
    const store = createMemoryFrontierStore();
    const now = Date.now();
    // Another worker holds the store's turn.
    expect(await store.takeSendTurn!('h', { turnId: 'other', now, busyUntil: now + 60_000 })).toEqual({
      granted: true,
    });
    const turns = worker(store);
    const stop = new AbortController();
    const waiting = turns.take('h', delay100, [stop.signal]);
    setTimeout(() => stop.abort(), 50);
    expect(await waiting).toBeUndefined();
    // The local turn was given back: once the other worker's turn ends, a request of this process goes.
    await store.endSendTurn!('h', { turnId: 'other', readyAt: Date.now() });
    const next = await turns.take('h', delay100, [never]);
    expect(next).toBeDefined();
    await next!.end(Date.now());
  });

  it('takes no store turn at a host without a delay: there is no gap to keep', async () => {
    const store = createMemoryFrontierStore();
    const now = Date.now();
    // Another worker holds the store's turn: a request that asked for it would wait.
    expect(await store.takeSendTurn!('h', { turnId: 'other', now, busyUntil: now + 60_000 })).toEqual({
      granted: true,
    });
    const ticket = await worker(store).take('h', () => 0, [never]);
    expect(ticket).toBeDefined();
    await ticket!.end(Date.now());
    // The other worker's turn is still held: this process never took or ended it.
    expect(
      (await store.takeSendTurn!('h', { turnId: 'third', now: Date.now(), busyUntil: now + 60_000 })).granted,
    ).toBe(false);
  });
});
