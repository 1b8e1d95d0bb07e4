// The gate against a live server: what each HTTP outcome of robots.txt means (RFC 9309 2.3.1).

import {
  createRobotsGate,
  PolitelyError,
  type RobotsFetchRequest,
  type RobotsGate,
  type RobotsGateOptions,
} from '@politely/core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  createClock,
  DAY,
  LOOPBACK,
  MINUTE,
  robotsTxt,
  SECOND,
  startServer,
  type TestServer,
} from '../../../../test/support/robots-server.js';

const UA = 'TestBot/1.0';
let server: TestServer;
let gate: RobotsGate;
let clock: ReturnType<typeof createClock>;

beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => {
  await server.close();
});
afterEach(async () => {
  await gate.close();
  server.reset();
});

function makeGate(options: RobotsGateOptions = {}): RobotsGate {
  clock = createClock();
  gate = createRobotsGate({ now: clock.now, allowNet: LOOPBACK, ...options });
  return gate;
}

const url = (path: string): string => server.origin + path;

describe('createRobotsGate', () => {
  it('rfc9309 2.3.1.1: decides by the rules of a 200 robots.txt', async () => {
    makeGate();
    server.handle = robotsTxt(200, 'User-agent: *\nDisallow: /private\nCrawl-delay: 2\n');
    const denied = await gate.check(url('/private/page'), UA);
    expect(denied).toMatchObject({ allowed: false, reason: 'rules', status: 200, crawlDelay: 2 });
    expect(denied.rule).toMatchObject({ type: 'disallow', value: '/private', line: 2 });
    expect(denied.origin).toBe(server.origin);
    expect(denied.robotsUrl).toBe(`${server.origin}/robots.txt`);
    const allowed = await gate.check(url('/public'), UA);
    expect(allowed).toMatchObject({ allowed: true, reason: 'rules', status: 200 });
    expect(allowed.rule).toBeUndefined();
    expect(server.hits('/robots.txt')).toBe(1);
  });

  it('rfc9309 2.3.1.1: parses whatever valid lines an HTML page holds', async () => {
    makeGate();
    server.handle = robotsTxt(200, '<html><body>\nUser-agent: *\nDisallow: /x\n</body></html>', {
      'content-type': 'text/html',
    });
    expect(await gate.check(url('/x'), UA)).toMatchObject({ allowed: false, reason: 'rules' });
  });

  it.each([404, 403, 401, 410])('rfc9309 2.3.1.3: %i means everything is allowed (unavailable)', async (status) => {
    makeGate();
    server.handle = robotsTxt(status, 'User-agent: *\nDisallow: /\n');
    const check = await gate.check(url('/anything'), UA);
    expect(check).toEqual({
      allowed: true,
      reason: 'unavailable',
      status,
      fetch: { requestedAt: clock.now(), respondedAt: clock.now() }, // this check fetched robots.txt
      origin: server.origin,
      robotsUrl: `${server.origin}/robots.txt`,
    });
  });

  it.each([429, 500, 503])(
    'rfc9309 2.3.1.4: %i means everything is disallowed, retried only after backoff',
    async (status) => {
      makeGate();
      server.handle = robotsTxt(status, 'User-agent: *\nAllow: /\n');
      expect(await gate.check(url('/a'), UA)).toMatchObject({ allowed: false, reason: 'unreachable', status });
      clock.advance(30 * SECOND);
      expect(await gate.check(url('/b'), UA)).toMatchObject({ allowed: false, reason: 'unreachable', status });
      expect(server.hits('/robots.txt')).toBe(1); // backoff: answered from the negative state
      clock.advance(31 * SECOND); // past the first 60 s
      await gate.check(url('/c'), UA);
      expect(server.hits('/robots.txt')).toBe(2);
      clock.advance(61 * SECOND); // the second delay is 120 s
      await gate.check(url('/d'), UA);
      expect(server.hits('/robots.txt')).toBe(2);
      clock.advance(60 * SECOND);
      await gate.check(url('/e'), UA);
      expect(server.hits('/robots.txt')).toBe(3);
    },
  );

  it('recovers when the server answers again after the backoff', async () => {
    makeGate();
    server.handle = robotsTxt(503);
    expect(await gate.check(url('/x'), UA)).toMatchObject({ allowed: false, reason: 'unreachable' });
    server.handle = robotsTxt(200, 'User-agent: *\nDisallow: /y\n');
    clock.advance(MINUTE);
    expect(await gate.check(url('/x'), UA)).toMatchObject({ allowed: true, reason: 'rules', status: 200 });
  });

  it('honours Retry-After in seconds on a 503', async () => {
    makeGate();
    server.handle = robotsTxt(503, '', { 'retry-after': '300' });
    await gate.check(url('/x'), UA);
    clock.advance(299 * SECOND);
    await gate.check(url('/x'), UA);
    expect(server.hits()).toBe(1);
    clock.advance(2 * SECOND);
    await gate.check(url('/x'), UA);
    expect(server.hits()).toBe(2);
  });

  it('honours Retry-After as an HTTP-date on a 429', async () => {
    makeGate();
    server.handle = (req, res) => {
      const at = new Date(clock.now() + 10 * MINUTE).toUTCString();
      robotsTxt(429, '', { 'retry-after': at })(req, res);
    };
    await gate.check(url('/x'), UA);
    clock.advance(10 * MINUTE - SECOND);
    await gate.check(url('/x'), UA);
    expect(server.hits()).toBe(1);
    clock.advance(2 * SECOND);
    await gate.check(url('/x'), UA);
    expect(server.hits()).toBe(2);
  });

  it('rfc9309 2.3.1.4: a connection reset means everything is disallowed, status null', async () => {
    makeGate();
    server.handle = (req) => req.socket.destroy();
    expect(await gate.check(url('/x'), UA)).toMatchObject({ allowed: false, reason: 'unreachable', status: null });
  });

  it('rfc9309 2.3.1.4: a body stalled past the timeout means everything is disallowed', async () => {
    makeGate({ timeoutMs: 300 });
    server.handle = (_req, res) => {
      res.writeHead(200, { 'content-length': '4096' });
      res.write('User-agent: *\nAllow: /\n');
    };
    const started = Date.now();
    expect(await gate.check(url('/x'), UA)).toMatchObject({ allowed: false, reason: 'unreachable', status: null });
    expect(Date.now() - started).toBeLessThan(3000);
  });

  it('rfc9309 2.3.1.4: a truncated chunked body means everything is disallowed', async () => {
    makeGate();
    server.handle = (req, res) => {
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.write('User-agent: *\nAllow: /\n', () => setTimeout(() => req.socket.destroy(), 20));
    };
    expect(await gate.check(url('/x'), UA)).toMatchObject({ allowed: false, reason: 'unreachable', status: null });
  });

  it('rfc9309 2.3.1.4: a refused connection means everything is disallowed', async () => {
    makeGate();
    const gone = await startServer();
    await gone.close();
    expect(await gate.check(`${gone.origin}/x`, UA)).toMatchObject({
      allowed: false,
      reason: 'unreachable',
      status: null,
    });
  });

  it('rfc9309 2.3.1.4: unreachable for more than 30 days with no copy means everything is allowed', async () => {
    makeGate();
    server.handle = robotsTxt(500);
    expect(await gate.check(url('/x'), UA)).toMatchObject({ allowed: false, reason: 'unreachable' });
    clock.advance(29 * DAY);
    expect(await gate.check(url('/x'), UA)).toMatchObject({ allowed: false, reason: 'unreachable', status: 500 });
    clock.advance(2 * DAY);
    expect(await gate.check(url('/x'), UA)).toMatchObject({
      allowed: true,
      reason: 'unreachable-too-long',
      status: 500,
    });
    expect(server.hits()).toBe(3);
  });

  it('allows /robots.txt itself without fetching it', async () => {
    makeGate();
    server.handle = robotsTxt(200, 'User-agent: *\nDisallow: /\n');
    expect(await gate.check(url('/robots.txt'), UA)).toMatchObject({
      allowed: true,
      reason: 'robots-txt',
      status: null,
    });
    expect(server.hits()).toBe(0);
  });

  it('sends the caller’s User-Agent and accepts gzip', async () => {
    makeGate();
    server.handle = robotsTxt(200, 'User-agent: *\nAllow: /\n');
    await gate.check(url('/x'), 'MyBot/1.2 (+https://bot.example/about)');
    expect(server.requests[0]?.headers['user-agent']).toBe('MyBot/1.2 (+https://bot.example/about)');
    expect(server.requests[0]?.headers['accept-encoding']).toContain('gzip');
  });

  it('matches the caller’s product token against the groups', async () => {
    makeGate();
    server.handle = robotsTxt(200, 'User-agent: mybot\nDisallow: /mine\n\nUser-agent: *\nDisallow: /\n');
    expect(await gate.check(url('/other'), 'MyBot/1.2')).toMatchObject({ allowed: true });
    expect(await gate.check(url('/mine'), 'MyBot/1.2')).toMatchObject({ allowed: false });
    expect(await gate.check(url('/other'), 'OtherBot')).toMatchObject({ allowed: false });
    expect(server.hits()).toBe(1);
  });

  it('rejects a URL that is not absolute http(s) with ERR_INVALID_URL', async () => {
    makeGate();
    await expect(gate.check('ftp://a.example/x', UA)).rejects.toMatchObject({ code: 'ERR_INVALID_URL' });
    await expect(gate.check('/relative', UA)).rejects.toBeInstanceOf(PolitelyError);
  });

  it('uses an injected fetch, and fails closed when it ignores its signal', async () => {
    const requests: RobotsFetchRequest[] = [];
    makeGate({
      timeoutMs: 100,
      fetch: (request) => {
        requests.push(request);
        return new Promise(() => {}); // never settles, whatever the signal says
      },
    });
    expect(await gate.check('https://injected.example/x', UA)).toMatchObject({
      allowed: false,
      reason: 'unreachable',
      status: null,
    });
    expect(requests).toEqual([
      {
        url: 'https://injected.example/robots.txt',
        userAgent: UA,
        signal: expect.any(AbortSignal),
        maxBytes: 500 * 1024,
      },
    ]);
    expect(requests[0]?.signal.aborted).toBe(true);
  });

  it('rejects invalid options with ERR_INVALID_OPTION', () => {
    expect(() => createRobotsGate({ maxBytes: 1000 })).toThrow(/maxBytes/);
    expect(() => createRobotsGate({ minTtlMs: 10, maxTtlMs: 5, defaultTtlMs: 7 })).toThrow(PolitelyError);
    expect(() => createRobotsGate({ maxRedirects: -1 })).toThrow(/maxRedirects/);
    expect(() => createRobotsGate({ timeoutMs: 0 })).toThrow(/timeoutMs/);
  });
});
