// The page's metadata from its head facts, JSON-LD and a few elements of the tree: each field
// from the most specific source that has it (JSON-LD, then OpenGraph and article:*, then plain
// meta tags and elements), dates as ISO 8601, the language as a BCP 47 tag.

import { type ArticleFacts, articleFacts, parseJsonLd } from './json-ld.js';
import type { Element, HeadFacts } from './tree.js';
import { isText } from './tree.js';
import { absoluteUrl } from './url.js';

/** What a page says of itself: title, authors, dates, language, links and structured data. */
export interface PageMetadata {
  /** The page's title: its JSON-LD headline, og:title, twitter:title, `<title>` or first `<h1>`. */
  readonly title: string | null;
  /** The authors' names (JSON-LD author, else `<meta name="author">`); empty when none is given. */
  readonly authors: string[];
  /** When the page was first published, as ISO 8601, or null. */
  readonly published: string | null;
  /** When the page was last modified, as ISO 8601, or null. */
  readonly modified: string | null;
  /** The page's language as a BCP 47 tag (`<html lang>`, Content-Language, og:locale), or null. */
  readonly lang: string | null;
  /** The absolute URL of `<link rel="canonical">` (else og:url), or null. */
  readonly canonicalUrl: string | null;
  /** The page's description (meta description, og:description, twitter:description), or null. */
  readonly description: string | null;
  /** The site's name (og:site_name, the JSON-LD publisher, application-name), or null. */
  readonly siteName: string | null;
  /** Every JSON-LD object of the page, parsed (a script that is not JSON is skipped). */
  readonly jsonLd: unknown[];
  /** The page's OpenGraph tags (`og:*`), by property; the first of a property wins. */
  readonly openGraph: Record<string, string>;
}

const BCP47 = /^[A-Za-z]{2,8}(?:-[A-Za-z0-9]{1,8})*$/;
const ISO_DATE = /^\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:[.,]\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?)?$/;

/** Meta tags by name, property or itemprop, lower-cased; the first one of a key wins. */
function metaTable(head: HeadFacts): Map<string, string> {
  const table = new Map<string, string>();
  for (const meta of head.metas) {
    const key = (meta.property ?? meta.name ?? meta.itemprop ?? meta['http-equiv'])?.trim().toLowerCase();
    const content = meta.content?.trim();
    if (key === undefined || content === undefined || content === '' || table.has(key)) continue;
    table.set(key, content);
  }
  return table;
}

export function metadataOf(head: HeadFacts, root: Element, base: string): PageMetadata {
  const meta = metaTable(head);
  const jsonLd = parseJsonLd(head.jsonLd);
  const article: ArticleFacts | null = articleFacts(jsonLd);
  const openGraph: Record<string, string> = {};
  for (const [key, value] of meta) if (key.startsWith('og:')) openGraph[key] = value;
  const first = (...keys: string[]): string | null => {
    for (const key of keys) {
      const value = meta.get(key);
      if (value !== undefined) return value;
    }
    return null;
  };
  const titleText = head.title?.replace(/\s+/g, ' ').trim();
  return {
    title: article?.headline ?? first('og:title', 'twitter:title') ?? (titleText || null) ?? firstHeading(root),
    authors: authorsOf(article, first('author', 'article:author', 'dc.creator', 'parsely-author', 'byl')),
    published: isoDate(
      article?.published ??
        first('article:published_time', 'datepublished', 'og:published_time', 'pubdate', 'date', 'dc.date') ??
        firstTime(root),
    ),
    modified: isoDate(article?.modified ?? first('article:modified_time', 'datemodified', 'og:updated_time')),
    lang: languageOf(head.htmlLang ?? first('content-language', 'og:locale')),
    canonicalUrl: canonicalOf(head, base) ?? urlOrNull(first('og:url'), base),
    description: first('description', 'og:description', 'twitter:description') ?? article?.description ?? null,
    siteName: first('og:site_name') ?? article?.publisher ?? first('application-name'),
    jsonLd,
    openGraph,
  };
}

function authorsOf(article: ArticleFacts | null, metaAuthor: string | null): string[] {
  if (article !== null && article.authors.length > 0) return article.authors;
  if (metaAuthor === null || /^https?:/i.test(metaAuthor)) return [];
  return [metaAuthor.replace(/^by\s+/i, '').trim()].filter((name) => name !== '');
}

/** A date as ISO 8601: kept as written when it already is, otherwise parsed and written in UTC. */
export function isoDate(value: string | null): string | null {
  if (value === null) return null;
  const trimmed = value.trim();
  if (ISO_DATE.test(trimmed)) return trimmed.replace(' ', 'T');
  const time = Date.parse(trimmed);
  return Number.isNaN(time) ? null : new Date(time).toISOString();
}

function languageOf(value: string | null): string | null {
  if (value === null) return null;
  // Content-Language may list several: the first is the page's.
  const tag = (value.split(/[,;]/)[0] ?? '').trim().replace(/_/g, '-');
  return BCP47.test(tag) ? tag : null;
}

function canonicalOf(head: HeadFacts, base: string): string | null {
  for (const link of head.links) {
    const rel = (link.rel ?? '').toLowerCase().split(/\s+/);
    if (rel.includes('canonical') && link.href !== undefined) {
      const url = absoluteUrl(link.href, base);
      if (url !== null) return url;
    }
  }
  return null;
}

function urlOrNull(value: string | null, base: string): string | null {
  return value === null ? null : absoluteUrl(value, base);
}

/** The first element matching `test`, breadth-first, within a bounded number of elements. */
function findFirst(root: Element, test: (element: Element) => boolean): Element | null {
  const stack: Element[] = [root];
  for (let seen = 0; stack.length > 0 && seen < 100_000; seen++) {
    const element = stack.pop()!;
    if (test(element)) return element;
    for (let index = element.children.length - 1; index >= 0; index--) {
      const child = element.children[index]!;
      if (!isText(child)) stack.push(child);
    }
  }
  return null;
}

function firstTime(root: Element): string | null {
  return (
    findFirst(root, (element) => element.tag === 'time' && element.attrs.datetime !== undefined)?.attrs.datetime ?? null
  );
}

function firstHeading(root: Element): string | null {
  const h1 = findFirst(root, (element) => element.tag === 'h1');
  if (h1 === null) return null;
  let text = '';
  const collect = (element: Element): void => {
    for (const child of element.children) {
      if (isText(child)) text += child.text;
      else collect(child);
    }
  };
  collect(h1);
  const title = text.replace(/\s+/g, ' ').trim();
  return title === '' ? null : title;
}
