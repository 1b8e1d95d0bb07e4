// The slicer's scanner (xml-shape.ts, entryChunks): where it may cut a urlset into small documents.
// A cut falls only just after a real `</url>` end tag: never inside a comment, CDATA section,
// processing instruction, or a tag's quoted attribute value.

import { describe, expect, it } from 'vitest';
import { entryChunks } from '../src/xml-shape.js';

const HEAD = '<urlset>';
const TAIL = '</urlset>';

/** The bodies of the pieces (each piece less its root start and end tag). */
function bodiesOf(document: string, chunkChars: number, item = 'url', head = HEAD, tail = TAIL): string[] {
  return [...entryChunks(document, item, chunkChars)].map((chunk) => {
    expect(chunk.startsWith(head) && chunk.endsWith(tail), chunk).toBe(true);
    return chunk.slice(head.length, chunk.length - tail.length);
  });
}

describe('entryChunks: where a large sitemap is cut', () => {
  it('never cuts inside a quoted attribute value holding "</url>", ">" or "<", in either quote style', () => {
    const entries = [
      '<url><loc foo="</url>">http://h.test/a</loc></url>',
      "<url a='x</url>y'><loc>http://h.test/b</loc></url>",
      '<url><loc a="1 > 0" b=\'<\'>http://h.test/c</loc></url>',
      '<url c="it\'s </url> \'quoted\'"><loc d=\'say "</url>" > <\'>http://h.test/d</loc></url>',
      '<url><loc/><x e="<url>"/><x f=\'</url\'/></url>',
    ];
    const document = `${HEAD}${entries.join('')}${TAIL}`;
    // The smallest slices: one whole entry each, cut at its real end tag only.
    expect(bodiesOf(document, 1)).toEqual(entries);
    for (let chunkChars = 1; chunkChars <= document.length; chunkChars++) {
      const bodies = bodiesOf(document, chunkChars);
      expect(bodies.join('')).toBe(entries.join(''));
      // Every cut lies between two entries.
      let at = 0;
      const ends = new Set(entries.map((entry) => (at += entry.length)));
      let cut = 0;
      for (const body of bodies) expect(ends.has((cut += body.length)), `chunkChars ${chunkChars}`).toBe(true);
    }
  });

  it('counts quotes only inside tags: a quote in text, a comment, CDATA or a PI hides no cut', () => {
    const entries = [
      '<url><loc>say "hi</loc></url>',
      "<url><loc>it's</loc><!-- it's --></url>",
      '<url><loc><![CDATA["]]></loc><?pi \'?></url>',
      '<url><loc>"</loc></url>',
    ];
    expect(bodiesOf(`${HEAD}${entries.join('')}${TAIL}`, 1)).toEqual(entries);
  });

  it('still never cuts inside a comment, CDATA section or processing instruction, even one holding a quote and "</url>"', () => {
    const entries = [
      '<url><loc>a</loc><!-- " </url> --></url>',
      "<url><loc><![CDATA[' </url>]]></loc></url>",
      '<url><loc>c</loc><?pi a="</url>" ?></url>',
    ];
    expect(bodiesOf(`${HEAD}${entries.join('')}${TAIL}`, 1)).toEqual(entries);
  });

  it('cuts after a prefixed end tag and one with space before its ">", not after a look-alike', () => {
    const prefixed = ['<s:url><s:loc x="</s:url>">a</s:loc></s:url>', '<s:url><s:loc>b</s:loc></s:url >'];
    expect(bodiesOf(`<s:urlset>${prefixed.join('')}</s:urlset>`, 1, 'url', '<s:urlset>', '</s:urlset>')).toEqual(prefixed);
    const lookAlikes = ['<url><loc>url> </xurl></loc></url>', '<url><loc>b</loc></url>'];
    expect(bodiesOf(`${HEAD}${lookAlikes.join('')}${TAIL}`, 1)).toEqual(lookAlikes);
  });

  it('an unterminated quote: no hang, no throw, no cut past it', () => {
    // The rest from the tag whose quote never closes goes as one last piece (the whole-file check
    // rejects such a file before it is ever sliced).
    const before = '<url><loc>a</loc></url>';
    const open = '<url a="x</url><url><loc>b</loc></url>';
    expect(bodiesOf(`${HEAD}${before}${open}${TAIL}`, 1)).toEqual([before, open]);
    expect(bodiesOf(`${HEAD}${before}<url a='x</url>${TAIL}`, 1)).toEqual([before, "<url a='x</url>"]);
    // At the very end of the input, with no root end tag after it: nothing to slice.
    expect(bodiesOf(`${HEAD}${before}<url a="x</url>`, 1)).toEqual([]);
    expect(bodiesOf(`${HEAD}${before}<url a='`, 1)).toEqual([]);
    // In the root start tag itself.
    expect(bodiesOf('<urlset a="x></url>', 1)).toEqual([]);
  });

  it('a quote that closes far away costs one pass: a flood of "</url>" in attribute values', () => {
    const value = '</url>'.repeat(20_000);
    const entries = [`<url a="${value}"><loc b='${value}'>a</loc></url>`, '<url><loc>b</loc></url>'];
    expect(bodiesOf(`${HEAD}${entries.join('')}${TAIL}`, 1)).toEqual(entries);
  });
});
