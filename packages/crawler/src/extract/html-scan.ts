// One streaming pass over a page's decoded HTML for what the crawler reads of it: the `href` and
// `rel` of every `<a>` and `<area>`, the first `<base href>`, the first canonical `<link>`, every
// `<meta name content>` and the first `<title>`'s text. Nothing is built: htmlparser2's Tokenizer
// reads tags and attributes, and this module keeps the few values it needs. PURE and linear in
// the length of the page (htmlparser2's Parser is not used: it keeps a stack with `unshift` and
// `indexOf`, quadratic on 50,000 nested elements, and builds attribute objects for every tag).
//
// What it follows of the HTML standard's tree construction, because it decides which elements a
// browser (and parse5, which `page.$` uses) would create at all:
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

import { Tokenizer, type QuoteType } from 'htmlparser2';

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

/** Elements whose content is raw text in HTML content, with scripting on (as parse5 runs in cheerio). */
const RAW_TEXT_CONTENT = new Set(['noscript', 'iframe', 'noembed', 'noframes']);
/** Start tags that end a `<select>`. */
const ENDS_SELECT = new Set(['select', 'input', 'keygen', 'textarea']);
/** Start tags that end foreign content (outside an HTML integration point). */
const BREAKS_OUT_OF_FOREIGN = new Set([
  'b', 'big', 'blockquote', 'body', 'br', 'center', 'code', 'dd', 'div', 'dl', 'dt', 'em', 'embed',
  'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'head', 'hr', 'i', 'img', 'li', 'listing', 'menu', 'meta',
  'nobr', 'ol', 'p', 'pre', 'ruby', 's', 'small', 'span', 'strong', 'strike', 'sub', 'sup',
  'table', 'tt', 'u', 'ul', 'var',
]);
/** Elements of foreign content whose content is HTML again, by the namespace they stand in. */
const HTML_INTEGRATION_POINTS: Readonly<Record<ForeignNamespace, ReadonlySet<string>>> = {
  svg: new Set(['foreignobject', 'desc', 'title']),
  math: new Set(['mi', 'mo', 'mn', 'ms', 'mtext']),
};
type ForeignNamespace = 'svg' | 'math';
/** What an open element that changes the context makes its content: SVG, MathML or HTML again. */
type ContentNamespace = ForeignNamespace | 'html';
/** The attributes any fact is made of; the rest are not assembled. */
const WANTED_ATTRIBUTES = new Set(['href', 'rel', 'name', 'content', 'xlink:href']);
/** Elements with facts. */
const FACT_ELEMENTS = new Set(['a', 'area', 'base', 'link', 'meta', 'title']);

/** Every tag name the scan acts on; any other tag is read as `OTHER_TAG`. */
const KNOWN_TAGS: readonly string[] = [
  ...FACT_ELEMENTS, ...RAW_TEXT_CONTENT, ...ENDS_SELECT, ...BREAKS_OUT_OF_FOREIGN,
  ...HTML_INTEGRATION_POINTS.svg, ...HTML_INTEGRATION_POINTS.math, 'svg', 'math', 'plaintext', 'template',
];
const OTHER_TAG = '';

/**
 * The known name (lowercase, one of `names`) that `html` spells between `start` and `end`,
 * ignoring ASCII case, or `OTHER_TAG`. Reads the characters in place: no string is made for
 * the many tags of a page that the scan does not act on.
 */
function knownNameAt(html: string, start: number, end: number, byLength: ReadonlyMap<number, readonly string[]>): string {
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

export function scanHtml(html: string): HtmlFacts {
  const hrefs: string[] = [];
  const rels: (string | undefined)[] = [];
  const linkRels: { rel: string; href: string }[] = [];
  const metas: { name: string; content: string }[] = [];
  let baseHref: string | undefined;
  let title: string | undefined;

  // The context the standard's tree construction would be in.
  // Open <svg>/<math> and the integration points in them, innermost last.
  const namespaces: ContentNamespace[] = [];
  const current = (): ContentNamespace => namespaces[namespaces.length - 1] ?? 'html';
  const inForeign = (): boolean => current() !== 'html';
  let rawTextUntil: string | null = null; // inside <noscript> & co.: the end tag that ends it
  let plaintext = false;
  let inSelect = false;
  const selectOutsideTemplates: boolean[] = []; // inSelect as it was outside each open <template>
  let inTitle = false; // collecting the first <title>'s text

  // The tag being read.
  let tagName = '';
  let isFactTag = false;
  let attributes: Map<string, string> | null = null;
  let attributeName: string | null = null;
  let attributeValue = '';

  const ignoring = (): boolean => plaintext || rawTextUntil !== null;

  function openTag(selfClosing: boolean): void {
    const name = tagName;
    if (ignoring()) return;
    // An element started in foreign content is an SVG or MathML element (unless it breaks out).
    const foreignElement = inForeign() && !BREAKS_OUT_OF_FOREIGN.has(name);
    if (inSelect && ENDS_SELECT.has(name)) {
      inSelect = false;
      if (name === 'select') return; // a <select> in a <select> only ends it
    } else if (inSelect && FACT_ELEMENTS.has(name)) {
      return;
    }
    const namespace = current();
    if (name === 'svg' || name === 'math') {
      // In foreign content, a <svg> or <math> is an element of the namespace it stands in.
      if (!selfClosing) namespaces.push(namespace === 'html' ? name : namespace);
      return;
    }
    if (namespace !== 'html') {
      if (BREAKS_OUT_OF_FOREIGN.has(name)) {
        while (inForeign()) namespaces.pop();
      } else if (HTML_INTEGRATION_POINTS[namespace].has(name) && !selfClosing) {
        namespaces.push('html');
      }
    }
    if (!inForeign()) {
      if (name === 'template') {
        selectOutsideTemplates.push(inSelect);
        inSelect = false;
      } else if (name === 'plaintext') plaintext = true;
      else if (RAW_TEXT_CONTENT.has(name)) rawTextUntil = name;
      else if (name === 'select') inSelect = true;
    }
    if (attributes === null) {
      if (name === 'title' && title === undefined && !selfClosing) startTitle();
      return;
    }
    if (foreignElement) adjustForeignHref(attributes);
    recordFacts(name, attributes, selfClosing);
  }

  function startTitle(): void {
    title = '';
    inTitle = true;
  }

  function recordFacts(name: string, attrs: Map<string, string>, selfClosing: boolean): void {
    switch (name) {
      case 'a':
      case 'area': {
        const href = attrs.get('href');
        if (href !== undefined) {
          hrefs.push(href);
          rels.push(attrs.get('rel'));
        }
        return;
      }
      case 'base':
        if (baseHref === undefined) baseHref = attrs.get('href');
        return;
      case 'link': {
        const rel = attrs.get('rel');
        const href = attrs.get('href');
        if (rel !== undefined && href !== undefined) linkRels.push({ rel, href });
        return;
      }
      case 'meta': {
        const metaName = attrs.get('name');
        const content = attrs.get('content');
        if (metaName !== undefined && content !== undefined) metas.push({ name: metaName, content });
        return;
      }
      case 'title':
        if (title === undefined && !selfClosing) startTitle();
        return;
    }
  }

  function closeTag(name: string): void {
    if (plaintext) return;
    if (rawTextUntil !== null) {
      if (name === rawTextUntil) rawTextUntil = null;
      return;
    }
    if (inTitle && name === 'title') inTitle = false;
    else if (name === 'select') inSelect = false;
    else if (name === 'template' && selectOutsideTemplates.length > 0) inSelect = selectOutsideTemplates.pop() === true;
    else if (namespaces.length > 0 && closesContext(name, current(), namespaces[namespaces.length - 2] ?? 'html')) namespaces.pop();
  }

  const tokenizer = new Tokenizer(
    { xmlMode: false, decodeEntities: true },
    {
      onopentagname(start, end) {
        tagName = knownNameAt(html, start, end, TAGS_BY_LENGTH);
        isFactTag = FACT_ELEMENTS.has(tagName);
        attributes = null;
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
        attributes ??= new Map();
        // The first of two attributes with one name wins, as in the standard.
        if (!attributes.has(attributeName)) attributes.set(attributeName, withoutNul(attributeValue));
        attributeName = null;
      },
      onopentagend() {
        openTag(false);
      },
      onselfclosingtag() {
        // `/>` closes only foreign elements; an HTML start tag ignores it.
        openTag(inForeign() || tagName === 'svg' || tagName === 'math');
      },
      onclosetag(start, end) {
        closeTag(knownNameAt(html, start, end, TAGS_BY_LENGTH));
      },
      ontext(start, end) {
        if (inTitle && !ignoring()) title += html.slice(start, end);
      },
      ontextentity(codePoint) {
        if (inTitle && !ignoring()) title += String.fromCodePoint(codePoint);
      },
      oncdata() {},
      oncomment() {},
      ondeclaration() {},
      onprocessinginstruction() {},
      onend() {},
    },
  );
  tokenizer.write(html);
  tokenizer.end();
  return { hrefs, rels, baseHref, linkRels, metas, title: title === undefined ? undefined : withoutNul(title) };
}

/** Whether the end tag `name` ends the innermost context (`top`, opened inside `outer`). */
function closesContext(name: string, top: ContentNamespace, outer: ContentNamespace): boolean {
  if (top === 'html') return outer !== 'html' && HTML_INTEGRATION_POINTS[outer].has(name);
  return name === 'svg' || name === 'math';
}

/**
 * On an SVG or MathML element, `xlink:href` is the attribute `href` in the XLink namespace, and
 * the DOM names it `href`: of `href` and `xlink:href`, the one written last is what it holds.
 */
function adjustForeignHref(attributes: Map<string, string>): void {
  const xlinkHref = attributes.get('xlink:href');
  if (xlinkHref === undefined) return;
  let last: string | undefined;
  for (const name of attributes.keys()) if (name === 'href' || name === 'xlink:href') last = name;
  if (last === 'xlink:href') attributes.set('href', xlinkHref);
}

/** The standard's parser turns NUL in attribute values and RCDATA into U+FFFD. */
function withoutNul(value: string): string {
  return value.includes('\0') ? value.replaceAll('\0', '\uFFFD') : value;
}
