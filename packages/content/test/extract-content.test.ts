// extractContent's options, its decoding of bytes, and the metadata it reads.

import { PolitelyError } from '@politely/core';
import { describe, expect, it } from 'vitest';
import { type ExtractContentOptions, extractContent } from '../src/index.js';

const PAGE = 'https://news.example/2026/story.html';
const ARTICLE = '<article><p>A paragraph long enough, and with commas, to be the content of this page.</p></article>';

function invalid(options: unknown): PolitelyError {
  try {
    extractContent(ARTICLE, options as ExtractContentOptions);
  } catch (error) {
    expect(error).toBeInstanceOf(PolitelyError);
    return error as PolitelyError;
  }
  throw new Error('no error');
}

describe('extractContent options', () => {
  it('refuses an unknown option, naming the nearest known one', () => {
    const error = invalid({ url: PAGE, contenType: 'text/html' });
    expect(error.code).toBe('ERR_INVALID_OPTION');
    expect(error.message).toBe('extractContent: unknown option contenType (did you mean contentType?)');
  });

  it('refuses a url that is missing, relative or of another scheme, without echoing it', () => {
    expect(invalid({}).message).toBe('extractContent: url must be an absolute http(s) or file URL, got undefined');
    expect(invalid({ url: '/relative.html' }).code).toBe('ERR_INVALID_OPTION');
    const secret = invalid({ url: 'ftp://user:hunter2@files.example/page.html' });
    expect(secret.message).toContain('url must be an absolute http(s) or file URL');
    expect(secret.message).not.toContain('hunter2');
    expect(invalid(undefined).code).toBe('ERR_INVALID_OPTION');
  });

  it('refuses a contentType that is not a string', () => {
    expect(invalid({ url: PAGE, contentType: 42 }).message).toBe(
      'extractContent: contentType must be a string, got a number',
    );
  });

  it('takes file URLs', () => {
    expect(extractContent(ARTICLE, { url: 'file:///home/ada/page.html' }).text).toContain('A paragraph long enough');
  });
});

describe('extractContent decoding', () => {
  const cyrillic =
    '<html><head><meta charset="koi8-r"></head><body><article><p>\xf0\xd2\xc9\xd7\xc5\xd4, \xcd\xc9\xd2! A paragraph long enough to be the content.</p></article></body></html>';
  const bytes = Uint8Array.from(cyrillic, (char) => char.charCodeAt(0));

  it('decodes bytes by their <meta charset>', () => {
    expect(extractContent(bytes, { url: PAGE }).text).toBe('Привет, мир! A paragraph long enough to be the content.');
  });

  it('prefers the Content-Type charset to the meta tag, and a byte order mark to both', () => {
    const utf8 = new TextEncoder().encode(
      '<meta charset="koi8-r"><article><p>Grüße, world: a paragraph long enough here.</p></article>',
    );
    expect(extractContent(utf8, { url: PAGE, contentType: 'text/html; charset=utf-8' }).text).toBe(
      'Grüße, world: a paragraph long enough here.',
    );
    const withBom = new Uint8Array([0xef, 0xbb, 0xbf, ...utf8]);
    expect(extractContent(withBom, { url: PAGE, contentType: 'text/html; charset=koi8-r' }).text).toBe(
      'Grüße, world: a paragraph long enough here.',
    );
  });
});

describe('extractContent metadata', () => {
  it('reads JSON-LD articles in @graph and arrays: headline, authors, dates, publisher', () => {
    const head = `<script type="application/ld+json">[{"@type":"BreadcrumbList"},{"@graph":[{"@type":["BlogPosting"],"headline":"From the graph","author":["Ana Ruiz",{"@type":"Person","name":"Li Wei"},{"name":"Ana Ruiz"}],"datePublished":"2026-04-01","dateModified":"April 3, 2026 10:00 UTC","publisher":{"name":"Field Notes"}}]}]</script>
      <script type="application/ld+json">{ not json </script>`;
    const result = extractContent(`<html><head>${head}</head><body>${ARTICLE}</body></html>`, { url: PAGE });
    expect(result).toMatchObject({
      title: 'From the graph',
      authors: ['Ana Ruiz', 'Li Wei'],
      published: '2026-04-01',
      modified: '2026-04-03T10:00:00.000Z',
      siteName: 'Field Notes',
    });
    expect(result.jsonLd).toHaveLength(2);
  });

  it('falls back to meta tags, <time datetime>, og:locale and <title>', () => {
    const html = `<html><head><title> Plain   title </title><meta name="author" content="By Sam Hart">
      <meta property="og:locale" content="pt_BR"><meta name="twitter:description" content="From Twitter tags.">
      <meta property="og:url" content="/canonical-by-og"></head>
      <body><p>Posted <time datetime="2026-05-06T07:08:09Z">6 May</time></p>${ARTICLE}</body></html>`;
    expect(extractContent(html, { url: PAGE })).toMatchObject({
      title: 'Plain title',
      authors: ['Sam Hart'],
      published: '2026-05-06T07:08:09Z',
      modified: null,
      lang: 'pt-BR',
      description: 'From Twitter tags.',
      canonicalUrl: 'https://news.example/canonical-by-og',
      siteName: null,
      openGraph: { 'og:locale': 'pt_BR', 'og:url': '/canonical-by-og' },
    });
  });

  it('resolves the canonical URL against <base href>, and refuses a language that is not a tag', () => {
    const html = `<html lang="not a tag!"><head><base href="https://mirror.example/a/"><link rel="canonical" href="b.html"></head><body>${ARTICLE}</body></html>`;
    expect(extractContent(html, { url: PAGE })).toMatchObject({
      canonicalUrl: 'https://mirror.example/a/b.html',
      lang: null,
    });
  });

  it('returns empty content and null fields for an empty page', () => {
    expect(extractContent('', { url: PAGE })).toEqual({
      title: null,
      text: '',
      markdown: '',
      authors: [],
      published: null,
      modified: null,
      lang: null,
      canonicalUrl: null,
      description: null,
      siteName: null,
      jsonLd: [],
      openGraph: {},
    });
  });
});

describe('extractContent on hostile markup', () => {
  it('reads a page nested 50,000 deep without overflowing the stack, its text kept', () => {
    const depth = 50_000;
    const html = `${'<div>'.repeat(depth)}<p>Deep down, a paragraph long enough, with commas, to be the content.</p>${'</div>'.repeat(depth)}`;
    expect(extractContent(html, { url: PAGE }).text).toBe(
      'Deep down, a paragraph long enough, with commas, to be the content.',
    );
  });

  it('takes unclosed and stray tags, and an unclosed script, without throwing', () => {
    const html =
      '</div></p><article><p>Unclosed <b>bold, <i>italic and a paragraph long enough here.</article></span><script>never closed';
    expect(extractContent(html, { url: PAGE }).text).toBe('Unclosed bold, italic and a paragraph long enough here.');
  });
});
