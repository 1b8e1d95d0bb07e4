// Pages whose bytes and declared charset disagree, or whose charset does not exist. Each links
// to its own `/next` page with a plain-ASCII href, which survives any decoding.

import type { Resource } from '@politely/demo-web/internal';
import { type HostileCase, pageCase } from './hostile-types.js';

interface CharsetPage {
  readonly name: string;
  readonly description: string;
  readonly contentType: string;
  /** Extra `<head>` markup. */
  readonly head?: string;
  /** The text of the page, as bytes in whatever encoding the case is about. */
  readonly text: Buffer;
  /** Encodes the ASCII markup around the text (UTF-16 needs more than `Buffer.from`). */
  readonly encode?: (markup: string) => Buffer;
}

const CHARSET_PAGES: readonly CharsetPage[] = [
  {
    name: 'invalid-utf8',
    description:
      'Labelled UTF-8, but holds byte sequences that are not UTF-8 (0xFF, 0xC3 0x28, a cut 4-byte sequence).',
    contentType: 'text/html; charset=utf-8',
    text: Buffer.from([
      0x42, 0x61, 0x64, 0x20, 0xff, 0x20, 0xc3, 0x28, 0x20, 0xa0, 0xa1, 0x20, 0xf0, 0x28, 0x8c, 0x20, 0xe2, 0x82,
    ]),
  },
  {
    name: 'latin1-labelled-utf8',
    description: 'Latin-1 bytes (é = 0xE9) labelled UTF-8.',
    contentType: 'text/html; charset=utf-8',
    text: Buffer.from('Café crème brûlée, à la carte.', 'latin1'),
  },
  {
    name: 'bogus-charset',
    description: 'Declares charset=x-no-such-charset, which no decoder knows.',
    contentType: 'text/html; charset=x-no-such-charset',
    text: Buffer.from('Plain ASCII under an unknown label.'),
  },
  {
    name: 'meta-vs-header',
    description: 'The header says windows-1252, <meta charset="utf-8"> disagrees, and the bytes are UTF-8.',
    contentType: 'text/html; charset=windows-1252',
    head: '<meta charset="utf-8">',
    text: Buffer.from('naïve “quotes” — déjà vu'),
  },
  {
    name: 'utf16-bom',
    description: 'UTF-16LE with a byte order mark, labelled utf-16.',
    contentType: 'text/html; charset=utf-16',
    text: utf16le('UTF-16 text: ünïcödé'),
    encode: utf16le,
  },
];

function utf16le(text: string): Buffer {
  return Buffer.from(text, 'utf16le');
}

const UTF16_BOM = Buffer.from([0xff, 0xfe]);

function charsetPage(page: CharsetPage, path: string): Resource {
  const encode = page.encode ?? ((markup: string) => Buffer.from(markup));
  const body = Buffer.concat([
    page.encode === undefined ? Buffer.alloc(0) : UTF16_BOM,
    encode(`<!doctype html><html><head>${page.head ?? ''}<title>Charset: ${page.name}</title></head>`),
    encode(`<body><h1>Charset: ${page.name}</h1><p>`),
    page.text,
    encode(`</p><p><a href="${path}/next">next</a></p></body></html>\n`),
  ]);
  return { status: 200, headers: { 'content-type': page.contentType }, body, compressible: false };
}

export interface CharsetPages {
  readonly cases: readonly HostileCase[];
  /** Each case's page and its `/next` page, by path. */
  readonly pages: ReadonlyMap<string, Resource>;
  readonly goodPaths: readonly string[];
}

export function buildCharsetPages(origin: string, nextPage: (title: string) => Resource): CharsetPages {
  const pages = new Map<string, Resource>();
  const cases = CHARSET_PAGES.map((page) => {
    const path = `/charset/${page.name}`;
    pages.set(path, charsetPage(page, path));
    pages.set(`${path}/next`, nextPage(`After ${page.name}`));
    return pageCase(page.name, page.description, `${origin}${path}`);
  });
  return { cases, pages, goodPaths: [...pages.keys()] };
}
