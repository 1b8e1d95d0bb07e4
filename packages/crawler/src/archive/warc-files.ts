// The numbered files of an archive: `crawl.warc.gz` is written as `crawl-00000.warc.gz`,
// `crawl-00001.warc.gz`, …, a new one begun when the next records would take the current one past
// its size limit (records are never split), each beginning with its own warcinfo record. With
// gzip, every record is one gzip member of its own, so a reader can seek to any record's offset.

import { unlink } from 'node:fs/promises';
import { basename } from 'node:path';
import { promisify } from 'node:util';
import { gzip as gzipCallback } from 'node:zlib';
import { AppendFile } from '../files/append-file.js';

const gzip = promisify(gzipCallback);

/** How the archive's files are named: `<stem>-NNNNN<extension>`. */
export interface WarcFileNames {
  readonly stem: string;
  readonly extension: '.warc' | '.warc.gz';
}

export function warcFileNames(path: string): WarcFileNames {
  const lower = path.toLowerCase();
  if (lower.endsWith('.warc.gz')) return { stem: path.slice(0, -'.warc.gz'.length), extension: '.warc.gz' };
  return { stem: lower.endsWith('.warc') ? path.slice(0, -'.warc'.length) : path, extension: '.warc' };
}

export function warcFilePath(names: WarcFileNames, number: number): string {
  return `${names.stem}-${String(number).padStart(5, '0')}${names.extension}`;
}

/** Where a record landed: its file, its offset and its length there (compressed, with gzip). */
export interface PlacedRecord {
  readonly file: number;
  readonly filename: string;
  readonly offset: number;
  readonly length: number;
}

export class WarcFiles {
  private constructor(
    private readonly names: WarcFileNames,
    private readonly maxFileBytes: number,
    private number: number,
    private file: AppendFile,
  ) {}

  /** Opens file `number` (`truncate`: a new, empty one). */
  static async open(
    names: WarcFileNames,
    maxFileBytes: number,
    number: number,
    mode: 'append' | 'truncate',
  ): Promise<WarcFiles> {
    return new WarcFiles(names, maxFileBytes, number, await AppendFile.open(warcFilePath(names, number), { mode }));
  }

  get gzip(): boolean {
    return this.names.extension === '.warc.gz';
  }

  get current(): { readonly number: number; readonly path: string; readonly size: number } {
    return { number: this.number, path: this.file.path, size: this.file.size };
  }

  /** The records as they go in the file: one gzip member each, with gzip. */
  async encode(records: readonly (readonly Uint8Array[])[]): Promise<Buffer[]> {
    const whole = records.map((parts) => Buffer.concat(parts));
    return this.gzip ? Promise.all(whole.map((bytes) => gzip(bytes))) : whole;
  }

  /** Whether `bytes` more would take the current file past its limit (a file holding only its warcinfo takes anything). */
  wouldOverflow(bytes: number, warcinfoBytes: number): boolean {
    return this.file.size > warcinfoBytes && this.file.size + bytes > this.maxFileBytes;
  }

  /** Closes the current file and begins the next (empty: the caller writes its warcinfo). */
  async roll(): Promise<void> {
    await this.file.close();
    this.number++;
    this.file = await AppendFile.open(warcFilePath(this.names, this.number), { mode: 'truncate' });
  }

  /** Appends encoded records to the current file; resolves, with where each landed, once they are in it. */
  async append(encoded: readonly Buffer[]): Promise<PlacedRecord[]> {
    let offset = this.file.size;
    const placed = encoded.map((bytes) => {
      const record = { file: this.number, filename: basename(this.file.path), offset, length: bytes.length };
      offset += bytes.length;
      return record;
    });
    await this.file.append(encoded.length === 1 ? encoded[0]! : Buffer.concat(encoded));
    return placed;
  }

  /** Cuts the current file back to `size` (a resumed crawl: past its last commit). */
  async truncateTo(size: number): Promise<boolean> {
    return this.file.truncateTo(size);
  }

  async close(): Promise<void> {
    await this.file.close();
  }
}

/** Removes the files numbered from `first` on, until one is missing (a resume: they hold nothing committed). */
export async function removeFilesFrom(names: WarcFileNames, first: number, limit = 100_000): Promise<number> {
  let removed = 0;
  for (let number = first; number < first + limit; number++) {
    const gone = await unlink(warcFilePath(names, number)).then(
      () => true,
      (error: NodeJS.ErrnoException) => {
        if (error.code === 'ENOENT') return false;
        throw error;
      },
    );
    if (!gone) break;
    removed++;
  }
  return removed;
}
