import { describe, expect, it } from 'vitest';
import { isCrawlId } from '../src/internal.js';

describe('isCrawlId', () => {
  it('takes 1 to 100 letters, digits, ".", ":", "_" and "-"', () => {
    for (const id of [
      'x',
      'shop',
      'shop:2026.v1_a-b',
      'a'.repeat(100),
      'test-store-6f1c2d3e-1b2a-4c5d-9e8f-0a1b2c3d4e5f',
    ])
      expect(isCrawlId(id), id).toBe(true);
  });

  it('refuses the empty id, a longer one, braces, spaces, slashes, non-ASCII letters and non-strings', () => {
    for (const id of ['', 'a'.repeat(101), 'a{b}', 'a b', 'a/b', 'café', 'a\n', 7, undefined])
      expect(isCrawlId(id), String(id)).toBe(false);
  });
});
