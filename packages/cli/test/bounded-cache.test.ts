import { describe, expect, it } from 'vitest';
import { createBoundedCache } from '../src/bounded-cache.js';

describe('createBoundedCache', () => {
  it('evicts the least recently used entry when full', () => {
    const cache = createBoundedCache<number>({ maxEntries: 2, maxKeyChars: 100 });
    cache.set('a', 1);
    cache.set('b', 2);
    expect(cache.get('a')).toBe(1); // a is now the most recent
    cache.set('c', 3);
    expect([cache.get('a'), cache.get('b'), cache.get('c')]).toEqual([1, undefined, 3]);
    expect(cache.size).toBe(2);
  });

  it('bounds the total key size and skips keys larger than the whole budget', () => {
    const cache = createBoundedCache<number>({ maxEntries: 10, maxKeyChars: 10 });
    cache.set('aaaa', 1);
    cache.set('bbbb', 2);
    cache.set('cccc', 3); // 12 chars: evicts aaaa
    expect([cache.get('aaaa'), cache.get('bbbb'), cache.get('cccc')]).toEqual([undefined, 2, 3]);
    cache.set('x'.repeat(11), 4);
    expect(cache.get('x'.repeat(11))).toBeUndefined();
    expect(cache.size).toBe(2);
  });
});
