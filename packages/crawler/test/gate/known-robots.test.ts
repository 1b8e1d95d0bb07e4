// The enqueue-time robots pre-check: once an origin's robots.txt is in hand it answers at once
// (no promise per link), and its refusals name the deciding rule.

import { parseRobotsTxt, type RobotsTxt } from '@politely/core';
import { describe, expect, it } from 'vitest';
import { createKnownRobotsCheck } from '../../src/gate/known-robots.js';

const ROBOTS = parseRobotsTxt('User-agent: *\nDisallow: /private\nAllow: /private/open\n');

/** A gate whose robots.txt for every origin is `robots` (or none), counting its reads. */
function gateOf(robots: RobotsTxt | undefined) {
  const gate = {
    reads: 0,
    robotsTxt: async (_url: URL | string) => {
      gate.reads++;
      return robots;
    },
  };
  return gate;
}

describe('createKnownRobotsCheck', () => {
  it('answers with a promise first, then at once from the known robots.txt', async () => {
    const gate = gateOf(ROBOTS);
    const check = createKnownRobotsCheck(gate, 'TestBot/1.0');
    const first = check(new URL('http://a.test/private/x'));
    expect(first).toBeInstanceOf(Promise);
    expect(await first).toMatchObject({ reason: 'robots' });
    const second = check(new URL('http://a.test/private/y'));
    expect(second).not.toBeInstanceOf(Promise);
    expect(second).toMatchObject({ reason: 'robots' });
    expect(JSON.stringify(second)).toContain('/private');
    expect(check(new URL('http://a.test/private/open/1'))).toBeUndefined();
    expect(check(new URL('http://a.test/public'))).toBeUndefined();
    expect(gate.reads).toBe(1);
  });

  it('asks again for an origin whose robots.txt is not known yet', async () => {
    const gate = gateOf(undefined);
    const check = createKnownRobotsCheck(gate, 'TestBot/1.0');
    expect(await check(new URL('http://b.test/private'))).toBeUndefined();
    expect(await check(new URL('http://b.test/private'))).toBeUndefined();
    expect(gate.reads).toBe(2);
  });

  it('reads an origin again once its answer is older than ttlMs', async () => {
    const gate = gateOf(ROBOTS);
    const check = createKnownRobotsCheck(gate, 'TestBot/1.0', { ttlMs: 0, maxOrigins: 8 });
    await check(new URL('http://c.test/private'));
    expect(await check(new URL('http://c.test/private'))).toMatchObject({ reason: 'robots' });
    expect(gate.reads).toBe(2);
  });
});
