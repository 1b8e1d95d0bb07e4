// The page's DOM for the user's handler (`page.$`): built on first read, from the text the crawler
// already decoded, and never when nobody reads it (the crawler's own extraction is a streaming
// pass, html-scan.ts, that builds no tree).

import { createRequire } from 'node:module';
import type { CheerioAPI } from 'cheerio';
import { capHtmlNesting } from './nesting-cap.js';

type Cheerio = typeof import('cheerio');
let cheerio: Cheerio | undefined;

/**
 * cheerio and what it brings (parse5, css-select, entities) are loaded on the first DOM a handler
 * reads, not when the crawler is imported: a crawl that never reads `page.$` does not carry them
 * (about 7 MB of live heap, which V8 multiplies into its heap limit). Loaded with `require`
 * because `page.$` is synchronous; cheerio ships a CommonJS build.
 */
function loadCheerio(): Cheerio {
  cheerio ??= createRequire(import.meta.url)('cheerio') as Cheerio;
  return cheerio;
}

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
      document = loadCheerio().load(capHtmlNesting(html));
    }
    return document;
  };
}

/** How many documents this process has built so far (for tests; not exported by the package). */
export function countDocumentsBuilt(): number {
  return documentsBuilt;
}
