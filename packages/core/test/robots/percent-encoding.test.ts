import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { hasNormalEscapes, normalizeEscapes } from '../../src/robots/percent-encoding.js';

/** RFC 3986 6.2.2 in one regex: the behaviour the scanning code must keep. */
function referenceNormalize(path: string): string {
  return path.replace(/%([0-9A-Fa-f]{2})/g, (_, hex: string) => {
    const char = String.fromCharCode(Number.parseInt(hex, 16));
    return /[A-Za-z0-9\-._~]/.test(char) ? char : `%${hex.toUpperCase()}`;
  });
}

const PATH_CHARS = ['%', 'a', 'A', 'f', 'F', '0', '2', '4', '7', 'e', 'E', 'g', '/', '?', '#', '~'];
const escapedPath = fc.array(fc.constantFrom(...PATH_CHARS), { maxLength: 16 }).map((chars) => chars.join(''));

describe('normalizeEscapes', () => {
  it('upper-cases hex, decodes unreserved escapes, keeps malformed ones', () => {
    expect(normalizeEscapes('/a%c3%a9/%7euser/%41%2d')).toBe('/a%C3%A9/~user/A-');
    expect(normalizeEscapes('/%zz/%4/%')).toBe('/%zz/%4/%');
    expect(normalizeEscapes('/%%41')).toBe('/%A');
  });

  it('returns a path without escapes, or with normal ones only, as it is', () => {
    for (const path of ['/', '/pages/11', '/p?url=http%3A%2F%2Fa%2Fb&t=x%20y', '/%zz', '/%4', '/%']) {
      expect(normalizeEscapes(path)).toBe(path);
      expect(hasNormalEscapes(path)).toBe(true);
    }
    for (const path of ['/%3a', '/%7E', '/%41', '/%2F%2e']) expect(hasNormalEscapes(path)).toBe(false);
  });

  it('agrees with a regex reference on any mix of escapes, and says when it changes nothing', () => {
    fc.assert(
      fc.property(escapedPath, (path) => {
        const normal = referenceNormalize(path);
        expect(normalizeEscapes(path)).toBe(normal);
        expect(hasNormalEscapes(path)).toBe(normal === path);
      }),
      { numRuns: 2000 },
    );
  });

  it('hasNormalEscapes reads only escapes that end inside the range', () => {
    expect(hasNormalEscapes('/a%3a', 0, 4)).toBe(true);
    expect(hasNormalEscapes('/a%3a', 0, 5)).toBe(false);
    expect(hasNormalEscapes('%41/a%2F', 3)).toBe(true);
    fc.assert(
      fc.property(escapedPath, fc.nat(), fc.nat(), (path, a, b) => {
        const from = Math.min(a, b) % (path.length + 1);
        const to = from + (Math.max(a, b) % (path.length - from + 1));
        const range = path.slice(from, to);
        expect(hasNormalEscapes(path, from, to)).toBe(referenceNormalize(range) === range);
      }),
      { numRuns: 2000 },
    );
  });
});
