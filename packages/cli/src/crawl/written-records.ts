// What an output file already holds, read when a crawl resumes into it: the key (`finalUrl`)
// of every whole record, and where the last whole record ends. A run killed mid-write can leave
// half a record at the end; everything past the last whole one is cut before appending.
//
// The file is the ledger of what was written: a record whose page was written but whose URL
// the store had not yet marked done (the process died in between) is known by its key here, so
// the resumed crawl fetches the page again but does not write it twice.

import { createReadStream } from 'node:fs';

export interface WrittenRecords {
  /** `finalUrl` of every whole record. */
  readonly keys: Set<string>;
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

/** Reads the records of an existing output file in `format`, streaming (any size). */
export async function readWrittenRecords(path: string, format: 'jsonl' | 'csv'): Promise<WrittenRecords> {
  const reader = createRecordReader(format);
  for await (const chunk of createReadStream(path)) reader.push(chunk as Buffer);
  return reader.result();
}

export interface RecordReader {
  push(chunk: Buffer): void;
  result(): WrittenRecords;
}

/**
 * Splits the bytes of an output file into records as they come (JSON lines end at LF; CSV
 * records end at a line break outside quotes) and keeps each record's key. Pure.
 */
export function createRecordReader(format: 'jsonl' | 'csv'): RecordReader {
  const keys = new Set<string>();
  let records = 0;
  let header: string[] | undefined;
  let keyColumn = -1;
  let wholeBytes = 0;
  let totalBytes = 0;
  let inQuotes = false;
  let partial: Buffer[] = [];

  const take = (record: string): void => {
    if (format === 'jsonl') {
      records++;
      const key = jsonKey(record);
      if (key !== undefined) keys.add(key);
      return;
    }
    const fields = parseCsvRecord(record.replace(/\r?\n$/, ''));
    if (header === undefined) {
      header = fields;
      keyColumn = fields.indexOf('finalUrl');
      return;
    }
    records++;
    const key = keyColumn < 0 ? undefined : fields[keyColumn];
    if (key !== undefined && key !== '') keys.add(key);
  };

  return {
    push(chunk) {
      let start = 0;
      for (let i = 0; i < chunk.length; i++) {
        const byte = chunk[i];
        if (format === 'csv' && byte === QUOTE) inQuotes = !inQuotes;
        else if (byte === LF && !inQuotes) {
          partial.push(chunk.subarray(start, i + 1));
          const bytes = Buffer.concat(partial);
          partial = [];
          start = i + 1;
          wholeBytes = totalBytes + start;
          take(bytes.toString('utf8'));
        }
      }
      if (start < chunk.length) partial.push(chunk.subarray(start));
      totalBytes += chunk.length;
    },
    result() {
      return { keys, records, wholeBytes, totalBytes, header };
    },
  };
}

function jsonKey(line: string): string | undefined {
  try {
    const value = JSON.parse(line) as { finalUrl?: unknown } | null;
    return typeof value?.finalUrl === 'string' ? value.finalUrl : undefined;
  } catch {
    return undefined; // a damaged line in the middle: kept as it is, its page written again
  }
}

/** The fields of one CSV record (RFC 4180: quoted fields, doubled quotes, line breaks inside quotes). */
export function parseCsvRecord(record: string): string[] {
  const fields: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < record.length; i++) {
    const char = record[i];
    if (quoted) {
      if (char === '"' && record[i + 1] === '"') {
        field += '"';
        i++;
      } else if (char === '"') quoted = false;
      else field += char;
    } else if (char === '"') quoted = true;
    else if (char === ',') {
      fields.push(field);
      field = '';
    } else field += char;
  }
  fields.push(field);
  return fields;
}
