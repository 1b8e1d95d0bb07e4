// `--crawl-id NAME`: the name of a crawl in a Redis store, checked by the stores' own rule
// (@politely/frontier), with one wording for every command that takes it.

import { CRAWL_ID_RULE, isCrawlId } from '@politely/frontier/internal';
import { CliError } from '../cli-error.js';
import { quoteInput } from './quote-input.js';

/**
 * The `--crawl-id` a Redis store needs, checked. `command` starts the message (`crawl`,
 * `control`, `seeds add`).
 * @throws CliError when it is missing or breaks the rule
 */
export function crawlIdOption(command: string, value: string | undefined): string {
  if (value === undefined) throw new CliError(`${command}: --store redis://… needs --crawl-id NAME (${CRAWL_ID_RULE})`);
  if (!isCrawlId(value))
    throw new CliError(`${command}: --crawl-id must be ${CRAWL_ID_RULE}, got ${quoteInput(value)}`);
  return value;
}
