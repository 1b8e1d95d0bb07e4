// The page's JSON-LD: every script's data (a top-level array read as its items, @graph kept as
// written), and the fields of its first article-like node (Article, NewsArticle, BlogPosting, a
// forum or social posting): headline, authors, dates, publisher.

const ARTICLE_TYPE = /(?:Article|BlogPosting|Posting)$/;
const MAX_NODES = 10_000;

export interface ArticleFacts {
  readonly headline: string | null;
  readonly authors: string[];
  readonly published: string | null;
  readonly modified: string | null;
  readonly publisher: string | null;
  readonly description: string | null;
}

/** Parses each script's text; a script that is not JSON is skipped. */
export function parseJsonLd(scripts: readonly string[]): unknown[] {
  const data: unknown[] = [];
  for (const script of scripts) {
    try {
      const value: unknown = JSON.parse(script.trim().replace(/^<!--|-->$/g, ''));
      if (Array.isArray(value)) data.push(...value);
      else data.push(value);
    } catch {
      // Not JSON: sites ship broken JSON-LD; the rest of the page still counts.
    }
  }
  return data;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function typesOf(node: Record<string, unknown>): string[] {
  const type = node['@type'];
  if (typeof type === 'string') return [type];
  return Array.isArray(type) ? type.filter((item): item is string => typeof item === 'string') : [];
}

/** The first article-like node, searched breadth-first through arrays and @graph. */
function findArticle(data: readonly unknown[]): Record<string, unknown> | null {
  const queue: unknown[] = [...data];
  for (let index = 0; index < queue.length && index < MAX_NODES; index++) {
    const node = queue[index];
    if (Array.isArray(node)) queue.push(...node);
    else if (isRecord(node)) {
      if (typesOf(node).some((type) => ARTICLE_TYPE.test(type))) return node;
      if (node['@graph'] !== undefined) queue.push(node['@graph']);
      if (node.mainEntity !== undefined) queue.push(node.mainEntity);
    }
  }
  return null;
}

function text(value: unknown): string | null {
  if (typeof value === 'string') return value.trim() === '' ? null : value.trim();
  if (Array.isArray(value)) return text(value[0]);
  if (isRecord(value)) return text(value.name ?? value['@value']);
  return null;
}

function names(value: unknown): string[] {
  const list = Array.isArray(value) ? value : [value];
  const found: string[] = [];
  for (const item of list) {
    const name = typeof item === 'string' ? item.trim() : isRecord(item) ? text(item.name) : null;
    if (name !== null && name !== '' && !found.includes(name)) found.push(name);
  }
  return found;
}

export function articleFacts(data: readonly unknown[]): ArticleFacts | null {
  const article = findArticle(data);
  if (article === null) return null;
  return {
    headline: text(article.headline) ?? text(article.name),
    authors: names(article.author ?? article.creator),
    published: text(article.datePublished) ?? text(article.dateCreated),
    modified: text(article.dateModified),
    publisher: isRecord(article.publisher) ? text(article.publisher.name) : text(article.publisher),
    description: text(article.description),
  };
}
