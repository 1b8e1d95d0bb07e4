// What an output file already holds, read when a crawl resumes into it (streaming, any size):
// how many whole records, where the last whole one ends, and a CSV file's header row. A run
// killed mid-write can leave half a record at the end; everything past the last whole one is
// cut before appending.

import { scanLines } from '../files/line-scan.js';
import { parseCsvRecord } from './record-text.js';

export interface RecordsRead {
  /** Whole records (a CSV header row not counted). */
  readonly records: number;
  /** Where the last whole record ends: the length the file is cut back to. */
  readonly wholeBytes: number;
  /** The file's length as read. */
  readonly totalBytes: number;
  /** A CSV file's header row; undefined for JSON lines or an empty file. */
  readonly header: readonly string[] | undefined;
}

/** Reads the records of an existing output file in `format`. */
export async function readRecords(path: string, format: 'jsonl' | 'csv'): Promise<RecordsRead> {
  let records = 0;
  let header: string[] | undefined;
  const lines = await scanLines(path, format === 'csv', (line) => {
    if (format === 'csv' && header === undefined) header = parseCsvRecord(line.replace(/\r?\n$/, ''));
    else records++;
  });
  return { records, header, ...lines };
}

/** The header row of a CSV file (its first record), or undefined when it has no whole one. */
export async function readCsvHeader(path: string): Promise<string[] | undefined> {
  let header: string[] | undefined;
  await scanLines(
    path,
    true,
    (line) => {
      header ??= parseCsvRecord(line.replace(/\r?\n$/, ''));
    },
    () => header !== undefined,
  );
  return header;
}
