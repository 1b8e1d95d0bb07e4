import { createMemoryRobotsCache, PolitelyError, parseRobotsTxt, type RobotsCacheRecord } from '@politely/core';
import { describe, expect, it } from 'vitest';
import { decodeRobotsBody, encodeRobotsBody } from '../../src/gate/robots-cache.js';

const record = (origin: string): RobotsCacheRecord => ({
  origin,
  outcome: 'unavailable',
  status: 404,
  url: `${origin}/robots.txt`,
  fetchedAt: 0,
  expiresAt: 1,
  consecutiveFailures: 0,
});

describe('createMemoryRobotsCache', () => {
  it('stores, returns and deletes records', async () => {
    const cache = createMemoryRobotsCache();
    await cache.set('http://a', record('http://a'));
    expect(await cache.get('http://a')).toEqual(record('http://a'));
    await cache.delete('http://a');
    expect(await cache.get('http://a')).toBeUndefined();
  });

  it('evicts the least recently used origin beyond maxOrigins', async () => {
    const cache = createMemoryRobotsCache({ maxOrigins: 2 });
    await cache.set('http://a', record('http://a'));
    await cache.set('http://b', record('http://b'));
    await cache.get('http://a'); // a is now newer than b
    await cache.set('http://c', record('http://c'));
    expect(cache.size).toBe(2);
    expect(await cache.get('http://b')).toBeUndefined();
    expect(await cache.get('http://a')).toBeDefined();
    expect(await cache.get('http://c')).toBeDefined();
  });

  it('rejects a bound that is not a positive integer', () => {
    expect(() => createMemoryRobotsCache({ maxOrigins: 0 })).toThrow(PolitelyError);
    expect(() => createMemoryRobotsCache({ maxOrigins: 1.5 })).toThrow(/maxOrigins/);
  });
});

describe('encodeRobotsBody', () => {
  it('keeps a UTF-8 body as text, byte-order mark included', () => {
    const bytes = new TextEncoder().encode('\uFEFFUser-agent: *\nDisallow: /ü\n');
    const encoded = encodeRobotsBody(bytes);
    expect(encoded.bodyEncoding).toBe('utf-8');
    expect(encoded.body.startsWith('\uFEFF')).toBe(true);
    expect(new TextEncoder().encode(decodeRobotsBody(encoded) as string)).toEqual(bytes);
  });

  it('keeps any other body as base64 of its bytes, which parse as they were', () => {
    const bytes = Uint8Array.from(
      [...'User-agent: *\nDisallow: /caf'].map((c) => c.charCodeAt(0)).concat([0xe9, 0x0a]),
    );
    const encoded = encodeRobotsBody(bytes);
    expect(encoded.bodyEncoding).toBe('base64');
    const decoded = decodeRobotsBody(encoded);
    expect(decoded).toEqual(bytes);
    expect(parseRobotsTxt(decoded).isAllowed('http://a/caf%E9', 'bot')).toBe(false);
  });
});
