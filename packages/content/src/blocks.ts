// The chosen content as a small document model: blocks (paragraphs, headings, preformatted text,
// quotes, lists, tables, rules) holding inlines (text, code, emphasis, links, images, breaks).
// The Markdown and the plain text are both written from it, so they say the same thing.

import { BLOCK_TAGS } from './measure.js';
import { type Element, isText, type Node } from './tree.js';
import { absoluteUrl } from './url.js';

export type Inline =
  | { readonly kind: 'text'; readonly text: string }
  | { readonly kind: 'code'; readonly text: string }
  | { readonly kind: 'em' | 'strong' | 'del'; readonly children: Inline[] }
  | { readonly kind: 'link'; readonly href: string; readonly children: Inline[] }
  | { readonly kind: 'image'; readonly src: string; readonly alt: string }
  | { readonly kind: 'br' };

export type Block =
  | { readonly kind: 'paragraph'; readonly inlines: Inline[] }
  | { readonly kind: 'heading'; readonly level: number; readonly inlines: Inline[] }
  | { readonly kind: 'pre'; readonly text: string; readonly lang: string | null }
  | { readonly kind: 'quote'; readonly blocks: Block[] }
  | { readonly kind: 'list'; readonly ordered: boolean; readonly start: number; readonly items: Block[][] }
  | { readonly kind: 'table'; readonly rows: Inline[][][] }
  | { readonly kind: 'rule' };

interface Context {
  readonly drop: (element: Element) => boolean;
  readonly base: string;
  /** The href of an enclosing link whose content is blocks (a heading inside a link). */
  readonly link: string | null;
}

const EMPHASIS: Readonly<Record<string, 'em' | 'strong' | 'del'>> = {
  em: 'em',
  i: 'em',
  cite: 'em',
  dfn: 'em',
  strong: 'strong',
  b: 'strong',
  del: 'del',
  s: 'del',
  strike: 'del',
};
const HEADING = /^h([1-6])$/;
const MAX_DEPTH = 200;

/** The blocks of the chosen elements, in order. */
export function blocksOf(nodes: readonly Element[], drop: (element: Element) => boolean, base: string): Block[] {
  const context: Context = { drop, base, link: null };
  const blocks: Block[] = [];
  for (const node of nodes) {
    if (BLOCK_TAGS.has(node.tag) || hasBlock(node)) blocks.push(...blockOf(node, context, 0));
    else {
      const inlines = trimInlines(inlineOf(node, context, 0));
      if (inlines.length > 0) blocks.push({ kind: 'paragraph', inlines });
    }
  }
  return withoutStrayRules(blocks);
}

/** Rules that separate nothing (at the ends, or after another rule) are left out. */
function withoutStrayRules(blocks: Block[]): Block[] {
  const kept = blocks.filter((block, index) => block.kind !== 'rule' || blocks[index - 1]?.kind !== 'rule');
  while (kept[0]?.kind === 'rule') kept.shift();
  while (kept[kept.length - 1]?.kind === 'rule') kept.pop();
  return kept;
}

/** Whether an element holds a block among its kept descendants (an inline link around a heading does). */
function hasBlock(element: Element): boolean {
  for (const child of element.children) {
    if (isText(child)) continue;
    if (BLOCK_TAGS.has(child.tag) || hasBlock(child)) return true;
  }
  return false;
}

/** Children as blocks: runs of inline content become paragraphs. */
function blockChildren(children: readonly Node[], context: Context, depth: number): Block[] {
  const blocks: Block[] = [];
  let run: Inline[] = [];
  const flush = (): void => {
    const inlines = trimInlines(run);
    if (inlines.length > 0 && !isLoneLink(inlines))
      blocks.push({ kind: 'paragraph', inlines: wrapLink(inlines, context) });
    run = [];
  };
  for (const child of children) {
    if (isText(child)) {
      run.push({ kind: 'text', text: visible(child.text) });
      continue;
    }
    if (context.drop(child)) continue;
    if (depth < MAX_DEPTH && (BLOCK_TAGS.has(child.tag) || (child.tag === 'a' && hasBlock(child)))) {
      flush();
      blocks.push(...blockOf(child, context, depth + 1));
    } else {
      run.push(...inlineOf(child, context, depth + 1));
    }
  }
  flush();
  return blocks;
}

function blockOf(element: Element, context: Context, depth: number): Block[] {
  const { tag } = element;
  const level = HEADING.exec(tag)?.[1];
  if (level !== undefined) {
    const inlines = trimInlines(inlineChildren(element, context, depth)).map(noBreak);
    return inlines.length === 0 ? [] : [{ kind: 'heading', level: Number(level), inlines: wrapLink(inlines, context) }];
  }
  if (tag === 'a') {
    const href = hrefOf(element, context);
    return blockChildren(element.children, href === null ? context : { ...context, link: href }, depth);
  }
  if (tag === 'pre') return preOf(element, context);
  if (tag === 'hr') return [{ kind: 'rule' }];
  if (tag === 'blockquote') {
    const blocks = blockChildren(element.children, context, depth);
    return blocks.length === 0 ? [] : [{ kind: 'quote', blocks }];
  }
  if (tag === 'ul' || tag === 'ol') return listOf(element, context, depth);
  if (tag === 'table') return tableOf(element, context, depth);
  return blockChildren(element.children, context, depth);
}

function preOf(element: Element, context: Context): Block[] {
  const text = rawText(element, context.drop);
  if (text.trim() === '') return [];
  const code = element.children.find((child) => !isText(child) && child.tag === 'code') as Element | undefined;
  const classes = `${element.attrs.class ?? ''} ${code?.attrs.class ?? ''}`;
  const lang = /(?:^|\s)(?:language|lang)-([\w+#.-]+)/.exec(classes)?.[1] ?? null;
  // A newline right after <pre> is not content (the HTML parser drops it too).
  return [{ kind: 'pre', text: text.startsWith('\n') ? text.slice(1) : text, lang }];
}

function listOf(element: Element, context: Context, depth: number): Block[] {
  const items: Block[][] = [];
  for (const child of element.children) {
    if (isText(child) || context.drop(child)) continue;
    const blocks =
      child.tag === 'li' ? blockChildren(child.children, context, depth + 1) : blockOf(child, context, depth + 1);
    if (blocks.length > 0) items.push(blocks);
  }
  if (items.length === 0) return [];
  const start = Number.parseInt(element.attrs.start ?? '1', 10);
  return [
    {
      kind: 'list',
      ordered: element.tag === 'ol',
      start: Number.isSafeInteger(start) && start >= 0 ? start : 1,
      items,
    },
  ];
}

/** A table of data as a table; a layout table (nested tables, one column, blocks in cells) as its blocks. */
function tableOf(element: Element, context: Context, depth: number): Block[] {
  const rows: Element[][] = [];
  collectRows(element, context, rows, 0);
  const columns = Math.max(0, ...rows.map((row) => row.length));
  const layout = columns < 2 || rows.some((row) => row.some((cell) => isLayoutCell(cell)));
  if (layout) return blockChildren(element.children, context, depth);
  const table = rows.map((row) => {
    const cells = row.map((cell) => trimInlines(inlineChildren(cell, context, depth)).map(noBreak));
    while (cells.length < columns) cells.push([]);
    return cells;
  });
  return table.length === 0 ? [] : [{ kind: 'table', rows: table }];
}

function collectRows(element: Element, context: Context, rows: Element[][], depth: number): void {
  for (const child of element.children) {
    if (isText(child) || context.drop(child)) continue;
    if (child.tag === 'tr') {
      const cells = child.children.filter(
        (cell): cell is Element => !isText(cell) && (cell.tag === 'td' || cell.tag === 'th') && !context.drop(cell),
      );
      if (cells.length > 0) rows.push(cells);
    } else if (depth < 3 && (child.tag === 'thead' || child.tag === 'tbody' || child.tag === 'tfoot')) {
      collectRows(child, context, rows, depth + 1);
    }
  }
}

function isLayoutCell(cell: Element): boolean {
  let blocks = 0;
  for (const child of cell.children) {
    if (isText(child)) continue;
    if (child.tag === 'table') return true;
    if (BLOCK_TAGS.has(child.tag) && child.tag !== 'br') blocks++;
  }
  return blocks > 1;
}

function inlineChildren(element: Element, context: Context, depth: number): Inline[] {
  const inlines: Inline[] = [];
  for (const child of element.children) {
    if (isText(child)) inlines.push({ kind: 'text', text: visible(child.text) });
    else if (!context.drop(child)) inlines.push(...inlineOf(child, context, depth + 1));
  }
  return inlines;
}

function inlineOf(element: Element, context: Context, depth: number): Inline[] {
  if (depth > MAX_DEPTH) return [{ kind: 'text', text: rawText(element, context.drop) }];
  const { tag } = element;
  if (tag === 'br') return [{ kind: 'br' }];
  if (tag === 'img') return imageOf(element, context);
  if (tag === 'code' || tag === 'kbd' || tag === 'samp' || tag === 'tt') {
    const text = rawText(element, context.drop).replace(/\s+/g, ' ');
    return text.trim() === '' ? [] : [{ kind: 'code', text }];
  }
  const children = inlineChildren(element, context, depth);
  const emphasis = EMPHASIS[tag];
  if (emphasis !== undefined) return hasText(children) ? [{ kind: emphasis, children }] : children;
  if (tag === 'a') {
    if (isPermalink(children)) return [];
    const href = hrefOf(element, context);
    return href === null || context.link !== null || !hasContent(children)
      ? children
      : [{ kind: 'link', href, children }];
  }
  // A block inside an inline (a <div> in a <span>) separates the text around it.
  if (BLOCK_TAGS.has(tag)) return [{ kind: 'text', text: ' ' }, ...children, { kind: 'text', text: ' ' }];
  return children;
}

function imageOf(element: Element, context: Context): Inline[] {
  const { attrs } = element;
  const candidates = [attrs.src, attrs['data-src'], attrs['data-original'], attrs['data-lazy-src']];
  const source = candidates.find((value) => value !== undefined && value.trim() !== '' && !value.startsWith('data:'));
  const src = source === undefined ? null : absoluteUrl(source, context.base);
  return src === null ? [] : [{ kind: 'image', src, alt: (attrs.alt ?? '').replace(/\s+/g, ' ').trim() }];
}

function hrefOf(element: Element, context: Context): string | null {
  const href = element.attrs.href;
  if (href === undefined || href.trim() === '' || /^\s*javascript:/i.test(href)) return null;
  return absoluteUrl(href, context.base);
}

const INVISIBLE = /[\u200b-\u200d\u2060\ufeff]/g;

/** Text without zero-width characters, which pages use as spacers. */
function visible(text: string): string {
  return text.replace(INVISIBLE, '');
}

/** The text of a subtree exactly as written (for <pre> and code), <br> as a newline. */
export function rawText(element: Element, drop: (element: Element) => boolean): string {
  let text = '';
  const visit = (node: Element, depth: number): void => {
    for (const child of node.children) {
      if (isText(child)) text += child.text;
      else if (child.tag === 'br') text += '\n';
      else if (depth < MAX_DEPTH && !drop(child)) visit(child, depth + 1);
    }
  };
  visit(element, 0);
  return text;
}

/**
 * A short paragraph that is a link and little else ("Read more", "Related: …") is furniture: its
 * link text is most of it. A linked image is content.
 */
function isLoneLink(inlines: readonly Inline[]): boolean {
  let linked = 0;
  for (const inline of inlines) {
    if (inline.kind === 'image') return false;
    if (inline.kind !== 'link') continue;
    if (inline.children.some((child) => child.kind === 'image')) return false;
    linked += textLength(inline.children);
  }
  if (linked === 0) return false;
  const total = textLength(inlines);
  return total < 150 && linked >= total * 0.7;
}

function textLength(inlines: readonly Inline[]): number {
  let length = 0;
  for (const inline of inlines) {
    if (inline.kind === 'text' || inline.kind === 'code') length += inline.text.trim().length;
    else if ('children' in inline) length += textLength(inline.children);
  }
  return length;
}

/** A heading's permalink anchor (¶, #, §, a link symbol) is page furniture. */
function isPermalink(inlines: readonly Inline[]): boolean {
  return inlines.length === 1 && inlines[0]!.kind === 'text' && /^\s*[¶#§🔗∞]\s*$/u.test(inlines[0]!.text);
}

function hasText(inlines: readonly Inline[]): boolean {
  return inlines.some((inline) =>
    inline.kind === 'text' || inline.kind === 'code'
      ? inline.text.trim() !== ''
      : 'children' in inline && hasText(inline.children),
  );
}

function hasContent(inlines: readonly Inline[]): boolean {
  return inlines.some((inline) => inline.kind === 'image') || hasText(inlines);
}

/** A paragraph inside a link made of blocks is linked as a whole. */
function wrapLink(inlines: Inline[], context: Context): Inline[] {
  return context.link === null ? inlines : [{ kind: 'link', href: context.link, children: inlines }];
}

function noBreak(inline: Inline): Inline {
  if (inline.kind === 'br') return { kind: 'text', text: ' ' };
  if ('children' in inline) return { ...inline, children: inline.children.map(noBreak) };
  return inline;
}

/** Drops leading and trailing breaks and whitespace-only text; a run with no content is empty. */
function trimInlines(inlines: Inline[]): Inline[] {
  let start = 0;
  let end = inlines.length;
  const blank = (inline: Inline): boolean =>
    inline.kind === 'br' || (inline.kind === 'text' && inline.text.trim() === '');
  while (start < end && blank(inlines[start]!)) start++;
  while (end > start && blank(inlines[end - 1]!)) end--;
  const trimmed = inlines.slice(start, end);
  return hasContent(trimmed) ? trimmed : [];
}

/**
 * The content without its leading heading when that heading is the page's title (the title is a
 * field of its own): the first heading among the first blocks, if its text is one of `titles`
 * or a part of one (`<title>` often adds the site's name).
 */
export function withoutTitle(blocks: Block[], titles: readonly (string | null)[]): Block[] {
  const known = titles
    .filter((title): title is string => title !== null)
    .map(squash)
    .filter((title) => title !== '');
  const index = blocks.slice(0, 3).findIndex((block) => block.kind === 'heading');
  const heading = blocks[index];
  if (heading === undefined || heading.kind !== 'heading') return blocks;
  const text = squash(headingText(heading.inlines));
  if (text === '' || !known.some((title) => title === text || (text.length >= 15 && title.includes(text))))
    return blocks;
  return blocks.filter((_, at) => at !== index);
}

function squash(text: string): string {
  return text.replace(/\s+/g, ' ').trim().toLowerCase();
}

function headingText(inlines: readonly Inline[]): string {
  let text = '';
  for (const inline of inlines) {
    if (inline.kind === 'text' || inline.kind === 'code') text += inline.text;
    else if ('children' in inline) text += headingText(inline.children);
  }
  return text;
}
