// Which part of the page is its main content: the best-scored container (the lone <article>
// when that container is a feed of them; climbing to an ancestor when its children alike hold
// much more good prose, as a thread holds its posts), narrowed or widened to an <article>,
// <main> or [itemprop=articleBody] that holds most of the same text, with its siblings of good
// score but no teaser list. Inside it, link lists, teaser lists and other furniture without
// prose are cleaned away. A page whose class and id words hid nearly everything is read again
// without them.

import { isBoilerplateByKind, isBoilerplateByName, namesComments, nameWeight } from './boilerplate.js';
import { isMarked, type Measure, type Measures, measureTree } from './measure.js';
import { isTeaserList, kindOf, loneArticleBeside } from './teasers.js';
import type { Element } from './tree.js';

/** The main content: the elements to render, in document order, and what to leave out inside them. */
export interface ContentSelection {
  /** The chosen elements: each is rendered whole (`drop` applies to what is inside them). */
  readonly nodes: readonly Element[];
  readonly drop: (element: Element) => boolean;
}

/** Below this many characters, a selection made with the class and id words is tried without them. */
const MIN_CONTENT_CHARS = 250;
const TOP_LEVEL = new Set(['#root', 'html', 'body']);

export function selectContent(root: Element): ContentSelection {
  const holdsMarker = markerFinder();
  // A wrapper named for furniture that holds the <article> is spared; a comment section is not,
  // though each comment be an <article>.
  const byName = (element: Element): boolean =>
    isBoilerplateByName(element) && (!holdsMarker(element) || namesComments(element));
  const strict = selectWith(root, (element) => isBoilerplateByKind(element) || byName(element));
  if (strict.chars >= MIN_CONTENT_CHARS) return strict.selection;
  const loose = selectWith(root, isBoilerplateByKind);
  return loose.chars > strict.chars ? loose.selection : strict.selection;
}

/**
 * Whether an element holds an <article>, <main> or [itemprop=articleBody]: the name rule spares
 * such an element (a wrapper named `has-sidebar` around the article). Answers are remembered.
 */
function markerFinder(): (element: Element) => boolean {
  const known = new Map<Element, boolean>();
  const holds = (element: Element): boolean => {
    const answer = known.get(element);
    if (answer !== undefined) return answer;
    let found = isMarked(element);
    for (const child of element.children) {
      if (found) break;
      if (child.tag !== '#text') found = holds(child as Element);
    }
    known.set(element, found);
    return found;
  };
  return holds;
}

function selectWith(
  root: Element,
  dropBase: (element: Element) => boolean,
): { selection: ContentSelection; chars: number } {
  const measures = measureTree(root, dropBase);
  const get = (element: Element): Measure => measures.get(element) ?? EMPTY;
  let best: Element | null = null;
  let bestScore = 0;
  for (const [element, measure] of measures) {
    if (element.tag === '#root' || element.tag === 'html') continue;
    const density = measure.chars === 0 ? 0 : measure.linkChars / measure.chars;
    const score = measure.score * (1 - density) * nameWeight(element);
    if (score > bestScore) {
      best = element;
      bestScore = score;
    }
  }
  if (best === null) {
    const body = findBody(root);
    return {
      selection: { nodes: [body], drop: cleaner(dropBase, measures, get(body).chars) },
      chars: get(body).goodChars,
    };
  }
  best = loneArticleBeside(best, measures) ?? best;
  let chosen = climb(best, get);
  chosen = preferMarked(chosen, measures, get);
  const nodes = withSiblings(chosen, get);
  const chars = nodes.reduce((sum, node) => sum + get(node).goodChars, 0);
  const allChars = nodes.reduce((sum, node) => sum + get(node).chars, 0);
  return { selection: { nodes, drop: cleaner(dropBase, measures, allChars) }, chars };
}

const EMPTY: Measure = { chars: 0, linkChars: 0, commas: 0, goodChars: 0, score: 0, marked: false };

function findBody(root: Element): Element {
  const queue: Element[] = [root];
  for (let index = 0; index < queue.length && index < 64; index++) {
    const element = queue[index]!;
    if (element.tag === 'body') return element;
    for (const child of element.children) if (child.tag !== '#text') queue.push(child as Element);
  }
  return root;
}

/**
 * Up to the ancestor whose children alike the candidate's branch hold much more good prose than
 * the candidate: a thread over one post. Prose in other children (a teaser list, a "more news"
 * block beside the article) does not pull the selection up.
 */
function climb(candidate: Element, get: (element: Element) => Measure): Element {
  let chosen = candidate;
  let branch = candidate;
  // The good prose gathered so far: the candidate's and that of the alike branches climbed over.
  let carried = get(candidate).goodChars;
  for (let parent = candidate.parent; parent !== null && !TOP_LEVEL.has(parent.tag); parent = parent.parent) {
    const outer = get(parent);
    const kind = kindOf(branch);
    let good = carried;
    for (const child of parent.children) {
      if (child === branch || child.tag === '#text') continue;
      if (kindOf(child as Element) === kind) good += get(child as Element).goodChars;
    }
    if (good >= get(chosen).goodChars * 1.2 && outer.linkChars <= outer.chars * 0.3) {
      chosen = parent;
      carried = good;
    }
    branch = parent;
  }
  return chosen;
}

/** An <article>, <main> or [itemprop=articleBody] that holds most of the chosen text takes its place. */
function preferMarked(chosen: Element, measures: Measures, get: (element: Element) => Measure): Element {
  const good = get(chosen).goodChars;
  for (let parent: Element | null = chosen; parent !== null; parent = parent.parent) {
    if (isMarked(parent) && good >= get(parent).goodChars * 0.6) return narrowMarked(parent, get);
  }
  if (!get(chosen).marked) return chosen;
  let inner: Element | null = null;
  for (const [element, measure] of measures) {
    if (!isMarked(element) || measure.goodChars < good * 0.8 || !contains(chosen, element)) continue;
    if (inner === null || measure.goodChars < get(inner).goodChars) inner = element;
  }
  return inner === null ? chosen : narrowMarked(inner, get);
}

/** The innermost marked element under `marked` that still holds most of its good text. */
function narrowMarked(marked: Element, get: (element: Element) => Measure): Element {
  const good = get(marked).goodChars;
  for (const child of marked.children) {
    if (child.tag === '#text') continue;
    const element = child as Element;
    if (get(element).marked && get(element).goodChars >= good * 0.8) {
      const found = findMarked(element, good * 0.8, get);
      if (found !== null) return narrowMarked(found, get);
    }
  }
  return marked;
}

function findMarked(element: Element, minGood: number, get: (element: Element) => Measure): Element | null {
  if (isMarked(element)) return element;
  for (const child of element.children) {
    if (child.tag === '#text') continue;
    const inner = child as Element;
    if (get(inner).marked && get(inner).goodChars >= minGood) return findMarked(inner, minGood, get);
  }
  return null;
}

function contains(outer: Element, inner: Element): boolean {
  for (let node: Element | null = inner; node !== null; node = node.parent) if (node === outer) return true;
  return false;
}

/** The chosen element and those of its siblings that hold prose of their own. */
function withSiblings(chosen: Element, get: (element: Element) => Measure): Element[] {
  const parent = chosen.parent;
  if (parent === null || isMarked(chosen)) return [chosen];
  const own = get(chosen);
  const threshold = Math.max(10, own.score * 0.2);
  const nodes: Element[] = [];
  for (const child of parent.children) {
    if (child.tag === '#text') continue;
    const sibling = child as Element;
    if (sibling === chosen) {
      nodes.push(sibling);
      continue;
    }
    const measure = measures(sibling, get);
    if (measure === undefined || isTeaserList(sibling, get)) continue;
    const density = measure.chars === 0 ? 1 : measure.linkChars / measure.chars;
    const prose = sibling.tag === 'p' && density < 0.25 && measure.chars > 80;
    if ((measure.score >= threshold && density < 0.25) || prose) nodes.push(sibling);
  }
  return nodes;
}

function measures(element: Element, get: (element: Element) => Measure): Measure | undefined {
  const measure = get(element);
  return measure === EMPTY ? undefined : measure;
}

/**
 * Leaves out, inside the content, blocks that are mostly links, hold no prose among furniture, or
 * list teasers; `contentChars` is the text of the whole content.
 */
function cleaner(
  dropBase: (element: Element) => boolean,
  all: Measures,
  contentChars: number,
): (element: Element) => boolean {
  const get = (element: Element): Measure | undefined => all.get(element);
  return (element) => {
    if (dropBase(element)) return true;
    if (!CLEANED_TAGS.has(element.tag)) return false;
    const measure = all.get(element);
    if (measure === undefined || measure.chars === 0) return false;
    if (isTeaserList(element, get, contentChars)) return true;
    // A block with prose of its own stays: the furniture inside it is cleaned further down.
    if (measure.goodChars >= MIN_KEPT_PROSE) return false;
    const density = measure.linkChars / measure.chars;
    return density > 0.4 || (density > 0.25 && measure.commas < 10);
  };
}

/** Characters of good prose that keep a block whatever its links. */
const MIN_KEPT_PROSE = 100;
const CLEANED_TAGS = new Set(['div', 'section', 'ul', 'ol', 'dl', 'table', 'form', 'span']);
