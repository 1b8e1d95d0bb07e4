// The gate's cache: lifetimes, stale copies during outages, bounds, single-flight, sharing.

import { gzipSync } from 'node:zlib';
import {
  createMemoryRobotsCache,
  createRobotsGate,
  type RobotsCacheRecord,
  type RobotsCacheStore,
  type RobotsGate,
  type RobotsGateOptions,
} from '@politely/core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  createClock,
  DAY,
  HOUR,
  LOOPBACK,
  MINUTE,
  robotsTxt,
  SECOND,
  startServer,
  type TestServer,
} from '../../../../test/support/robots-server.js';
import { createJsonStore } from './json-store.js';

const UA = 'TestBot/1.0';
const KiB = 1024;
let a: TestServer;
let b: TestServer;
let c: TestServer;
let gate: RobotsGate;
let clock: ReturnType<typeof createClock>;
const gates: RobotsGate[] = [];

beforeAll(async () => {
  [a, b, c] = await Promise.all([startServer(), startServer(), startServer()]);
});
afterAll(async () => {
  await Promise.all([a.close(), b.close(), c.close()]);
});
afterEach(async () => {
  await Promise.all(gates.splice(0).map((g) => g.close()));
  for (const server of [a, b, c]) server.reset();
});

function makeGate(options: RobotsGateOptions = {}): RobotsGate {
  clock = createClock();
  gate = createRobotsGate({ now: clock.now, allowNet: LOOPBACK, ...options });
  gates.push(gate);
  return gate;
}

describe('createRobotsGate', () => {
  it('rfc9309 2.4: caches for 24 hours by default', async () => {
    makeGate();
    a.handle = robotsTxt(200, 'User-agent: *\nDisallow: /x\n');
    await gate.check(`${a.origin}/x`, UA);
    clock.advance(DAY - SECOND);
    await gate.check(`${a.origin}/x`, UA);
    expect(a.hits()).toBe(1);
    clock.advance(2 * SECOND);
    await gate.check(`${a.origin}/x`, UA);
    expect(a.hits()).toBe(2);
  });

  it('rfc9309 2.4: honours Cache-Control max-age', async () => {
    makeGate();
    a.handle = robotsTxt(200, 'User-agent: *\nDisallow: /x\n', { 'cache-control': 'public, max-age=3600' });
    await gate.check(`${a.origin}/x`, UA);
    clock.advance(HOUR - SECOND);
    await gate.check(`${a.origin}/x`, UA);
    expect(a.hits()).toBe(1);
    clock.advance(2 * SECOND);
    await gate.check(`${a.origin}/x`, UA);
    expect(a.hits()).toBe(2);
  });

  it('rfc9309 2.4: holds max-age within its bounds', async () => {
    makeGate({ minTtlMs: 10 * MINUTE });
    a.handle = robotsTxt(200, '', { 'cache-control': 'max-age=5' });
    await gate.check(`${a.origin}/x`, UA);
    clock.advance(10 * MINUTE - SECOND);
    await gate.check(`${a.origin}/x`, UA);
    expect(a.hits()).toBe(1);
    a.handle = robotsTxt(200, '', { 'cache-control': 'max-age=31536000' });
    clock.advance(2 * SECOND);
    await gate.check(`${a.origin}/x`, UA);
    expect(a.hits()).toBe(2);
    clock.advance(DAY + SECOND); // a year asked for, 24 h given
    await gate.check(`${a.origin}/x`, UA);
    expect(a.hits()).toBe(3);
  });

  it('caches a 404 too, for its lifetime', async () => {
    makeGate();
    a.handle = robotsTxt(404, '', { 'cache-control': 'max-age=600' });
    await gate.check(`${a.origin}/x`, UA);
    clock.advance(9 * MINUTE);
    await gate.check(`${a.origin}/y`, UA);
    expect(a.hits()).toBe(1);
    clock.advance(2 * MINUTE);
    await gate.check(`${a.origin}/y`, UA);
    expect(a.hits()).toBe(2);
  });

  it('rfc9309 2.4: serves the stale copy while the origin is unreachable, and refreshes when it is back', async () => {
    makeGate();
    a.handle = robotsTxt(200, 'User-agent: *\nDisallow: /secret\n');
    await gate.check(`${a.origin}/secret`, UA);
    clock.advance(DAY + MINUTE);
    a.handle = robotsTxt(503);
    expect(await gate.check(`${a.origin}/secret`, UA)).toMatchObject({ allowed: false, reason: 'cached', status: 503 });
    expect(await gate.check(`${a.origin}/public`, UA)).toMatchObject({ allowed: true, reason: 'cached', status: 503 });
    expect(a.hits()).toBe(2);
    a.handle = (req) => req.socket.destroy();
    clock.advance(MINUTE);
    const during = await gate.check(`${a.origin}/secret/page`, UA);
    expect(during).toMatchObject({ allowed: false, reason: 'cached', status: null });
    expect(during.rule).toMatchObject({ value: '/secret' });
    expect(a.hits()).toBe(3);
    a.handle = robotsTxt(200, 'User-agent: *\nDisallow: /public\n');
    clock.advance(2 * MINUTE);
    expect(await gate.check(`${a.origin}/secret`, UA)).toMatchObject({ allowed: true, reason: 'rules', status: 200 });
    expect(await gate.check(`${a.origin}/public`, UA)).toMatchObject({ allowed: false, reason: 'rules' });
  });

  it('rfc9309 2.3.1.4: keeps using the cached copy after 30 days unreachable', async () => {
    makeGate();
    a.handle = robotsTxt(200, 'User-agent: *\nDisallow: /secret\n');
    await gate.check(`${a.origin}/secret`, UA);
    a.handle = robotsTxt(500);
    clock.advance(DAY);
    await gate.check(`${a.origin}/secret`, UA);
    clock.advance(31 * DAY);
    expect(await gate.check(`${a.origin}/secret`, UA)).toMatchObject({ allowed: false, reason: 'cached', status: 500 });
  });

  it('bounds the origins held: with maxOrigins 2 the least recently used is fetched again', async () => {
    // reuseRecordMs 0: the gate reads the store on every check, so the store's bound shows at once.
    makeGate({ cache: createMemoryRobotsCache({ maxOrigins: 2 }), reuseRecordMs: 0 });
    for (const server of [a, b, c]) server.handle = robotsTxt(200, 'User-agent: *\nDisallow: /x\n');
    await gate.check(`${a.origin}/x`, UA);
    await gate.check(`${b.origin}/x`, UA);
    await gate.check(`${c.origin}/x`, UA); // evicts a
    await gate.check(`${c.origin}/y`, UA);
    await gate.check(`${b.origin}/y`, UA);
    expect([a.hits(), b.hits(), c.hits()]).toEqual([1, 1, 1]);
    expect(await gate.check(`${a.origin}/x`, UA)).toMatchObject({ allowed: false, reason: 'rules' });
    expect(a.hits()).toBe(2);
  });

  it('reuses a current record for reuseRecordMs before it reads the store again, and sees another worker’s record after it', async () => {
    const store = createMemoryRobotsCache();
    let reads = 0;
    const counting: RobotsCacheStore = {
      get: (origin) => (reads++, store.get(origin)),
      set: (o, r) => store.set(o, r),
      delete: (o) => store.delete(o),
    };
    makeGate({ cache: counting, reuseRecordMs: 2 * SECOND });
    a.handle = robotsTxt(200, 'User-agent: *\nDisallow: /x\n');
    await gate.check(`${a.origin}/x`, UA); // read (empty), fetch, stored and remembered
    for (let i = 0; i < 5; i++) expect(await gate.check(`${a.origin}/x/${i}`, UA)).toMatchObject({ allowed: false });
    expect([reads, a.hits()]).toEqual([1, 1]);

    // Another worker stores a newer copy: this gate sees it once the reuse window has passed.
    const other = createRobotsGate({ now: clock.now, allowNet: LOOPBACK, cache: store });
    gates.push(other);
    a.handle = robotsTxt(200, 'User-agent: *\nAllow: /\n');
    await other.invalidate(a.origin);
    clock.advance(1); // a later fetch (parsed copies are known by when they were fetched)
    await other.check(`${a.origin}/x`, UA);
    expect(await gate.check(`${a.origin}/x`, UA)).toMatchObject({ allowed: false });
    clock.advance(2 * SECOND - 1);
    expect(await gate.check(`${a.origin}/x`, UA)).toMatchObject({ allowed: true });
    expect([reads, a.hits()]).toEqual([2, 2]);
  });

  it('makes one request for a thousand concurrent checks of one origin', async () => {
    makeGate();
    a.handle = (req, res) => setTimeout(() => robotsTxt(200, 'User-agent: *\nDisallow: /odd\n')(req, res), 100);
    const checks = await Promise.all(
      Array.from({ length: 1000 }, (_, i) => gate.check(`${a.origin}/${i % 2 === 1 ? 'odd' : 'even'}/${i}`, UA)),
    );
    expect(a.hits()).toBe(1);
    expect(checks.filter((check) => check.allowed)).toHaveLength(500);
    expect(checks.every((check) => check.reason === 'rules')).toBe(true);
  });

  it('refreshes a stale entry once for many concurrent checks', async () => {
    makeGate();
    a.handle = robotsTxt(200, 'User-agent: *\nDisallow: /x\n');
    await gate.check(`${a.origin}/x`, UA);
    clock.advance(DAY);
    a.handle = (req, res) => setTimeout(() => robotsTxt(200, 'User-agent: *\nDisallow: /y\n')(req, res), 50);
    const checks = await Promise.all(Array.from({ length: 200 }, () => gate.check(`${a.origin}/y`, UA)));
    expect(a.hits()).toBe(2);
    expect(checks.every((check) => !check.allowed)).toBe(true);
  });

  it('rfc9309 2.5: ignores what comes after the first 500 KiB of a 2 MB body', async () => {
    makeGate();
    const filler = (bytes: number): string => `# ${'.'.repeat(77)}\n`.repeat(Math.ceil(bytes / 80));
    const body = `User-agent: *\nDisallow: /early\n${filler(600 * KiB)}Disallow: /late\n${filler(1400 * KiB)}`;
    expect(body.length).toBeGreaterThan(2000 * KiB);
    a.handle = robotsTxt(200, body);
    expect(await gate.check(`${a.origin}/early`, UA)).toMatchObject({ allowed: false, reason: 'rules' });
    expect(await gate.check(`${a.origin}/late`, UA)).toMatchObject({ allowed: true, reason: 'rules' });
    const robots = await gate.robotsTxt(a.origin);
    expect(robots?.parsedBytes).toBe(500 * KiB);
  });

  it('reads a gzip-encoded robots.txt', async () => {
    makeGate();
    a.handle = (_req, res) =>
      res.writeHead(200, { 'content-encoding': 'gzip' }).end(gzipSync('User-agent: *\nDisallow: /zipped\n'));
    expect(await gate.check(`${a.origin}/zipped`, UA)).toMatchObject({ allowed: false, reason: 'rules' });
    expect(await gate.check(`${a.origin}/plain`, UA)).toMatchObject({ allowed: true, reason: 'rules' });
  });

  it('keeps a body that is not UTF-8 byte for byte', async () => {
    const store = createJsonStore();
    makeGate({ cache: store });
    const body = Buffer.concat([Buffer.from('User-agent: *\nDisallow: /caf'), Buffer.from([0xe9]), Buffer.from('\n')]);
    a.handle = (_req, res) => res.writeHead(200).end(body);
    expect(await gate.check(`${a.origin}/caf%E9`, UA)).toMatchObject({ allowed: false, reason: 'rules' });
    const record = JSON.parse(store.texts.get(a.origin) ?? '{}') as RobotsCacheRecord;
    expect(record.lastGood?.bodyEncoding).toBe('base64');
  });

  it('shares records between gates through one store, as plain JSON', async () => {
    const store = createJsonStore();
    const first = makeGate({ cache: store });
    a.handle = robotsTxt(200, 'User-agent: *\nDisallow: /x\nSitemap: https://a.example/sitemap.xml\n');
    await first.check(`${a.origin}/x`, UA);
    const second = createRobotsGate({ cache: store, now: clock.now, allowNet: LOOPBACK });
    gates.push(second);
    expect(await second.check(`${a.origin}/x`, UA)).toMatchObject({ allowed: false, reason: 'rules', status: 200 });
    expect(a.hits()).toBe(1);
    const record = JSON.parse(store.texts.get(a.origin) ?? '{}') as RobotsCacheRecord;
    expect(record).toMatchObject({ origin: a.origin, outcome: 'success', status: 200, consecutiveFailures: 0 });
    expect(record.expiresAt - record.fetchedAt).toBe(DAY);
    expect(record.lastGood?.bodyEncoding).toBe('utf-8');
  });

  it('gives the sitemaps of an origin, fetching robots.txt once', async () => {
    makeGate();
    a.handle = robotsTxt(
      200,
      'Sitemap: https://a.example/one.xml\nUser-agent: *\nDisallow:\nSitemap: https://a.example/two.xml\n',
    );
    expect(await gate.sitemaps(`${a.origin}/any/page`)).toEqual([
      'https://a.example/one.xml',
      'https://a.example/two.xml',
    ]);
    expect(await gate.sitemaps(a.origin)).toHaveLength(2);
    await gate.check(`${a.origin}/x`, UA);
    expect(a.hits()).toBe(1);
    expect(a.requests[0]?.headers['user-agent']).toBe('politely');
    b.handle = robotsTxt(404);
    expect(await gate.sitemaps(b.origin, { userAgent: 'MapBot' })).toEqual([]);
    expect(b.requests[0]?.headers['user-agent']).toBe('MapBot');
  });

  it('gives the parsed robots.txt in force without fetching', async () => {
    makeGate();
    a.handle = robotsTxt(200, 'User-agent: *\nDisallow: /x\n');
    expect(await gate.robotsTxt(a.origin)).toBeUndefined();
    expect(a.hits()).toBe(0);
    await gate.check(`${a.origin}/y`, UA);
    const robots = await gate.robotsTxt(`${a.origin}/deep/page`);
    expect(robots?.isAllowed(`${a.origin}/x`, UA)).toBe(false);
  });

  it('forgets an origin on invalidate, so the next check fetches again', async () => {
    makeGate();
    a.handle = robotsTxt(200, 'User-agent: *\nDisallow: /x\n');
    await gate.check(`${a.origin}/x`, UA);
    a.handle = robotsTxt(200, 'User-agent: *\nDisallow: /y\n');
    await gate.invalidate(`${a.origin}/some/page`);
    expect(await gate.check(`${a.origin}/x`, UA)).toMatchObject({ allowed: true });
    expect(await gate.check(`${a.origin}/y`, UA)).toMatchObject({ allowed: false });
    expect(a.hits()).toBe(2);
  });

  it('honours an AbortSignal without cancelling the fetch others share', async () => {
    makeGate();
    a.handle = (req, res) => setTimeout(() => robotsTxt(200, 'User-agent: *\nDisallow: /x\n')(req, res), 200);
    const controller = new AbortController();
    const aborted = gate.check(`${a.origin}/x`, UA, { signal: controller.signal });
    const other = gate.check(`${a.origin}/x`, UA);
    setTimeout(() => controller.abort(), 20);
    await expect(aborted).rejects.toMatchObject({ code: 'ERR_ABORTED' });
    expect(await other).toMatchObject({ allowed: false, reason: 'rules' });
    expect(a.hits()).toBe(1);
    await expect(gate.check(`${a.origin}/x`, UA, { signal: AbortSignal.abort() })).rejects.toMatchObject({
      code: 'ERR_ABORTED',
    });
  });
});
