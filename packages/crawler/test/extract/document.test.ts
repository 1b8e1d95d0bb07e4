import { describe, expect, it } from 'vitest';
import { createLazyDocument } from '../../src/extract/document.js';

describe('createLazyDocument', () => {
  it('parses on the first call and returns the same document afterwards', () => {
    const document = createLazyDocument('<p class="x">hello</p>');
    const first = document();
    expect(first('p.x').text()).toBe('hello');
    expect(document()).toBe(first);
  });

  it('keeps changes made through the shared document', () => {
    const document = createLazyDocument('<ul><li>a</li></ul>');
    document()('ul').append('<li>b</li>');
    expect(document()('li').length).toBe(2);
  });
});
