// What every push does to its records: check and serialise each once, append them to every
// output, and settle all the outputs' writes before passing a failure on.

import type { PageContent } from '../content/page-content.js';
import type { OutputWriter } from './output-writer.js';
import { recordContentOf, withContent } from './record-content.js';
import { type DatasetRecord, recordJson } from './record-text.js';

/** The content of the page that pushed the records (null: not HTML), for outputs with `content`. */
export interface PushedContent {
  readonly page: PageContent | null;
}

/** Records serialised into one append at most, for a large array pushed at once. */
export const RECORDS_PER_APPEND = 1000;

/** The records of a push, each checked and serialised once (ERR_INVALID_INPUT if one is not a plain JSON object). */
export function validate(input: DatasetRecord | readonly DatasetRecord[]): {
  records: readonly DatasetRecord[];
  jsons: string[];
} {
  const records = Array.isArray(input) ? (input as readonly DatasetRecord[]) : [input as DatasetRecord];
  const jsons = records.map((record) => recordJson(record));
  return { records, jsons };
}

/**
 * Appends the records to every writer (with the page's content added where an output asks for
 * it and a page pushed them); settles them all, then throws the first failure.
 */
export async function writeAll(
  writers: readonly OutputWriter[],
  records: readonly DatasetRecord[],
  jsons: readonly string[],
  content?: PushedContent,
): Promise<void> {
  await settleAll(
    writers.map((writer) => {
      const form = writer.contentForm;
      if (form === undefined || content === undefined)
        return writer.append(writer.textOf(records, jsons), records.length);
      const added = withContent(records, recordContentOf(content.page, form));
      return writer.append(writer.textOf(added, added.map(recordJson)), records.length);
    }),
  );
}

export async function settleAll(promises: readonly Promise<void>[]): Promise<void> {
  const results = await Promise.allSettled(promises);
  const failed = results.find((result): result is PromiseRejectedResult => result.status === 'rejected');
  if (failed !== undefined) throw failed.reason;
}
