// What a check's answer says about how it was reached, so a caller needs no side channel: the
// robots.txt fetch it waited on (and when), the failures in a row and when robots.txt is fetched
// again, and whether the SSRF guard refused the host.

import {
  createHttpClient,
  createRobotsGate,
  PolitelyError,
  type RobotsCacheRecord,
  type RobotsFetch,
  type RobotsGate,
  type RobotsGateOptions,
} from '@politely/core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  createClock,
  type Handler,
  LOOPBACK,
  MINUTE,
  robotsTxt,
  SECOND,
  startServer,
  type TestServer,
} from '../../../../test/support/robots-server.js';
import { createJsonStore } from './json-store.js';

const UA = 'FactBot/1.0';
let server: TestServer;
const gates: RobotsGate[] = [];

beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.close());
afterEach(async () => {
  await Promise.all(gates.splice(0).map((g) => g.close()));
  server.reset();
});

function makeGate(options: RobotsGateOptions = {}): RobotsGate {
  const gate = createRobotsGate({ allowNet: LOOPBACK, ...options });
  gates.push(gate);
  return gate;
}

const url = (path: string): string => server.origin + path;

/** Answers after `ms`, as `handler` would. */
const slow =
  (ms: number, handler: Handler): Handler =>
  (req, res) =>
    void setTimeout(() => handler(req, res), ms);

describe('RobotsCheck.fetch', () => {
  it('is there for the check that fetched and for a concurrent check that joined it, not for a later cached check', async () => {
    const gate = makeGate();
    server.handle = slow(100, robotsTxt(200, 'User-agent: *\nDisallow: /x\n'));
    const before = Date.now();
    const [first, joined] = await Promise.all([gate.check(url('/x'), UA), gate.check(url('/y'), UA)]);
    const after = Date.now();
    expect(server.hits('/robots.txt')).toBe(1);
    expect(first).toMatchObject({ allowed: false, reason: 'rules' });
    expect(joined).toMatchObject({ allowed: true, reason: 'rules' });
    const fetch = first.fetch;
    expect(fetch).toBeDefined();
    expect(joined.fetch).toEqual(fetch);
    expect(fetch?.requestedAt).toBeGreaterThanOrEqual(before);
    expect(fetch?.respondedAt).toBeLessThanOrEqual(after);
    expect((fetch?.respondedAt ?? 0) - (fetch?.requestedAt ?? 0)).toBeGreaterThanOrEqual(95); // the server's 100 ms

    const later = await gate.check(url('/z'), UA);
    expect(later).toMatchObject({ allowed: true, reason: 'rules' });
    expect(later.fetch).toBeUndefined();
    expect(server.hits('/robots.txt')).toBe(1);
  });

  it('spans every hop: requested as the first began, responded when the last response was in', async () => {
    const gate = makeGate();
    server.handle = (req, res) => {
      if (req.url === '/robots.txt')
        return void setTimeout(() => res.writeHead(301, { location: '/moved.txt' }).end(), 60);
      if (req.url === '/moved.txt')
        return void setTimeout(() => res.writeHead(200).end('User-agent: *\nDisallow: /x\n'), 60);
      res.writeHead(404).end();
    };
    const before = Date.now();
    const check = await gate.check(url('/x'), UA);
    const after = Date.now();
    expect(check).toMatchObject({ allowed: false, reason: 'rules', status: 200 });
    expect(server.hits()).toBe(2);
    expect(check.fetch?.requestedAt).toBeGreaterThanOrEqual(before);
    expect(check.fetch?.respondedAt).toBeLessThanOrEqual(after);
    expect((check.fetch?.respondedAt ?? 0) - (check.fetch?.requestedAt ?? 0)).toBeGreaterThanOrEqual(115); // two 60 ms hops
  });

  it('reads its times from the gate’s now()', async () => {
    const clock = createClock();
    const start = clock.now();
    const gate = makeGate({ now: clock.now });
    server.handle = (req, res) => {
      clock.advance(5 * SECOND); // the request took five seconds, by the gate's clock
      robotsTxt(200, 'User-agent: *\nDisallow: /x\n')(req, res);
    };
    const check = await gate.check(url('/x'), UA);
    expect(check.fetch).toEqual({ requestedAt: start, respondedAt: start + 5 * SECOND });
  });

  it('is there for a check that re-fetched an expired record', async () => {
    const clock = createClock();
    const gate = makeGate({ now: clock.now });
    server.handle = robotsTxt(200, 'User-agent: *\nDisallow: /x\n', { 'cache-control': 'max-age=600' });
    expect((await gate.check(url('/x'), UA)).fetch).toBeDefined();
    clock.advance(5 * MINUTE);
    expect((await gate.check(url('/x'), UA)).fetch).toBeUndefined();
    clock.advance(5 * MINUTE);
    expect((await gate.check(url('/x'), UA)).fetch).toEqual({ requestedAt: clock.now(), respondedAt: clock.now() });
    expect(server.hits()).toBe(2);
  });

  it('is absent when another gate sharing the store made the fetch', async () => {
    const store = createJsonStore();
    server.handle = robotsTxt(200, 'User-agent: *\nDisallow: /x\n');
    expect((await makeGate({ cache: store }).check(url('/x'), UA)).fetch).toBeDefined();
    const other = await makeGate({ cache: store }).check(url('/x'), UA);
    expect(other).toMatchObject({ allowed: false, reason: 'rules' });
    expect(other.fetch).toBeUndefined();
    expect(server.hits()).toBe(1);
  });
});

describe('RobotsCheck.failures and retryAt', () => {
  it('rfc9309 2.3.1.4: count unreachable fetches in a row and say when robots.txt is fetched again', async () => {
    const clock = createClock();
    const gate = makeGate({ now: clock.now });
    server.handle = robotsTxt(503);
    const first = await gate.check(url('/a'), UA);
    expect(first).toMatchObject({ allowed: false, reason: 'unreachable', status: 503, failures: 1 });
    expect(first.retryAt).toBe((first.fetch?.respondedAt ?? NaN) + MINUTE); // the first backoff
    expect(first.addressBlocked).toBeUndefined();

    clock.advance(MINUTE - 1); // one millisecond before retryAt: answered from the record
    const waiting = await gate.check(url('/b'), UA);
    expect(waiting).toMatchObject({ reason: 'unreachable', failures: 1, retryAt: first.retryAt });
    expect(waiting.fetch).toBeUndefined();
    expect(server.hits()).toBe(1);

    clock.advance(1); // at retryAt: fetched again
    expect(clock.now()).toBe(first.retryAt);
    const second = await gate.check(url('/c'), UA);
    expect(server.hits()).toBe(2);
    expect(second).toMatchObject({ reason: 'unreachable', failures: 2, fetch: { respondedAt: clock.now() } });
    expect(second.retryAt).toBe(clock.now() + 2 * MINUTE); // the backoff doubled

    server.handle = robotsTxt(200, 'User-agent: *\nDisallow: /x\n');
    clock.advance(2 * MINUTE);
    const recovered = await gate.check(url('/c'), UA);
    expect(recovered).toMatchObject({ allowed: true, reason: 'rules', status: 200 });
    expect(recovered.failures).toBeUndefined();
    expect(recovered.retryAt).toBeUndefined();
  });

  it('retryAt honours Retry-After on a 503', async () => {
    const clock = createClock();
    const gate = makeGate({ now: clock.now });
    server.handle = robotsTxt(503, '', { 'retry-after': '300' });
    const check = await gate.check(url('/a'), UA);
    expect(check).toMatchObject({ reason: 'unreachable', failures: 1, retryAt: clock.now() + 300 * SECOND });
  });

  it('is one count for every gate sharing the store', async () => {
    const clock = createClock();
    const store = createJsonStore();
    server.handle = robotsTxt(500);
    await makeGate({ cache: store, now: clock.now }).check(url('/a'), UA);
    clock.advance(MINUTE);
    const second = await makeGate({ cache: store, now: clock.now }).check(url('/a'), UA);
    expect(second).toMatchObject({ reason: 'unreachable', failures: 2, retryAt: clock.now() + 2 * MINUTE });
    expect(server.hits()).toBe(2);
  });
});

describe('RobotsCheck.addressBlocked', () => {
  it('is true when the SSRF guard refused the host, for the check that fetched and for one answered from the record', async () => {
    server.handle = robotsTxt(200, 'User-agent: *\nAllow: /\n');
    const gate = createRobotsGate({ userAgent: UA, blockPrivateNetworks: true }); // no allowNet: 127.0.0.1 is refused
    gates.push(gate);
    const first = await gate.check(url('/x'), UA);
    expect(first).toMatchObject({
      allowed: false,
      reason: 'unreachable',
      status: null,
      addressBlocked: true,
      failures: 1,
    });
    expect(first.fetch).toBeDefined();
    const second = await gate.check(url('/y'), UA);
    expect(second).toMatchObject({ allowed: false, reason: 'unreachable', addressBlocked: true });
    expect(second.fetch).toBeUndefined();
    expect(server.hits()).toBe(0);
  });

  it("is the gate's own: never written to a shared store, so a gate that allows the address fetches", async () => {
    server.handle = robotsTxt(200, 'User-agent: *\nAllow: /\n');
    const store = createJsonStore();
    const gate = createRobotsGate({ userAgent: UA, blockPrivateNetworks: true, cache: store });
    gates.push(gate);
    expect(await gate.check(url('/x'), UA)).toMatchObject({ addressBlocked: true });
    expect(store.texts.has(server.origin)).toBe(false);
    expect(server.hits()).toBe(0);
    // Another crawl on the same store, with allowNet (a mistake fixed): robots.txt is fetched.
    const other = await makeGate({ cache: store }).check(url('/y'), UA);
    expect(other).toMatchObject({ allowed: true, reason: 'rules', status: 200 });
    expect(other.addressBlocked).toBeUndefined();
    expect(server.hits()).toBe(1);
  });

  it('comes through a caller’s fetch that rethrows the HTTP client’s error, and clears when a later fetch gets through', async () => {
    const clock = createClock();
    const client = createHttpClient({ blockPrivateNetworks: true });
    const open = createHttpClient({ blockPrivateNetworks: false });
    let guarded = true;
    // As a crawler provides it: its own client, the client's errors handed on as they are.
    const fetch: RobotsFetch = async (request) => {
      const response = await (guarded ? client : open).get({
        url: request.url,
        headers: { 'user-agent': request.userAgent },
        signal: request.signal,
        timeoutMs: 5000,
        bodyLimit: { maxBytes: request.maxBytes, atLimit: 'truncate' },
      });
      return {
        status: response.status,
        header: response.header,
        body: response.body,
        truncatedAtCap: response.truncated,
      };
    };
    try {
      const store = createJsonStore();
      const gate = makeGate({ fetch, now: clock.now, cache: store });
      server.handle = robotsTxt(200, 'User-agent: *\nDisallow: /x\n');
      expect(await gate.check(url('/x'), UA)).toMatchObject({ reason: 'unreachable', addressBlocked: true });
      guarded = false;
      clock.advance(MINUTE);
      const through = await gate.check(url('/x'), UA);
      expect(through).toMatchObject({ allowed: false, reason: 'rules', status: 200 });
      expect(through.addressBlocked).toBeUndefined();
      expect((JSON.parse(store.texts.get(server.origin) ?? '{}') as RobotsCacheRecord).errorCode).toBeUndefined();
    } finally {
      await Promise.all([client.close(), open.close()]);
    }
  });

  it('is absent for other network errors, which keep their own code', async () => {
    const store = createJsonStore();
    const failures: RobotsFetch[] = [
      () => Promise.reject(new PolitelyError('ERR_FETCH_FAILED', 'connection reset')),
      () => Promise.reject(Object.assign(new Error('refused'), { code: 'ERR_ADDRESS_BLOCKED' })), // not a PolitelyError
    ];
    for (const [i, fetch] of failures.entries()) {
      const origin = `https://fail${i}.example`;
      const check = await makeGate({ fetch, cache: store }).check(`${origin}/x`, UA);
      expect(check).toMatchObject({ allowed: false, reason: 'unreachable', status: null, failures: 1 });
      expect(check.addressBlocked).toBeUndefined();
      const record = JSON.parse(store.texts.get(origin) ?? '{}') as RobotsCacheRecord;
      expect(record.errorCode).toBe(i === 0 ? 'ERR_FETCH_FAILED' : undefined);
    }
  });
});
