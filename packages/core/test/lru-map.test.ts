import { LruMap } from '@politely/core/internal';
import { describe, expect, it } from 'vitest';

describe('LruMap', () => {
  it('evicts the least recently used entry when full; a read makes an entry the newest', () => {
    const map = new LruMap<string, number>(2);
    map.set('a', 1);
    map.set('b', 2);
    expect(map.get('a')).toBe(1);
    map.set('c', 3);
    expect([map.get('a'), map.get('b'), map.get('c')]).toEqual([1, undefined, 3]);
    expect(map.size).toBe(2);
  });

  it('bounds the summed weight too, and keeps no entry heavier than the whole budget', () => {
    const map = new LruMap<string, number>({ maxSize: 10, maxWeight: 10, weigh: (key) => key.length });
    map.set('aaaa', 1);
    map.set('bbbb', 2);
    map.set('cccc', 3); // 12 characters: the oldest goes
    expect([map.get('aaaa'), map.get('bbbb'), map.get('cccc')]).toEqual([undefined, 2, 3]);
    map.set('x'.repeat(11), 4);
    expect(map.get('x'.repeat(11))).toBeUndefined();
    expect(map.size).toBe(2);
    // Replacing an entry frees its old weight first.
    map.set('bbbb', 5);
    map.set('dd', 6);
    expect([map.get('bbbb'), map.get('cccc'), map.get('dd')]).toEqual([5, 3, 6]);
  });

  it('delete and clear free their weight', () => {
    const map = new LruMap<string, string>({ maxSize: 5, maxWeight: 6, weigh: (_key, value) => value.length });
    map.set('a', 'xxx');
    map.set('b', 'yyy');
    expect(map.delete('a')).toBe(true);
    expect(map.delete('a')).toBe(false);
    map.set('c', 'zzz');
    expect([map.get('b'), map.get('c')]).toEqual(['yyy', 'zzz']);
    map.clear();
    map.set('d', 'wwwwww');
    expect(map.get('d')).toBe('wwwwww');
  });
});
