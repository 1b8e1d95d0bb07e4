// What every push does to its records: check and serialise each once, append them to every
// output, and settle all the outputs' writes before passing a failure on.

import type { OutputWriter } from './output-writer.js';
import { type DatasetRecord, recordJson } from './record-text.js';

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

/** Appends the records to every writer; settles them all, then throws the first failure. */
export async function writeAll(
  writers: readonly OutputWriter[],
  records: readonly DatasetRecord[],
  jsons: readonly string[],
): Promise<void> {
  await settleAll(writers.map((writer) => writer.append(writer.textOf(records, jsons), records.length)));
}

export async function settleAll(promises: readonly Promise<void>[]): Promise<void> {
  const results = await Promise.allSettled(promises);
  const failed = results.find((result): result is PromiseRejectedResult => result.status === 'rejected');
  if (failed !== undefined) throw failed.reason;
}
