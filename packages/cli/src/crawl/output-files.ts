// `--out` files: one record per fetched page, as JSON lines, or as CSV when the file name ends
// in `.csv` (RFC 4180: a header row, fields quoted when they hold a comma, a quote or a line
// break, quotes doubled). Files are opened before the crawl starts, so a bad path is a usage
// error and not a lost crawl, and are closed however the crawl ends.
//
// Nothing is lost or written twice:
// - a record is written before its page counts as done (the handler awaits `write`), and a
//   write that fails (disk full, I/O error) rejects with ERR_OUTPUT, which stops the crawl;
// - a resumed crawl appends: it reads what the file holds (written-records.ts), cuts half a
//   record left by a kill, and does not write again a page whose record is already there;
// - a fresh crawl does not replace a file that holds records unless told to (`--overwrite`).

import { accessSync, constants, statSync, truncateSync } from 'node:fs';
import { dirname } from 'node:path';
import { PolitelyError } from '@politely/core';
import { CliError } from '../cli-error.js';
import { quoteInput } from '../input/quote-input.js';
import { AppendFile } from './append-file.js';
import { PAGE_RECORD_FIELDS, type PageRecord } from './page-record.js';
import { readWrittenRecords } from './written-records.js';

export interface OutputFile {
  readonly path: string;
  readonly format: 'jsonl' | 'csv';
  /** Records written by this run. */
  readonly records: number;
  /** Records the file held from earlier runs of the crawl (resumed into it). */
  readonly earlier: number;
}

export interface PageOutputs {
  readonly files: readonly OutputFile[];
  /**
   * Writes the record to every file that does not hold it yet; resolves once it is in them all,
   * rejects with ERR_OUTPUT naming the file when it cannot be written.
   */
  write(record: PageRecord): Promise<void>;
  /** Waits for every write and closes every file; rejects with the first write error. */
  close(): Promise<void>;
}

export interface OpenPageOutputsOptions {
  /** The crawl resumes (its store held it): files are appended to. */
  readonly resume: boolean;
  /** A fresh crawl may replace files that hold records. */
  readonly overwrite: boolean;
  /** Says one line to the user (a half-written record cut, records found). */
  readonly notice: (line: string) => void;
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
    throw new CliError(`crawl: ${flag} ${quoteInput(path)}: cannot write there (${(error as NodeJS.ErrnoException).code ?? 'error'})`);
  }
}

interface OpenedOutput {
  readonly path: string;
  readonly format: 'jsonl' | 'csv';
  readonly file: AppendFile;
  /** finalUrl of the records the file held when it was opened. */
  readonly written: ReadonlySet<string>;
  readonly earlier: number;
  records: number;
}

/** Opens every `--out` file (see the top of this file for the rules). */
export async function openPageOutputs(paths: readonly string[], options: OpenPageOutputsOptions): Promise<PageOutputs> {
  const files: OpenedOutput[] = [];
  try {
    for (const path of paths) files.push(await openOutput(path, options));
  } catch (error) {
    await Promise.all(files.map((output) => output.file.close().catch(() => {})));
    throw error;
  }
  return {
    get files() {
      return files.map(({ path, format, records, earlier }) => ({ path, format, records, earlier }));
    },
    async write(record) {
      const writes = files
        .filter((output) => !output.written.has(record.finalUrl))
        .map(async (output) => {
          await output.file.append(output.format === 'csv' ? csvRow(PAGE_RECORD_FIELDS.map((field) => record[field])) : `${JSON.stringify(record)}\n`);
          output.records++;
        });
      // Every file's write settles before the first failure is passed on: none is left half done.
      const results = await Promise.allSettled(writes);
      const failed = results.find((result): result is PromiseRejectedResult => result.status === 'rejected');
      if (failed !== undefined) throw failed.reason;
    },
    async close() {
      const results = await Promise.allSettled(files.map((output) => output.file.close()));
      const failed = results.find((result): result is PromiseRejectedResult => result.status === 'rejected');
      if (failed !== undefined) throw failed.reason;
    },
  };
}

async function openOutput(path: string, options: OpenPageOutputsOptions): Promise<OpenedOutput> {
  const format = formatOf(path);
  const flag = `crawl: --out ${quoteInput(path)}`;
  const size = regularFileSize(path, flag);
  let written: ReadonlySet<string> = new Set();
  let earlier = 0;
  let mode: 'append' | 'truncate' = 'append';
  if (size !== undefined && size > 0) {
    if (options.resume) {
      const found = await readWrittenRecords(path, format).catch((error: unknown) => {
        throw new CliError(`${flag}: cannot read it to resume (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`);
      });
      if (format === 'csv' && found.header !== undefined && found.header.join(',') !== PAGE_RECORD_FIELDS.join(',')) {
        throw new CliError(`${flag}: its header is not politely's page record columns; resume into the file the crawl wrote, or start a fresh crawl with --overwrite`);
      }
      if (found.wholeBytes < found.totalBytes) {
        truncateSync(path, found.wholeBytes);
        options.notice(`${quoteInput(path)}: cut ${found.totalBytes - found.wholeBytes} bytes of a record left half-written by an interrupted run`);
      }
      written = found.keys;
      earlier = found.records;
      // A CSV file cut back to nothing (half a header) gets its header again below.
      if (format === 'csv' && found.header === undefined) mode = 'truncate';
    } else if (options.overwrite) {
      mode = 'truncate';
    } else {
      throw new CliError(`${flag}: the file already holds records: pass --overwrite to replace it, or resume the crawl that wrote it (the same --store)`);
    }
  }
  let file: AppendFile;
  try {
    file = await AppendFile.open(path, { mode });
  } catch (error) {
    throw new CliError(`${flag}: cannot write there (${codeOf(error)})`);
  }
  const empty = mode === 'truncate' || size === undefined || size === 0;
  if (format === 'csv' && empty) {
    await file.append(csvRow(PAGE_RECORD_FIELDS)).catch(async (error: unknown) => {
      await file.close().catch(() => {});
      throw new CliError(`${flag}: cannot write there (${codeOf(error)})`);
    });
  }
  return { path, format, file, written, earlier, records: 0 };
}

/** The size of a regular file at `path`; undefined when there is none, or it is a device or a pipe. */
function regularFileSize(path: string, flag: string): number | undefined {
  try {
    const stat = statSync(path);
    return stat.isFile() ? stat.size : undefined;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new CliError(`${flag}: cannot write there (${codeOf(error)})`);
  }
}

function codeOf(error: unknown): string {
  const cause = error instanceof PolitelyError ? error.cause : error;
  return (cause as NodeJS.ErrnoException | undefined)?.code ?? (error as Error).message;
}
