// The bytes of one fetched sitemap file → its entries: gunzip (bounded), tell the format apart,
// parse safely, and salvage what lies before a cut when the file was larger than the cap.
// A urlset or index is checked whole, then parsed a slice of entries at a time, so memory holds
// the file's text and the parse of one slice, never the parse of a whole 50 MB file.

import { Readable } from 'node:stream';
import { PolitelyError } from '@politely/core';
import { readBody } from '@politely/core/internal';
import { atomEntries, FEED_XML_OPTIONS, rssEntries } from './feeds.js';
import { createSafeXmlParser } from './safe-xml.js';
import {
  type RawSitemapEntry,
  SITEMAPPER_XML_OPTIONS,
  sitemapIndexChildren,
  urlsetEntries,
} from './sitemapper-reader.js';
import { looksLikeTextSitemap, textSitemapEntries } from './text-sitemap.js';
import { closeAfterLastEntry, entryChunks, rootElementOf } from './xml-shape.js';

/** The format a sitemap file was read as: a urlset, a sitemap index, RSS, Atom or text. */
export type SitemapFormat = 'urlset' | 'sitemapindex' | 'rss' | 'atom' | 'text';

/** A file's entries, read as they are iterated; a slice that cannot be parsed ends the iteration with a PolitelyError `ERR_INVALID_INPUT`. */
export type SitemapEntries = AsyncIterable<RawSitemapEntry> | Iterable<RawSitemapEntry>;

/** A sitemap file as read: page URLs, an index of sitemaps, or not a sitemap at all. */
export type SitemapDocument =
  /** Page URLs (urlset, feeds, text). Relative URLs are resolved only for feeds (Atom allows them). */
  | { readonly kind: 'urls'; readonly format: Exclude<SitemapFormat, 'sitemapindex'>; readonly entries: SitemapEntries }
  | { readonly kind: 'index'; readonly format: 'sitemapindex'; readonly entries: SitemapEntries }
  /** `notASitemap`: the file is something else (an HTML page, binary data), not a broken sitemap. */
  | { readonly kind: 'invalid'; readonly message: string; readonly notASitemap: boolean };

/** A damaged file whose whole entries before the damage were read: why, and where it was cut. */
export interface PartialSitemap {
  /** What was wrong with the file as it came (the XML parser's message). */
  readonly reason: string;
  /** The byte offset (of the decoded, decompressed file) after the last whole entry read. */
  readonly atByte: number;
}

/** What `readSitemap` read from one file: the document, and whether it was cut, partial or gzipped. */
export interface ReadSitemap {
  readonly document: SitemapDocument;
  /** The file went past the cap and was cut there. */
  readonly truncated: boolean;
  /**
   * The file arrived damaged (cut short by the server or a proxy, or malformed past some point):
   * the entries complete before the damage are in `document`, the rest is lost.
   */
  readonly partial?: PartialSitemap;
  /** The file was gzip-compressed (by its own bytes, whatever the URL or Content-Type said). */
  readonly gzipped: boolean;
}

/** Options of `readSitemap`: the size cap, whether the body was already cut, and the parse chunk size. */
export interface ReadSitemapOptions {
  /** Decompressed bytes read at most. */
  readonly maxBytes: number;
  /** The HTTP body was already cut at the cap. */
  readonly truncated: boolean;
  /** About how many characters of entries of a urlset or index are parsed at a time. @default 524288 */
  readonly chunkChars?: number;
}

/** The default `chunkChars` of `readSitemap`: how many characters of entries are parsed at a time. */
export const DEFAULT_CHUNK_CHARS = 512 * 1024;

const sitemapParser = createSafeXmlParser(SITEMAPPER_XML_OPTIONS);
const feedParser = createSafeXmlParser(FEED_XML_OPTIONS);

/** The closing tag of one whole entry, and the tags that close the document after it. */
const SALVAGE: Readonly<
  Record<Exclude<SitemapFormat, 'text'>, { readonly item: string; readonly close: (root: string) => string }>
> = {
  urlset: { item: 'url', close: (root) => `</${root}>` },
  sitemapindex: { item: 'sitemap', close: (root) => `</${root}>` },
  rss: { item: 'item', close: (root) => `</channel></${root}>` },
  atom: { item: 'entry', close: (root) => `</${root}>` },
};

const ROOT_FORMATS: Readonly<Record<string, Exclude<SitemapFormat, 'text'>>> = {
  urlset: 'urlset',
  sitemapindex: 'sitemapindex',
  rss: 'rss',
  feed: 'atom',
};
const HTML_ROOTS = new Set(['html', 'head', 'body', 'title', 'meta']);

/**
 * Reads one fetched sitemap file (XML, gzip, RSS, Atom or text; no entity expansion): its entries,
 * or why it is not a sitemap.
 */
export async function readSitemap(
  sitemapUrl: string,
  body: Uint8Array,
  options: ReadSitemapOptions,
): Promise<ReadSitemap> {
  let bytes = body;
  let truncated = options.truncated;
  const gzipped = bytes.length >= 2 && bytes[0] === 0x1f && bytes[1] === 0x8b;
  if (gzipped) {
    try {
      // Bounded, unlike sitemapper's gunzipSync: a gzip bomb stops at the cap.
      const inflated = await readBody(Readable.from([bytes]), 'gzip', {
        maxBytes: options.maxBytes,
        atLimit: 'truncate',
      });
      bytes = inflated.body;
      truncated ||= inflated.truncated;
    } catch {
      return { document: invalid('gzip data that is corrupt or cut short', false), truncated, gzipped };
    }
  }
  const { document, partial } = parseSitemapText(
    sitemapUrl,
    decodeText(bytes),
    truncated,
    options.chunkChars ?? DEFAULT_CHUNK_CHARS,
  );
  return { document, truncated, gzipped, ...(partial === undefined ? {} : { partial }) };
}

function parseSitemapText(
  sitemapUrl: string,
  decoded: string,
  truncated: boolean,
  chunkChars: number,
): { document: SitemapDocument; partial?: PartialSitemap } {
  const start = decoded.search(/\S/);
  if (start === -1) return { document: invalid('an empty file', true) };
  if (decoded.slice(0, 1024).includes('\0')) return { document: invalid('binary data', true) };
  if (decoded[start] !== '<') {
    if (!looksLikeTextSitemap(decoded)) return { document: invalid('neither XML nor one URL per line', true) };
    // A cut text file ends in a partial line: it is left out.
    const whole = truncated ? decoded.slice(0, decoded.lastIndexOf('\n') + 1) : decoded;
    return { document: { kind: 'urls', format: 'text', entries: textSitemapEntries(whole) } };
  }
  // Whitespace (a BOM, blank lines) before the XML declaration: XML forbids it, yet it is common
  // and harmless; it goes, so that the declaration is at the start.
  const text = decoded.slice(start);
  const read = parseXmlSitemap(sitemapUrl, text, truncated, chunkChars);
  if (read.kind !== 'invalid' || truncated || read.notASitemap) return { document: read };
  // A file that arrived cut short (no end tags), or malformed from some point on: its whole
  // entries, the document closed after the last one — of the whole text, else of the text before
  // the validator's first error (which, for a missing end tag, points at the start tag instead).
  for (const upTo of [text.length, read.damageAt]) {
    if (upTo === undefined) continue;
    const salvaged = parseXmlSitemap(sitemapUrl, text.slice(0, upTo), true, chunkChars);
    if (salvaged.kind !== 'invalid' && salvaged.wholeChars! > 0) {
      return {
        document: salvaged,
        partial: { reason: read.message, atByte: Buffer.byteLength(decoded.slice(0, start + salvaged.wholeChars!)) },
      };
    }
  }
  return { document: read };
}

/** An XML file read: with `wholeChars` when cut after its whole entries, `damageAt` when malformed there. */
type XmlRead = SitemapDocument & { readonly wholeChars?: number; readonly damageAt?: number };

/**
 * An XML sitemap or feed; `cut`: read only its whole entries (`wholeChars` long), closing the
 * document after them. A malformed one says where its damage starts (`damageAt`), when known.
 */
function parseXmlSitemap(sitemapUrl: string, text: string, cut: boolean, chunkChars: number): XmlRead {
  const root = rootElementOf(text);
  if (root === undefined) return invalid('malformed XML: no root element', false);
  const format = ROOT_FORMATS[root.name];
  if (format === undefined) {
    if (HTML_ROOTS.has(root.name.toLowerCase())) return invalid('an HTML page', true);
    return invalid(`root element <${root.qualified}>, not <urlset>, <sitemapindex>, <rss> or <feed>`, true);
  }
  const { item, close } = SALVAGE[format];
  const closing = close(root.qualified);
  const xml = cut ? closeAfterLastEntry(text, item, closing) : text;
  if (xml === null)
    return format === 'sitemapindex'
      ? { kind: 'index', format, entries: [], wholeChars: 0 }
      : { kind: 'urls', format, entries: [], wholeChars: 0 };
  const whole = cut ? { wholeChars: xml.length - closing.length } : {};
  if (format === 'rss' || format === 'atom') {
    const prepared = feedParser.prepare(xml);
    if (!prepared.ok)
      return {
        ...invalid(prepared.message, false),
        ...(prepared.damageAt === undefined ? {} : { damageAt: prepared.damageAt }),
      };
    const parsed = feedParser.parsePrepared(prepared.text);
    if (!parsed.ok) return invalid(parsed.message, false);
    return {
      kind: 'urls',
      format,
      entries: format === 'rss' ? rssEntries(parsed.document) : atomEntries(parsed.document),
      ...whole,
    };
  }
  const prepared = sitemapParser.prepare(xml);
  if (!prepared.ok) {
    return {
      ...invalid(prepared.message, false),
      ...(prepared.damageAt === undefined ? {} : { damageAt: prepared.damageAt }),
    };
  }
  const entries = chunkedEntries(sitemapUrl, format, entryChunks(prepared.text, item, chunkChars));
  return format === 'sitemapindex'
    ? { kind: 'index', format, entries, ...whole }
    : { kind: 'urls', format, entries, ...whole };
}

/** The entries of a well-formed urlset or index, one slice of its text parsed at a time (sitemapper walks each). */
async function* chunkedEntries(
  sitemapUrl: string,
  format: 'urlset' | 'sitemapindex',
  chunks: Iterable<string>,
): AsyncGenerator<RawSitemapEntry> {
  for (const chunk of chunks) {
    const parsed = sitemapParser.parsePrepared(chunk);
    if (!parsed.ok) throw new PolitelyError('ERR_INVALID_INPUT', `sitemap ${sitemapUrl}: ${parsed.message}`);
    yield* format === 'urlset'
      ? await urlsetEntries(sitemapUrl, parsed.document)
      : await sitemapIndexChildren(sitemapUrl, parsed.document);
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
