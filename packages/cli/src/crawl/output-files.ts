// `--out` files: one record per fetched page, as JSON lines, or as CSV when the file name ends
// in `.csv` (RFC 4180: a header row, fields quoted when they hold a comma, a quote or a line
// break, quotes doubled). Files are opened before the crawl starts, so a bad path is a usage
// error and not a lost crawl, and are flushed and closed however the crawl ends.

import { accessSync, constants, createWriteStream, openSync, type WriteStream } from 'node:fs';
import { dirname } from 'node:path';
import { CliError } from '../cli-error.js';
import { PAGE_RECORD_FIELDS, type PageRecord } from './page-record.js';

export interface OutputFile {
  readonly path: string;
  readonly format: 'jsonl' | 'csv';
  /** Records written so far. */
  readonly records: number;
}

export interface PageOutputs {
  readonly files: readonly OutputFile[];
  /** Writes the record to every file; resolves when they can take more (backpressure). */
  write(record: PageRecord): Promise<void>;
  /** Flushes and closes every file. */
  close(): Promise<void>;
}

/** A CSV field: quoted when it must be, quotes doubled. */
export function csvField(value: string | number | boolean | null): string {
  if (value === null) return '';
  const text = String(value);
  return /[",\r\n]/.test(text) || text !== text.trim() ? `"${text.replace(/"/g, '""')}"` : text;
}

export function csvRow(values: readonly (string | number | boolean | null)[]): string {
  return `${values.map(csvField).join(',')}\r\n`;
}

function formatOf(path: string): 'jsonl' | 'csv' {
  return path.toLowerCase().endsWith('.csv') ? 'csv' : 'jsonl';
}

/** Checks that `path` can be written (its folder exists and is writable), as a usage error. */
export function checkWritable(path: string, flag: string): void {
  try {
    accessSync(dirname(path) || '.', constants.W_OK);
  } catch (error) {
    throw new CliError(`crawl: ${flag} ${path}: cannot write there (${(error as NodeJS.ErrnoException).code ?? 'error'})`);
  }
}

function open(path: string): WriteStream {
  let fd: number;
  try {
    fd = openSync(path, 'w');
  } catch (error) {
    throw new CliError(`crawl: --out ${path}: cannot write there (${(error as NodeJS.ErrnoException).code ?? 'error'})`);
  }
  return createWriteStream('', { fd });
}

/** Resolves when the stream takes writes again, or can no longer (error, closed). */
function drained(stream: WriteStream): Promise<void> {
  return new Promise((resolve) => {
    const done = (): void => {
      stream.off('drain', done).off('error', done).off('close', done);
      resolve();
    };
    stream.on('drain', done).on('error', done).on('close', done);
  });
}

export function openPageOutputs(paths: readonly string[]): PageOutputs {
  const files = paths.map((path) => ({ path, format: formatOf(path), records: 0, stream: open(path), error: undefined as Error | undefined }));
  // A write error (disk full) is kept and reported at close: the crawl itself goes on.
  for (const file of files) file.stream.on('error', (error) => (file.error ??= error));
  for (const file of files) if (file.format === 'csv') file.stream.write(csvRow(PAGE_RECORD_FIELDS));
  return {
    get files() {
      return files.map(({ path, format, records }) => ({ path, format, records }));
    },
    async write(record) {
      const waits: Promise<void>[] = [];
      for (const file of files) {
        const line = file.format === 'csv' ? csvRow(PAGE_RECORD_FIELDS.map((field) => record[field])) : `${JSON.stringify(record)}\n`;
        file.records++;
        if (!file.stream.write(line)) waits.push(drained(file.stream));
      }
      await Promise.all(waits);
    },
    async close() {
      await Promise.all(files.map((file) => new Promise<void>((resolve) => file.stream.end(() => resolve())).then(() => {})));
      const failed = files.find((file) => file.error !== undefined);
      if (failed !== undefined) throw new Error(`could not write ${failed.path}: ${failed.error?.message ?? 'error'}`);
    },
  };
}
