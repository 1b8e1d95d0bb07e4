// The scanner of xml-shape.ts: where the slicer (entryChunks) may cut a urlset into small
// documents, where the root ends, and where a document cut at the size cap is closed again
// (closeAfterLastEntry). A cut falls only just after a real `</url>` end tag: never inside a
// comment, CDATA section, processing instruction, or a tag's quoted attribute value.

import { describe, expect, it } from 'vitest';
import { closeAfterLastEntry, entryChunks } from '../src/xml-shape.js';

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
      "<url c=\"it's </url> 'quoted'\"><loc d='say \"</url>\" > <'>http://h.test/d</loc></url>",
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
    expect(bodiesOf(`<s:urlset>${prefixed.join('')}</s:urlset>`, 1, 'url', '<s:urlset>', '</s:urlset>')).toEqual(
      prefixed,
    );
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

describe('entryChunks: where the root ends', () => {
  // Was: the root's end was the text's last `</urlset`, here inside a comment or PI after the
  // root, so the last piece held an unclosed comment ("Comment is not closed").
  it('is the real end tag, not a "</urlset" in a comment or processing instruction after the root', () => {
    const entries = ['<url><loc>a</loc></url>', '<url><loc>b</loc></url>'];
    for (const after of [
      '<!-- </urlset -->',
      '<!-- </urlset> -->',
      '<?pi </urlset> ?>',
      '\n<!-- x --><?pi </urlset ?>\n<!--</urlset>-->\n',
    ]) {
      const document = `${HEAD}${entries.join('')}${TAIL}${after}`;
      for (const chunkChars of [1, 10, document.length]) {
        const bodies = bodiesOf(document, chunkChars);
        expect(bodies.join(''), `${after} / ${chunkChars}`).toBe(entries.join(''));
      }
      expect(bodiesOf(document, 1), after).toEqual(entries);
    }
  });

  it('of a sitemapindex and a prefixed root, with a space before ">" and look-alikes inside entries', () => {
    const sitemaps = [
      '<sitemap><loc a="</sitemapindex>">a</loc></sitemap>',
      '<sitemap><loc><![CDATA[</sitemapindex>]]></loc></sitemap>',
    ];
    const index = `<sitemapindex>${sitemaps.join('')}</sitemapindex ><!-- </sitemapindex -->`;
    expect(bodiesOf(index, 1, 'sitemap', '<sitemapindex>', '</sitemapindex>')).toEqual(sitemaps);
    const urls = ['<s:url><s:loc>a</s:loc></s:url>'];
    const prefixed = `<s:urlset xmlns:s="urn:s">${urls.join('')}</s:urlset><?pi </s:urlset> ?>`;
    expect([...entryChunks(prefixed, 'url', 1)]).toEqual([`<s:urlset xmlns:s="urn:s">${urls[0]}</s:urlset>`]);
  });

  it('an empty root followed by a comment holding "</urlset": no piece with a comment in it', () => {
    expect(bodiesOf(`${HEAD}${TAIL}<!-- </urlset -->`, 1)).toEqual([]);
    expect(bodiesOf(`${HEAD}\n${TAIL}<!-- </urlset -->`, 1)).toEqual(['\n']);
  });
});

describe('closeAfterLastEntry: a document cut at the size cap, closed after its last complete entry', () => {
  const complete = '<urlset><url><loc>a</loc></url><url><loc>b</loc></url>';

  it('closes after the last real "</url>", whatever text runs on to the cut', () => {
    expect(closeAfterLastEntry(`${complete}<url><loc>c</lo`, 'url', TAIL)).toBe(`${complete}${TAIL}`);
    expect(closeAfterLastEntry(`${complete}\n  `, 'url', TAIL)).toBe(`${complete}${TAIL}`);
    expect(closeAfterLastEntry(`${complete}</ur`, 'url', TAIL)).toBe(`${complete}${TAIL}`);
  });

  // Was: the last text `url>` preceded by `</` was taken for the last entry end, so the salvaged
  // document ended inside an attribute value, comment, CDATA section or PI and was malformed.
  it('never closes after a "</url>" inside a quoted attribute value, comment, CDATA section or PI near the cut', () => {
    const cuts = [
      '<url><loc b="</url>">c</lo',
      '<url><loc b="</url>',
      "<url a='</url>'><loc>c",
      '<url><loc>c</loc><!-- </url> -->',
      '<url><loc>c</loc><!-- </url> ',
      '<url><loc><![CDATA[</url>]]>',
      '<url><loc><![CDATA[</url>',
      '<url><loc>c</loc><?pi </url> ?>',
      '<url><loc>c</loc><?pi </url>',
    ];
    for (const cut of cuts)
      expect(closeAfterLastEntry(`${complete}${cut}`, 'url', TAIL), cut).toBe(`${complete}${TAIL}`);
  });

  it('reads past the prolog, the root start tag and whole entries holding look-alikes', () => {
    const prolog = '<?xml version="1.0"?><!-- </url> --><!DOCTYPE urlset [<!ENTITY e "</url>">]>';
    const entries = '<urlset a="</url>"><url><loc b="</url>">a</loc><!-- </url> --></url>';
    expect(closeAfterLastEntry(`${prolog}${entries}<url><loc>b`, 'url', TAIL)).toBe(`${prolog}${entries}${TAIL}`);
    expect(closeAfterLastEntry(`${prolog}<urlset a="</url>"><url><loc>b`, 'url', TAIL)).toBeNull();
  });

  it('a prefixed entry, an index and an RSS feed; null when no entry is complete', () => {
    expect(closeAfterLastEntry('<s:urlset><s:url>a</s:url ><s:url x="</s:url>">', 'url', '</s:urlset>')).toBe(
      '<s:urlset><s:url>a</s:url ></s:urlset>',
    );
    expect(
      closeAfterLastEntry('<sitemapindex><sitemap>a</sitemap><sitemap><!-- </sitemap>', 'sitemap', '</sitemapindex>'),
    ).toBe('<sitemapindex><sitemap>a</sitemap></sitemapindex>');
    expect(
      closeAfterLastEntry('<rss><channel><item>a</item><item><title a="</item>"', 'item', '</channel></rss>'),
    ).toBe('<rss><channel><item>a</item></channel></rss>');
    expect(closeAfterLastEntry('<urlset><url><loc a="</url>">', 'url', TAIL)).toBeNull();
    expect(closeAfterLastEntry('<urlset>url>url></xurl>', 'url', TAIL)).toBeNull();
    expect(closeAfterLastEntry('no markup </url>', 'url', TAIL)).toBeNull();
  });
});
