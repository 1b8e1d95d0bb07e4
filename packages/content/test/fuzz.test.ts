// Whatever HTML a page holds, extractContent never throws, and its Markdown, rendered back by a
// CommonMark parser, says what its text says.

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { extractContent } from '../src/index.js';
import { renderedText, squash } from './round-trip.js';

const piece = fc.oneof(
  fc.constantFrom(
    '<p>',
    '</p>',
    '<article>',
    '<div class="content">',
    '<div class="share">',
    '</div>',
    '<ul><li>',
    '<ol start="7"><li>',
    '</li>',
    '</ul>',
    '<pre>',
    '</pre>',
    '<code>',
    '</code>',
    '<em>',
    '</em>',
    '<strong>',
    '</strong>',
    '<a href="/x?a=1&amp;b=2">',
    '<a href="javascript:void(0)">',
    '</a>',
    '<br>',
    '<h2>',
    '</h2>',
    '<blockquote>',
    '</blockquote>',
    '<table><tr><td>',
    '</td><td>',
    '</td></tr></table>',
    '<img src="i.png" alt="[x]">',
    '<script>x<y</script>',
    'A sentence, with commas, long enough to count as prose here. ',
    '* _ ` [ ] # > - + 1. | \\ < & ~~ ',
    '&gt; quoted &lt;tag&gt; &amp;amp;',
    '\n',
    '   ',
  ),
  fc.string({ maxLength: 12 }),
);

describe('extractContent on arbitrary markup', () => {
  it('never throws, and its Markdown renders back to its text', () => {
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 60 }), (pieces) => {
        const result = extractContent(pieces.join(''), { url: 'https://fuzz.example/a/b.html' });
        expect(renderedText(result.markdown)).toBe(squash(result.text));
      }),
      { numRuns: Number(process.env.CONTENT_FUZZ_RUNS ?? 300) },
    );
  });
});
