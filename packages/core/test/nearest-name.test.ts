import { describe, expect, it } from 'vitest';
import { editDistance, nearestName } from '../src/text/nearest-name.js';

describe('nearestName', () => {
  const known = ['maxPages', 'maxPagesPerHost', 'maxDepth', 'minDelayMs', 'seeds'];

  it('finds the nearest known name within the allowed edits, ignoring case', () => {
    expect(nearestName('maxPagez', known)).toBe('maxPages');
    expect(nearestName('MAXPAGES', known)).toBe('maxPages');
    expect(nearestName('seed', known)).toBe('seeds');
    expect(nearestName('minDelay', known)).toBe('minDelayMs');
  });

  it('suggests nothing when every known name is too far', () => {
    expect(nearestName('timeout', known)).toBeUndefined();
    expect(nearestName('maxPagez', known, 0)).toBeUndefined();
  });

  it('on a tie keeps the first known name', () => {
    expect(nearestName('ab', ['ax', 'ay'], 1)).toBe('ax');
  });
});

describe('editDistance', () => {
  it('counts insertions, deletions and substitutions, and stops at the limit', () => {
    expect(editDistance('kitten', 'sitting', 10)).toBe(3);
    expect(editDistance('', 'abc', 10)).toBe(3);
    expect(editDistance('same', 'same', 10)).toBe(0);
    expect(editDistance('kitten', 'sitting', 2)).toBe(2);
  });
});
