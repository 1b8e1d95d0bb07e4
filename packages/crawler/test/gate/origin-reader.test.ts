import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createOriginReader } from '../../src/gate/origin-reader.js';

const URLS = [
  'http://a.test/x',
  'http://a.test/y?q#f',
  'http://a.test:8080/x',
  'https://a.test/x',
  'http://a.test.b/x',
  'http://a.tes/x',
  'http://user@a.test/x',
  'http://a.test@b.test/x',
  'http://A.TEST:80/x',
  'http://[::1]:8080/x',
  'http://[::1]/x',
  'http://a.test',
];

describe('createOriginReader', () => {
  it('reads what url.origin reads, in any order of URLs', () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...URLS), { maxLength: 20 }), (hrefs) => {
        const originOf = createOriginReader();
        for (const href of hrefs) {
          const url = new URL(href);
          expect(originOf(url)).toBe(url.origin);
        }
      }),
      { numRuns: 500 },
    );
  });

  it('gives the same string for URLs of one origin, a new one for another', () => {
    const originOf = createOriginReader();
    const first = originOf(new URL('http://a.test/x'));
    expect(originOf(new URL('http://a.test/y'))).toBe(first);
    expect(originOf(new URL('http://user@a.test/y'))).toBe('http://a.test');
    expect(originOf(new URL('http://a.test:8080/y'))).toBe('http://a.test:8080');
  });
});
