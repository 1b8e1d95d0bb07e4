// One post-order walk over the kept part of the tree: per element, how much text it holds, how
// much of it is link text, its punctuation, and the text of its good paragraphs (not link lists).
// Paragraph-like blocks hand a score to their ancestors, nearer ones more (the idea of
// Readability's scoring, written afresh): the element whose children hold the most prose wins.

import type { Element } from './tree.js';
import { isText } from './tree.js';

export interface Measure {
  /** Non-space characters of text. */
  chars: number;
  /** Non-space characters inside links. */
  linkChars: number;
  /** Commas and sentence punctuation. */
  commas: number;
  /** Characters of paragraph blocks whose link density is low. */
  goodChars: number;
  /** The score handed up by the paragraph blocks below. */
  score: number;
  /** Whether an <article>, <main> or [itemprop=articleBody] is at or below this element. */
  marked: boolean;
}

/** Blocks scored as paragraphs when they hold enough text. */
const PARAGRAPH_TAGS = new Set(['p', 'pre', 'td', 'blockquote']);
/** Tags that are blocks: text beside them (not inside them) is their parent's own, a paragraph of its own. */
export const BLOCK_TAGS: ReadonlySet<string> = new Set([
  'address',
  'article',
  'aside',
  'blockquote',
  'dd',
  'details',
  'div',
  'dl',
  'dt',
  'fieldset',
  'figcaption',
  'figure',
  'footer',
  'form',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'header',
  'hr',
  'li',
  'main',
  'nav',
  'ol',
  'p',
  'pre',
  'section',
  'summary',
  'table',
  'tbody',
  'thead',
  'tfoot',
  'tr',
  'td',
  'th',
  'ul',
  'center',
  'body',
  'html',
]);

const MIN_PARAGRAPH_CHARS = 25;
const PUNCTUATION = /[,.;:!?，、。；！？]/g;
const SPACE = /\s+/g;

export type Measures = Map<Element, Measure>;

export function isMarked(element: Element): boolean {
  return element.tag === 'article' || element.tag === 'main' || element.attrs.itemprop === 'articleBody';
}

function nonSpaceLength(text: string): number {
  return text.replace(SPACE, '').length;
}

/** Measures every kept element below `root`; `drop` says which elements are not kept. */
export function measureTree(root: Element, drop: (element: Element) => boolean): Measures {
  const measures: Measures = new Map();
  const scores = new Map<Element, number>();
  const visit = (element: Element, inLink: boolean): Measure => {
    const measure: Measure = {
      chars: 0,
      linkChars: 0,
      commas: 0,
      goodChars: 0,
      score: 0,
      marked: isMarked(element),
    };
    // Text of this element's own (text and inline children), apart from its blocks.
    let ownChars = 0;
    let ownLinkChars = 0;
    let ownCommas = 0;
    const link = inLink || element.tag === 'a';
    for (const child of element.children) {
      if (isText(child)) {
        const length = nonSpaceLength(child.text);
        const commas = child.text.match(PUNCTUATION)?.length ?? 0;
        ownChars += length;
        ownCommas += commas;
        if (link) ownLinkChars += length;
        continue;
      }
      if (drop(child)) continue;
      const inner = visit(child, link);
      measure.goodChars += inner.goodChars;
      measure.marked ||= inner.marked;
      // An inline child's text is this element's own; a block's is counted beside it, once.
      if (BLOCK_TAGS.has(child.tag)) {
        measure.chars += inner.chars;
        measure.linkChars += inner.linkChars;
        measure.commas += inner.commas;
      } else {
        ownChars += inner.chars;
        ownLinkChars += inner.linkChars;
        ownCommas += inner.commas;
      }
    }
    measure.chars += ownChars;
    measure.linkChars += ownLinkChars;
    measure.commas += ownCommas;
    measures.set(element, measure);
    if (PARAGRAPH_TAGS.has(element.tag)) {
      scoreParagraph(element, measure.chars, measure.linkChars, measure.commas, measure, scores, false);
    } else if (BLOCK_TAGS.has(element.tag)) {
      // A block holding text of its own (lines between <br>s beside a table) is a paragraph too.
      scoreParagraph(element, ownChars, ownLinkChars, ownCommas, measure, scores, true);
    }
    return measure;
  };
  visit(root, false);
  for (const [element, score] of scores) {
    const measure = measures.get(element);
    if (measure !== undefined) measure.score = score;
  }
  return measures;
}

/**
 * Scores a paragraph of `chars` characters: one point, one per comma or stop, one per hundred
 * characters (a long run of text counts as several paragraphs), less its share of link text.
 */
function scoreParagraph(
  element: Element,
  chars: number,
  linkChars: number,
  commas: number,
  measure: Measure,
  scores: Map<Element, number>,
  own: boolean,
): void {
  if (chars < MIN_PARAGRAPH_CHARS) {
    if (element.tag === 'pre' && chars > 0 && measure.goodChars === 0) measure.goodChars = chars;
    return;
  }
  const density = linkChars / chars;
  if (density < 0.35) measure.goodChars = own ? measure.goodChars + chars : Math.max(measure.goodChars, chars);
  const parts = Math.max(1, Math.round(chars / 400));
  const score = (parts + Math.min(commas, 20 * parts) + Math.min(3 * parts, Math.floor(chars / 100))) * (1 - density);
  // Text of a block's own is a paragraph whose container is the block itself.
  handUp(own ? element : element.parent, score, scores);
}

/** Adds a paragraph's score to its container in full, the container's parent by half, and further up by less. */
function handUp(container: Element | null, score: number, scores: Map<Element, number>): void {
  let ancestor = container;
  for (let level = 1; ancestor !== null && level <= 4; level++) {
    const divider = level === 1 ? 1 : level === 2 ? 2 : level * 3;
    scores.set(ancestor, (scores.get(ancestor) ?? 0) + score / divider);
    ancestor = ancestor.parent;
  }
}
