import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { lowercased } from '../src/text/lowercased.js';

describe('lowercased', () => {
  it('is toLowerCase for any string', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), (value) => {
        expect(lowercased(value)).toBe(value.toLowerCase());
      }),
      { numRuns: 2000 },
    );
    expect(lowercased('Content-Type')).toBe('content-type');
    expect(lowercased('\u212A')).toBe('k'); // the Kelvin sign
    expect(lowercased('ÉTÉ')).toBe('été');
  });
});
