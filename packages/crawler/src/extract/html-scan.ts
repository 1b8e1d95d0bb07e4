// One streaming pass over a page's decoded HTML for what the crawler reads of it: the `href` and
// `rel` of every `<a>` and `<area>`, the first `<base href>`, the first canonical `<link>`, every
// `<meta name content>` and the first `<title>`'s text. Nothing is built: htmlparser2's Tokenizer
// reads tags and attributes, and this module keeps the few values it needs. PURE and linear in
// the length of the page (htmlparser2's Parser is not used: it keeps a stack with `unshift` and
// `indexOf`, quadratic on 50,000 nested elements, and builds attribute objects for every tag).
//
// What it follows of the HTML standard's tree construction (html-tree-context.ts), because it
// decides which elements a browser (and parse5, which `page.$` uses) would create at all:
//   - `<noscript>` (scripting on), `<iframe>`, `<noembed>`, `<noframes>` hold raw text in HTML
//     content: nothing inside them is an element; after `<plaintext>`, nothing is;
//   - inside `<select>`, `<a>`, `<area>`, `<base>`, `<link>`, `<meta>` and `<title>` are dropped
//     (`<input>`, `<keygen>`, `<textarea>` or another `<select>` end it), but not inside a
//     `<template>` in it;
//   - inside `<svg>` and `<math>` (foreign content) those raw-text rules do not apply, except in
//     their HTML integration points (`<foreignObject>`, `<desc>`, MathML's `<mi>`…), and an HTML
//     element such as `<p>` or `<div>` ends foreign content (the standard's "breakout" tags).
// What it does not follow (rare, broken markup; each is a named case in the equivalence test):
// the adoption agency's clones of misnested `<a>` (each clone counts its `rel` once more in the
// DOM), foster parenting (a link inside a table, outside its cells, comes first in the DOM), a
// `<title>` or `<style>` inside `<svg>` (htmlparser2's tokenizer reads them as raw text), and
// `--!>` comment ends.

import { type QuoteType, Tokenizer, type TokenizerCallbacks } from 'htmlparser2';
import {
  CONTEXT_TAGS,
  createTreeContext,
  enterElement,
  ignoresMarkup,
  inForeignContent,
  leaveElement,
  type TreeContext,
} from './html-tree-context.js';

/** What one pass found, in document order. */
export interface HtmlFacts {
  /** `href` of every `<a href>` and `<area href>`, as written (entities decoded). */
  readonly hrefs: readonly string[];
  /** `rel` of the same elements, by index; undefined where there is none. */
  readonly rels: readonly (string | undefined)[];
  /** `href` of the first `<base href>`. */
  readonly baseHref: string | undefined;
  /** `rel` and `href` of every `<link rel href>` (the caller looks for `canonical` among the tokens). */
  readonly linkRels: readonly { readonly rel: string; readonly href: string }[];
  /** `name` and `content` of every `<meta name content>`. */
  readonly metas: readonly { readonly name: string; readonly content: string }[];
  /** The text of the first `<title>`, undefined when there is none. */
  readonly title: string | undefined;
}

/** The attributes any fact is made of; the rest are not assembled. */
const WANTED_ATTRIBUTES = new Set(['href', 'rel', 'name', 'content', 'xlink:href']);
/** Elements with facts. */
const FACT_ELEMENTS = new Set(['a', 'area', 'base', 'link', 'meta', 'title']);

/** Every tag name the scan acts on; any other tag is read as `OTHER_TAG`. */
const KNOWN_TAGS: readonly string[] = [...FACT_ELEMENTS, ...CONTEXT_TAGS];
const OTHER_TAG = '';

/**
 * The known name (lowercase, one of `names`) that `html` spells between `start` and `end`,
 * ignoring ASCII case, or `OTHER_TAG`. Reads the characters in place: no string is made for
 * the many tags of a page that the scan does not act on.
 */
function knownNameAt(
  html: string,
  start: number,
  end: number,
  byLength: ReadonlyMap<number, readonly string[]>,
): string {
  const candidates = byLength.get(end - start);
  if (candidates === undefined) return OTHER_TAG;
  for (const name of candidates) {
    let i = 0;
    for (; i < name.length; i++) {
      const code = html.charCodeAt(start + i);
      // ASCII upper case to lower case; every known name is lower case ASCII.
      if ((code >= 0x41 && code <= 0x5a ? code | 0x20 : code) !== name.charCodeAt(i)) break;
    }
    if (i === name.length) return name;
  }
  return OTHER_TAG;
}

function byLength(names: Iterable<string>): ReadonlyMap<number, readonly string[]> {
  const map = new Map<number, string[]>();
  for (const name of new Set(names)) map.set(name.length, [...(map.get(name.length) ?? []), name]);
  return map;
}

const TAGS_BY_LENGTH = byLength(KNOWN_TAGS);
const ATTRIBUTES_BY_LENGTH = byLength(WANTED_ATTRIBUTES);

/**
 * One pass of htmlparser2's Tokenizer over `html`: the tag being read is assembled here, the
 * tree-construction context decides whether the standard's parser would create its element, and
 * the facts are recorded from the elements it would.
 */
export function scanHtml(html: string): HtmlFacts {
  const facts = emptyFacts();
  const context = createTreeContext();
  const tokenizer = new Tokenizer({ xmlMode: false, decodeEntities: true }, scanCallbacks(html, facts, context));
  tokenizer.write(html);
  tokenizer.end();
  const { hrefs, rels, baseHref, linkRels, metas, title } = facts;
  return { hrefs, rels, baseHref, linkRels, metas, title: title === undefined ? undefined : withoutNul(title) };
}

/**
 * The Tokenizer's callbacks for one scan. They assemble the tag being read (its known name, and
 * the wanted attributes of a fact element only) and hand every start and end tag to the context
 * and the facts.
 */
function scanCallbacks(html: string, facts: FactsFound, context: TreeContext): TokenizerCallbacks {
  let tagName = '';
  let isFactTag = false;
  // One set of slots for the whole scan, emptied per tag: a page has dozens of links, and a Map
  // would allocate a table for each (Map#clear makes a new one).
  const attributes = new TagAttributes();
  let attributeName: string | null = null;
  let attributeValue = '';

  function openTag(selfClosing: boolean): void {
    // A <select> drops every element with facts (as the standard drops most elements in it).
    if (context.inSelect && isFactTag) return;
    const created = enterElement(context, tagName, selfClosing);
    if (created === 'none') return;
    if (attributes.size === 0) {
      if (tagName === 'title') startTitle(facts, selfClosing);
      return;
    }
    if (created === 'foreign') adjustForeignHref(attributes);
    recordFacts(facts, tagName, attributes, selfClosing);
  }

  return {
    onopentagname(start, end) {
      tagName = knownNameAt(html, start, end, TAGS_BY_LENGTH);
      isFactTag = FACT_ELEMENTS.has(tagName);
      if (attributes.size > 0) attributes.clear();
    },
    onattribname(start, end) {
      if (!isFactTag) return;
      const name = knownNameAt(html, start, end, ATTRIBUTES_BY_LENGTH);
      attributeName = name === OTHER_TAG ? null : name;
      attributeValue = '';
    },
    onattribdata(start, end) {
      if (attributeName !== null) attributeValue += html.slice(start, end);
    },
    onattribentity(codePoint) {
      if (attributeName !== null) attributeValue += String.fromCodePoint(codePoint);
    },
    onattribend(_quote: QuoteType) {
      if (attributeName === null) return;
      // The first of two attributes with one name wins, as in the standard.
      if (attributes.get(attributeName) === undefined) attributes.set(attributeName, withoutNul(attributeValue));
      attributeName = null;
    },
    onopentagend() {
      openTag(false);
    },
    onselfclosingtag() {
      // `/>` closes only foreign elements; an HTML start tag ignores it.
      openTag(inForeignContent(context) || tagName === 'svg' || tagName === 'math');
    },
    onclosetag(start, end) {
      const name = knownNameAt(html, start, end, TAGS_BY_LENGTH);
      if (facts.inTitle && name === 'title' && !ignoresMarkup(context)) facts.inTitle = false;
      else leaveElement(context, name);
    },
    ontext(start, end) {
      if (facts.inTitle && !ignoresMarkup(context)) facts.title += html.slice(start, end);
    },
    ontextentity(codePoint) {
      if (facts.inTitle && !ignoresMarkup(context)) facts.title += String.fromCodePoint(codePoint);
    },
    oncdata() {},
    oncomment() {},
    ondeclaration() {},
    onprocessinginstruction() {},
    onend() {},
  };
}

/** `HtmlFacts` as they are found, and whether the first `<title>`'s text is being read. */
interface FactsFound {
  readonly hrefs: string[];
  readonly rels: (string | undefined)[];
  baseHref: string | undefined;
  readonly linkRels: { rel: string; href: string }[];
  readonly metas: { name: string; content: string }[];
  title: string | undefined;
  inTitle: boolean;
}

function emptyFacts(): FactsFound {
  return { hrefs: [], rels: [], baseHref: undefined, linkRels: [], metas: [], title: undefined, inTitle: false };
}

/** Starts reading the first `<title>`'s text, unless one was read or this one is self-closed (foreign content). */
function startTitle(facts: FactsFound, selfClosing: boolean): void {
  if (facts.title !== undefined || selfClosing) return;
  facts.title = '';
  facts.inTitle = true;
}

/**
 * The wanted attributes (`WANTED_ATTRIBUTES`) of the tag being read, one slot each, reused from
 * tag to tag. The first of two attributes with one name is the one kept.
 */
class TagAttributes {
  size = 0;
  private href: string | undefined = undefined;
  private rel: string | undefined = undefined;
  private name: string | undefined = undefined;
  private content: string | undefined = undefined;
  private xlinkHref: string | undefined = undefined;
  /** Of `href` and `xlink:href`, the one written last in the tag (see `adjustForeignHref`). */
  lastHrefName: 'href' | 'xlink:href' | undefined = undefined;

  get(name: string): string | undefined {
    switch (name) {
      case 'href':
        return this.href;
      case 'rel':
        return this.rel;
      case 'name':
        return this.name;
      case 'content':
        return this.content;
      case 'xlink:href':
        return this.xlinkHref;
      default:
        return undefined;
    }
  }

  /** Sets a wanted attribute not set yet in this tag (the caller checks `get` first). */
  set(name: string, value: string): void {
    switch (name) {
      case 'href':
        this.href = value;
        this.lastHrefName = 'href';
        break;
      case 'rel':
        this.rel = value;
        break;
      case 'name':
        this.name = value;
        break;
      case 'content':
        this.content = value;
        break;
      case 'xlink:href':
        this.xlinkHref = value;
        this.lastHrefName = 'xlink:href';
        break;
      default:
        return;
    }
    this.size++;
  }

  /** What `adjustForeignHref` does: the DOM's `href` is the value of whichever was written last. */
  useXlinkHref(): void {
    if (this.href === undefined) this.size++;
    this.href = this.xlinkHref;
  }

  clear(): void {
    this.size = 0;
    this.href = this.rel = this.name = this.content = this.xlinkHref = undefined;
    this.lastHrefName = undefined;
  }
}

/** A created element `name` with its wanted attributes `attrs`. */
function recordFacts(facts: FactsFound, name: string, attrs: TagAttributes, selfClosing: boolean): void {
  switch (name) {
    case 'a':
    case 'area': {
      const href = attrs.get('href');
      if (href !== undefined) {
        facts.hrefs.push(href);
        facts.rels.push(attrs.get('rel'));
      }
      return;
    }
    case 'base':
      if (facts.baseHref === undefined) facts.baseHref = attrs.get('href');
      return;
    case 'link': {
      const rel = attrs.get('rel');
      const href = attrs.get('href');
      if (rel !== undefined && href !== undefined) facts.linkRels.push({ rel, href });
      return;
    }
    case 'meta': {
      const metaName = attrs.get('name');
      const content = attrs.get('content');
      if (metaName !== undefined && content !== undefined) facts.metas.push({ name: metaName, content });
      return;
    }
    case 'title':
      startTitle(facts, selfClosing);
      return;
  }
}

/**
 * On an SVG or MathML element, `xlink:href` is the attribute `href` in the XLink namespace, and
 * the DOM names it `href`: of `href` and `xlink:href`, the one written last is what it holds.
 */
function adjustForeignHref(attributes: TagAttributes): void {
  if (attributes.lastHrefName === 'xlink:href') attributes.useXlinkHref();
}

/** The standard's parser turns NUL in attribute values and RCDATA into U+FFFD. */
function withoutNul(value: string): string {
  return value.includes('\0') ? value.replaceAll('\0', '\uFFFD') : value;
}
