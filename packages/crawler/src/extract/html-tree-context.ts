// The part of the HTML standard's tree construction that decides which elements a browser (and
// parse5) would create at all, as the streaming scan (html-scan.ts) follows it: raw text in
// `<noscript>` & co., `<plaintext>`, `<select>` and the `<template>` in it, and foreign content
// (`<svg>`, `<math>`) with its HTML integration points and breakout tags. The scan's opening
// comment says what it follows and what it does not. PURE.

/** Elements whose content is raw text in HTML content, with scripting on (as parse5 runs in cheerio). */
const RAW_TEXT_CONTENT = new Set(['noscript', 'iframe', 'noembed', 'noframes']);
/** Start tags that end a `<select>`. */
const ENDS_SELECT = new Set(['select', 'input', 'keygen', 'textarea']);
/** Start tags that end foreign content (outside an HTML integration point). */
// biome-ignore format: a table of tag names, read better packed
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

/** Every tag name the context acts on. */
export const CONTEXT_TAGS: readonly string[] = [
  ...RAW_TEXT_CONTENT,
  ...ENDS_SELECT,
  ...BREAKS_OUT_OF_FOREIGN,
  ...HTML_INTEGRATION_POINTS.svg,
  ...HTML_INTEGRATION_POINTS.math,
  'svg',
  'math',
  'plaintext',
  'template',
];

/** The context the standard's tree construction would be in. */
export interface TreeContext {
  /** Open `<svg>`/`<math>` and the integration points in them, innermost last. */
  readonly namespaces: ContentNamespace[];
  /** Inside `<noscript>` & co.: the end tag that ends it. */
  rawTextUntil: string | null;
  plaintext: boolean;
  inSelect: boolean;
  /** `inSelect` as it was outside each open `<template>`. */
  readonly selectOutsideTemplates: boolean[];
}

/** What a start tag makes: no element at all, an HTML element, or an SVG or MathML one. */
export type CreatedElement = 'none' | 'html' | 'foreign';

export function createTreeContext(): TreeContext {
  return { namespaces: [], rawTextUntil: null, plaintext: false, inSelect: false, selectOutsideTemplates: [] };
}

// Never reads namespaces[-1]: an out-of-bounds index is a property lookup along the prototype
// chain in V8, and this runs for every tag of every page.
const currentNamespace = (context: TreeContext): ContentNamespace => {
  const { namespaces } = context;
  return namespaces.length === 0 ? 'html' : namespaces[namespaces.length - 1]!;
};
export const inForeignContent = (context: TreeContext): boolean => currentNamespace(context) !== 'html';
/** After `<plaintext>` or inside `<noscript>` & co., markup is text. */
export const ignoresMarkup = (context: TreeContext): boolean => context.plaintext || context.rawTextUntil !== null;

/** A start tag `name`: moves the context as the standard's tree construction would; says what it creates. */
export function enterElement(context: TreeContext, name: string, selfClosing: boolean): CreatedElement {
  if (ignoresMarkup(context)) return 'none';
  // An element started in foreign content is an SVG or MathML element (unless it breaks out).
  const created = inForeignContent(context) && !BREAKS_OUT_OF_FOREIGN.has(name) ? 'foreign' : 'html';
  if (context.inSelect && ENDS_SELECT.has(name)) {
    context.inSelect = false;
    if (name === 'select') return 'none'; // a <select> in a <select> only ends it
  }
  const namespace = currentNamespace(context);
  if (name === 'svg' || name === 'math') {
    // In foreign content, a <svg> or <math> is an element of the namespace it stands in.
    if (!selfClosing) context.namespaces.push(namespace === 'html' ? name : namespace);
    return 'none';
  }
  if (namespace !== 'html') {
    if (BREAKS_OUT_OF_FOREIGN.has(name)) {
      while (inForeignContent(context)) context.namespaces.pop();
    } else if (HTML_INTEGRATION_POINTS[namespace].has(name) && !selfClosing) {
      context.namespaces.push('html');
    }
  }
  if (!inForeignContent(context)) enterHtmlElement(context, name);
  return created;
}

/**
 * An HTML element that changes how what follows it is read: `<template>`, `<plaintext>`,
 * `<noscript>` & co., `<select>`.
 */
function enterHtmlElement(context: TreeContext, name: string): void {
  if (name === 'template') {
    context.selectOutsideTemplates.push(context.inSelect);
    context.inSelect = false;
  } else if (name === 'plaintext') context.plaintext = true;
  else if (RAW_TEXT_CONTENT.has(name)) context.rawTextUntil = name;
  else if (name === 'select') context.inSelect = true;
}

/** An end tag `name`: moves the context as the standard's tree construction would. */
export function leaveElement(context: TreeContext, name: string): void {
  const { namespaces } = context;
  if (context.plaintext) return;
  if (context.rawTextUntil !== null) {
    if (name === context.rawTextUntil) context.rawTextUntil = null;
    return;
  }
  if (name === 'select') context.inSelect = false;
  else if (name === 'template' && context.selectOutsideTemplates.length > 0) {
    context.inSelect = context.selectOutsideTemplates.pop() === true;
  } else if (namespaces.length > 0) {
    const outer = namespaces[namespaces.length - 2] ?? 'html';
    if (closesContext(name, currentNamespace(context), outer)) namespaces.pop();
  }
}

/** Whether the end tag `name` ends the innermost context (`top`, opened inside `outer`). */
function closesContext(name: string, top: ContentNamespace, outer: ContentNamespace): boolean {
  if (top === 'html') return outer !== 'html' && HTML_INTEGRATION_POINTS[outer].has(name);
  return name === 'svg' || name === 'math';
}
