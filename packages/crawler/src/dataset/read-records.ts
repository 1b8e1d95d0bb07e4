// What an output file already holds, read when a crawl resumes into it (streaming, any size):
// how many whole records, where the last whole one ends, and a CSV file's header row. A run
// killed mid-write can leave half a record at the end; everything past the last whole one is
// cut before appending.

import { createReadStream } from 'node:fs';
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

const LF = 0x0a;
const QUOTE = 0x22;

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

export interface LinesScanned {
  /** Where the last whole line ends. */
  readonly wholeBytes: number;
  /** The bytes read. */
  readonly totalBytes: number;
}

/**
 * Calls `onLine` with each whole line of `path` (its line break included), streaming; with
 * `csvQuotes`, a line break inside quotes does not end a line. Stops early once `enough()`.
 */
export async function scanLines(path: string, csvQuotes: boolean, onLine: (line: string) => void, enough: () => boolean = () => false): Promise<LinesScanned> {
  let wholeBytes = 0;
  let totalBytes = 0;
  let inQuotes = false;
  let partial: Buffer[] = [];
  const stream = createReadStream(path);
  try {
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      let start = 0;
      for (let i = 0; i < chunk.length; i++) {
        const byte = chunk[i];
        if (csvQuotes && byte === QUOTE) inQuotes = !inQuotes;
        else if (byte === LF && !inQuotes) {
          partial.push(chunk.subarray(start, i + 1));
          const bytes = partial.length === 1 ? partial[0]! : Buffer.concat(partial);
          partial = [];
          start = i + 1;
          wholeBytes = totalBytes + start;
          onLine(bytes.toString('utf8'));
          if (enough()) return { wholeBytes, totalBytes: totalBytes + chunk.length };
        }
      }
      if (start < chunk.length) partial.push(chunk.subarray(start));
      totalBytes += chunk.length;
    }
  } finally {
    stream.destroy();
  }
  return { wholeBytes, totalBytes };
}
