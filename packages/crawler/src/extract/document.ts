// The page's DOM for the user's handler (`page.$`): built on first read, from the text the crawler
// already decoded, and never when nobody reads it (the crawler's own extraction is a streaming
// pass, html-scan.ts, that builds no tree).

import { type CheerioAPI, load } from 'cheerio';
import { capHtmlNesting } from './nesting-cap.js';

let documentsBuilt = 0;

/**
 * Returns a function that parses `html` with cheerio on its first call and returns the same
 * document on every later call. Elements nested deeper than 512 are flattened first, as browsers
 * do (see nesting-cap.ts): parsing time stays linear.
 */
export function createLazyDocument(html: string): () => CheerioAPI {
  let document: CheerioAPI | undefined;
  return () => {
    if (document === undefined) {
      documentsBuilt++;
      document = load(capHtmlNesting(html));
    }
    return document;
  };
}

/** How many documents this process has built so far (for tests; not exported by the package). */
export function countDocumentsBuilt(): number {
  return documentsBuilt;
}
