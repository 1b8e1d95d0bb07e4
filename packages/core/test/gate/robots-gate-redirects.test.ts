// The gate follows robots.txt redirects itself (RFC 9309 2.3.1.2), one hop at a time.

import { createRobotsGate, type RobotsFetchEvent, type RobotsGate, type RobotsGateOptions } from '@politely/core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  createClock,
  type Handler,
  LOOPBACK,
  startServer,
  type TestServer,
} from '../../../../test/support/robots-server.js';

const UA = 'TestBot/1.0';
const RULES = 'User-agent: *\nDisallow: /secret\n';
let a: TestServer;
let b: TestServer;
let gate: RobotsGate;

beforeAll(async () => {
  [a, b] = await Promise.all([startServer(), startServer()]);
});
afterAll(async () => {
  await Promise.all([a.close(), b.close()]);
});
afterEach(async () => {
  await gate.close();
  a.reset();
  b.reset();
});

function makeGate(options: RobotsGateOptions = {}): RobotsGate {
  gate = createRobotsGate({ now: createClock().now, allowNet: LOOPBACK, ...options });
  return gate;
}

/** /robots.txt → /hop1 → … → /hop<n> (the last serves RULES). */
function chainOf(hops: number, status = 301): Handler {
  return (req, res) => {
    const step = req.url === '/robots.txt' ? 0 : Number(/^\/hop(\d+)$/.exec(req.url ?? '')?.[1] ?? NaN);
    if (Number.isNaN(step)) return void res.writeHead(404).end();
    if (step < hops) return void res.writeHead(status, { location: `/hop${step + 1}` }).end();
    res.writeHead(200, { 'content-type': 'text/plain' }).end(RULES);
  };
}

describe('createRobotsGate', () => {
  it('rfc9309 2.3.1.2: follows exactly 5 redirect hops', async () => {
    makeGate();
    a.handle = chainOf(5);
    const check = await gate.check(`${a.origin}/secret/x`, UA);
    expect(check).toMatchObject({ allowed: false, reason: 'rules', status: 200 });
    expect(a.hits()).toBe(6);
  });

  it.each([302, 303, 307, 308])('rfc9309 2.3.1.2: follows a %i', async (status) => {
    makeGate();
    a.handle = chainOf(1, status);
    expect(await gate.check(`${a.origin}/secret`, UA)).toMatchObject({ allowed: false, reason: 'rules' });
  });

  it('rfc9309 2.3.1.2: treats a 6th redirect as a 404 (unavailable, everything allowed)', async () => {
    makeGate();
    a.handle = chainOf(6);
    const check = await gate.check(`${a.origin}/secret/x`, UA);
    expect(check).toMatchObject({ allowed: true, reason: 'unavailable', status: 301 });
    expect(a.hits()).toBe(6); // the 6th redirect is not followed
    expect(a.hits('/hop6')).toBe(0);
  });

  it('follows more hops when maxRedirects allows', async () => {
    makeGate({ maxRedirects: 6 });
    a.handle = chainOf(6);
    expect(await gate.check(`${a.origin}/secret`, UA)).toMatchObject({ allowed: false, reason: 'rules' });
  });

  it('rfc9309 2.3.1.2: detects a redirect loop and treats it as a 404', async () => {
    makeGate();
    const events: RobotsFetchEvent[] = [];
    gate.on('fetch', (event) => events.push(event));
    a.handle = (req, res) => {
      const location = req.url === '/robots.txt' ? '/loop' : '/robots.txt';
      res.writeHead(302, { location }).end();
    };
    expect(await gate.check(`${a.origin}/secret`, UA)).toMatchObject({
      allowed: true,
      reason: 'unavailable',
      status: 302,
    });
    expect(a.hits()).toBe(2);
    expect(events.at(-1)).toMatchObject({ outcome: 'unavailable', redirectError: 'redirect-loop' });
  });

  it('treats a redirect without a usable Location as a 404', async () => {
    makeGate();
    a.handle = (_req, res) => res.writeHead(301).end();
    expect(await gate.check(`${a.origin}/secret`, UA)).toMatchObject({
      allowed: true,
      reason: 'unavailable',
      status: 301,
    });
    a.handle = (_req, res) => res.writeHead(301, { location: 'ftp://a.example/robots.txt' }).end();
    await gate.invalidate(a.origin);
    expect(await gate.check(`${a.origin}/secret`, UA)).toMatchObject({ allowed: true, reason: 'unavailable' });
  });

  it('rfc9309 2.3.1.2: follows a redirect to another origin, whose file then applies to the first', async () => {
    makeGate();
    a.handle = (_req, res) => res.writeHead(301, { location: `${b.origin}/shared-robots.txt` }).end();
    b.handle = (req, res) => {
      if (req.url !== '/shared-robots.txt') return void res.writeHead(404).end();
      res.writeHead(200).end('User-agent: *\nDisallow: /from-b\n');
    };
    const check = await gate.check(`${a.origin}/from-b/page`, UA);
    expect(check).toMatchObject({ allowed: false, reason: 'rules', status: 200, origin: a.origin });
    expect(b.hits('/shared-robots.txt')).toBe(1);
    // b's own robots.txt is a separate origin's, not touched by that redirect
    expect(await gate.check(`${b.origin}/from-b/page`, UA)).toMatchObject({
      allowed: true,
      reason: 'unavailable',
      status: 404,
    });
  });

  it('reports every hop as a fetch event', async () => {
    makeGate();
    const events: RobotsFetchEvent[] = [];
    gate.on('fetch', (event) => events.push(event));
    a.handle = chainOf(2);
    await gate.check(`${a.origin}/x`, UA);
    expect(
      events.map(({ url, status, outcome, redirects, origin }) => ({ url, status, outcome, redirects, origin })),
    ).toEqual([
      { url: `${a.origin}/robots.txt`, status: 301, outcome: 'redirect', redirects: 0, origin: a.origin },
      { url: `${a.origin}/hop1`, status: 301, outcome: 'redirect', redirects: 1, origin: a.origin },
      { url: `${a.origin}/hop2`, status: 200, outcome: 'success', redirects: 2, origin: a.origin },
    ]);
    for (const event of events) expect(event.durationMs).toBeGreaterThanOrEqual(0);
  });

  it('reports a network error in the fetch event, and a throwing listener changes nothing', async () => {
    makeGate();
    const events: RobotsFetchEvent[] = [];
    gate.on('fetch', () => {
      throw new Error('listener bug');
    });
    const stop = gate.on('fetch', (event) => events.push(event));
    a.handle = (req) => req.socket.destroy();
    expect(await gate.check(`${a.origin}/x`, UA)).toMatchObject({ allowed: false, reason: 'unreachable' });
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ status: null, outcome: 'unreachable', redirects: 0 });
    expect(events[0]?.error).toBeInstanceOf(Error);
    stop();
    await gate.invalidate(a.origin);
    await gate.check(`${a.origin}/x`, UA);
    expect(events).toHaveLength(1);
  });
});
