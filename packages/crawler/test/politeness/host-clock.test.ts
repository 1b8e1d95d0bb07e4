import { createMemoryFrontierStore, type FrontierLease, type FrontierStore } from '@politely/frontier';
import { describe, expect, it } from 'vitest';
import { startServer } from '../../../../test/support/site-server.js';
import { createCrawler } from '../../src/crawler.js';
import { HostHolds, raisedHold, settledReadyAt } from '../../src/politeness/host-clock.js';

describe('settledReadyAt', () => {
  it('keeps the proposed time when no hold is in force', () => {
    expect(settledReadyAt(500, undefined, 0)).toBe(500);
    expect(settledReadyAt(500, 900, 900)).toBe(500); // the hold has passed
    expect(settledReadyAt(500, 900, 1000)).toBe(500);
  });
  it('never sets the clock before a hold in force', () => {
    expect(settledReadyAt(500, 2000, 100)).toBe(2000);
    expect(settledReadyAt(3000, 2000, 100)).toBe(3000);
  });
  it('proposes nothing when nothing was proposed (the store keeps its clock)', () => {
    expect(settledReadyAt(undefined, 2000, 100)).toBeUndefined();
  });
});

describe('raisedHold', () => {
  it('keeps the later of two holds', () => {
    expect(raisedHold(undefined, 1000)).toBe(1000);
    expect(raisedHold(2000, 1000)).toBe(2000);
    expect(raisedHold(1000, 2000)).toBe(2000);
  });
});

describe('HostHolds', () => {
  it('holds each host apart, and forgets a hold once it has passed', () => {
    const holds = new HostHolds();
    expect(holds.hold('a', 2000, 0)).toBe(2000);
    expect(holds.hold('a', 1500, 100)).toBe(2000); // a shorter Retry-After does not shorten it
    expect(holds.readyAt('a', 300, 200)).toBe(2000);
    expect(holds.readyAt('b', 300, 200)).toBe(300);
    expect(holds.current('a', 1999)).toBe(2000);
    expect(holds.readyAt('a', 300, 2000)).toBe(300);
    expect(holds.size).toBe(0);
  });
  it('does not keep a hold that has already passed', () => {
    const holds = new HostHolds();
    expect(holds.hold('a', 100, 500)).toBe(100);
    expect(holds.size).toBe(0);
  });
  it('stays bounded: past holds go first, then the earliest to end', () => {
    const holds = new HostHolds(2);
    holds.hold('a', 1000, 0);
    holds.hold('b', 5000, 0);
    holds.hold('c', 3000, 0); // full: a (the earliest to end) goes
    expect([holds.current('a', 0), holds.current('b', 0), holds.current('c', 0)]).toEqual([undefined, 5000, 3000]);
    holds.hold('d', 9000, 4000); // c has passed by now: it goes, b stays
    expect([holds.current('b', 4000), holds.current('d', 4000)]).toEqual([5000, 9000]);
  });
});

// Requests in flight at one host, answered in every order, on a fake clock: the memory store
// keeps the host's clock and its hold, and settles go through HostHolds as the crawler's do (the
// pace raised to the process's hold, and the hold sent as `hostNotBefore`).

const HOST = 'example.test';
type Answer =
  | { readonly kind: 'ok' } // 200: the host's pace after it (no delay here)
  | { readonly kind: 'retry-after'; readonly ms: number } // 503/429 with Retry-After
  | { readonly kind: 'hand-back' }; // no request made: the clock as it was before the claim

interface Harness {
  readonly store: FrontierStore;
  readonly holds: HostHolds;
  readonly leases: FrontierLease[];
}

async function startHost(inFlight: number, delayMs = 0): Promise<Harness> {
  const store = createMemoryFrontierStore({ defaultHostPolicy: { delayMs, maxInFlight: inFlight } });
  const urls = Array.from({ length: inFlight + 2 }, (_, i) => `http://${HOST}/p${i}`);
  await store.add(urls.map((url) => ({ url, hostKey: HOST, depth: 1, priority: 0 })));
  const leases: FrontierLease[] = [];
  for (let i = 0; i < inFlight; i++) {
    const claimed = await store.claim({ now: i * delayMs, leaseMs: 60_000 });
    if (claimed.lease === null) throw new Error('expected a lease');
    leases.push(claimed.lease);
  }
  return { store, holds: new HostHolds(), leases };
}

/** Settles `lease` at `now` as the crawler does; returns the hold it asked for, if any. */
async function settle(
  { store, holds }: Harness,
  lease: FrontierLease,
  answer: Answer,
  now: number,
  delayMs = 0,
): Promise<number | undefined> {
  switch (answer.kind) {
    case 'ok':
      await store.complete(lease.id, { hostReadyAt: holds.readyAt(HOST, now + delayMs, now)!, ...held(holds, now) });
      return undefined;
    case 'retry-after': {
      const notBefore = now + answer.ms;
      await store.retry(lease.id, { hostReadyAt: holds.hold(HOST, notBefore, now), ...held(holds, now) });
      return notBefore;
    }
    case 'hand-back':
      await store.release(lease.id, {
        hostReadyAt: holds.readyAt(HOST, lease.previousHostReadyAt, now)!,
        ...held(holds, now),
      });
      return undefined;
  }
}

/** The process's hold on the host, as a settle tells the store. */
function held(holds: HostHolds, now: number): { hostNotBefore?: number } {
  const hold = holds.current(HOST, now);
  return hold === undefined ? {} : { hostNotBefore: hold };
}

function permutations<T>(items: readonly T[]): T[][] {
  if (items.length <= 1) return [[...items]];
  return items.flatMap((item, i) =>
    permutations([...items.slice(0, i), ...items.slice(i + 1)]).map((rest) => [item, ...rest]),
  );
}

/** The first time (ms, scanning from `from` in 10 ms steps) a URL can be claimed, and which. */
async function firstClaim(
  store: FrontierStore,
  from: number,
  until: number,
): Promise<{ at: number; url: string } | undefined> {
  for (let now = from; now <= until; now += 10) {
    const claimed = await store.claim({ now, leaseMs: 60_000 });
    if (claimed.lease !== null) return { at: now, url: claimed.lease.entry.url };
  }
  return undefined;
}

describe('the host clock with several requests in flight, answers in any order', () => {
  it('two in flight: a 503 Retry-After: 2 and a 200 of a request started before it, both orders', async () => {
    for (const order of [
      ['503', '200'],
      ['200', '503'],
    ]) {
      const harness = await startHost(2);
      const [a, b] = harness.leases as [FrontierLease, FrontierLease];
      let notBefore = 0;
      for (const [step, which] of order.entries()) {
        const now = 100 + step * 300;
        if (which === '503') notBefore = (await settle(harness, a, { kind: 'retry-after', ms: 2000 }, now))!;
        else await settle(harness, b, { kind: 'ok' }, now);
      }
      const next = await firstClaim(harness.store, 0, 5000);
      expect(next, order.join(' then ')).toBeDefined();
      expect(next!.at, order.join(' then ')).toBeGreaterThanOrEqual(notBefore);
    }
  });

  it('a store told no hold lets the 200 pull the clock back; told it, the store keeps it (for every worker)', async () => {
    const unheld = await startHost(2);
    const [a, b] = unheld.leases as [FrontierLease, FrontierLease];
    await unheld.store.retry(a.id, { hostReadyAt: 100 + 2000 });
    await unheld.store.complete(b.id, { hostReadyAt: 400 });
    expect((await firstClaim(unheld.store, 0, 5000))!.at).toBe(400);

    const told = await startHost(2);
    const [c, d] = told.leases as [FrontierLease, FrontierLease];
    await told.store.retry(c.id, { hostReadyAt: 100 + 2000, hostNotBefore: 100 + 2000 });
    // Another worker's 200: its process knows no hold.
    await told.store.complete(d.id, { hostReadyAt: 400 });
    expect((await firstClaim(told.store, 0, 5000))!.at).toBe(2100);
  });

  const four: Array<{ name: string; answers: Answer[] }> = [
    {
      name: 'Retry-After 2 s, two 200s, a Retry-After 1 s',
      answers: [{ kind: 'retry-after', ms: 2000 }, { kind: 'ok' }, { kind: 'ok' }, { kind: 'retry-after', ms: 1000 }],
    },
    {
      name: 'Retry-After 1 s, a 200, a hand-back, another 200',
      answers: [{ kind: 'retry-after', ms: 1000 }, { kind: 'ok' }, { kind: 'hand-back' }, { kind: 'ok' }],
    },
  ];
  for (const { name, answers } of four) {
    for (const delayMs of [0, 50]) {
      it(`four in flight (${name}; delay ${delayMs} ms), settled in all 24 orders`, async () => {
        for (const order of permutations([0, 1, 2, 3])) {
          const harness = await startHost(4, delayMs);
          const notBefore = new Map<string, number>();
          for (const [step, index] of order.entries()) {
            const lease = harness.leases[index]!;
            const asked = await settle(harness, lease, answers[index]!, 200 + step * 250, delayMs);
            if (asked !== undefined) notBefore.set(lease.entry.url, asked);
          }
          const hostNotBefore = Math.max(...notBefore.values());
          const label = `order ${order.join(',')}`;
          const next = await firstClaim(harness.store, 0, 10_000);
          expect(next, label).toBeDefined();
          // No request to the host before the latest Retry-After…
          expect(next!.at, label).toBeGreaterThanOrEqual(hostNotBefore);
          // …and no refused URL before its own, however long the crawl runs on.
          const claims = [next!];
          for (
            let more = await firstClaim(harness.store, next!.at, 20_000);
            more !== undefined;
            more = await firstClaim(harness.store, more.at, 20_000)
          ) {
            claims.push(more);
          }
          for (const claim of claims)
            expect(claim.at, `${label}: ${claim.url}`).toBeGreaterThanOrEqual(notBefore.get(claim.url) ?? 0);
          expect(claims.map((c) => c.url)).toEqual(expect.arrayContaining([...notBefore.keys()]));
        }
      });
    }
  }
});

// End to end, one crawler: the hold is known in the process the moment the 503 is in, before the
// store hears of it (a URL's last attempt settles only after its handler).
describe('a hold known in the process and not yet in the store', () => {
  it('a URL claimed for the held host goes back without a request (judged by the server)', async () => {
    let refusedAt: number | undefined;
    const server = await startServer(
      {
        '/robots.txt': 'User-agent: *\nAllow: /\n',
        '/': ['/p1', '/p2', '/p3'].map((p) => `<a href="${p}">${p}</a>`).join(''),
        '/p1': (_req, res) => {
          refusedAt = performance.now();
          res.writeHead(503, { 'retry-after': '2', 'content-type': 'text/html' });
          res.end('later');
        },
      },
      '127.0.0.1',
      (path) => (path.startsWith('/p') ? `page ${path}` : undefined),
    );
    // The host's clock lets a request start every 300 ms, with room for three in flight: /p2 is
    // claimed 300 ms after /p1, while /p1's handler still holds its lease (its only attempt, so
    // the store hears of the Retry-After when the handler is done, 1.5 s later).
    const crawler = createCrawler({
      userAgent: 'TestBot/1.0 (+http://example.invalid/bot)',
      allowNet: ['127.0.0.0/8'],
      seeds: [`${server.base}/`],
      minDelayMs: 300,
      perHostConcurrency: 3,
      maxRetries: 0,
      handler: (page) => (page.status === 503 ? new Promise((resolve) => setTimeout(resolve, 1500)) : undefined),
    });
    const stats = await crawler.run().finally(() => server.close());
    expect(refusedAt).toBeDefined();
    const after = server.log.filter((r) => r.at > refusedAt!);
    expect(after.map((r) => r.path).sort()).toEqual(['/p2', '/p3']);
    // performance.now() of the server; the crawler reads the Retry-After from when the response was in.
    for (const request of after) expect(request.at - refusedAt!, request.path).toBeGreaterThanOrEqual(2000);
    expect(stats).toMatchObject({ byStatus: { 200: 3, 503: 1 } });
  });
});
