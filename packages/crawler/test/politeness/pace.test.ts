// The pace arithmetic (politeness/pace.ts) on a fake clock, and what its ClockChanges do to a
// real memory store's host clock when several requests at one host settle in any order.

import { PolitelyError } from '@politely/core';
import type { FrontierLease, FrontierStore } from '@politely/frontier';
import { createMemoryFrontierStore } from '@politely/frontier';
import { describe, expect, it } from 'vitest';
import { done, type UrlOutcome } from '../../src/pipeline/outcome.js';
import { LeaseSettler } from '../../src/pipeline/settle.js';
import {
  clockAfterFailure,
  clockAfterResponse,
  clockAfterRobots,
  clockAfterRobotsFailure,
  holdUntil,
  isRetryableStatus,
  pacedAfter,
  responseHeadAt,
} from '../../src/politeness/pace.js';
import { claimAt, permutations } from '../pipeline/pipeline-helpers.js';

const T0 = 1_700_000_000_000;

// The head is read back from the end of the body: the body's time comes off, one ms grain goes on.
describe('responseHeadAt', () => {
  it('subtracts the body time from when the body was in, plus the 1 ms grain', () => {
    expect(responseHeadAt(T0, { totalMs: 300, headersMs: 100 })).toBe(T0 - 199);
    expect(responseHeadAt(T0, { totalMs: 40, headersMs: 40 })).toBe(T0 + 1); // no body time
    expect(responseHeadAt(T0, { totalMs: 300.75, headersMs: 100.25 })).toBeCloseTo(T0 - 199.5, 6);
  });
  it('does not depend on when the request was sent (only the body time counts)', () => {
    expect(responseHeadAt(T0, { totalMs: 5000, headersMs: 4900 })).toBe(
      responseHeadAt(T0, { totalMs: 100, headersMs: 0 }),
    );
  });
});

// A pace runs from a moment plus the delay; a hold sets both fields to one time.
describe('pacedAfter and holdUntil', () => {
  it('paces from the head', () => {
    expect(pacedAfter(T0, 250)).toEqual({ readyAt: T0 + 250 });
    expect(pacedAfter(T0, 0)).toEqual({ readyAt: T0 });
  });
  it('holds with readyAt and notBefore both at the time', () => {
    expect(holdUntil(T0 + 9000)).toEqual({ readyAt: T0 + 9000, notBefore: T0 + 9000 });
  });
});

// A robots.txt fetch used the host's turn: pace from its response; no fetch: hand the claim's clock back.
describe('clockAfterRobots', () => {
  it('runs from the robots.txt response (+1 ms grain) plus the delay when the check fetched', () => {
    expect(clockAfterRobots({ respondedAt: T0 + 700 }, 250, T0)).toEqual({ readyAt: T0 + 951 });
    expect(clockAfterRobots({ respondedAt: T0 + 700 }, 0, T0 + 5000)).toEqual({ readyAt: T0 + 701 });
  });
  it('hands the claim’s clock back when no request was made, whatever the delay', () => {
    expect(clockAfterRobots(undefined, 250, T0 + 123)).toEqual({ handBackTo: T0 + 123 });
    expect(clockAfterRobots(undefined, 60_000, 0)).toEqual({ handBackTo: 0 });
  });
});

// robots.txt unreachable: hold until the gate's next attempt, and never sooner than the delay.
describe('clockAfterRobotsFailure', () => {
  it('holds until retryAt when the backoff outlasts the delay', () => {
    expect(clockAfterRobotsFailure(T0 + 5000, { respondedAt: T0 + 100 }, 2000)).toEqual({
      readyAt: T0 + 5000,
      notBefore: T0 + 5000,
    });
  });
  it('holds a delay (+1 ms grain) after the failed response when the delay outlasts the backoff', () => {
    expect(clockAfterRobotsFailure(T0 + 1100, { respondedAt: T0 + 100 }, 2000)).toEqual({
      readyAt: T0 + 2101,
      notBefore: T0 + 2101,
    });
  });
  it('holds until retryAt when this check made no fetch (another claim’s or worker’s record)', () => {
    expect(clockAfterRobotsFailure(T0 + 1100, undefined, 60_000)).toEqual({ readyAt: T0 + 1100, notBefore: T0 + 1100 });
  });
});

// The hold after a failed attempt: the longer of backoff and Retry-After, the latter capped.
describe('clockAfterFailure', () => {
  const at = T0 + 1000;
  it('holds for the Retry-After when it is longer than the backoff', () => {
    expect(clockAfterFailure({ at, backoffMs: 500, retryAfterMs: 2000, maxWaitMs: 60_000 })).toEqual(
      holdUntil(at + 2000),
    );
  });
  it('holds for the backoff when it is longer than the Retry-After', () => {
    expect(clockAfterFailure({ at, backoffMs: 4000, retryAfterMs: 2000, maxWaitMs: 60_000 })).toEqual(
      holdUntil(at + 4000),
    );
  });
  it('caps the Retry-After at maxWaitMs (a server asking for an hour)', () => {
    expect(clockAfterFailure({ at, backoffMs: 500, retryAfterMs: 3_600_000, maxWaitMs: 10_000 })).toEqual(
      holdUntil(at + 10_000),
    );
  });
  it('holds for the backoff alone when no Retry-After came', () => {
    expect(clockAfterFailure({ at, backoffMs: 1500, retryAfterMs: undefined, maxWaitMs: 10_000 })).toEqual(
      holdUntil(at + 1500),
    );
  });
  it('takes a Retry-After of 0 as no wait beyond the backoff', () => {
    expect(clockAfterFailure({ at, backoffMs: 700, retryAfterMs: 0, maxWaitMs: 10_000 })).toEqual(holdUntil(at + 700));
  });
});

// A final response paces the host; a 429/503 that asked to wait holds it too (its URL is done).
describe('clockAfterResponse', () => {
  const headAt = T0 + 2000;
  const base = { headAt, delayMs: 250, retryAfterMs: undefined, maxWaitMs: 60_000 };
  it('paces a 200 from its head, with no hold (a Retry-After on a 200 means nothing)', () => {
    expect(clockAfterResponse({ ...base, status: 200 })).toEqual({ readyAt: headAt + 250 });
    expect(clockAfterResponse({ ...base, status: 200, retryAfterMs: 5000 })).toEqual({ readyAt: headAt + 250 });
  });
  it.each([429, 503])(
    'holds a %i with Retry-After: notBefore = head + Retry-After, readyAt not before it',
    (status) => {
      const clock = clockAfterResponse({ ...base, status, retryAfterMs: 2000 });
      expect(clock).toEqual({ readyAt: headAt + 2000, notBefore: headAt + 2000 });
    },
  );
  it('keeps the pace when it is later than the hold (a long delay, a short Retry-After)', () => {
    expect(clockAfterResponse({ ...base, delayMs: 5000, status: 503, retryAfterMs: 1000 })).toEqual({
      readyAt: headAt + 5000,
      notBefore: headAt + 1000,
    });
  });
  it('caps the Retry-After at maxWaitMs', () => {
    expect(clockAfterResponse({ ...base, status: 429, retryAfterMs: 86_400_000, maxWaitMs: 10_000 })).toEqual({
      readyAt: headAt + 10_000,
      notBefore: headAt + 10_000,
    });
  });
  it('only paces a 503 without Retry-After, and a 500 with one', () => {
    expect(clockAfterResponse({ ...base, status: 503 })).toEqual({ readyAt: headAt + 250 });
    expect(clockAfterResponse({ ...base, status: 500, retryAfterMs: 9000 })).toEqual({ readyAt: headAt + 250 });
  });
});

describe('isRetryableStatus', () => {
  it('retries 429 and every 5xx, nothing else', () => {
    expect([429, 500, 502, 503, 504, 599].map(isRetryableStatus)).toEqual([true, true, true, true, true, true]);
    expect([200, 204, 301, 304, 400, 403, 404, 410, 428, 499].map(isRetryableStatus)).toEqual(Array(10).fill(false));
  });
});

// ---------------------------------------------------------------------------------------------
// Requests in flight at one host answer in any order. Each answer's ClockChange comes from the
// functions above (as the fetch stage computes it), and is settled through a real LeaseSettler
// over a real memory store: the host's next claim never comes before the largest hold.

const DELAY = 200;
const CAP = 5000;
/** Body time 20 ms: the head came 19 ms before the settle's `now` (1 ms grain). */
const TIMING = { totalMs: 30, headersMs: 10 };
const error = new PolitelyError('ERR_FETCH_FAILED', 'HTTP 503');

interface Answer {
  readonly name: string;
  /** The outcome of a response that was in at `now`. */
  readonly outcome: (now: number) => UrlOutcome;
}

const ok: Answer = {
  name: '200',
  outcome: (now) =>
    done(
      clockAfterResponse({
        headAt: responseHeadAt(now, TIMING),
        delayMs: DELAY,
        status: 200,
        retryAfterMs: undefined,
        maxWaitMs: CAP,
      }),
    ),
};
const retried503 = (retryAfterMs: number): Answer => ({
  name: `503 Retry-After ${retryAfterMs} ms (retried)`,
  outcome: (now) => ({
    kind: 'retry',
    stage: 'fetch',
    error,
    clock: clockAfterFailure({ at: responseHeadAt(now, TIMING), backoffMs: 500, retryAfterMs, maxWaitMs: CAP }),
  }),
});
const last429: Answer = {
  name: '429 Retry-After 1 h on a last attempt (capped)',
  outcome: (now) =>
    done(
      clockAfterResponse({
        headAt: responseHeadAt(now, TIMING),
        delayMs: DELAY,
        status: 429,
        retryAfterMs: 3_600_000,
        maxWaitMs: CAP,
      }),
    ),
};
const last503Bare: Answer = {
  name: '503 without Retry-After on a last attempt',
  outcome: (now) =>
    done(
      clockAfterResponse({
        headAt: responseHeadAt(now, TIMING),
        delayMs: DELAY,
        status: 503,
        retryAfterMs: undefined,
        maxWaitMs: CAP,
      }),
    ),
};
const networkError: Answer = {
  name: 'network error (backoff 1.5 s)',
  outcome: (now) => ({
    kind: 'retry',
    stage: 'fetch',
    error,
    clock: clockAfterFailure({ at: now, backoffMs: 1500, retryAfterMs: undefined, maxWaitMs: CAP }),
  }),
};

const HOST = 'pace.test';

/** A host with `inFlight` URLs claimed DELAY apart (and one more queued, so the host stays schedulable). */
async function hostInFlight(inFlight: number): Promise<{ store: FrontierStore; leases: FrontierLease[] }> {
  const store = createMemoryFrontierStore({ defaultHostPolicy: { delayMs: DELAY, maxInFlight: inFlight } });
  await store.add(
    Array.from({ length: inFlight + 1 }, (_, i) => ({
      url: `http://${HOST}/p${i}`,
      hostKey: HOST,
      depth: 0,
      priority: 0,
    })),
  );
  const leases: FrontierLease[] = [];
  for (let i = 0; i < inFlight; i++) leases.push(await claimAt(store, T0 + i * DELAY));
  return { store, leases };
}

/** Settles the answers in `order`, one every 40 ms after the last claim; returns every outcome settled, in order. */
async function settleInOrder(
  answers: readonly Answer[],
  order: readonly number[],
): Promise<{ store: FrontierStore; settled: UrlOutcome[] }> {
  const { store, leases } = await hostInFlight(answers.length);
  const settler = new LeaseSettler(store, answers.length);
  const settled: UrlOutcome[] = [];
  for (const [step, index] of order.entries()) {
    const now = T0 + answers.length * DELAY + step * 40;
    const outcome = answers[index]!.outcome(now);
    await settler.settle(leases[index]!, outcome, now);
    settled.push(outcome);
  }
  return { store, settled };
}

/** The host's clock the store must end with: the last settle's pace, never before the largest hold. */
function expectedClock(settled: readonly UrlOutcome[]): { readonly readyAt: number; readonly largestHold: number } {
  const largestHold = Math.max(0, ...settled.map((o) => o.clock.notBefore ?? 0));
  return { readyAt: Math.max(settled.at(-1)!.clock.readyAt!, largestHold), largestHold };
}

async function expectNextClaimAt(store: FrontierStore, readyAt: number, label: string): Promise<void> {
  expect(await store.claim({ now: readyAt - 1, leaseMs: 1000 }), label).toEqual({ lease: null, nextReadyAt: readyAt });
  expect((await store.claim({ now: readyAt, leaseMs: 1000 })).lease, label).not.toBeNull();
}

describe('ClockChanges from the pace functions, settled in every order through LeaseSettler', () => {
  it('two in flight (a retried 503 Retry-After 2 s and a 200): both orders hold the host until the Retry-After', async () => {
    const answers = [retried503(2000), ok];
    for (const order of permutations([0, 1])) {
      const { store, settled } = await settleInOrder(answers, order);
      const { readyAt, largestHold } = expectedClock(settled);
      const label = `order ${order.map((i) => answers[i]!.name).join(' → ')}`;
      // The 503's hold: its head (19 ms before its settle) + 2000.
      expect(largestHold, label).toBe(T0 + 2 * DELAY + order.indexOf(0) * 40 - 19 + 2000);
      expect(readyAt, label).toBe(largestHold);
      await expectNextClaimAt(store, readyAt, label);
    }
  });

  const fours: Array<{
    name: string;
    answers: Answer[];
    largestHoldFrom: (settleAt: (index: number) => number) => number;
  }> = [
    {
      name: 'retried 503 RA 2 s, 200, 429 RA 1 h capped at 5 s, network error',
      answers: [retried503(2000), ok, last429, networkError],
      // The capped 429 (head + 5000) outlasts every other hold, whenever it settles (all settle within 120 ms).
      largestHoldFrom: (settleAt) => settleAt(2) - 19 + CAP,
    },
    {
      name: '200, 200, a bare 503 on a last attempt, retried 503 RA 1 s',
      answers: [ok, ok, last503Bare, retried503(1000)],
      largestHoldFrom: (settleAt) => settleAt(3) - 19 + 1000,
    },
  ];
  for (const { name, answers, largestHoldFrom } of fours) {
    it(`four in flight (${name}): all 24 orders, the next claim exactly at the later of the last pace and the largest hold`, async () => {
      const orders = permutations([0, 1, 2, 3]);
      expect(orders).toHaveLength(24);
      for (const order of orders) {
        const { store, settled } = await settleInOrder(answers, order);
        const { readyAt, largestHold } = expectedClock(settled);
        const label = `order ${order.join(',')}`;
        expect(largestHold, label).toBe(largestHoldFrom((index) => T0 + 4 * DELAY + order.indexOf(index) * 40));
        expect(readyAt, label).toBeGreaterThanOrEqual(largestHold);
        await expectNextClaimAt(store, readyAt, label);
      }
    });
  }

  it('a retried URL comes back with retries + 1, a done one does not come back', async () => {
    const answers = [retried503(1000), ok];
    const { store } = await settleInOrder(answers, [1, 0]);
    const urls: Array<{ url: string; retries: number | undefined }> = [];
    for (let now = T0 + 10_000; urls.length < 2; now += 1000) {
      const lease = await claimAt(store, now, 1);
      urls.push({ url: lease.entry.url, retries: lease.entry.retries });
      await store.complete(lease.id);
    }
    expect(urls).toEqual(
      expect.arrayContaining([
        { url: `http://${HOST}/p0`, retries: 1 },
        { url: `http://${HOST}/p2`, retries: undefined },
      ]),
    );
    expect(await store.counts()).toMatchObject({ queued: 0, inFlight: 0, done: 3 });
  });
});
