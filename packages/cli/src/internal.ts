// @politely/cli/internal: the `crawl` command's flag table and parser, shared with politely's own
// tests. Not part of the public API: no stability promise, may change in any release.

export { CliError } from './cli-error.js';
export {
  HELP,
  NUMERIC as CRAWL_NUMERIC_FLAGS,
  OPTIONS as CRAWL_OPTIONS,
  parseCrawlOptions,
} from './crawl/crawl-options.js';
