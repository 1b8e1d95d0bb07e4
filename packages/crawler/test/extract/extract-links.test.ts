import { PolitelyError } from '@politely/core';
import { lowercased } from '@politely/core/internal';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { extractPage } from '../../src/extract/extract-links.js';
import type { ExtractOptions } from '../../src/extract/extract-options.js';
import { resolveExtractOptions } from '../../src/extract/extract-options.js';

const PAGE = 'https://example.com/dir/page.html?q=1';
const extract = (body: string, options: Partial<ExtractOptions> = {}, pageUrl = PAGE) =>
  extractPage(body, pageUrl, { productToken: 'MyBot', ...options });
const linksOf = (body: string, options: Partial<ExtractOptions> = {}) => extract(body, options).links;
const anchors = (...hrefs: string[]) => hrefs.map((href) => `<a href="${href}">x</a>`).join('\n');

describe('extractPage', () => {
  it('resolves relative links against the page URL', () => {
    expect(
      linksOf(anchors('other.html', '../up', '/root', '?q=2', '//cdn.example.org/x', 'HTTP://EXAMPLE.com:80/y')),
    ).toEqual([
      'https://example.com/dir/other.html',
      'https://example.com/up',
      'https://example.com/root',
      'https://example.com/dir/page.html?q=2',
      'https://cdn.example.org/x',
      'http://example.com/y',
    ]);
  });

  it('reads a[href] and area[href] in document order, and nothing else', () => {
    const body = `<map><area href="/area1"></map><a href="/a1">a</a><a name="no-href">x</a>
      <link href="/stylesheet" rel="stylesheet"><img src="/img.png"><area href="/area2">`;
    expect(linksOf(body)).toEqual(['https://example.com/area1', 'https://example.com/a1', 'https://example.com/area2']);
  });

  it('resolves against the first <base href>, itself resolved against the page URL', () => {
    const absolute = extract(
      `<head><base href="https://base.example.net/b/"><base href="/ignored/"></head>${anchors('x')}`,
    );
    expect(absolute.baseUrl).toBe('https://base.example.net/b/');
    expect(absolute.links).toEqual(['https://base.example.net/b/x']);

    const relative = extract(`<base target="_top"><base href="../other/">${anchors('x', '/y')}`);
    expect(relative.baseUrl).toBe('https://example.com/other/');
    expect(relative.links).toEqual(['https://example.com/other/x', 'https://example.com/y']);
  });

  it('falls back to the page URL when <base href> is invalid or not http(s)', () => {
    expect(extract(`<base href="http://[">${anchors('x')}`).baseUrl).toBe(PAGE);
    expect(extract(`<base href="javascript:void(0)/">${anchors('x')}`).links).toEqual(['https://example.com/dir/x']);
  });

  it('drops fragments, and drops links to the page itself', () => {
    expect(linksOf(anchors('a.html#top', 'a.html#other', '#section', '', '   ', 'page.html?q=1#x', '/b#'))).toEqual([
      'https://example.com/dir/a.html',
      'https://example.com/b',
    ]);
  });

  it('trims whitespace around hrefs', () => {
    expect(linksOf(anchors('  /spaced  ', '\n\t/tabbed\n'))).toEqual([
      'https://example.com/spaced',
      'https://example.com/tabbed',
    ]);
  });

  it('skips non-http(s) schemes and counts them', () => {
    const page = extract(
      anchors(
        'mailto:a@example.com',
        'javascript:alert(1)',
        'tel:+123',
        'data:text/html,hi',
        'ftp://f.example.com/',
        'JavaScript:void(0)',
        'java\tscript:x',
        'https://ok.example.com/',
      ),
    );
    expect(page.links).toEqual(['https://ok.example.com/']);
    expect(page.skippedLinks).toEqual({ scheme: 7, invalid: 0, overLimit: 0 });
  });

  it('reads a scheme as the URL parser does: any case, digits and +.- after the first letter', () => {
    const page = extract(
      anchors(
        'HtTpS://mixed.example.com/',
        'HTTP://upper.example.com/',
        'git+ssh://g.example.com/r',
        'x-1.2:opaque',
        'httpx://not-http.example.com/',
        'http2://not-http.example.com/',
        '1http:relative-path',
        '+x:relative-path',
      ),
    );
    expect(page.links).toEqual([
      'https://mixed.example.com/',
      'http://upper.example.com/',
      'https://example.com/dir/1http:relative-path',
      'https://example.com/dir/+x:relative-path',
    ]);
    expect(page.skippedLinks).toEqual({ scheme: 4, invalid: 0, overLimit: 0 });
  });

  it('counts invalid hrefs without throwing', () => {
    const page = extract(anchors('http://[', 'https://exa mple.com/', 'http://', 'http://a:b:c/', '/fine'));
    expect(page.links).toEqual(['https://example.com/fine']);
    expect(page.skippedLinks).toEqual({ scheme: 0, invalid: 4, overLimit: 0 });
  });

  it('dedupes within the page, keeping the order of first appearance', () => {
    expect(linksOf(anchors('/c', '/a', '/c', '/b', '/a#x', 'https://EXAMPLE.com/b'))).toEqual([
      'https://example.com/c',
      'https://example.com/a',
      'https://example.com/b',
    ]);
  });

  it('keeps rel=nofollow links out of links, in nofollowLinks with the rel reason', () => {
    const body = `<a href="/f">f</a><a href="/n1" rel="nofollow">n</a><a href="/n2" rel="External NOFOLLOW noopener">n</a>
      <a href="/u" rel="ugc">u</a><a href="/s" rel="sponsored">s</a><area href="/n3" rel=" nofollow ">`;
    const page = extract(body);
    expect(page.links).toEqual(['https://example.com/f', 'https://example.com/u', 'https://example.com/s']);
    expect(page.nofollowLinks).toEqual(['https://example.com/n1', 'https://example.com/n2', 'https://example.com/n3']);
    expect(page.nofollowReason).toBe('rel');
    expect({ ...page.relCounts }).toEqual({ nofollow: 3, external: 1, noopener: 1, ugc: 1, sponsored: 1 });
  });

  it('splits rel at any run of ASCII whitespace only, and lowercases each token as the whole value would be', () => {
    const body = [
      '<a href="/tab" rel="\tnofollow\n">1</a>',
      '<a href="/mixed" rel="  noopener\fNOFOLLOW\r\nugc  ">2</a>',
      '<a href="/split" rel="no follow">3</a>',
      '<a href="/nbsp" rel="nofollow\u00a0x">4</a>',
      '<a href="/blank" rel=" \t ">5</a>',
      '<a href="/unicode" rel="ÉDITEUR \u212Aey">6</a>',
    ].join('');
    const page = extract(body);
    expect(page.links).toEqual([
      'https://example.com/split',
      'https://example.com/nbsp',
      'https://example.com/blank',
      'https://example.com/unicode',
    ]);
    expect(page.nofollowLinks).toEqual(['https://example.com/tab', 'https://example.com/mixed']);
    expect({ ...page.relCounts }).toEqual({
      nofollow: 2,
      noopener: 1,
      ugc: 1,
      no: 1,
      follow: 1,
      'nofollow\u00a0x': 1,
      éditeur: 1,
      key: 1,
    });
  });

  it('finds rel=canonical among tokens split by ASCII whitespace, in any ASCII case', () => {
    const canonicalOf = (rel: string) => extract(`<link rel="${rel}" href="/c">`).canonicalUrl;
    expect(canonicalOf('\n alternate\tcAnonicaL ')).toBe('https://example.com/c');
    expect(canonicalOf('canonical\u00a0')).toBeNull();
    expect(canonicalOf('canonicals')).toBeNull();
    expect(canonicalOf('canon ical')).toBeNull();
    expect(canonicalOf('ÇANONICAL')).toBeNull();
  });

  it('treats a URL linked both with and without nofollow as followable', () => {
    const page = extract('<a href="/x" rel="nofollow">1</a><a href="/y" rel="nofollow">2</a><a href="/x">3</a>');
    expect(page.links).toEqual(['https://example.com/x']);
    expect(page.nofollowLinks).toEqual(['https://example.com/y']);
  });

  it('honorNofollow: false follows rel=nofollow links', () => {
    const page = extract('<a href="/n" rel="nofollow">n</a>', { honorNofollow: false });
    expect(page.links).toEqual(['https://example.com/n']);
    expect(page.nofollowLinks).toEqual([]);
    expect(page.nofollowReason).toBeNull();
  });

  it('nofollowRels: ugc and sponsored can be made nofollow', () => {
    const page = extract(
      '<a href="/u" rel="UGC">u</a><a href="/s" rel="sponsored">s</a><a href="/n" rel="nofollow">n</a>',
      {
        nofollowRels: ['ugc', 'Sponsored'],
      },
    );
    expect(page.links).toEqual(['https://example.com/n']);
    expect(page.nofollowLinks).toEqual(['https://example.com/u', 'https://example.com/s']);
  });

  it('meta robots nofollow: no link is returned for following, all are nofollow with the robots reason', () => {
    const page = extract(`<head><meta name="robots" content="nofollow"></head>${anchors('/a', '/b', 'mailto:x@y')}`);
    expect(page.links).toEqual([]);
    expect(page.nofollowLinks).toEqual(['https://example.com/a', 'https://example.com/b']);
    expect(page.nofollowReason).toBe('robots');
    expect(page.skippedLinks.scheme).toBe(1);
    expect(page.robots).toEqual({
      noindex: false,
      nofollow: true,
      sources: [{ source: 'meta-robots', value: 'nofollow' }],
    });
  });

  it('meta robots nofollow applies even with honorNofollow: false', () => {
    const page = extract(`<meta name="ROBOTS" content="none">${anchors('/a')}`, { honorNofollow: false });
    expect(page.links).toEqual([]);
    expect(page.nofollowLinks).toEqual(['https://example.com/a']);
  });

  it('meta robots noindex is reported and does not stop links', () => {
    const page = extract(`<meta name="robots" content="NOINDEX">${anchors('/a')}`);
    expect(page.robots).toMatchObject({ noindex: true, nofollow: false });
    expect(page.links).toEqual(['https://example.com/a']);
  });

  it('meta robots none is noindex and nofollow', () => {
    const page = extract(`<meta name="robots" content=" none ">${anchors('/a')}`);
    expect(page.robots).toMatchObject({ noindex: true, nofollow: true });
    expect(page.links).toEqual([]);
  });

  it('a meta tag named for our token applies; one named for another crawler does not', () => {
    const ours = extract(`<meta name="mybot" content="nofollow">${anchors('/a')}`);
    expect(ours.robots.sources).toEqual([{ source: 'meta-agent', value: 'nofollow' }]);
    expect(ours.links).toEqual([]);

    const theirs = extract(
      `<meta name="googlebot" content="noindex, nofollow"><meta name="MyBotNews" content="none">${anchors('/a')}`,
    );
    expect(theirs.robots).toEqual({ noindex: false, nofollow: false, sources: [] });
    expect(theirs.links).toEqual(['https://example.com/a']);
  });

  it('X-Robots-Tag values from the options combine with meta robots', () => {
    const page = extract(`<meta name="robots" content="noindex">${anchors('/a')}`, { xRobotsTag: 'MyBot: nofollow' });
    expect(page.robots).toEqual({
      noindex: true,
      nofollow: true,
      sources: [
        { source: 'meta-robots', value: 'noindex' },
        { source: 'x-robots-tag', value: 'MyBot: nofollow' },
      ],
    });
    expect(page.nofollowLinks).toEqual(['https://example.com/a']);
  });

  it('X-Robots-Tag for another agent, or several values that do not say nofollow, leave links alone', () => {
    expect(linksOf(anchors('/a'), { xRobotsTag: 'googlebot: nofollow' })).toEqual(['https://example.com/a']);
    const page = extract(anchors('/a'), { xRobotsTag: ['noarchive', 'otherbot: none', 'noindex'] });
    expect(page.robots).toMatchObject({ noindex: true, nofollow: false });
    expect(page.links).toEqual(['https://example.com/a']);
  });

  it('reports the first canonical URL, resolved against the base, without fragment', () => {
    const body = `<head><base href="/base/"><link rel="alternate" href="/alt"><link rel="Canonical" href="canon#x">
      <link rel="canonical" href="/second"></head>`;
    expect(extract(body).canonicalUrl).toBe('https://example.com/base/canon');
  });

  it('canonical is null when missing, empty, invalid or not http(s)', () => {
    expect(extract('<p>no head</p>').canonicalUrl).toBeNull();
    expect(extract('<link rel="canonical" href="">').canonicalUrl).toBeNull();
    expect(extract('<link rel="canonical" href="http://[">').canonicalUrl).toBeNull();
    expect(extract('<link rel="canonical" href="ftp://example.com/">').canonicalUrl).toBeNull();
  });

  it('reports the title, whitespace collapsed, or null', () => {
    expect(extract('<title>\n  A   page\ttitle </title>').title).toBe('A page title');
    expect(extract('<p>untitled</p>').title).toBeNull();
    expect(extract('<title>   </title>').title).toBeNull();
  });

  it('caps links at maxLinks and counts the distinct overflow', () => {
    const page = extract(anchors('/1', '/2', '/1', '/3', '/4', '/3', '/5'), { maxLinks: 2 });
    expect(page.links).toEqual(['https://example.com/1', 'https://example.com/2']);
    expect(page.skippedLinks).toEqual({ scheme: 0, invalid: 0, overLimit: 3 });
  });

  it('caps nofollowLinks separately at maxLinks', () => {
    const body = `<a href="/f1">f</a><a href="/n1" rel="nofollow">n</a><a href="/n2" rel="nofollow">n</a><a href="/f2">f</a>`;
    const page = extract(body, { maxLinks: 1 });
    expect(page.links).toEqual(['https://example.com/f1']);
    expect(page.nofollowLinks).toEqual(['https://example.com/n1']);
    expect(page.skippedLinks.overLimit).toBe(2);
  });

  it('maxLinks: 0 returns no links and counts them all', () => {
    const page = extract(anchors('/a', '/b'), { maxLinks: 0 });
    expect(page.links).toEqual([]);
    expect(page.skippedLinks.overLimit).toBe(2);
  });

  it('never throws on malformed HTML', () => {
    const garbage = [
      '<a href="/open">unclosed <div><p><a href="/nested"><table><tr><td><a href="/cell"',
      "<<<>>><a href=/unquoted>x<a href='/single'>y</",
      '\u0000\uFFFD\uD800<a href="/after-nul">z</a><!-- unclosed comment <a href="/hidden">',
      '<html><html><head><body><body><a href="/doubled">',
      '</a></div></p><script>document.write("<a href=/script>")</script>',
      String.fromCharCode(...Array.from({ length: 512 }, (_, i) => (i * 37) % 256)),
      '',
    ];
    for (const body of garbage) expect(() => extract(body)).not.toThrow();
    // A tag cut off by the end of the file is dropped, as browsers drop it.
    expect(extract(garbage[0] ?? '').links).toEqual(['https://example.com/open', 'https://example.com/nested']);
    expect(extract(garbage[1] ?? '').links).toEqual(['https://example.com/unquoted', 'https://example.com/single']);
    expect(extract(garbage[2] ?? '').links).toEqual(['https://example.com/after-nul']);
    expect(extract(garbage[4] ?? '').links).toEqual([]);
    expect(extract('').links).toEqual([]);
  });

  it('a page with 100,000 links completes and is capped at the default 10,000', () => {
    const body = Array.from({ length: 100_000 }, (_, i) => `<a href="/p/${i}">${i}</a>`).join('\n');
    const page = extract(body);
    expect(page.links).toHaveLength(10_000);
    expect(page.links[0]).toBe('https://example.com/p/0');
    expect(page.links[9_999]).toBe('https://example.com/p/9999');
    expect(page.skippedLinks).toEqual({ scheme: 0, invalid: 0, overLimit: 90_000 });
  });

  it('throws ERR_INVALID_URL for an invalid page URL', () => {
    expect(() => extract('<a href="/x">', {}, 'not a url')).toThrow(PolitelyError);
    try {
      extract('', {}, '/relative');
    } catch (error) {
      expect(error).toMatchObject({ code: 'ERR_INVALID_URL' });
    }
    expect.assertions(2);
  });
});

describe('resolveExtractOptions', () => {
  it('fills every default', () => {
    expect(resolveExtractOptions({ productToken: 'MyBot' })).toEqual({
      productToken: 'MyBot',
      honorNofollow: true,
      nofollowRels: ['nofollow'],
      maxLinks: 10_000,
      xRobotsTag: [],
    });
  });

  it('lowercases nofollowRels and wraps a single X-Robots-Tag value', () => {
    expect(resolveExtractOptions({ productToken: 'b', nofollowRels: ['UGC'], xRobotsTag: 'noindex' })).toMatchObject({
      nofollowRels: ['ugc'],
      xRobotsTag: ['noindex'],
    });
  });

  it('rejects invalid values with ERR_INVALID_OPTION', () => {
    const invalid: ExtractOptions[] = [
      { productToken: '' },
      { productToken: 'MyBot/1.0' },
      { productToken: 'b', maxLinks: -1 },
      { productToken: 'b', maxLinks: 1.5 },
      { productToken: 'b', maxLinks: Number.NaN },
      { productToken: 'b', nofollowRels: ['no follow'] },
      { productToken: 'b', nofollowRels: [''] },
    ];
    for (const options of invalid) {
      expect(() => resolveExtractOptions(options)).toThrow(expect.objectContaining({ code: 'ERR_INVALID_OPTION' }));
    }
  });
});

describe('lowercased', () => {
  it('is toLowerCase, returning a lowercase ASCII string as it is', () => {
    for (const value of [
      '',
      'robots',
      'twitter:card',
      'ROBOTS',
      'ProbeBot',
      '\u212Aey',
      'İx',
      'ΣΑΣ',
      'café',
      'a\u00a0b',
    ]) {
      expect(lowercased(value)).toBe(value.toLowerCase());
    }
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), (value) => lowercased(value) === value.toLowerCase()),
      { numRuns: 500 },
    );
  });
});
