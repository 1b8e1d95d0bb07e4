// The streaming extractor (html-scan.ts, no tree) against extraction through the full DOM
// (dom-oracle.ts, cheerio over parse5): the same links, nofollow links and reason, rel counts,
// skipped counts, meta robots, canonical, base and title, over every HTML page of the demo web,
// the hostile web and the fleets, hand-written tricky cases, and generated HTML. The markup the
// scan deliberately does not follow (html-scan.ts says why) is pinned as named differences.

import { createHttpClient } from '@politely/core';
import { decodeText } from '@politely/core/internal';
import { type LocalWeb, startDemoWeb } from '@politely/demo-web';
import { startFleet, startHostileWeb } from '@politely/local-web';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isHtmlContentType } from '../../src/extract/content-type.js';
import { extractPage } from '../../src/extract/extract-links.js';
import type { ExtractOptions } from '../../src/extract/extract-options.js';
import { scanHtml } from '../../src/extract/html-scan.js';
import { domFactsOf, extractThroughDom } from './dom-oracle.js';

const PAGE_URL = 'https://example.test/dir/page.html';
const OPTIONS: ExtractOptions = { productToken: 'PolitelyDemo', xRobotsTag: [], maxLinks: 50 };

function expectSameExtraction(html: string, pageUrl = PAGE_URL, options = OPTIONS): void {
  expect(extractPage(html, pageUrl, options)).toEqual(extractThroughDom(html, pageUrl, options));
}

interface CorpusPage {
  readonly url: string;
  readonly html: string;
}

/** Fetches `urls` (bounded body and time) and keeps the HTML pages, decoded as the crawler decodes them. */
async function htmlPagesOf(urls: readonly string[]): Promise<CorpusPage[]> {
  const client = createHttpClient({ allowNet: ['127.0.0.0/8'] });
  try {
    const pages = await Promise.all(
      urls.map(async (url): Promise<CorpusPage | undefined> => {
        try {
          const response = await client.get({
            url,
            headers: { 'user-agent': 'PolitelyDemo/1.0' },
            timeoutMs: 3000,
            bodyLimit: { maxBytes: 4 << 20, atLimit: 'fail' },
          });
          const contentType = response.header('content-type');
          if (response.status !== 200 || !isHtmlContentType(contentType)) return undefined;
          return { url, html: decodeText(response.body, contentType) };
        } catch {
          return undefined; // the hostile web's resets, bombs and silent host: not HTML to compare
        }
      }),
    );
    return pages.filter((page): page is CorpusPage => page !== undefined);
  } finally {
    await client.close();
  }
}

function manifestUrls(web: LocalWeb): string[] {
  return web.hosts.flatMap((host) =>
    [
      '/',
      ...host.expectedAllowedPaths,
      ...host.disallowedKnownPaths,
      ...host.nofollowPaths,
      ...host.sitemapOnlyPaths,
    ].map((path) => `${host.origin}${path}`),
  );
}

describe('scanHtml and extractPage against the DOM, over the local webs', () => {
  const corpus: { name: string; pages: CorpusPage[] }[] = [];
  const webs: LocalWeb[] = [];

  beforeAll(async () => {
    const demo = await startDemoWeb();
    const hostile = await startHostileWeb();
    const fleet = await startFleet({ hosts: 3, pagesPerHost: 40 });
    webs.push(demo, hostile, fleet);
    corpus.push({ name: 'demo web', pages: await htmlPagesOf([...new Set(manifestUrls(demo))]) });
    corpus.push({
      name: 'hostile web',
      pages: await htmlPagesOf([...new Set([...hostile.goodPageUrls, ...hostile.cases.map((c) => c.entryUrl)])]),
    });
    corpus.push({ name: 'fleet', pages: await htmlPagesOf([...new Set(manifestUrls(fleet))]) });
  }, 60_000);

  afterAll(async () => {
    await Promise.all(webs.map((web) => web.close()));
  });

  it('every page of the demo web, the hostile web and a fleet yields what the DOM yields', () => {
    const sizes = corpus.map(({ name, pages }) => [name, pages.length] as const);
    // Enough pages that the comparison means something (each web serves more than this).
    for (const [name, count] of sizes) expect(count, name).toBeGreaterThanOrEqual(20);
    for (const { pages } of corpus) {
      for (const page of pages) {
        const options = { ...OPTIONS, maxLinks: 10_000 };
        expect(extractPage(page.html, page.url, options), page.url).toEqual(
          extractThroughDom(page.html, page.url, options),
        );
      }
    }
  });
});

describe('scanHtml: tricky markup the DOM path decides', () => {
  it.each([
    [
      'entities in href and rel',
      '<a href="/a?x=1&amp;y=2&#x2F;z" rel="No&#102;ollow">a</a><a href="/b?c=1&copy=2">b</a>',
    ],
    [
      'uppercase tags and attributes, unquoted values, whitespace',
      '<A HREF = /up REL=NOFOLLOW>x</A><a\nhref=\t" /spaced "\n>y</a>',
    ],
    ['the first of duplicate attributes wins', '<a href="/first" href="/second" rel="nofollow" rel="">x</a>'],
    [
      'area and a, self-links, fragments, schemes',
      '<map><area href="/m" rel="nofollow"></map><a href="">self</a><a href="#top">top</a><a href="page.html#x">self</a><a href="mailto:a@b.c">m</a><a href="javascript:void(0)">j</a><a href="http://[">bad</a>',
    ],
    [
      'the first base with an href, not an earlier base without one',
      '<base target="_blank"><base href="/other/"><base href="/third/"><a href="x">x</a>',
    ],
    ['a base that is not http(s)', '<base href="ftp://files.test/"><a href="x">x</a>'],
    [
      'meta robots and our token anywhere, names trimmed and any case',
      '<body><meta name=" ROBOTS " content="nofollow"><meta name="politelydemo" content="noindex"><a href="/x">x</a></body>',
    ],
    ['meta without content, meta without name', '<meta name="robots"><meta content="nofollow"><a href="/x">x</a>'],
    [
      'the first canonical link, even with an empty href',
      '<link rel="stylesheet" href="/s.css"><link rel="Alternate CANONICAL" href=""><link rel="canonical" href="/late"><a href="/x">x</a>',
    ],
    ['title with entities and whitespace, only the first', '<title>  A &amp; B\n\tC </title><title>second</title>'],
    ['no title, an empty title', '<p>none</p>'],
    ['an empty title', '<title>   </title>'],
    [
      'links inside comments, scripts, styles, textareas are not links',
      '<!-- <a href="/c"> --><script>document.write("<a href=\'/s\'>")</script><style>a[href="/st"]{}</style><textarea><a href="/t"></textarea><a href="/real">r</a>',
    ],
    [
      'noscript, iframe, noembed and noframes hold raw text',
      '<noscript><a href="/ns">n</a><meta name="robots" content="nofollow"></noscript><iframe><a href="/if"></a></iframe><noembed><a href="/ne"></a></noembed><noframes><a href="/nf"></a></noframes><a href="/after">a</a>',
    ],
    [
      'nothing after plaintext is markup',
      '<a href="/before">b</a><plaintext><a href="/after">a</a></plaintext><a href="/later">l</a>',
    ],
    [
      'links and metas inside a select are dropped, and the select ends',
      '<select><option>1<a href="/in-select">x</a><meta name="robots" content="nofollow"></select><a href="/out">o</a>',
    ],
    ['an input ends a select', '<select><option>1<input><a href="/after-input">x</a>'],
    [
      'svg and math links, noscript inside svg is not raw text',
      '<svg><a href="/svg-a"><text>t</text></a><a xlink:href="/xlink">x</a><noscript><a href="/svg-ns">n</a></noscript></svg><math><a href="/math-a">m</a></math>',
    ],
    [
      'a self-closing svg does not open foreign content',
      '<svg/><noscript><a href="/hidden">h</a></noscript><a href="/shown">s</a>',
    ],
    ['template contents', '<template><a href="/tpl">t</a><meta name="robots" content="noindex"></template>'],
    ['NUL in an href', '<a href="/nul\u0000x">x</a>'],
    [
      'rel tokens with other whitespace',
      '<a href="/a" rel=" ugc\u000cnofollow ">a</a><a href="/b" rel="nofollow\u00a0">b</a>',
    ],
    [
      'nested elements across blocks',
      '<p><a href="/p-a">in p</a><div>block</div></p><ul><li><a href="/li">li</a><li><a href="/li2">li2</a></ul><table><tr><td><a href="/td">td</a></td></tr></table>',
    ],
    [
      'xlink:href on SVG and MathML elements, the last of href and xlink:href',
      '<svg><a xlink:href="/x1">a</a><a href="/h" xlink:href="/x2">b</a><a xlink:href="/x3" href="/h3">c</a></svg><a xlink:href="/html-xlink">html</a>',
    ],
    [
      'a page-level nofollow makes every link nofollow',
      '<meta name="robots" content="none"><a href="/a">a</a><a href="/b">b</a>',
    ],
    [
      'links past maxLinks',
      Array.from({ length: 80 }, (_, i) => `<a href="/l${i % 60}" ${i % 7 === 0 ? 'rel=nofollow' : ''}>x</a>`).join(''),
    ],
  ])('%s', (_name, html) => {
    expect(scanHtml(html)).toEqual(domFactsOf(html));
    expectSameExtraction(html);
  });

  // Markup whose elements only tree construction decides; html-scan.ts does not follow it (rare,
  // broken pages), and these cases pin where and how the two differ.
  it.each([
    [
      'a misnested <a> is cloned by the adoption agency: its rel counts twice in the DOM',
      '<a href="/x" rel="ugc"><p>para</a>text</p>',
      'relCounts',
    ],
    [
      'an <a> open when a block closes its <p> is reopened inside the block: its rel counts twice',
      '<p><a href="/p-a" rel="ugc"><div>block in a</div></a></p>',
      'relCounts',
    ],
    [
      'a link inside a table but outside its cells is foster-parented before the table',
      '<table><tr><td><a href="/cell">c</a></td></tr><a href="/fostered">f</a></table>',
      'links',
    ],
    [
      '<title> inside <svg> is an SVG element, not raw text',
      '<svg><title><a href="/svg-title">t</a></title></svg>',
      'links',
    ],
  ])('known difference: %s', (_name, html, field) => {
    const streamed = extractPage(html, PAGE_URL, OPTIONS);
    const throughDom = extractThroughDom(html, PAGE_URL, OPTIONS);
    expect(streamed[field as keyof typeof streamed]).not.toEqual(throughDom[field as keyof typeof throughDom]);
  });
});

// Generated pages of plausible markup: the elements, attributes and contexts pages are made of,
// well nested (the misnesting html-scan.ts does not follow is left out by construction).
describe('scanHtml against the DOM over generated HTML', () => {
  const href = fc.constantFrom(
    '/a',
    'b/c',
    '../up',
    '?q=1&amp;r=2',
    '#frag',
    '',
    ' /spaced ',
    'https://other.test/x',
    'HTTP://Example.TEST/Y',
    'mailto:x@y.z',
    'javascript:void(0)',
    'http://[',
    '/é?ü=1',
    '/a&#47;b',
    '//proto.test/rel',
  );
  const rel = fc.constantFrom(
    undefined,
    'nofollow',
    'NOFOLLOW ugc',
    'sponsored',
    '',
    'noopener noreferrer',
    'canonical',
  );
  const text = fc.constantFrom('text', 'A &amp; B', '<', '&lt;a href=x&gt;', ' ', 'é', '&copy', '');
  const quoted = (value: string): string => `"${value.replace(/"/g, '&quot;')}"`;
  const attr = (name: string, value: string | undefined): string =>
    value === undefined ? '' : ` ${name}=${quoted(value)}`;

  const leaf = fc.oneof(
    fc.tuple(href, rel, text).map(([h, r, t]) => `<a href=${quoted(h)}${attr('rel', r)}>${t}</a>`),
    fc.tuple(href, rel).map(([h, r]) => `<map><area href=${quoted(h)}${attr('rel', r)}></map>`),
    fc
      .tuple(
        fc.constantFrom('robots', 'ROBOTS', 'politelydemo', 'description', 'googlebot'),
        fc.constantFrom('nofollow', 'noindex, nofollow', 'none', 'all', 'max-snippet:2'),
      )
      .map(([n, c]) => `<meta name=${quoted(n)} content=${quoted(c)}>`),
    fc.tuple(rel, href).map(([r, h]) => `<link rel=${quoted(r ?? 'canonical')} href=${quoted(h)}>`),
    href.map((h) => `<base href=${quoted(h)}>`),
    text.map((t) => `<title>${t}</title>`),
    text.map((t) => `<!-- ${t.replace(/-/g, '')} -->`),
    text.map((t) => `<script>var s = "${t.replace(/["\\]/g, '')}</p>";</script>`),
    text,
  );
  const wrap = (inner: string, kind: string): string => {
    switch (kind) {
      case 'table':
        return `<table><tbody><tr><td>${inner}</td></tr></tbody></table>`;
      case 'list':
        return `<ul><li>${inner}</li></ul>`;
      default:
        return `<${kind}>${inner}</${kind}>`;
    }
  };
  // Inside <svg> and <math>: links (href or xlink:href), groups, <noscript> (not raw text there),
  // an integration point, and a breakout <p> (which ends foreign content). No <script>, <style>
  // or <title> there: htmlparser2's tokenizer reads them as raw text wherever they stand.
  const foreignLink = fc
    .tuple(href, fc.constantFrom('href', 'xlink:href'))
    .map(([h, name]) => `<a ${name}=${quoted(h)}>x</a>`);
  const foreignChild: fc.Arbitrary<string> = fc.oneof(
    foreignLink,
    foreignLink.map((link) => `<g>${link}</g>`),
    foreignLink.map((link) => `<noscript>${link}</noscript>`),
    foreignLink.map((link) => `<foreignObject><noscript>${link}</noscript>${link}</foreignObject>`),
    foreignLink.map((link) => `<p>${link}</p><noscript>${link}</noscript>`),
  );
  const foreignContent = fc
    .tuple(fc.constantFrom('svg', 'math'), fc.array(foreignChild, { maxLength: 3 }))
    .map(([root, children]) => `<${root}>${children.join('')}</${root}>`);
  // Inside <select>: options and leaves (links and metas in it are dropped, as are its other tags).
  const selectContent = fc
    .array(leaf, { maxLength: 3 })
    .map((children) => `<select><option>o</option>${children.join('')}</select>`);
  const tree: fc.Arbitrary<string> = fc.letrec((tie) => ({
    node: fc.oneof(
      { depthSize: 'small', withCrossShrink: true },
      leaf,
      foreignContent,
      selectContent,
      fc
        .tuple(
          fc.array(tie('node'), { maxLength: 4 }),
          fc.constantFrom(
            'div',
            'p',
            'span',
            'section',
            'nav',
            'table',
            'list',
            'noscript',
            'template',
            'em',
            'header',
          ),
        )
        .map(([children, kind]) => wrap(children.join(''), kind)),
    ),
  })).node as fc.Arbitrary<string>;
  const page = fc
    .tuple(fc.array(tree, { maxLength: 6 }), fc.boolean())
    .map(([nodes, withHead]) =>
      withHead
        ? `<!DOCTYPE html><html><head>${nodes.slice(0, 2).join('')}</head><body>${nodes.slice(2).join('')}</body></html>`
        : nodes.join(''),
    );

  it('yields the same facts and the same extraction (seeded, 600 pages)', () => {
    fc.assert(
      fc.property(page, (html) => {
        expect(scanHtml(html)).toEqual(domFactsOf(html));
        expectSameExtraction(html);
      }),
      { numRuns: Number(process.env.EQUIV_RUNS ?? 600), seed: Number(process.env.EQUIV_SEED ?? 1313) },
    );
  });
});
