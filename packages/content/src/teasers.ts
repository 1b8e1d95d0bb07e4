// Lists of teasers: blocks of three or more alike short items, each led by a link (a title) and
// a line of text, as "more stories", "popular" and "you may also like" blocks are built. Inside
// the main content such a block is dropped when it holds a minority of the content's text; the
// posts of a thread and the items of a listicle are alike too, but they are the content.

import type { Measure } from './measure.js';
import { type Element, isText } from './tree.js';

/** Fewest alike items that make a list. */
const MIN_ITEMS = 3;
/** Most characters of text in one teaser. */
const MAX_ITEM_CHARS = 400;
/** Least share of an item's text inside links: its linked title. */
const MIN_ITEM_LINK_SHARE = 0.1;
/** Least share of the block's text in its alike items. */
const MIN_ITEMS_SHARE = 0.6;
/** Most share of the content's text a teaser list holds. */
const MAX_CONTENT_SHARE = 0.5;

/** An element's tag and the class words without digits: posts of a thread share it (`post bg1`, `post bg2`). */
export function kindOf(element: Element): string {
  const words = (element.attrs.class ?? '').split(/\s+/).filter((word) => word !== '' && !/\d/.test(word));
  return `${element.tag}.${words.sort().join('.')}`;
}

/**
 * Whether the first text of `item` is inside a link: a teaser opens with its linked title (or a
 * linked picture, then its title). Looks at most a few levels down and a few children across.
 */
function ledByLink(item: Element, inLink = item.tag === 'a', depth = 0): boolean | undefined {
  if (depth > 6) return undefined;
  for (const child of item.children.slice(0, 8)) {
    if (isText(child)) {
      if (child.text.trim() !== '') return inLink;
      continue;
    }
    const element = child as Element;
    const found = ledByLink(element, inLink || element.tag === 'a', depth + 1);
    if (found !== undefined) return found;
  }
  return undefined;
}

/**
 * Whether `element` is a list of teasers: most of its text in three or more alike children, each
 * short and led by a link, the whole a minority of `contentChars`, the content's text (when given).
 */
export function isTeaserList(
  element: Element,
  get: (element: Element) => Measure | undefined,
  contentChars = Number.POSITIVE_INFINITY,
): boolean {
  const own = get(element);
  if (own === undefined || own.chars === 0 || own.chars > contentChars * MAX_CONTENT_SHARE) return false;
  const kinds = new Map<string, { items: number; chars: number }>();
  for (const child of element.children) {
    if (child.tag === '#text') continue;
    const measure = get(child as Element);
    if (measure === undefined || measure.chars === 0) continue;
    const kind = kindOf(child as Element);
    const entry = kinds.get(kind) ?? { items: 0, chars: 0 };
    const teaser =
      measure.chars <= MAX_ITEM_CHARS &&
      measure.linkChars >= measure.chars * MIN_ITEM_LINK_SHARE &&
      ledByLink(child as Element) === true;
    // One item that is no teaser spoils its kind: a long post among short ones is a thread.
    entry.items = teaser && entry.items >= 0 ? entry.items + 1 : -1;
    entry.chars += measure.chars;
    kinds.set(kind, entry);
  }
  for (const { items, chars } of kinds.values()) {
    if (items >= MIN_ITEMS && chars >= own.chars * MIN_ITEMS_SHARE) return true;
  }
  return false;
}

/** Fewest characters of good prose that make an <article> the page's own piece of writing. */
const MIN_LONE_ARTICLE_CHARS = 200;

/**
 * The page's own <article> when `candidate` is a list of them: an <article> is one piece of
 * writing, so an element holding three or more <article>s is a feed of teasers, and an
 * <article> with prose of its own outside that feed is the piece the page is about. Null when
 * `candidate` is no such list or the page has no such <article> (a listing page).
 */
export function loneArticleBeside(candidate: Element, measured: Iterable<[Element, Measure]>): Element | null {
  let articles = 0;
  for (const child of candidate.children) if (child.tag === 'article') articles++;
  if (articles < MIN_ITEMS) return null;
  let lone: Element | null = null;
  let loneGood = MIN_LONE_ARTICLE_CHARS - 1;
  for (const [element, measure] of measured) {
    if (element.tag !== 'article' || measure.goodChars <= loneGood) continue;
    if (within(element, candidate) || within(candidate, element)) continue;
    lone = element;
    loneGood = measure.goodChars;
  }
  return lone;
}

function within(inner: Element, outer: Element): boolean {
  for (let node: Element | null = inner; node !== null; node = node.parent) if (node === outer) return true;
  return false;
}
