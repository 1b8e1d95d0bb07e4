// One parse per page, shared: the crawler's extraction and the user's handler read the same `$`.

import { load, type CheerioAPI } from 'cheerio';
import { capHtmlNesting } from './nesting-cap.js';

/**
 * Returns a function that parses `html` with cheerio on its first call and returns the same
 * document on every later call: a page that nobody reads is never parsed, and a page read by
 * both the extractor and the handler is parsed once. Elements nested deeper than 512 are
 * flattened first, as browsers do (see nesting-cap.ts): parsing time stays linear.
 */
export function createLazyDocument(html: string): () => CheerioAPI {
  let document: CheerioAPI | undefined;
  return () => (document ??= load(capHtmlNesting(html)));
}
