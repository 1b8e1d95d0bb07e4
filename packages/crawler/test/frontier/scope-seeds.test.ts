// The crawl's scope seeds as the store keeps them: one origin per site, merged without loss.

import { describe, expect, it } from 'vitest';
import { mergeScopeRoots, scopeRootsOf } from '../../src/frontier/scope-seeds.js';

describe('scopeRootsOf', () => {
  it('keeps one origin per site, in order, and leaves out what is not an http(s) URL', () => {
    expect(
      scopeRootsOf([
        'https://a.example/x',
        'https://a.example/y?q=1',
        'http://a.example:8080/',
        'mailto:someone@example.com',
        'not a url',
        'https://b.example/',
      ]),
    ).toEqual(['https://a.example', 'http://a.example:8080', 'https://b.example']);
  });
});

describe('mergeScopeRoots', () => {
  it('appends what is new, each origin once, and reads a stored value that is not a list as empty', () => {
    expect(mergeScopeRoots(['https://a.example'], ['https://b.example', 'https://a.example'])).toEqual([
      'https://a.example',
      'https://b.example',
    ]);
    expect(mergeScopeRoots(undefined, ['https://a.example'])).toEqual(['https://a.example']);
    expect(mergeScopeRoots({ not: 'a list' }, [])).toEqual([]);
    expect(mergeScopeRoots(['https://a.example', 7], [])).toEqual(['https://a.example']);
  });
});
