// `mergeOutputs`: the outputs of several workers of one crawl (each worker writes files of its
// own: output-lock.ts refuses two on one path) as one file, each page's records once.
//
// Why a page can be in two workers' files: a worker commits a page's records in its ledger before
// the store marks the URL done (dataset.ts). Killed between the two, its URL comes back to the
// queue when its lease expires, another worker fetches the page again, and writes its records
// again, in its own file. The ledgers say which commit is whose page, so the merge keeps a page's
// first commit (in the order the inputs are given) and drops the others. Records past an input's
// last commit (a worker killed mid-page: the page was not done, and another worker wrote it
// whole) are dropped too. Records pushed outside a handler belong to no page: all are kept.
//
// The merged file gets a ledger of its own (the same format), so that it can be merged again.
// Memory: the URLs of the pages merged (and one input's commits at a time).

import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { resolve } from 'node:path';
import { PolitelyError } from '@politely/core';
import { optionChecks } from '@politely/core/internal';
import { AppendFile } from '../files/append-file.js';
import { scanLines } from '../files/line-scan.js';
import { OutputLock } from '../files/output-lock.js';
import { LEDGER_SUFFIX, type LedgerCommit, ledgerEntryLine, ledgerHeaderLine, readLedger } from './ledger.js';
import { readCsvHeader } from './read-records.js';

/** Options of `mergeOutputs`: the dataset files to merge and the file to write. */
export interface MergeOutputsOptions {
  /**
   * The outputs to merge (JSON lines or CSV files a crawl wrote, each with its `<file>.ledger`),
   * all of one format. Where two hold a page's records, those of the first given are kept.
   */
  readonly inputs: readonly string[];
  /** The merged file, with its ledger beside it (`<output>.ledger`). Not one of the inputs. */
  readonly output: string;
  /** Replace `output` if it holds records already. @default false */
  readonly overwrite?: boolean;
}

/** What `mergeOutputs` wrote and left out. */
export interface MergeOutputsResult {
  readonly output: string;
  readonly format: 'jsonl' | 'csv';
  /** Records in the merged file. */
  readonly records: number;
  /** Pages whose records it holds. */
  readonly pages: number;
  /** Records left out: those of a page that an earlier input holds already. */
  readonly duplicateRecords: number;
  /** Pages left out of an input, for that reason (a page written by two workers counts once here). */
  readonly duplicatePages: number;
  /** Bytes past the last commit of the inputs (records of pages that were not done), left out. */
  readonly uncommittedBytes: number;
}

const MERGE_OPTION_KEYS: Record<keyof MergeOutputsOptions, true> = { inputs: true, output: true, overwrite: true };

interface Input {
  readonly path: string;
  readonly format: 'jsonl' | 'csv';
  readonly commits: readonly LedgerCommit[];
  /** Bytes at the start that are no record: a CSV file's header row. */
  readonly headerBytes: number;
  readonly header: readonly string[] | undefined;
  readonly uncommittedBytes: number;
}

/**
 * Merges the outputs of a crawl's workers into one file, each page's records once (see the
 * top of this file).
 * @throws PolitelyError `ERR_INVALID_OPTION` for invalid options, `ERR_INVALID_INPUT` for an input
 *   that is not a crawl's output with its ledger (or of another format), `ERR_OUTPUT` when the
 *   output cannot be written or holds records (without `overwrite`).
 */
export async function mergeOutputs(options: MergeOutputsOptions): Promise<MergeOutputsResult> {
  const { inputs: paths, output, overwrite } = checkMergeOptions(options);
  const inputs: Input[] = [];
  for (const path of paths) inputs.push(await readInput(path));
  const [first] = inputs as [Input, ...Input[]];
  for (const input of inputs) checkSameShape(first, input);
  const lock = await OutputLock.take(output);
  try {
    await refuseFilledOutput(output, overwrite);
    return await writeMerged(inputs, output);
  } finally {
    await lock.release();
  }
}

function checkMergeOptions(options: MergeOutputsOptions): Required<MergeOutputsOptions> {
  const check = optionChecks('mergeOutputs');
  if (typeof options !== 'object' || options === null) check.fail('options must be an object');
  check.knownKeys(options, MERGE_OPTION_KEYS);
  const { inputs, output } = options;
  if (!Array.isArray(inputs) || inputs.length === 0 || inputs.some((path) => typeof path !== 'string' || path === ''))
    check.fail('inputs must be a non-empty list of file paths');
  if (typeof output !== 'string' || output === '') check.fail('output must be a file path');
  if (new Set(inputs.map((path) => resolve(path))).size !== inputs.length)
    check.fail(`inputs name one file twice: ${inputs.join(', ')}`);
  if (inputs.some((path) => resolve(path) === resolve(output)))
    check.fail(`output ${output} is one of the inputs: merge into a new file`);
  return { inputs, output, overwrite: check.flag('overwrite', options.overwrite, false) };
}

async function readInput(path: string): Promise<Input> {
  const ledgerPath = path + LEDGER_SUFFIX;
  const size = await stat(path).then(
    (info) => info.size,
    (error: NodeJS.ErrnoException) => {
      throw new PolitelyError(
        'ERR_INVALID_INPUT',
        `mergeOutputs: cannot read ${path} (${error.code ?? error.message})`,
      );
    },
  );
  const commits: LedgerCommit[] = [];
  const ledger = await readLedger(ledgerPath, (commit) => commits.push(commit)).catch(
    (error: NodeJS.ErrnoException) => {
      const why = error.code === 'ENOENT' ? 'is missing' : `cannot be read (${error.code ?? error.message})`;
      throw new PolitelyError(
        'ERR_INVALID_INPUT',
        `mergeOutputs: the ledger of ${path} (${ledgerPath}) ${why}: only a crawl's output with its ledger says whose records are whose`,
      );
    },
  );
  if (ledger === undefined)
    throw new PolitelyError('ERR_INVALID_INPUT', `mergeOutputs: ${ledgerPath} is not a politely dataset ledger`);
  if (ledger.end > size)
    throw new PolitelyError(
      'ERR_INVALID_INPUT',
      `mergeOutputs: ${path} holds ${size} bytes, fewer than the ${ledger.end} its ledger records: was it changed?`,
    );
  let headerBytes = 0;
  let header: string[] | undefined;
  if (ledger.format === 'csv' && ledger.end > 0) {
    header = await readCsvHeader(path);
    headerBytes = (
      await scanLines(
        path,
        true,
        () => {},
        () => true,
      )
    ).wholeBytes;
  }
  return { path, format: ledger.format, commits, headerBytes, header, uncommittedBytes: size - ledger.end };
}

function checkSameShape(first: Input, input: Input): void {
  if (input.format !== first.format)
    throw new PolitelyError(
      'ERR_INVALID_INPUT',
      `mergeOutputs: ${input.path} holds ${input.format}, ${first.path} ${first.format}: merge files of one format`,
    );
  const columns = (i: Input): string => i.header?.join(',') ?? '';
  if (input.header !== undefined && first.header !== undefined && columns(input) !== columns(first))
    throw new PolitelyError(
      'ERR_INVALID_INPUT',
      `mergeOutputs: ${input.path} has the columns ${columns(input)}, ${first.path} ${columns(first)}: merge files of one header row`,
    );
}

async function refuseFilledOutput(output: string, overwrite: boolean): Promise<void> {
  const size = await stat(output).then(
    (info) => info.size,
    () => 0,
  );
  if (size > 0 && !overwrite)
    throw new PolitelyError(
      'ERR_OUTPUT',
      `could not write ${output}: it already holds records: set overwrite: true to replace them, or merge into a new file`,
    );
}

/** Consecutive commits of one input that are kept: copied in one read. */
interface Run {
  readonly start: number;
  end: number;
  readonly commits: LedgerCommit[];
}

async function writeMerged(inputs: readonly Input[], output: string): Promise<MergeOutputsResult> {
  const format = inputs[0]!.format;
  const file = await AppendFile.open(output, { mode: 'truncate' });
  let ledger: AppendFile | undefined;
  const seen = new Set<string>();
  const tally = { records: 0, duplicateRecords: 0, duplicatePages: 0 };
  try {
    ledger = await AppendFile.open(output + LEDGER_SUFFIX, { mode: 'truncate' });
    await ledger.append(ledgerHeaderLine(format));
    const withHeader = inputs.find((input) => input.headerBytes > 0);
    if (withHeader !== undefined) {
      await copyRange(withHeader.path, 0, withHeader.headerBytes, file);
      await ledger.append(ledgerEntryLine(file.size, 0, undefined));
    }
    for (const input of inputs) {
      let run: Run | undefined;
      let start = 0;
      for (const commit of input.commits) {
        const from = Math.max(start, input.headerBytes);
        start = commit.end;
        if (commit.page !== undefined && seen.has(commit.page)) {
          tally.duplicateRecords += commit.records;
          tally.duplicatePages++;
          continue;
        }
        if (commit.page !== undefined) seen.add(commit.page);
        tally.records += commit.records;
        if (run !== undefined && run.end === from) {
          run.end = commit.end;
          run.commits.push(commit);
          continue;
        }
        if (run !== undefined) await copyRun(input.path, run, file, ledger);
        run = { start: from, end: commit.end, commits: [commit] };
      }
      if (run !== undefined) await copyRun(input.path, run, file, ledger);
    }
  } finally {
    await Promise.allSettled([file.close(), ledger?.close()]);
  }
  return {
    output,
    format,
    records: tally.records,
    pages: seen.size,
    duplicateRecords: tally.duplicateRecords,
    duplicatePages: tally.duplicatePages,
    uncommittedBytes: inputs.reduce((sum, input) => sum + input.uncommittedBytes, 0),
  };
}

/** Copies a run of commits, then commits them in the merged file's ledger (after their records are in). */
async function copyRun(path: string, run: Run, file: AppendFile, ledger: AppendFile): Promise<void> {
  const base = file.size - run.start;
  await copyRange(path, run.start, run.end, file);
  await ledger.append(
    run.commits.map((commit) => ledgerEntryLine(base + commit.end, commit.records, commit.page)).join(''),
  );
}

async function copyRange(path: string, start: number, end: number, file: AppendFile): Promise<void> {
  if (end <= start) return;
  for await (const chunk of createReadStream(path, { start, end: end - 1 }) as AsyncIterable<Buffer>)
    await file.append(chunk);
}
