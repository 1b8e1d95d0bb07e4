// The name of a crawl in a shared store (`crawlId`): one rule for every store that names crawls
// and for the CLI's `--crawl-id`. It becomes part of key names and a Redis Cluster hash tag, so
// it holds no braces, spaces or control characters, and is short.

/** What a crawl id may be, for messages: said the same way by the library and the CLI. */
export const CRAWL_ID_RULE = "1 to 100 letters, digits, '.', ':', '_' or '-'";

const CRAWL_ID = /^[\w.:-]{1,100}$/;

/** Whether `value` is a crawl id: 1 to 100 ASCII letters, digits, `.`, `:`, `_` or `-`. */
export function isCrawlId(value: unknown): value is string {
  return typeof value === 'string' && CRAWL_ID.test(value);
}
