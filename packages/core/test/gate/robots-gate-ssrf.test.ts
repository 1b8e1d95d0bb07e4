// The gate's own fetch carries the SSRF guard, on by default: robots.txt is never requested from
// a loopback or private address unless allowNet lets it through.

import { createRobotsGate, PolitelyError, type RobotsFetchEvent } from '@politely/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { robotsTxt, startServer, type TestServer } from '../../../../test/support/robots-server.js';

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
  server.handle = robotsTxt(200, 'User-agent: *\nDisallow: /private\n');
});
afterAll(() => server.close());

describe('the robots gate and the SSRF guard', () => {
  it('refuses a loopback origin by default: unreachable, with the reason, and no request made', async () => {
    const gate = createRobotsGate({ userAgent: 'GuardBot' });
    const fetches: RobotsFetchEvent[] = [];
    gate.on('fetch', (event) => fetches.push(event));
    try {
      const check = await gate.check(`${server.origin}/public`, 'GuardBot');
      expect(check).toMatchObject({ allowed: false, reason: 'unreachable', status: null });
      expect(server.hits()).toBe(0);
      expect(fetches[0]?.error?.message).toContain('allowNet');
    } finally {
      await gate.close();
    }
  });

  it('fetches it when allowNet covers the address, or when the guard is off', async () => {
    for (const options of [{ allowNet: ['127.0.0.1'] }, { blockPrivateNetworks: false }]) {
      const gate = createRobotsGate({ userAgent: 'GuardBot', ...options });
      try {
        expect(await gate.check(`${server.origin}/private/x`, 'GuardBot')).toMatchObject({
          allowed: false,
          reason: 'rules',
        });
        expect(await gate.check(`${server.origin}/public`, 'GuardBot')).toMatchObject({ allowed: true });
      } finally {
        await gate.close();
      }
    }
  });

  it('rejects a malformed allowNet entry, naming it', () => {
    expect(() => createRobotsGate({ allowNet: ['10.0.0.0/99'] })).toThrow(PolitelyError);
    expect(() => createRobotsGate({ allowNet: ['10.0.0.0/99'] })).toThrow(/allowNet.*10\.0\.0\.0\/99/);
  });
});
