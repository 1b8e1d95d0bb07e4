// What an output with `content` adds to each record a page pushes: the page's content in the
// output's form, with its metadata and rights. Pure: a page's content in, records out.

import type { PageContent } from '../content/page-content.js';
import type { DatasetRecord } from './record-text.js';

/** The `content` field an output adds: null for a page that is not HTML. */
export type RecordContent = Readonly<Record<string, unknown>> | null;

/** The page's content as an output with `content: form` writes it. */
export function recordContentOf(content: PageContent | null, form: 'markdown' | 'text'): RecordContent {
  if (content === null) return null;
  const { title, authors, published, modified, lang, canonicalUrl, description, siteName } = content;
  return {
    title,
    [form]: content[form],
    authors,
    published,
    modified,
    lang,
    canonicalUrl,
    description,
    siteName,
    usage: content.usage,
    usageSources: content.usageSources,
    robots: content.robots,
  };
}

/** The records with the `content` field added; a record's own `content` key is kept. */
export function withContent(records: readonly DatasetRecord[], content: RecordContent): DatasetRecord[] {
  return records.map((record) => (Object.hasOwn(record, 'content') ? record : { ...record, content }));
}
