// Sorts a text file's lines in byte order (what `LC_ALL=C sort` gives: memcmp, a line before
// any longer line it begins), in place, holding a bounded amount of it in memory: an external
// merge sort. A CDXJ index must be in this order, because pywb binary-searches it.
//
// 1. The file is read in runs of at most `maxMemoryBytes` of lines (a single longer line is a run
//    of its own: a line is never split); each run is sorted and written to a temp file beside the
//    file. A file that fits in one run is sorted in memory and never written to a run.
// 2. The runs are merged (a k-way merge through a min-heap) into `path + '.sorting'`, at most
//    `maxOpenRuns` at a time: more runs are first merged in passes into fewer, so that a huge file
//    never holds more than that many files open.
// 3. `path + '.sorting'` is flushed to disk and renamed over `path`, which is atomic: a reader
//    sees the old file or the sorted one, never half of either. On any failure (or an abort) the
//    original is left as it was and every temp file is removed.
//
// Memory: about `maxMemoryBytes` while runs are made; `maxOpenRuns` read buffers of at most
// 64 KiB each while they are merged. Empty lines are dropped; a last line without its newline is
// a line like the others; the result ends with a newline (or is empty).

import { createReadStream } from 'node:fs';
import { type FileHandle, open, rename, rm } from 'node:fs/promises';
import { PolitelyError } from '@politely/core';
import { Heap } from '@politely/core/internal';

export interface SortLinesOptions {
  /** Bytes of lines held in memory at once while runs are made. @default 64 MiB */
  readonly maxMemoryBytes?: number;
  /** Stops the sort: it rejects with ERR_ABORTED, the file as it was. */
  readonly signal?: AbortSignal;
  /** Runs merged at once (files open at once). @default 64 */
  readonly maxOpenRuns?: number;
}

export interface SortLinesResult {
  /** Non-empty lines in the sorted file. */
  readonly lines: number;
  /** Sorted runs the file was cut into (1: sorted in memory). */
  readonly runs: number;
  /** Merge passes before the final merge (0 when the runs fit in `maxOpenRuns`). */
  readonly mergePasses: number;
}

const DEFAULT_MAX_MEMORY_BYTES = 64 * 1024 * 1024;
const DEFAULT_MAX_OPEN_RUNS = 64;
const MAX_CHUNK_BYTES = 64 * 1024;
const MIN_CHUNK_BYTES = 256;
const NEWLINE = 0x0a;

/** Sorts the lines of the file at `path` in byte order, in place (see the top of this file). */
export async function sortLinesFile(path: string, options: SortLinesOptions = {}): Promise<SortLinesResult> {
  const settings = resolveOptions(path, options);
  const temps = new TempFiles(path);
  const target = `${path}.sorting`;
  try {
    checkAborted(settings);
    const cut = await cutIntoRuns(path, settings, temps);
    let mergePasses = 0;
    if (cut.inMemory !== undefined) {
      await writeLines(target, cut.inMemory);
    } else {
      const merged = await mergeDown(cut.runPaths, settings, temps);
      mergePasses = merged.passes;
      await mergeRuns(merged.runPaths, target, settings);
    }
    checkAborted(settings);
    await rename(target, path);
    return { lines: cut.lines, runs: cut.runs, mergePasses };
  } catch (error) {
    await rm(target, { force: true }).catch(() => undefined);
    throw sortError(path, error);
  } finally {
    await temps.removeAll();
  }
}

interface Settings {
  readonly path: string;
  readonly maxMemoryBytes: number;
  readonly maxOpenRuns: number;
  readonly chunkBytes: number;
  readonly signal: AbortSignal | undefined;
}

function resolveOptions(path: string, options: SortLinesOptions): Settings {
  const maxMemoryBytes = options.maxMemoryBytes ?? DEFAULT_MAX_MEMORY_BYTES;
  const maxOpenRuns = options.maxOpenRuns ?? DEFAULT_MAX_OPEN_RUNS;
  if (!Number.isSafeInteger(maxMemoryBytes) || maxMemoryBytes < 1) {
    throw new PolitelyError(
      'ERR_INVALID_OPTION',
      `maxMemoryBytes must be a positive integer, got ${String(maxMemoryBytes)}`,
    );
  }
  if (!Number.isSafeInteger(maxOpenRuns) || maxOpenRuns < 2) {
    throw new PolitelyError(
      'ERR_INVALID_OPTION',
      `maxOpenRuns must be an integer of 2 or more, got ${String(maxOpenRuns)}`,
    );
  }
  // Read buffers no bigger than the memory allowed (but not absurdly small: one read per byte).
  const chunkBytes = Math.min(MAX_CHUNK_BYTES, Math.max(MIN_CHUNK_BYTES, maxMemoryBytes));
  return { path, maxMemoryBytes, maxOpenRuns, chunkBytes, signal: options.signal };
}

interface Cut {
  /** The whole file's lines, sorted, when they fit in one run. */
  readonly inMemory: Buffer[] | undefined;
  readonly runPaths: string[];
  readonly runs: number;
  readonly lines: number;
}

/** Reads the file into sorted runs: written to temp files, or kept in memory if there is only one. */
async function cutIntoRuns(path: string, settings: Settings, temps: TempFiles): Promise<Cut> {
  const runPaths: string[] = [];
  let run: Buffer[] = [];
  let runBytes = 0;
  let lines = 0;
  for await (const line of readLines(path, settings.chunkBytes)) {
    // A run is full when this line would take it past the limit (a run holds one line at least).
    if (run.length > 0 && runBytes + line.length + 1 > settings.maxMemoryBytes) {
      checkAborted(settings);
      runPaths.push(await writeRun(run, temps));
      run = [];
      runBytes = 0;
    }
    run.push(line);
    runBytes += line.length + 1;
    lines += 1;
  }
  if (runPaths.length === 0) return { inMemory: run.sort(Buffer.compare), runPaths, runs: 1, lines };
  if (run.length > 0) runPaths.push(await writeRun(run, temps));
  return { inMemory: undefined, runPaths, runs: runPaths.length, lines };
}

async function writeRun(run: Buffer[], temps: TempFiles): Promise<string> {
  const runPath = temps.next();
  await writeLines(runPath, run.sort(Buffer.compare));
  return runPath;
}

/** Merges runs in passes, `maxOpenRuns` at a time, until at most `maxOpenRuns` are left. */
async function mergeDown(
  runPaths: string[],
  settings: Settings,
  temps: TempFiles,
): Promise<{ runPaths: string[]; passes: number }> {
  let current = runPaths;
  let passes = 0;
  // Each pass divides the number of runs by `maxOpenRuns` (2 or more): at most log2(runs) passes.
  while (current.length > settings.maxOpenRuns) {
    const next: string[] = [];
    for (let start = 0; start < current.length; start += settings.maxOpenRuns) {
      const group = current.slice(start, start + settings.maxOpenRuns);
      const merged = temps.next();
      await mergeRuns(group, merged, settings);
      await temps.remove(group);
      next.push(merged);
    }
    current = next;
    passes += 1;
  }
  return { runPaths: current, passes };
}

/** The k-way merge of sorted files into `output`. */
async function mergeRuns(inputs: readonly string[], output: string, settings: Settings): Promise<void> {
  const sources = inputs.map((input) => readLines(input, settings.chunkBytes));
  const writer = await LineWriter.open(output);
  try {
    // Ties by source, so the merge is stable.
    const heap = new Heap<HeapEntry>((a, b) => compareEntries(a, b) < 0);
    for (const [index, source] of sources.entries()) await pull(heap, source, index);
    for (let head = heap.pop(); head !== undefined; head = heap.pop()) {
      checkAborted(settings);
      await writer.write(head.line);
      await pull(heap, sources[head.source] as AsyncGenerator<Buffer>, head.source);
    }
    await writer.close();
  } catch (error) {
    await writer.abandon();
    throw error;
  } finally {
    // Closes the files of any source not read to its end (after a failure).
    await Promise.all(sources.map((source) => source.return(undefined)));
  }
}

async function pull(heap: Heap<HeapEntry>, source: AsyncGenerator<Buffer>, index: number): Promise<void> {
  const next = await source.next();
  if (next.done !== true) heap.push({ line: next.value, source: index });
}

/** The non-empty lines of a file, without their newline; a missing last newline is tolerated. */
async function* readLines(path: string, chunkBytes: number): AsyncGenerator<Buffer> {
  const stream = createReadStream(path, { highWaterMark: chunkBytes });
  // The piece of a line that a chunk ended in the middle of, in pieces (a long line spans many chunks).
  let partial: Buffer[] = [];
  try {
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      let start = 0;
      for (let end = chunk.indexOf(NEWLINE); end !== -1; end = chunk.indexOf(NEWLINE, start)) {
        const line =
          partial.length === 0 ? chunk.subarray(start, end) : Buffer.concat([...partial, chunk.subarray(start, end)]);
        partial = [];
        start = end + 1;
        if (line.length > 0) yield line;
      }
      if (start < chunk.length) partial.push(chunk.subarray(start));
    }
  } finally {
    stream.destroy();
  }
  const last = Buffer.concat(partial);
  if (last.length > 0) yield last;
}

async function writeLines(path: string, lines: readonly Buffer[]): Promise<void> {
  const writer = await LineWriter.open(path);
  try {
    for (const line of lines) await writer.write(line);
    await writer.close();
  } catch (error) {
    await writer.abandon();
    throw error;
  }
}

/** Lines written through a buffer, so that a write is one system call per 64 KiB, not per line. */
class LineWriter {
  private chunks: Buffer[] = [];
  private size = 0;

  private constructor(private readonly handle: FileHandle) {}

  static async open(path: string): Promise<LineWriter> {
    return new LineWriter(await open(path, 'w'));
  }

  async write(line: Buffer): Promise<void> {
    this.chunks.push(line, NEWLINE_BUFFER);
    this.size += line.length + 1;
    if (this.size >= MAX_CHUNK_BYTES) await this.flush();
  }

  /** Writes what is buffered, flushes it to disk (the rename that follows must not expose a file the OS still holds), closes. */
  async close(): Promise<void> {
    await this.flush();
    await this.handle.sync();
    await this.handle.close();
  }

  /** Closes after a failure; the caller removes the file. */
  async abandon(): Promise<void> {
    await this.handle.close().catch(() => undefined);
  }

  private async flush(): Promise<void> {
    if (this.size === 0) return;
    const data = Buffer.concat(this.chunks, this.size);
    this.chunks = [];
    this.size = 0;
    await this.handle.write(data);
  }
}

const NEWLINE_BUFFER = Buffer.from('\n');

interface HeapEntry {
  readonly line: Buffer;
  readonly source: number;
}

function compareEntries(a: HeapEntry, b: HeapEntry): number {
  return Buffer.compare(a.line, b.line) || a.source - b.source;
}

/** The temp files of one sort: named beside the file, removed when the sort ends, whatever happens. */
class TempFiles {
  private readonly live = new Set<string>();
  private count = 0;

  constructor(private readonly path: string) {}

  next(): string {
    this.count += 1;
    const name = `${this.path}.sort-${process.pid}-${this.count}`;
    this.live.add(name);
    return name;
  }

  async remove(names: readonly string[]): Promise<void> {
    for (const name of names) {
      await rm(name, { force: true });
      this.live.delete(name);
    }
  }

  async removeAll(): Promise<void> {
    await this.remove([...this.live]).catch(() => undefined);
  }
}

/** Throws ERR_ABORTED once the caller's signal has fired (whatever reason it was given). */
function checkAborted(settings: Settings): void {
  const signal = settings.signal;
  if (signal?.aborted === true) {
    throw new PolitelyError('ERR_ABORTED', `sorting ${settings.path} was aborted; the file is as it was`, {
      cause: signal.reason,
    });
  }
}

/** The error a failed sort rejects with: its own (ERR_ABORTED), or ERR_OUTPUT naming the file. */
function sortError(path: string, cause: unknown): PolitelyError {
  if (cause instanceof PolitelyError) return cause;
  const code = (cause as NodeJS.ErrnoException | undefined)?.code;
  const reason =
    cause instanceof Error ? cause.message.replace(/, (open|read|write|close|fsync|rename) '.*'$/, '') : String(cause);
  const text = code !== undefined && !reason.startsWith(code) ? `${code}: ${reason}` : reason;
  return new PolitelyError('ERR_OUTPUT', `could not sort ${path}: ${text}`, { cause });
}
