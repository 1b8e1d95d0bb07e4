// The gate with several product tokens (`tokens`): every token's groups apply, the most
// restrictive verdict wins and the check says which token decided; and the check hands back the
// parsed robots.txt it was decided by (for its usage lines), without a second fetch or parse.

import { createRobotsGate, type RobotsGate } from '@politely/core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { LOOPBACK, robotsTxt, startServer, type TestServer } from '../../../../test/support/robots-server.js';

const UA = 'TokenBot/1.0';
const ROBOTS = [
  'User-agent: TokenBot',
  'Allow: /',
  'Crawl-delay: 1',
  '',
  'User-agent: TokenBot-Training',
  'Disallow: /train/',
  'Crawl-delay: 3',
  '',
].join('\n');
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

function makeGate(): RobotsGate {
  const gate = createRobotsGate({ allowNet: LOOPBACK });
  gates.push(gate);
  return gate;
}

describe('RobotsGate.check with several tokens', () => {
  it("a disallow in the second token's group decides, naming the token; the largest crawl-delay applies", async () => {
    server.handle = robotsTxt(200, ROBOTS);
    const gate = makeGate();
    const tokens = ['TokenBot', 'TokenBot-Training'];
    const blocked = await gate.check(`${server.origin}/train/a`, UA, { tokens });
    expect(blocked).toMatchObject({
      allowed: false,
      reason: 'rules',
      token: 'TokenBot-Training',
      crawlDelay: 3,
      rule: { line: 6, text: 'Disallow: /train/' },
    });
    const open = await gate.check(`${server.origin}/page`, UA, { tokens });
    expect(open).toMatchObject({ allowed: true, token: 'TokenBot', crawlDelay: 3 });
    // One token (the default): the other group does not apply, and no token is named.
    const alone = await gate.check(`${server.origin}/train/a`, UA);
    expect(alone.allowed).toBe(true);
    expect(alone.token).toBeUndefined();
    expect(alone.crawlDelay).toBe(1);
  });

  it('hands back the parsed robots.txt of the check: the same object for every check of the copy', async () => {
    server.handle = robotsTxt(200, `${ROBOTS}\nUser-agent: *\nContent-Usage: train-ai=n\n`);
    const gate = makeGate();
    const a = await gate.check(`${server.origin}/a`, UA);
    const b = await gate.check(`${server.origin}/b`, UA);
    expect(a.robots).toBeDefined();
    expect(b.robots).toBe(a.robots);
    expect(a.robots!.groupsFor('Other')[0]!.extensions.map((line) => line.name)).toEqual(['content-usage']);
    expect(server.requests.filter((r) => r.path === '/robots.txt')).toHaveLength(1);
  });

  it('has no robots.txt to hand back when none decided (4xx: all allowed)', async () => {
    server.handle = robotsTxt(404);
    const check = await makeGate().check(`${server.origin}/a`, UA);
    expect(check).toMatchObject({ allowed: true, reason: 'unavailable' });
    expect(check.robots).toBeUndefined();
  });
});
