// Fuzzing link extraction: whatever bytes a page holds, extraction never throws, returns only
// absolute http(s) links, and its time stays linear in the page, deep nesting included (the
// nesting cap flattens what would make the HTML parser quadratic).

import { decodeText } from '@politely/core/internal';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { extractPage } from '../../packages/crawler/src/extract/extract-links.js';
import { capHtmlNesting } from '../../packages/crawler/src/extract/nesting-cap.js';
import { fuzzParams, fuzzTimeoutMs, MAX_RATIO_FOR_8X, measureScaling } from './fuzz-support.js';

const OPTIONS = { productToken: 'FuzzBot' } as const;
const PAGE = 'http://h.test/dir/page.html';

// Pieces of HTML that parsers find hard, mixed with arbitrary text.
const piece = fc.oneof(
  fc.constantFrom(
    '<a href="/x">',
    '<a href=',
    "<a href='",
    '</a>',
    '<div>',
    '</div>',
    '<span>',
    '<p>',
    '<li>',
    '<table><tr><td>',
    '<base href="http://other.test/b/">',
    '<base href="javascript:x">',
    '<meta name="robots" content="nofollow">',
    '<link rel="canonical" href="//c.test/">',
    '<!--',
    '-->',
    '<![CDATA[',
    ']]>',
    '<script>',
    '</script>',
    '<style>',
    '</style>',
    '<title>',
    '</title>',
    '<textarea>',
    '<plaintext>',
    '<svg><a xlink:href="/s">',
    '<math>',
    '<a href="http://[::1">',
    '<a href="https://a b/">',
    '<a href="mailto:x@y">',
    '<area href="/area">',
    '\0',
    '\uFFFD',
    '&amp;',
    '&#0;',
    '&#x110000;',
    '<',
    '>',
    '"',
    "'",
    '=',
    '<a rel="nofollow ugc" href="/n">',
    '<!DOCTYPE html>',
  ),
  fc.string({ maxLength: 20 }),
);
const htmlDoc = fc.array(piece, { maxLength: 200 }).map((pieces) => pieces.join(''));

describe('link extraction never throws (fast-check)', () => {
  it(
    'on HTML made of hostile pieces',
    () => {
      fc.assert(
        fc.property(htmlDoc, (html) => {
          const page = extractPage(html, PAGE, OPTIONS);
          for (const link of [...page.links, ...page.nofollowLinks]) expect(link).toMatch(/^https?:\/\//);
        }),
        fuzzParams(),
      );
    },
    fuzzTimeoutMs(5),
  );

  it(
    'on arbitrary bytes decoded under any declared charset',
    () => {
      const charset = fc.constantFrom(
        'utf-8',
        'latin1',
        'utf-16le',
        'shift_jis',
        'x-no-such-charset',
        'utf-8"; evil',
        '',
      );
      fc.assert(
        fc.property(fc.uint8Array({ maxLength: 2000 }), charset, (bytes, label) => {
          const text = decodeText(bytes, `text/html; charset=${label}`);
          expect(() => extractPage(text, PAGE, OPTIONS)).not.toThrow();
        }),
        fuzzParams(),
      );
    },
    fuzzTimeoutMs(5),
  );

  it(
    'and flattening never loses a link that parsing the page whole would find',
    () => {
      fc.assert(
        fc.property(htmlDoc, fc.integer({ min: 1, max: 40 }), (html, depth) => {
          const deep = '<div>'.repeat(depth) + html;
          const whole = extractPage(deep, PAGE, OPTIONS).links;
          const flat = extractPage(capHtmlNesting(deep, 8), PAGE, OPTIONS).links;
          for (const link of whole) expect(flat).toContain(link);
        }),
        fuzzParams(2),
      );
    },
    fuzzTimeoutMs(10, 2),
  );
});

describe('extraction time stays linear (CPU medians; 8× the page may cost at most 30× the time)', () => {
  const shapes: Record<string, (n: number) => string> = {
    'nested divs': (n) => `${'<div>'.repeat(n)}<a href="/x">x</a>${'</div>'.repeat(n)}`,
    'unclosed spans': (n) => `${'<span><b>'.repeat(n)}<a href="/x">x</a>`,
    links: (n) => Array.from({ length: n }, (_, i) => `<a href="/p/${i}">${i}</a>`).join(''),
    'open attribute quotes': (n) => `<a href="/x">x</a>${'<a title="'.repeat(n)}`,
  };
  for (const [shape, htmlOf] of Object.entries(shapes)) {
    it(shape, async () => {
      const small = htmlOf(2_000);
      const large = htmlOf(16_000);
      const scaling = await measureScaling(
        () => extractPage(small, PAGE, OPTIONS),
        () => extractPage(large, PAGE, OPTIONS),
        { samples: 3, warmups: 1 },
      );
      expect(scaling.ratio, JSON.stringify(scaling)).toBeLessThan(MAX_RATIO_FOR_8X);
    }, 60_000);
  }
});
