// Which errors end a crawl. A page that fails is a per-URL outcome (reported, counted, the crawl
// goes on); a failure of what keeps the crawl's results or its state is not: a record that
// cannot be written, or a store that lost the frontier, would turn every later page into a loss.
// Such an error stops the crawl at once; the URLs not done stay in the store.

import { PolitelyError } from '@politely/core';

const FATAL_CODES: ReadonlySet<string> = new Set(['ERR_OUTPUT', 'ERR_STORE', 'ERR_STORE_IN_USE']);

/**
 * Whether an error stops the whole crawl rather than one URL: a `PolitelyError` with code
 * `ERR_OUTPUT` (an output could not be written), `ERR_STORE` (the frontier store failed or lost
 * the crawl's state) or `ERR_STORE_IN_USE`. Throw one from a handler to stop the crawl with the
 * page's URL kept in the store.
 */
export function isFatalCrawlError(error: unknown): error is PolitelyError {
  return error instanceof PolitelyError && FATAL_CODES.has(error.code);
}
