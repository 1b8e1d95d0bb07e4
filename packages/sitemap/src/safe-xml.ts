// XML parsing without entity expansion, with the fast-xml-parser that sitemapper itself parses with.
//
// fast-xml-parser is a dependency of this package in the same range as sitemapper's, so both
// parse with one and the same copy. It is used with `processEntities: false`:
// no entity is ever expanded, so a "billion laughs" document stays a few bytes. Before parsing,
// every '&' that does not start one of XML's five predefined references or a character reference
// is escaped, so a reference to an entity the document declares itself (`&lol9;`) — or a bare '&',
// a common mistake in generated sitemaps — is read as literal text. Text values are decoded in one
// pass afterwards (`decodeXmlText`), which by construction cannot expand anything.

import { XMLParser, XMLValidator } from 'fast-xml-parser';

export interface XmlParserOptions {
  readonly isArray?: (tagName: string) => boolean;
  readonly removeNSPrefix?: boolean;
  readonly ignoreAttributes?: boolean;
  readonly attributeNamePrefix?: string;
  readonly processEntities?: boolean;
  readonly htmlEntities?: boolean;
  readonly parseTagValue?: boolean;
  readonly parseAttributeValue?: boolean;
  readonly trimValues?: boolean;
}

interface XmlValidationError {
  readonly err: { readonly code: string; readonly msg: string; readonly line: number; readonly col: number };
}

interface FastXmlParser {
  readonly XMLParser: new (options: XmlParserOptions) => { parse(xml: string): unknown };
  readonly XMLValidator: { validate(xml: string): true | XmlValidationError };
}

// Typed by what we use of it (our option object is a subset of its X2jOptions).
const fxp = { XMLParser, XMLValidator } as unknown as FastXmlParser;

/** A parsed XML document: fast-xml-parser's plain objects. */
export type XmlNode = Record<string, unknown>;

export type XmlParseResult =
  | { readonly ok: true; readonly document: XmlNode }
  | { readonly ok: false; readonly message: string };

/** Options that must hold for every parse, whatever the format. */
const SAFE: XmlParserOptions = {
  processEntities: false,
  htmlEntities: false,
  // Every value stays a string: a `<loc>` of digits or a `<priority>` is not turned into a number.
  parseTagValue: false,
  parseAttributeValue: false,
  trimValues: true,
};

export type PreparedXml =
  | { readonly ok: true; readonly text: string }
  /** `damageAt`: the offset in the given text of the validator's first error, when it says where. */
  | { readonly ok: false; readonly message: string; readonly damageAt?: number };

export interface SafeXmlParser {
  /** Escapes stray '&' and checks that the document is well-formed: the text to parse, or why not. */
  prepare(xml: string): PreparedXml;
  /** Parses prepared text, or a well-formed piece of it. */
  parsePrepared(text: string): XmlParseResult;
  /** Both. */
  parse(xml: string): XmlParseResult;
}

export function createSafeXmlParser(options: XmlParserOptions): SafeXmlParser {
  const parser = new fxp.XMLParser({ ...options, ...SAFE });
  const prepare = (xml: string): PreparedXml => {
    const text = escapeStrayAmpersands(xml);
    try {
      // fast-xml-parser's parser is lenient (it accepts mismatched and unclosed tags); its
      // validator is what tells malformed XML apart.
      const verdict = fxp.XMLValidator.validate(text);
      if (verdict === true) return { ok: true, text };
      const damageAt = offsetInOriginal(xml, offsetOf(text, verdict.err.line, verdict.err.col));
      return {
        ok: false,
        message: `malformed XML: ${verdict.err.msg} (line ${verdict.err.line}, column ${verdict.err.col})`,
        damageAt,
      };
    } catch (error) {
      return { ok: false, message: `malformed XML: ${error instanceof Error ? error.message : String(error)}` };
    }
  };
  const parsePrepared = (text: string): XmlParseResult => {
    try {
      // The parser refuses nesting deeper than 100 elements (its maxNestedTags) by throwing.
      return { ok: true, document: parser.parse(text) as XmlNode };
    } catch (error) {
      return { ok: false, message: `malformed XML: ${error instanceof Error ? error.message : String(error)}` };
    }
  };
  return {
    prepare,
    parsePrepared,
    parse(xml) {
      const prepared = prepare(xml);
      return prepared.ok ? parsePrepared(prepared.text) : prepared;
    },
  };
}

const STRAY_AMPERSAND = /&(?!(?:amp|lt|gt|quot|apos|#[0-9]+|#x[0-9a-fA-F]+);)/g;

/** The offset of a 1-based line and column in `text` (the validator counts lines by LF). */
function offsetOf(text: string, line: number, col: number): number {
  let offset = 0;
  for (let n = 1; n < line; n++) {
    const next = text.indexOf('\n', offset);
    if (next === -1) return text.length;
    offset = next + 1;
  }
  return Math.min(text.length, offset + Math.max(0, col - 1));
}

/** An offset in `escapeStrayAmpersands(original)` as an offset in `original` (each escape adds 4). */
function offsetInOriginal(original: string, escapedOffset: number): number {
  let added = 0;
  for (const match of original.matchAll(STRAY_AMPERSAND)) {
    if (match.index + added >= escapedOffset) break;
    added += 4;
  }
  return Math.max(0, escapedOffset - added);
}

/** '&' not starting a predefined or character reference becomes `&amp;` (so it reads as itself). */
export function escapeStrayAmpersands(xml: string): string {
  return xml.includes('&') ? xml.replace(STRAY_AMPERSAND, '&amp;') : xml;
}

const PREDEFINED: Readonly<Record<string, string>> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };
const REFERENCE = /&(amp|lt|gt|quot|apos|#[0-9]{1,7}|#x[0-9a-fA-F]{1,6});/g;

/** Decodes XML's predefined and character references, in one pass: nothing is expanded twice. */
export function decodeXmlText(text: string): string {
  if (!text.includes('&')) return text;
  return text.replace(REFERENCE, (reference, name: string) => {
    const predefined = PREDEFINED[name];
    if (predefined !== undefined) return predefined;
    const codePoint = name[1] === 'x' ? Number.parseInt(name.slice(2), 16) : Number.parseInt(name.slice(1), 10);
    return codePoint > 0 && codePoint <= 0x10ffff && !(codePoint >= 0xd800 && codePoint <= 0xdfff)
      ? String.fromCodePoint(codePoint)
      : reference;
  });
}

/** The text of a node: a string, or the `#text` of an element that has attributes. Decoded. */
export function textOf(node: unknown): string | undefined {
  if (typeof node === 'string') return decodeXmlText(node);
  if (typeof node === 'object' && node !== null && typeof (node as XmlNode)['#text'] === 'string')
    return decodeXmlText((node as XmlNode)['#text'] as string);
  return undefined;
}

/** A child that may be one node or several, as an array. */
export function childrenOf(node: unknown, name: string): unknown[] {
  if (typeof node !== 'object' || node === null) return [];
  const child = (node as XmlNode)[name];
  if (child === undefined) return [];
  return Array.isArray(child) ? child : [child];
}
