// An output file that is only ever appended to, and whose every write either lands or fails
// loudly. `append` resolves once the text is in the file (handed to the OS), so a caller can
// count a record as kept only after it is; it rejects with ERR_OUTPUT, naming the file, when the
// write fails (ENOSPC, EIO, a closed descriptor), and so does every append after it.
//
// No stream events: a write stream's 'drain' or 'error' that fired before anyone listened is a
// promise that never settles (a crawl once hung on a full disk that way). Here every append is a
// promise of its own, settled by the write that carries it. Appends that arrive while a write is
// under way are gathered into the next one, so many writers cost few system calls.
//
// Memory is bounded: text waiting for the next write is capped at `highWaterMark` bytes; an
// append made while it is full waits for the write under way to end before its text is taken
// (backpressure), so writers that await their appends hold at most that much between them.
//
// A failed write may have put part of its text in the file: the file is cut back to the last
// whole write, where the OS allows, so that it never ends in half a record.

import { type FileHandle, open } from 'node:fs/promises';
import { PolitelyError } from '@politely/core';
import { RoomSignal } from './room-signal.js';

interface Waiter {
  resolve(): void;
  reject(error: PolitelyError): void;
}

export interface AppendFileOptions {
  /** `append` keeps what the file holds; `truncate` empties it first. */
  readonly mode: 'append' | 'truncate';
  /** Bytes of text that may wait for the next write before an append waits. @default 1 MiB */
  readonly highWaterMark?: number;
}

const DEFAULT_HIGH_WATER_MARK = 1024 * 1024;

export class AppendFile {
  private pending: (string | Uint8Array)[] = [];
  private pendingBytes = 0;
  private waiters: Waiter[] = [];
  private writing: Promise<void> | undefined;
  private failure: PolitelyError | undefined;
  private closed = false;
  /** Resolved each time a write takes the waiting text (the buffer has room again). */
  private readonly room = new RoomSignal();

  private constructor(
    readonly path: string,
    private readonly handle: FileHandle,
    /** Bytes in the file that are whole writes (where a failed write is cut back to). */
    private whole: number,
    /** Whether the file can be cut back (a regular file, not a device or a pipe). */
    readonly regular: boolean,
    private readonly highWaterMark: number,
  ) {}

  /** Opens (creating) `path`; throws ERR_OUTPUT naming it when that is impossible. */
  static async open(path: string, options: AppendFileOptions): Promise<AppendFile> {
    let handle: FileHandle;
    try {
      handle = await open(path, options.mode === 'truncate' ? 'w' : 'a');
    } catch (error) {
      throw outputError(path, error);
    }
    const stat = await handle.stat();
    return new AppendFile(
      path,
      handle,
      stat.isFile() ? stat.size : 0,
      stat.isFile(),
      options.highWaterMark ?? DEFAULT_HIGH_WATER_MARK,
    );
  }

  /** The error that ended this file's writes, if one did. */
  get error(): PolitelyError | undefined {
    return this.failure;
  }

  /** Bytes the file holds in whole writes (appends that resolved). */
  get size(): number {
    return this.whole;
  }

  /** Appends `text` (UTF-8) or bytes; resolves when it is in the file, rejects with ERR_OUTPUT when it cannot be. */
  async append(text: string | Uint8Array): Promise<void> {
    // Backpressure: while the buffer is full, wait for the write under way (it empties it).
    while (this.pendingBytes >= this.highWaterMark && this.writing !== undefined && this.failure === undefined)
      await this.room.wait();
    if (this.failure !== undefined) throw this.failure;
    if (this.closed) throw outputError(this.path, new Error('the file was closed'));
    return new Promise<void>((resolve, reject) => {
      this.pending.push(text);
      this.pendingBytes += text.length;
      this.waiters.push({ resolve, reject });
      this.writing ??= this.writePending().finally(() => (this.writing = undefined));
    });
  }

  /**
   * Cuts the file back to `size` bytes (the records of a page that was handed back). Only for a
   * regular file, with no append under way; resolves false when the OS refused.
   */
  async truncateTo(size: number): Promise<boolean> {
    await this.writing;
    if (!this.regular || size > this.whole) return false;
    try {
      await this.handle.truncate(size);
      this.whole = size;
      return true;
    } catch {
      return false;
    }
  }

  /** Waits for every append, then closes the file. Rejects with the error that ended writes, if any. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.writing;
    let closeError: unknown;
    // Where the OS buffers writes, an I/O error can surface only now.
    if (this.failure === undefined && this.regular)
      await this.handle.sync().catch((error: unknown) => (closeError = error));
    await this.handle.close().catch((error: unknown) => (closeError ??= error));
    if (this.failure !== undefined) throw this.failure;
    if (closeError !== undefined) throw (this.failure = outputError(this.path, closeError));
  }

  private async writePending(): Promise<void> {
    while (this.pending.length > 0 && this.failure === undefined) {
      const parts = this.pending;
      const waiters = this.waiters;
      this.pending = [];
      this.pendingBytes = 0;
      this.waiters = [];
      this.room.open();
      try {
        const bytes = parts.every((part) => typeof part === 'string')
          ? Buffer.from(parts.join(''), 'utf8')
          : Buffer.concat(parts.map((part) => (typeof part === 'string' ? Buffer.from(part, 'utf8') : part)));
        await writeAll(this.handle, bytes);
        // A file deleted (or whose folder was removed) takes writes without complaint, into an
        // inode no one can open again: that is a loss, so it fails like a full disk.
        if (this.regular && (await this.handle.stat()).nlink === 0)
          throw new Error('the file was deleted (or its folder removed) while the crawl wrote to it');
        this.whole += bytes.length;
        for (const waiter of waiters) waiter.resolve();
      } catch (error) {
        this.failure = outputError(this.path, error);
        if (this.regular) await this.handle.truncate(this.whole).catch(() => {});
        for (const waiter of [...waiters, ...this.waiters]) waiter.reject(this.failure);
        this.pending = [];
        this.pendingBytes = 0;
        this.waiters = [];
        this.room.open();
      }
    }
  }
}

/** Writes every byte (a write may take fewer than it was given). */
async function writeAll(handle: FileHandle, bytes: Buffer): Promise<void> {
  let offset = 0;
  while (offset < bytes.length) {
    const { bytesWritten } = await handle.write(bytes, offset, bytes.length - offset);
    if (bytesWritten <= 0) throw new Error('the file took no bytes');
    offset += bytesWritten;
  }
}

/** ERR_OUTPUT naming the file and the system's reason (`ENOSPC: no space left on device`). */
export function outputError(path: string, cause: unknown): PolitelyError {
  const code = (cause as NodeJS.ErrnoException | undefined)?.code;
  const reason =
    cause instanceof Error
      ? cause.message.replace(/, (open|write|close|fsync|ftruncate|rename|read)( '.*')?$/, '')
      : String(cause);
  const text = code !== undefined && !reason.startsWith(code) ? `${code}: ${reason}` : reason;
  return new PolitelyError('ERR_OUTPUT', `could not write ${path}: ${text}`, { cause });
}
