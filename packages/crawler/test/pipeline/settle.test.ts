// LeaseSettler (pipeline/settle.ts) over a real memory store on a fake clock: the outcome picks
// complete, release or retry; its clock paces or holds the host; a hold noted before its URL
// settles travels with whichever settle of the host comes first, and is never undone by a pace.

import { PolitelyError } from '@politely/core';
import type { FrontierStore } from '@politely/frontier';
import { createMemoryFrontierStore } from '@politely/frontier';
import { describe, expect, it } from 'vitest';
import { done, handBack, released, settlementOf, skipped, type UrlOutcome } from '../../src/pipeline/outcome.js';
import { LeaseSettler } from '../../src/pipeline/settle.js';
import { claimAt, hostReadyAt } from './pipeline-helpers.js';

const T0 = 1_700_000_000_000;
const DELAY = 1000;
const HOST = 'settle.test';
const OTHER = 'other.test';
const error = new PolitelyError('ERR_FETCH_FAILED', 'HTTP 503');

async function storeWith(
  paths: readonly string[],
  maxInFlight = 1,
  host = HOST,
  store?: FrontierStore,
): Promise<FrontierStore> {
  const target = store ?? createMemoryFrontierStore({ defaultHostPolicy: { delayMs: DELAY, maxInFlight } });
  await target.add(paths.map((path) => ({ url: `http://${host}${path}`, hostKey: host, depth: 1, priority: 0 })));
  return target;
}

/** Claims every URL at `now`, draining the store; returns them in claim order with their retries. */
async function drain(store: FrontierStore, now: number): Promise<Array<{ url: string; retries: number | undefined }>> {
  const claimed: Array<{ url: string; retries: number | undefined }> = [];
  for (let i = 0; i < 20; i++, now += DELAY) {
    const result = await store.claim({ now, leaseMs: 1 });
    if (result.lease === null) break;
    claimed.push({ url: new URL(result.lease.entry.url).pathname, retries: result.lease.entry.retries });
    await store.complete(result.lease.id);
  }
  return claimed;
}

describe('settlementOf', () => {
  it('releases a released URL, retries a retry, completes the rest', () => {
    const skip = skipped({ reason: 'robots' });
    const failed: UrlOutcome = { kind: 'failed', error, stage: 'fetch', clock: {} };
    const retry: UrlOutcome = { kind: 'retry', stage: 'fetch', error, clock: {} };
    expect([released('stopping', {}), retry, done(), skip, failed].map(settlementOf)).toEqual([
      'release',
      'retry',
      'complete',
      'complete',
      'complete',
    ]);
  });
});

// The store ends the lease as the outcome says; observed through what can be claimed afterwards.
describe('LeaseSettler.settle: the lease', () => {
  it('complete: the URL is done and never comes back; the clock is the outcome’s pace', async () => {
    const store = await storeWith(['/a']);
    const settler = new LeaseSettler(store, 1);
    const lease = await claimAt(store, T0);
    await settler.settle(lease, done({ readyAt: T0 + 250 }), T0 + 50);
    expect(await store.counts()).toEqual({ queued: 0, inFlight: 0, done: 1, failed: 0, activeHosts: 0 });
    expect(await hostReadyAt(store, HOST)).toBe(T0 + 250);
    expect(await store.claim({ now: T0 + 10 * DELAY, leaseMs: 1 })).toEqual({ lease: null, nextReadyAt: null });
  });

  it('complete: stores the links with the completion, and records a failure with its pace', async () => {
    const store = await storeWith(['/a', '/b']);
    const settler = new LeaseSettler(store, 1);
    const link = { url: `http://${HOST}/c`, hostKey: HOST, depth: 2, priority: 0 };
    const added = await settler.settle(await claimAt(store, T0), done({ readyAt: T0 + 9 }, [link]), T0 + 5);
    expect(added).toEqual(['added']);
    expect(await hostReadyAt(store, HOST)).toBe(T0 + 9);
    const failed: UrlOutcome = { kind: 'failed', error, stage: 'fetch', clock: { readyAt: T0 + 2 * DELAY } };
    expect(await settler.settle(await claimAt(store, T0 + DELAY), failed, T0 + DELAY)).toEqual([]);
    expect(await store.counts()).toMatchObject({ queued: 1, done: 2, failed: 1 }); // a failed URL is done too
    expect(await store.failures()).toMatchObject([
      { failure: { kind: 'failed', reason: 'fetch', message: 'HTTP 503' } },
    ]);
  });

  it.each([
    ['skipped', skipped({ reason: 'robots' }, { readyAt: T0 + 7 })],
    ['failed', { kind: 'failed', error, stage: 'fetch', clock: { readyAt: T0 + 7 } } satisfies UrlOutcome],
  ])('%s completes the URL too', async (_name, outcome) => {
    const store = await storeWith(['/a']);
    await new LeaseSettler(store, 1).settle(await claimAt(store, T0), outcome, T0 + 5);
    expect(await store.counts()).toMatchObject({ queued: 0, done: 1 });
    expect(await hostReadyAt(store, HOST)).toBe(T0 + 7);
  });

  it('release: the URL goes back to the head of its queue, retries unchanged, the clock handed back', async () => {
    const store = await storeWith(['/a', '/b']);
    const settler = new LeaseSettler(store, 1);
    const lease = await claimAt(store, T0);
    expect(await hostReadyAt(store, HOST)).toBe(T0 + DELAY); // the claim moved it
    await settler.settle(lease, released('page-budget', handBack(lease)), T0 + 5);
    expect(await hostReadyAt(store, HOST)).toBe(lease.previousHostReadyAt);
    expect(await store.counts()).toMatchObject({ queued: 2, inFlight: 0, done: 0 });
    expect(await drain(store, T0 + 10)).toEqual([
      { url: '/a', retries: undefined },
      { url: '/b', retries: undefined },
    ]);
  });

  it('retry: the URL goes back behind the others with retries + 1, held as the outcome says', async () => {
    const store = await storeWith(['/a', '/b']);
    const settler = new LeaseSettler(store, 1);
    const lease = await claimAt(store, T0);
    await settler.settle(
      lease,
      { kind: 'retry', stage: 'fetch', error, clock: { readyAt: T0 + 3000, notBefore: T0 + 3000 } },
      T0 + 5,
    );
    expect(await store.claim({ now: T0 + 2999, leaseMs: 1 })).toEqual({ lease: null, nextReadyAt: T0 + 3000 });
    expect(await drain(store, T0 + 3000)).toEqual([
      { url: '/b', retries: undefined },
      { url: '/a', retries: 1 },
    ]);
  });

  it('an outcome with no clock leaves the clock the claim set', async () => {
    const store = await storeWith(['/a']);
    await new LeaseSettler(store, 1).settle(await claimAt(store, T0), skipped({ reason: 'blocked-address' }), T0 + 5);
    expect(await hostReadyAt(store, HOST)).toBe(T0 + DELAY);
  });

  it('a lease settled twice: the second settle is ignored (the URL is not completed after its release)', async () => {
    const store = await storeWith(['/a']);
    const settler = new LeaseSettler(store, 1);
    const lease = await claimAt(store, T0);
    await settler.settle(lease, released('stopping', handBack(lease)), T0 + 1);
    await settler.settle(lease, done({ readyAt: T0 + 99_999 }), T0 + 2);
    expect(await store.counts()).toMatchObject({ queued: 1, done: 0 });
    expect(await hostReadyAt(store, HOST)).toBe(lease.previousHostReadyAt);
  });
});

// A hold known before its URL settles (noteHold) rides on the host's next settle, whatever it is.
describe('LeaseSettler: holds', () => {
  it('a noted hold goes with a later settle of another lease whose clock is only a pace', async () => {
    const store = await storeWith(['/a', '/b', '/c'], 2);
    const settler = new LeaseSettler(store, 2);
    const held = await claimAt(store, T0); // its 503 Retry-After: 5 s is in; its handler still runs
    const paced = await claimAt(store, T0 + DELAY);
    settler.noteHold(HOST, { readyAt: T0 + 5000, notBefore: T0 + 5000 }, T0 + 100);

    await settler.settle(paced, done({ readyAt: T0 + 1300 }), T0 + 1200);
    expect(await hostReadyAt(store, HOST)).toBe(T0 + 5000);
    expect(await store.claim({ now: T0 + 4999, leaseMs: 1 })).toEqual({ lease: null, nextReadyAt: T0 + 5000 });

    // The store keeps the hold itself: another worker's settle, knowing no hold, cannot pull it back.
    const otherWorker = new LeaseSettler(store, 1);
    await otherWorker.settle(held, done({ readyAt: T0 + 1400 }), T0 + 1350);
    expect(await hostReadyAt(store, HOST)).toBe(T0 + 5000);
    await store.setHostPolicy(HOST, { readyAt: T0 });
    expect(await hostReadyAt(store, HOST)).toBe(T0 + 5000);
  });

  it('a hand-back (no request made) is raised to the hold too', async () => {
    const store = await storeWith(['/a', '/b'], 2);
    const settler = new LeaseSettler(store, 2);
    await claimAt(store, T0);
    const second = await claimAt(store, T0 + DELAY);
    settler.noteHold(HOST, { notBefore: T0 + 8000 }, T0 + DELAY + 1);
    await settler.settle(second, released('host-held', handBack(second)), T0 + DELAY + 2);
    expect(await hostReadyAt(store, HOST)).toBe(T0 + 8000);
  });

  it('heldUntil answers the hold until it passes, and only for its host', async () => {
    const store = await storeWith(['/a']);
    const settler = new LeaseSettler(store, 1);
    settler.noteHold(HOST, { readyAt: T0 + 2000, notBefore: T0 + 2000 }, T0);
    settler.noteHold(HOST, { readyAt: T0 + 1500, notBefore: T0 + 1500 }, T0 + 10); // shorter: does not shorten it
    settler.noteHold(HOST, { readyAt: T0 + 9000 }, T0 + 20); // a pace is not a hold
    expect(settler.heldUntil(HOST, T0 + 1999)).toBe(T0 + 2000);
    expect(settler.heldUntil(OTHER, T0 + 1999)).toBeUndefined();
    expect(settler.heldUntil(HOST, T0 + 2000)).toBeUndefined();
  });

  it('a settle’s own hold is noted by the settle (heldUntil knows it afterwards)', async () => {
    const store = await storeWith(['/a', '/b']);
    const settler = new LeaseSettler(store, 1);
    await settler.settle(
      await claimAt(store, T0),
      { kind: 'retry', stage: 'fetch', error, clock: { readyAt: T0 + 4000, notBefore: T0 + 4000 } },
      T0 + 10,
    );
    expect(settler.heldUntil(HOST, T0 + 3999)).toBe(T0 + 4000);
  });

  it('a hold that has passed no longer raises a pace', async () => {
    const store = await storeWith(['/a', '/b'], 2);
    const settler = new LeaseSettler(store, 2);
    await claimAt(store, T0);
    const lease = await claimAt(store, T0 + DELAY);
    settler.noteHold(HOST, { notBefore: T0 + 1500 }, T0 + DELAY);
    await settler.settle(lease, done({ readyAt: T0 + 3000 }), T0 + 2000);
    expect(await hostReadyAt(store, HOST)).toBe(T0 + 3000);
    expect(settler.heldUntil(HOST, T0 + 2000)).toBeUndefined();
  });

  it('holds one host only: another host’s settle is neither raised nor held', async () => {
    const store = await storeWith(['/a']);
    await storeWith(['/x'], 1, OTHER, store);
    const settler = new LeaseSettler(store, 1);
    const first = await claimAt(store, T0);
    const second = await claimAt(store, T0);
    const [onHost, onOther] = first.entry.hostKey === HOST ? [first, second] : [second, first];
    await settler.settle(
      onHost,
      { kind: 'retry', stage: 'fetch', error, clock: { readyAt: T0 + 9000, notBefore: T0 + 9000 } },
      T0 + 1,
    );
    await settler.settle(onOther!, done({ readyAt: T0 + 200 }), T0 + 2);
    expect(await hostReadyAt(store, OTHER)).toBe(T0 + 200);
    expect(await hostReadyAt(store, HOST)).toBe(T0 + 9000);
  });
});

// A hand-back restores the clock as it stood before the claim only where no other claim of the
// host can have moved it since: at per-host concurrency 1. Above 1 the clock stays as the claims
// set it (the claim costs the host a delay slot, and no later claim's turn is undone).
describe('LeaseSettler: a hand-back after a later claim of the host', () => {
  it('at per-host concurrency 1 the clock goes back to before the claim', async () => {
    const store = await storeWith(['/a', '/b']);
    const settler = new LeaseSettler(store, 1);
    const a = await claimAt(store, T0 + DELAY);
    await settler.settle(a, released('page-budget', handBack(a)), T0 + DELAY + 100);
    expect(await hostReadyAt(store, HOST)).toBe(a.previousHostReadyAt);
  });

  it('above 1, never lets the next request start sooner than the delay after the later claim', async () => {
    const store = await storeWith(['/a', '/b', '/c'], 2);
    const settler = new LeaseSettler(store, 2);
    const a = await claimAt(store, T0);
    const b = await claimAt(store, T0 + DELAY); // B's request starts now
    await settler.settle(a, released('page-budget', handBack(a)), T0 + DELAY + 100);
    expect(b.previousHostReadyAt).toBe(T0 + DELAY);
    expect(await store.claim({ now: T0 + DELAY + 100, leaseMs: 1 })).toEqual({
      lease: null,
      nextReadyAt: T0 + 2 * DELAY,
    });
  });
});
