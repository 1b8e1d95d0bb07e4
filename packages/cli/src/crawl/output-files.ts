// `--out` files: one record per fetched page, as JSON lines, or as CSV when the file name ends
// in `.csv` (RFC 4180, the page record's fields as columns). The crawler writes them (its
// `outputs`, the same dataset writer `page.push` uses); the command checks them first, so that a
// bad path or a file left by another crawl is a usage error and not a lost crawl.
//
// Nothing is lost or written twice (see the crawler's dataset): a page's record is in every file
// before its page counts as done, a write that fails stops the crawl (ERR_OUTPUT, exit 74), and a
// resumed crawl appends, cutting half a record left by a kill and skipping pages already written
// (each file's `<file>.ledger` says which). A fresh crawl does not replace a file that holds
// records unless told to (`--overwrite`).

import { accessSync, constants, statSync } from 'node:fs';
import { dirname } from 'node:path';
import type { OutputOptions, OutputStatus, WarcOutputStatus } from '@politely/crawler';
import { CliError } from '../cli-error.js';
import { quoteInput } from '../input/quote-input.js';
import type { ContentFormat } from './crawl-options.js';
import { contentFields, PAGE_RECORD_FIELDS } from './page-record.js';

export type OutputFile = OutputStatus | WarcOutputStatus;

export interface CheckOutputsOptions {
  /** The crawl resumes (its store held it): files are appended to. */
  readonly resume: boolean;
  /** A fresh crawl may replace files that hold records. */
  readonly overwrite: boolean;
}

/** `--out`'s settings beside those of every output. */
export interface PageOutputsOptions extends CheckOutputsOptions {
  /** `--content`: the records carry the page's content too (more CSV columns). */
  readonly content?: ContentFormat | undefined;
}

/** Checks that `path` can be written (its folder exists and is writable), as a usage error. */
export function checkWritable(path: string, flag: string): void {
  try {
    accessSync(dirname(path) || '.', constants.W_OK);
  } catch (error) {
    throw new CliError(
      `crawl: ${flag} ${quoteInput(path)}: cannot write there (${(error as NodeJS.ErrnoException).code ?? 'error'})`,
    );
  }
}

/** The crawler's `outputs` for the `--out` files, each checked (see the top of this file). */
export function pageOutputs(paths: readonly string[], options: PageOutputsOptions): OutputOptions[] {
  const fields =
    options.content === undefined ? PAGE_RECORD_FIELDS : [...PAGE_RECORD_FIELDS, ...contentFields(options.content)];
  return paths.map((path) => {
    checkWritable(path, '--out');
    const flag = `crawl: --out ${quoteInput(path)}`;
    let size: number | undefined;
    try {
      const stat = statSync(path);
      if (stat.isDirectory()) throw Object.assign(new Error('a directory'), { code: 'EISDIR' });
      size = stat.isFile() ? stat.size : undefined;
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code !== 'ENOENT') throw new CliError(`${flag}: cannot write there (${code ?? (error as Error).message})`);
    }
    if (size !== undefined && size > 0 && !options.resume && !options.overwrite) {
      throw new CliError(
        `${flag}: the file already holds records: pass --overwrite to replace it, or resume the crawl that wrote it (the same --store)`,
      );
    }
    const csv = path.toLowerCase().endsWith('.csv');
    return {
      path,
      format: csv ? 'csv' : 'jsonl',
      ...(csv ? { fields } : {}),
      overwrite: options.overwrite,
    };
  });
}

export interface WarcOutputFlags extends CheckOutputsOptions {
  readonly cdx: boolean;
  readonly maxFileBytes: number | undefined;
}

/**
 * The crawler's WARC output for `--warc FILE`, checked: its folder writable, and a fresh crawl
 * does not replace an archive (its ledger, `FILE.ledger`, is there) unless told to.
 */
export function warcOutput(path: string, flags: WarcOutputFlags): OutputOptions {
  checkWritable(path, '--warc');
  let ledger = false;
  try {
    ledger = statSync(`${path}.ledger`).size > 0;
  } catch {
    // No ledger: nothing written yet.
  }
  if (ledger && !flags.resume && !flags.overwrite) {
    throw new CliError(
      `crawl: --warc ${quoteInput(path)}: an archive is already there (${quoteInput(`${path}.ledger`)}): pass --overwrite to replace it, or resume the crawl that wrote it (the same --store)`,
    );
  }
  return {
    path,
    format: 'warc',
    cdx: flags.cdx,
    overwrite: flags.overwrite,
    ...(flags.maxFileBytes === undefined ? {} : { maxFileBytes: flags.maxFileBytes }),
  };
}
