// The bytes of one fetched sitemap file → its entries: gunzip (bounded), tell the format apart,
// parse safely, and salvage what lies before a cut when the file was larger than the cap.
// A urlset or index is checked whole, then parsed a slice of entries at a time, so memory holds
// the file's text and the parse of one slice, never the parse of a whole 50 MB file.

import { Readable } from 'node:stream';
import { PolitelyError } from '@politely/core';
import { readBody } from '@politely/core/internal';
import { atomEntries, FEED_XML_OPTIONS, rssEntries } from './feeds.js';
import { createSafeXmlParser } from './safe-xml.js';
import { sitemapIndexChildren, SITEMAPPER_XML_OPTIONS, urlsetEntries, type RawSitemapEntry } from './sitemapper-reader.js';
import { looksLikeTextSitemap, textSitemapEntries } from './text-sitemap.js';
import { closeAfterLastEntry, entryChunks, rootElementOf } from './xml-shape.js';

export type SitemapFormat = 'urlset' | 'sitemapindex' | 'rss' | 'atom' | 'text';

/** A file's entries, read as they are iterated; a slice that cannot be parsed ends the iteration with a PolitelyError `ERR_INVALID_INPUT`. */
export type SitemapEntries = AsyncIterable<RawSitemapEntry> | Iterable<RawSitemapEntry>;

export type SitemapDocument =
  /** Page URLs (urlset, feeds, text). Relative URLs are resolved only for feeds (Atom allows them). */
  | { readonly kind: 'urls'; readonly format: Exclude<SitemapFormat, 'sitemapindex'>; readonly entries: SitemapEntries }
  | { readonly kind: 'index'; readonly format: 'sitemapindex'; readonly entries: SitemapEntries }
  /** `notASitemap`: the file is something else (an HTML page, binary data), not a broken sitemap. */
  | { readonly kind: 'invalid'; readonly message: string; readonly notASitemap: boolean };

export interface ReadSitemap {
  readonly document: SitemapDocument;
  /** The file went past the cap and was cut there. */
  readonly truncated: boolean;
  /** The file was gzip-compressed (by its own bytes, whatever the URL or Content-Type said). */
  readonly gzipped: boolean;
}

export interface ReadSitemapOptions {
  /** Decompressed bytes read at most. */
  readonly maxBytes: number;
  /** The HTTP body was already cut at the cap. */
  readonly truncated: boolean;
  /** About how many characters of entries of a urlset or index are parsed at a time. @default 524288 */
  readonly chunkChars?: number;
}

export const DEFAULT_CHUNK_CHARS = 512 * 1024;

const sitemapParser = createSafeXmlParser(SITEMAPPER_XML_OPTIONS);
const feedParser = createSafeXmlParser(FEED_XML_OPTIONS);

/** The closing tag of one whole entry, and the tags that close the document after it. */
const SALVAGE: Readonly<Record<Exclude<SitemapFormat, 'text'>, { readonly item: string; readonly close: (root: string) => string }>> = {
  urlset: { item: 'url', close: (root) => `</${root}>` },
  sitemapindex: { item: 'sitemap', close: (root) => `</${root}>` },
  rss: { item: 'item', close: (root) => `</channel></${root}>` },
  atom: { item: 'entry', close: (root) => `</${root}>` },
};

const ROOT_FORMATS: Readonly<Record<string, Exclude<SitemapFormat, 'text'>>> = { urlset: 'urlset', sitemapindex: 'sitemapindex', rss: 'rss', feed: 'atom' };
const HTML_ROOTS = new Set(['html', 'head', 'body', 'title', 'meta']);

export async function readSitemap(sitemapUrl: string, body: Uint8Array, options: ReadSitemapOptions): Promise<ReadSitemap> {
  let bytes = body;
  let truncated = options.truncated;
  const gzipped = bytes.length >= 2 && bytes[0] === 0x1f && bytes[1] === 0x8b;
  if (gzipped) {
    try {
      // Bounded, unlike sitemapper's gunzipSync: a gzip bomb stops at the cap.
      const inflated = await readBody(Readable.from([bytes]), 'gzip', { maxBytes: options.maxBytes, atLimit: 'truncate' });
      bytes = inflated.body;
      truncated ||= inflated.truncated;
    } catch {
      return { document: invalid('gzip data that is corrupt or cut short', false), truncated, gzipped };
    }
  }
  const document = parseSitemapText(sitemapUrl, decodeText(bytes), truncated, options.chunkChars ?? DEFAULT_CHUNK_CHARS);
  return { document, truncated, gzipped };
}

function parseSitemapText(sitemapUrl: string, text: string, truncated: boolean, chunkChars: number): SitemapDocument {
  const start = text.search(/\S/);
  if (start === -1) return invalid('an empty file', true);
  if (text.slice(0, 1024).includes('\0')) return invalid('binary data', true);
  if (text[start] !== '<') {
    if (!looksLikeTextSitemap(text)) return invalid('neither XML nor one URL per line', true);
    // A cut text file ends in a partial line: it is left out.
    const whole = truncated ? text.slice(0, text.lastIndexOf('\n') + 1) : text;
    return { kind: 'urls', format: 'text', entries: textSitemapEntries(whole) };
  }
  const root = rootElementOf(text);
  if (root === undefined) return invalid('malformed XML: no root element', false);
  const format = ROOT_FORMATS[root.name];
  if (format === undefined) {
    if (HTML_ROOTS.has(root.name.toLowerCase())) return invalid('an HTML page', true);
    return invalid(`root element <${root.qualified}>, not <urlset>, <sitemapindex>, <rss> or <feed>`, true);
  }
  const { item, close } = SALVAGE[format];
  const xml = truncated ? closeAfterLastEntry(text, item, close(root.qualified)) : text;
  if (xml === null) return format === 'sitemapindex' ? { kind: 'index', format, entries: [] } : { kind: 'urls', format, entries: [] };
  if (format === 'rss' || format === 'atom') {
    const parsed = feedParser.parse(xml);
    if (!parsed.ok) return invalid(parsed.message, false);
    return { kind: 'urls', format, entries: format === 'rss' ? rssEntries(parsed.document) : atomEntries(parsed.document) };
  }
  const prepared = sitemapParser.prepare(xml);
  if (!prepared.ok) return invalid(prepared.message, false);
  const entries = chunkedEntries(sitemapUrl, format, entryChunks(prepared.text, item, chunkChars));
  return format === 'sitemapindex' ? { kind: 'index', format, entries } : { kind: 'urls', format, entries };
}

/** The entries of a well-formed urlset or index, one slice of its text parsed at a time (sitemapper walks each). */
async function* chunkedEntries(sitemapUrl: string, format: 'urlset' | 'sitemapindex', chunks: Iterable<string>): AsyncGenerator<RawSitemapEntry> {
  for (const chunk of chunks) {
    const parsed = sitemapParser.parsePrepared(chunk);
    if (!parsed.ok) throw new PolitelyError('ERR_INVALID_INPUT', `sitemap ${sitemapUrl}: ${parsed.message}`);
    yield* format === 'urlset' ? await urlsetEntries(sitemapUrl, parsed.document) : await sitemapIndexChildren(sitemapUrl, parsed.document);
  }
}

function invalid(what: string, notASitemap: boolean): SitemapDocument {
  return { kind: 'invalid', message: notASitemap ? `not a sitemap: ${what}` : what, notASitemap };
}

/** UTF-8 (the protocol's encoding; a BOM is dropped), or UTF-16 when a BOM says so. */
function decodeText(bytes: Uint8Array): string {
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return new TextDecoder('utf-16le').decode(bytes);
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return new TextDecoder('utf-16be').decode(bytes);
  return new TextDecoder('utf-8').decode(bytes);
}
