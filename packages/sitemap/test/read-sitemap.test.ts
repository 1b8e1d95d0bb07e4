import { gzipSync } from 'node:zlib';
import { type RawSitemapEntry, readSitemap, type SitemapDocument } from '@politely/sitemap';
import { describe, expect, it } from 'vitest';
import { atom, billionLaughs, rss, sitemapIndex, urlset } from './helpers/fixtures.js';

const URL_ = 'http://h.test/dir/sitemap.xml';
const bytes = (text: string): Uint8Array => new TextEncoder().encode(text);
const read = (body: string | Uint8Array, maxBytes = 50 * 1024 * 1024, truncated = false, chunkChars?: number) =>
  readSitemap(URL_, typeof body === 'string' ? bytes(body) : body, {
    maxBytes,
    truncated,
    ...(chunkChars === undefined ? {} : { chunkChars }),
  });
async function entriesOf(document: SitemapDocument): Promise<RawSitemapEntry[]> {
  if (document.kind === 'invalid') throw new Error(`invalid: ${document.message}`);
  const entries: RawSitemapEntry[] = [];
  for await (const entry of document.entries) entries.push(entry);
  return entries;
}
const locsOf = async (document: SitemapDocument): Promise<(string | undefined)[]> =>
  (await entriesOf(document)).map((e) => e.loc);

describe('readSitemap', () => {
  it('sitemaps.org: reads a urlset with loc, lastmod, changefreq and priority (through sitemapper)', async () => {
    const { document } = await read(
      urlset([
        { loc: 'http://h.test/a?x=1&y=2', lastmod: '2024-05-01', changefreq: 'daily', priority: '0.8' },
        'http://h.test/b',
      ]),
    );
    expect(document).toMatchObject({ kind: 'urls', format: 'urlset' });
    expect(await entriesOf(document)).toEqual([
      { loc: 'http://h.test/a?x=1&y=2', lastmod: '2024-05-01', changefreq: 'daily', priority: '0.8' },
      { loc: 'http://h.test/b', lastmod: undefined, changefreq: undefined, priority: undefined },
    ]);
  });

  it('sitemaps.org: reads a sitemapindex as child sitemaps, one of them listing the index itself', async () => {
    const { document } = await read(sitemapIndex(['http://h.test/dir/a.xml', URL_]));
    expect(document).toMatchObject({ kind: 'index', format: 'sitemapindex' });
    expect(await locsOf(document)).toEqual(['http://h.test/dir/a.xml', URL_]);
  });

  it('reads an empty urlset and an empty index as no entries', async () => {
    expect(await entriesOf((await read('<urlset/>')).document)).toEqual([]);
    expect(await entriesOf((await read('<sitemapindex></sitemapindex>')).document)).toEqual([]);
  });

  it('sitemaps.org: reads RSS 2.0 <item><link> with pubDate as lastmod, and Atom <entry><link href> with updated', async () => {
    const feed = await read(
      rss([{ link: 'http://h.test/r1', pubDate: 'Mon, 06 Sep 2010 00:01:00 +0000' }, { link: 'http://h.test/r2' }]),
    );
    expect(feed.document).toMatchObject({ kind: 'urls', format: 'rss' });
    expect(await entriesOf(feed.document)).toEqual([
      { loc: 'http://h.test/r1', lastmod: 'Mon, 06 Sep 2010 00:01:00 +0000' },
      { loc: 'http://h.test/r2', lastmod: undefined },
    ]);
    const atomFeed = await read(atom([{ href: 'http://h.test/a1', updated: '2024-02-03T04:05:06Z' }]));
    expect(atomFeed.document).toMatchObject({ kind: 'urls', format: 'atom' });
    expect(await entriesOf(atomFeed.document)).toEqual([{ loc: 'http://h.test/a1', lastmod: '2024-02-03T04:05:06Z' }]);
  });

  it('sitemaps.org: reads a text sitemap, one URL per line, blank lines and CRLF tolerated', async () => {
    const { document } = await read('http://h.test/1\r\n\r\nhttp://h.test/2\n  http://h.test/3  \n');
    expect(document).toMatchObject({ kind: 'urls', format: 'text' });
    expect(await locsOf(document)).toEqual(['http://h.test/1', 'http://h.test/2', 'http://h.test/3']);
  });

  it('gunzips by the magic bytes, whatever the URL says', async () => {
    const result = await read(gzipSync(urlset(['http://h.test/z'])));
    expect(result.gzipped).toBe(true);
    expect(await locsOf(result.document)).toEqual(['http://h.test/z']);
  });

  it('stops a gzip bomb at the cap: 60 MB of zeros (≈60 KB gzipped) reads 1 MB and is no sitemap', async () => {
    const bomb = gzipSync(Buffer.alloc(60 * 1024 * 1024), { level: 9 });
    expect(bomb.length).toBeLessThan(100 * 1024);
    const before = process.memoryUsage().rss;
    const result = await read(bomb, 1024 * 1024);
    expect(result).toMatchObject({ truncated: true, gzipped: true, document: { kind: 'invalid', notASitemap: true } });
    expect(process.memoryUsage().rss - before).toBeLessThan(40 * 1024 * 1024);
  });

  it('reports corrupt gzip data', async () => {
    const corrupt = Uint8Array.from([0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 3, 1, 2, 3, 4, 5]);
    expect((await read(corrupt)).document).toMatchObject({
      kind: 'invalid',
      notASitemap: false,
      message: expect.stringContaining('gzip'),
    });
  });

  it('salvages the entries complete before the cut of a truncated urlset, index or text file', async () => {
    const full = urlset(['http://h.test/1', 'http://h.test/2', 'http://h.test/3']);
    const cut = full.slice(0, full.indexOf('http://h.test/3'));
    expect(await locsOf((await read(cut, 1000, true)).document)).toEqual(['http://h.test/1', 'http://h.test/2']);
    const index = sitemapIndex(['http://h.test/dir/1.xml', 'http://h.test/dir/2.xml']);
    const indexCut = index.slice(0, index.indexOf('2.xml'));
    expect(await locsOf((await read(indexCut, 1000, true)).document)).toEqual(['http://h.test/dir/1.xml']);
    expect(await locsOf((await read('http://h.test/1\nhttp://h.test/2\nhttp://h.te', 1000, true)).document)).toEqual([
      'http://h.test/1',
      'http://h.test/2',
    ]);
    const nothingWhole = await read(full.slice(0, 120), 120, true);
    expect(await entriesOf(nothingWhole.document)).toEqual([]);
  });

  // Was: the salvage closed after the text's last `</url>`, here inside an attribute value, comment,
  // CDATA section or PI near the cut, so the salvaged document was malformed and every entry was lost.
  it('salvages every complete entry of a cut file whose "</url>" look-alikes near the cut lie in an attribute, comment, CDATA or PI', async () => {
    const urls = ['http://h.test/1', 'http://h.test/2', 'http://h.test/3'];
    const full = urlset(urls);
    const cutAt = full.indexOf('<url><loc>http://h.test/3');
    const tails = [
      '<url><loc foo="</url>">http://h.test/3</lo',
      "<url a='x</url>'><loc>http://h.te",
      '<url><loc>http://h.test/3</loc><!-- </url> --',
      '<url><loc><![CDATA[http://h.test/3?</url>',
      '<url><loc>http://h.test/3</loc><?pi </url> ?',
    ];
    for (const tail of tails) {
      const cut = full.slice(0, cutAt) + tail;
      expect(await locsOf((await read(cut, cut.length, true)).document), tail).toEqual(urls.slice(0, 2));
      expect(await locsOf((await read(cut, cut.length, true, 1)).document), `${tail} / sliced`).toEqual(
        urls.slice(0, 2),
      );
    }
    const index = sitemapIndex(['http://h.test/dir/1.xml', 'http://h.test/dir/2.xml']);
    const indexCut = `${index.slice(0, index.indexOf('<sitemap><loc>http://h.test/dir/2.xml'))}<sitemap><loc x="</sitemap>">http://h.test/dir/2`;
    expect(await locsOf((await read(indexCut, indexCut.length, true)).document)).toEqual(['http://h.test/dir/1.xml']);
  });

  it('never expands entities: a billion-laughs document stays small and its reference stays literal', async () => {
    const body = billionLaughs('<url><loc>http://h.test/&lol9;</loc></url><url><loc>&lol9;</loc></url>');
    const before = process.memoryUsage().rss;
    const started = performance.now();
    const { document } = await read(body);
    expect(performance.now() - started).toBeLessThan(1000);
    expect(process.memoryUsage().rss - before).toBeLessThan(50 * 1024 * 1024);
    expect(await locsOf(document)).toEqual(['http://h.test/&lol9;', '&lol9;']);
  });

  it('decodes predefined and character references once, and reads a stray & literally', async () => {
    const body = '<urlset><url><loc>http://h.test/?a=1&amp;b=2&c=3&#38;d=&#x34;&amp;lt;</loc></url></urlset>';
    expect(await locsOf((await read(body)).document)).toEqual(['http://h.test/?a=1&b=2&c=3&d=4&lt;']);
  });

  it('reads CDATA and namespaced elements (removeNSPrefix, as sitemapper does)', async () => {
    const body =
      '<s:urlset xmlns:s="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:image="http://www.google.com/schemas/sitemap-image/1.1">' +
      '<s:url><s:loc><![CDATA[http://h.test/c?x&y]]></s:loc><image:image><image:loc>http://h.test/i.png</image:loc></image:image></s:url></s:urlset>';
    expect(await locsOf((await read(body)).document)).toEqual(['http://h.test/c?x&y']);
  });

  it('calls malformed XML malformed, with the line', async () => {
    const { document } = await read('<?xml version="1.0"?>\n<urlset>\n<url><loc>http://h.test/a</url>\n</urlset>');
    expect(document).toMatchObject({
      kind: 'invalid',
      notASitemap: false,
      message: expect.stringMatching(/^malformed XML: .*line 3/),
    });
    // Only its end tag missing: its whole entries are read, and the file is partial.
    const unclosed = await read('<urlset><url><loc>x</loc></url>');
    expect(await locsOf(unclosed.document)).toEqual(['x']);
    expect(unclosed.partial?.reason).toContain('malformed XML');
  });

  it('tells an HTML page, another XML document, binary data and an empty file from a sitemap', async () => {
    const cases: [string | Uint8Array, string][] = [
      [
        '<!DOCTYPE html>\n<html><head><title>Shop</title></head><body><a href="/x">x</a></body></html>',
        'not a sitemap: an HTML page',
      ],
      ['<?xml version="1.0"?><!-- c --><catalog><item/></catalog>', 'not a sitemap: root element <catalog>'],
      [Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0, 0, 1, 2]), 'not a sitemap: binary data'],
      ['   \n ', 'not a sitemap: an empty file'],
      ['{"urls": ["http://h.test/a"]}', 'not a sitemap: neither XML nor one URL per line'],
    ];
    for (const [body, message] of cases) {
      expect((await read(body)).document).toMatchObject({
        kind: 'invalid',
        notASitemap: true,
        message: expect.stringContaining(message),
      });
    }
  });

  it('parses a large urlset or index a slice at a time, never cutting inside a comment or CDATA, with the same result', async () => {
    const entries = Array.from({ length: 200 }, (_, i) => `http://h.test/${i}`);
    let body = urlset(entries);
    body = body.replace(
      '<url><loc>http://h.test/50</loc></url>',
      '<!-- old: <url><loc>http://h.test/gone</loc></url> --><url><loc>http://h.test/50</loc></url>',
    );
    body = body.replace(
      '<url><loc>http://h.test/120</loc></url>',
      '<url><loc><![CDATA[http://h.test/120?</url>]]></loc></url>',
    );
    const whole = await locsOf((await read(body)).document);
    expect(whole).toHaveLength(200);
    expect(whole[120]).toBe('http://h.test/120?</url>');
    for (const chunkChars of [1, 40, 333, 4096]) {
      expect(await locsOf((await read(body, undefined, false, chunkChars)).document)).toEqual(whole);
    }
    const index = sitemapIndex(entries.map((e) => `${e}.xml`));
    expect(await locsOf((await read(index, undefined, false, 100)).document)).toEqual(entries.map((e) => `${e}.xml`));
    const prefixed =
      '<s:urlset xmlns:s="http://www.sitemaps.org/schemas/sitemap/0.9">' +
      entries.map((e) => `<s:url><s:loc>${e}</s:loc></s:url>`).join('') +
      '</s:urlset>';
    expect(await locsOf((await read(prefixed, undefined, false, 64)).document)).toEqual(entries);
  });

  // Was: the root's end was the text's last `</urlset`, here in a comment or PI after the root, so
  // iteration failed with "Comment is not closed" (or "Pi Tag is not closed"), whole or in slices.
  it('reads a urlset or index followed by a comment or PI holding its own end tag, whole and in slices', async () => {
    const urls = ['http://h.test/a', 'http://h.test/b'];
    const children = ['http://h.test/dir/a.xml', 'http://h.test/dir/b.xml'];
    for (const after of [
      '<!-- </urlset -->',
      '<!-- </urlset> -->\n',
      '<?pi </urlset> ?>',
      '<!-- </sitemapindex -->',
      '<?pi </sitemapindex ?>',
    ]) {
      for (const chunkChars of [undefined, 1, 60]) {
        const what = `${after} / ${chunkChars}`;
        expect(await locsOf((await read(urlset(urls) + after, undefined, false, chunkChars)).document), what).toEqual(
          urls,
        );
        expect(
          await locsOf((await read(sitemapIndex(children) + after, undefined, false, chunkChars)).document),
          what,
        ).toEqual(children);
      }
    }
    const prefixed =
      '<s:urlset xmlns:s="http://www.sitemaps.org/schemas/sitemap/0.9"><s:url><s:loc>http://h.test/a</s:loc></s:url></s:urlset><!-- </s:urlset -->';
    expect(await locsOf((await read(prefixed)).document)).toEqual(['http://h.test/a']);
  });

  it('decodes UTF-16 with a BOM', async () => {
    const text = '<urlset><url><loc>http://h.test/é</loc></url></urlset>';
    const utf16 = new Uint8Array([0xff, 0xfe, ...new Uint8Array(Buffer.from(text, 'utf16le'))]);
    expect(await locsOf((await read(utf16)).document)).toEqual(['http://h.test/é']);
  });
});

// Sitemaps as they are in the wild: what a damaged or odd file holds is read, and what was
// dropped is said. Minimal files of our own, one flaw each.
describe('readSitemap: damaged and odd files', () => {
  const NS = 'http://www.sitemaps.org/schemas/sitemap/0.9';
  const five = [1, 2, 3, 4, 5].map((n) => `<url><loc>http://h.test/dir/${n}</loc></url>`).join('');

  it('reads a file with whitespace before its XML declaration (a newline; a BOM then blank lines)', async () => {
    const body = `<?xml version="1.0" encoding="UTF-8"?><urlset xmlns="${NS}">${five}</urlset>`;
    for (const prefix of ['\n', '\uFEFF\n \t\r\n', '   \r\n\r\n']) {
      const { document, partial } = await read(prefix + body);
      expect(await locsOf(document), JSON.stringify(prefix)).toEqual(
        [1, 2, 3, 4, 5].map((n) => `http://h.test/dir/${n}`),
      );
      expect(partial).toBeUndefined();
    }
  });

  it('reads a text file whose first line is not a URL: every line is an entry (bad ones are checked, and skipped, where entries are)', async () => {
    const { document } = await read(
      'www.example.com/catalog?item=1\nhttp://h.test/dir/a\n\u00a0http://h.test/dir/b\u00a0\r\nnot a url\nhttp://h.test/dir/c\n',
    );
    expect(document).toMatchObject({ kind: 'urls', format: 'text' });
    expect(await locsOf(document)).toEqual([
      'www.example.com/catalog?item=1',
      'http://h.test/dir/a',
      'http://h.test/dir/b',
      'not a url',
      'http://h.test/dir/c',
    ]);
    // No URL among its first lines: not a text sitemap.
    expect((await read('hello\nworld\n')).document).toMatchObject({ kind: 'invalid', notASitemap: true });
  });

  it('salvages the whole entries of a file that arrived cut mid-<url>, reported as partial with the byte offset', async () => {
    const whole = `<?xml version="1.0"?>\n<urlset xmlns="${NS}">${five}</urlset>`;
    const cutAt = whole.indexOf('<url><loc>http://h.test/dir/5');
    const body = `${whole.slice(0, cutAt)}<url><loc>http://h.test/di`;
    const { document, partial, truncated } = await read(body);
    expect(truncated).toBe(false);
    expect(await locsOf(document)).toEqual([1, 2, 3, 4].map((n) => `http://h.test/dir/${n}`));
    expect(partial?.reason).toMatch(/^malformed XML/);
    expect(partial?.atByte).toBe(cutAt);
  });

  it('salvages every entry of a file missing only its </urlset> (and of an index missing </sitemapindex>)', async () => {
    const { document, partial } = await read(`<urlset xmlns="${NS}">${five}`);
    expect(await locsOf(document)).toHaveLength(5);
    expect(partial).toMatchObject({ atByte: `<urlset xmlns="${NS}">${five}`.length });
    const index = await read(
      '<sitemapindex><sitemap><loc>http://h.test/dir/a.xml</loc></sitemap><sitemap><loc>http://h.test/dir/b.xml</loc></sitemap>',
    );
    expect(index.document).toMatchObject({ kind: 'index' });
    expect(await locsOf(index.document)).toEqual(['http://h.test/dir/a.xml', 'http://h.test/dir/b.xml']);
    expect(index.partial).toBeDefined();
  });

  it('salvages the entries before a malformed one in the middle (a stray & before it does not shift the cut)', async () => {
    const body = `<urlset xmlns="${NS}"><url><loc>http://h.test/dir/1?a=1&b=2</loc></url><url><loc>http://h.test/dir/2</loc></url><url><loc>http://h.test/dir/3</lox></url>${five}</urlset>`;
    const { document, partial } = await read(body);
    expect(await locsOf(document)).toEqual(['http://h.test/dir/1?a=1&b=2', 'http://h.test/dir/2']);
    expect(partial?.atByte).toBe(body.indexOf('<url><loc>http://h.test/dir/3'));
  });

  it('still calls a file malformed when no whole entry comes before its damage', async () => {
    const { document, partial } = await read(
      `<urlset xmlns="${NS}"><url><loc>http://h.test/dir/1</lox></url></urlset>`,
    );
    expect(document).toMatchObject({ kind: 'invalid', notASitemap: false });
    expect(partial).toBeUndefined();
  });
});
