// One output of a dataset: the file (appended to), its ledger (ledger.ts), its columns if CSV.
// Opening decides what a crawl does with a file that is already there:
// - a fresh crawl empties it when `overwrite` says so, and refuses it when it holds records;
// - a resumed crawl appends: it cuts whatever lies past the last commit of its ledger (half a
//   record, records of a page not done) and knows the pages already in the file. A file without
//   its ledger (copied, or written by hand) is taken as it is, its last whole record the end.
// A device or a pipe (`/dev/stdout`) is only written to: no ledger, nothing cut or read.

import { stat } from 'node:fs/promises';
import { PolitelyError } from '@politely/core';
import { AppendFile, outputError } from '../files/append-file.js';
import { OutputLock } from '../files/output-lock.js';
import { LEDGER_SUFFIX, ledgerEntryLine, ledgerHeaderLine, readLedger } from './ledger.js';
import type { ResolvedOutput } from './output-options.js';
import { readCsvHeader, readRecords } from './read-records.js';
import { columnsOf, csvHeader, csvRecordRow } from './record-text.js';

/** What became of one output (`crawler.outputs()`). */
export interface OutputStatus {
  readonly path: string;
  readonly format: 'jsonl' | 'csv';
  /** Records written by this run (those of a page handed back not counted). */
  readonly records: number;
  /** Records the file held from earlier runs of the crawl (resumed into it). */
  readonly earlier: number;
  /** Bytes cut from the end of the file when the crawl resumed into it: half a record, or records of pages not done. */
  readonly cutBytes: number;
}

export class OutputWriter {
  /** Records written this run. */
  private written = 0;
  /** Records written since the last commit. */
  private uncommitted = 0;
  /** Where the CSV header row ends (0: none written yet). */
  private headerEnd: number;
  /** Called with the bytes each append wrote (metrics). */
  onAppended: ((bytes: number) => void) | undefined;
  /** This process's hold on the file (none for a device or a pipe). */
  private lock: OutputLock | undefined;

  private constructor(
    private readonly output: ResolvedOutput,
    private readonly file: AppendFile,
    private readonly ledger: AppendFile | undefined,
    private columns: readonly string[] | undefined,
    /** Pages whose records the file held when it was opened. */
    private readonly pages: ReadonlySet<string>,
    private readonly earlier: number,
    private readonly cutBytes: number,
  ) {
    // A resumed CSV file's header is in it (whatever is cut back, never below it).
    this.headerEnd = columns === undefined ? 0 : Math.max(1, file.size);
  }

  static async open(output: ResolvedOutput, resume: boolean): Promise<OutputWriter> {
    const { path } = output;
    const info = await stat(path).catch((error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT') return undefined;
      throw outputError(path, error);
    });
    if (info !== undefined && !info.isFile()) {
      const file = await AppendFile.open(path, { mode: 'append' });
      return new OutputWriter(output, file, undefined, undefined, new Set(), 0, 0);
    }
    // One process writes a file: a second one would interleave its records and ledger lines.
    const lock = await OutputLock.take(path);
    try {
      const writer = await OutputWriter.openLocked(output, resume, info?.size ?? 0);
      writer.lock = lock;
      return writer;
    } catch (error) {
      await lock.release();
      throw error;
    }
  }

  private static async openLocked(output: ResolvedOutput, resume: boolean, size: number): Promise<OutputWriter> {
    const { path } = output;
    const ledgerPath = path + LEDGER_SUFFIX;
    if (size === 0 || !resume) {
      if (size > 0 && !output.overwrite) {
        throw new PolitelyError(
          'ERR_OUTPUT',
          `could not write ${path}: it already holds records and this crawl is not resuming the one that wrote them: set overwrite: true to replace them, or resume that crawl (the same store)`,
        );
      }
      const file = await AppendFile.open(path, { mode: 'truncate' });
      const ledger = await openLedger(ledgerPath, output.format, file);
      const writer = new OutputWriter(output, file, ledger, undefined, new Set(), 0, 0);
      await writer.writeFieldsHeader();
      return writer;
    }
    return OutputWriter.resume(output, size, ledgerPath);
  }

  private static async resume(output: ResolvedOutput, size: number, ledgerPath: string): Promise<OutputWriter> {
    const { path, format } = output;
    const ledgerRead = await readLedger(ledgerPath).catch((error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT') return undefined;
      throw outputError(ledgerPath, error);
    });
    if (ledgerRead !== undefined && ledgerRead.format !== format) {
      throw new PolitelyError(
        'ERR_OUTPUT',
        `could not write ${path}: it holds ${ledgerRead.format === 'csv' ? 'CSV' : 'JSON lines'} (its ledger says so), not ${format}`,
      );
    }
    let end: number;
    let earlier: number;
    if (ledgerRead !== undefined) {
      if (ledgerRead.end > size) {
        throw new PolitelyError(
          'ERR_OUTPUT',
          `could not write ${path}: it holds ${size} bytes, fewer than the ${ledgerRead.end} its ledger ${ledgerPath} records: was it changed? Remove the ledger to take the file as it is, or set overwrite: true on a fresh crawl`,
        );
      }
      end = ledgerRead.end;
      earlier = ledgerRead.records;
    } else {
      const read = await readRecords(path, format).catch((error: unknown) => {
        throw outputError(path, error);
      });
      end = read.wholeBytes;
      earlier = read.records;
    }
    const file = await AppendFile.open(path, { mode: 'append' });
    if (end < size && !(await file.truncateTo(end))) {
      await file.close().catch(() => {});
      throw outputError(path, new Error(`could not cut the ${size - end} bytes past its last whole record`));
    }
    let ledger: AppendFile;
    try {
      if (ledgerRead === undefined) {
        ledger = await openLedger(ledgerPath, format, file);
        if (end > 0) await ledger.append(ledgerEntryLine(end, earlier, undefined));
      } else {
        ledger = await AppendFile.open(ledgerPath, { mode: 'append' });
        if (ledgerRead.wholeBytes < ledgerRead.totalBytes && !(await ledger.truncateTo(ledgerRead.wholeBytes)))
          throw outputError(ledgerPath, new Error('could not cut its half-written last line'));
      }
    } catch (error) {
      await file.close().catch(() => {});
      throw error;
    }
    let columns: readonly string[] | undefined;
    if (format === 'csv' && end > 0) {
      columns = await readCsvHeader(path).catch((error: unknown) => {
        throw outputError(path, error);
      });
      if (
        columns !== undefined &&
        output.fields !== undefined &&
        columns.join('\u0000') !== output.fields.join('\u0000')
      ) {
        await Promise.all([file.close(), ledger.close()]).catch(() => {});
        throw new PolitelyError(
          'ERR_OUTPUT',
          `could not write ${path}: its header row (${columns.join(',')}) is not the fields given (${output.fields.join(',')}); resume into the file the crawl wrote, or start a fresh crawl with overwrite: true`,
        );
      }
    }
    const writer = new OutputWriter(output, file, ledger, columns, ledgerRead?.pages ?? new Set(), earlier, size - end);
    if (columns === undefined) await writer.writeFieldsHeader();
    return writer;
  }

  get path(): string {
    return this.output.path;
  }

  /** Bytes in the file in whole writes: where a page's records start. */
  get size(): number {
    return this.file.size;
  }

  /** Whether the file held `page`'s records when it was opened (a resumed crawl). */
  holdsPage(page: string): boolean {
    return this.pages.has(page);
  }

  /** The page content this output adds to a page's records (`content`); undefined: none. */
  get contentForm(): 'markdown' | 'text' | undefined {
    return this.output.content;
  }

  status(): OutputStatus {
    return {
      path: this.output.path,
      format: this.output.format,
      records: this.written,
      earlier: this.earlier,
      cutBytes: this.cutBytes,
    };
  }

  /** The text of `records` (their JSON texts given) in this output's format; a CSV header first if none is written. */
  textOf(records: readonly object[], jsons: readonly string[]): string {
    if (this.output.format === 'jsonl') return `${jsons.join('\n')}\n`;
    let text = '';
    if (this.columns === undefined) {
      this.columns = columnsOf(records[0]!);
      text = csvHeader(this.columns);
    }
    for (const record of records) text += csvRecordRow(record, this.columns);
    return text;
  }

  /** Appends `text` holding `count` records; resolves when it is in the file. */
  async append(text: string, count: number): Promise<void> {
    const before = this.file.size;
    await this.file.append(text);
    this.onAppended?.(this.file.size - before);
    if (this.headerEnd === 0 && this.columns !== undefined && before === 0) this.headerEnd = this.file.size;
    this.written += count;
    this.uncommitted += count;
  }

  /** Records in the ledger the records appended since the last commit (a page's, if `page`). */
  async commit(page: string | undefined): Promise<void> {
    const records = this.uncommitted;
    this.uncommitted = 0;
    await this.ledger?.append(ledgerEntryLine(this.file.size, records, page)).catch((error: unknown) => {
      throw ledgerError(this.output.path, error);
    });
  }

  /** Cuts the records appended since the last commit (starting at `start`). */
  async rollback(start: number): Promise<void> {
    this.written -= this.uncommitted;
    this.uncommitted = 0;
    await this.file.truncateTo(start);
    // The header went with them (or never landed): the next record writes it again.
    if (this.output.fields === undefined && (this.headerEnd === 0 || start < this.headerEnd)) {
      this.columns = undefined;
      this.headerEnd = 0;
    }
  }

  async close(): Promise<void> {
    const results = await Promise.allSettled([this.file.close(), this.ledger?.close()]);
    await this.lock?.release();
    const failed = results.find((result): result is PromiseRejectedResult => result.status === 'rejected');
    if (failed !== undefined) throw failed.reason;
  }

  /** With `fields`, a new CSV file gets its header at once, committed (an empty table). */
  private async writeFieldsHeader(): Promise<void> {
    if (this.output.format !== 'csv' || this.output.fields === undefined || this.file.size > 0) return;
    this.columns = this.output.fields;
    try {
      await this.file.append(csvHeader(this.columns));
      this.headerEnd = this.file.size;
      await this.commit(undefined);
    } catch (error) {
      await this.close().catch(() => {});
      throw error;
    }
  }
}

/** A new (emptied) ledger with its header line; closes `output` when that fails. */
async function openLedger(path: string, format: 'jsonl' | 'csv', output: AppendFile): Promise<AppendFile> {
  try {
    const ledger = await AppendFile.open(path, { mode: 'truncate' });
    await ledger.append(ledgerHeaderLine(format));
    return ledger;
  } catch (error) {
    await output.close().catch(() => {});
    throw error;
  }
}

/** A ledger that cannot be written is its output's failure: the error names the output. */
function ledgerError(path: string, error: unknown): PolitelyError {
  const cause = error instanceof PolitelyError ? error.cause : error;
  const failure = outputError(path, cause);
  return new PolitelyError('ERR_OUTPUT', `${failure.message} (writing its ledger, ${path}${LEDGER_SUFFIX})`, { cause });
}
