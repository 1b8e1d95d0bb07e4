// A crawl's dataset: the records handlers push (`page.push`) and code outside them pushes
// (`crawler.push`), written to every output (output-writer.ts), each push resolving once its
// records are in them all; a `record` event for each.
//
// Nothing lost, nothing written twice, across a SIGKILL and a resume:
// - A page's records are a unit. The page keeps them in memory while they are small (page-records.ts,
//   PAGE_BUFFER_BYTES) and takes the outputs' tail when its handler ends, or as soon as they outgrow
//   that, keeping it until its handler has ended and its pushes are written; then a line in each
//   output's ledger commits them, and only then may its URL count as done. Only a page with more
//   records than its buffer makes other pushes wait while its handler runs. So the records past the last
//   commit always belong to pages not done, and a resumed crawl cuts them: those pages are
//   fetched again and write their records again, once.
// - A page killed after its commit but before the store marked it done is fetched again, and
//   its pushes are skipped: its URL is in the ledger.
// - A page handed back (a fatal error, a stop) has its records cut at once.
// - Records pushed outside a handler are written in rounds, each committed before its pushes
//   resolve. `crawler.push` called while a handler runs (in its async context) is that page's.
// - A write that fails rejects with ERR_OUTPUT, and so does every push after it; the crawl
//   stops (the failure hook), and what was committed stays.

import { AsyncLocalStorage } from 'node:async_hooks';
import { PolitelyError } from '@politely/core';
import type { PageContent } from '../content/page-content.js';
import { RoomSignal } from '../files/room-signal.js';
import type { ResolvedOutput } from './output-options.js';
import { type OutputStatus, OutputWriter } from './output-writer.js';
import { PageRecords } from './page-records.js';
import { settleAll, validate, writeAll } from './push-records.js';
import type { DatasetRecord } from './record-text.js';
import { TailLock } from './tail-lock.js';

export interface DatasetHooks {
  /** A record is written (or accepted, with no outputs); `url` is its page's, if a handler pushed it. */
  readonly onRecord: ((record: DatasetRecord, url: string | undefined) => void) | undefined;
  /** Whether anyone listens to records (their events are not built otherwise). */
  readonly listens: () => boolean;
  /** A write failed: the crawl must stop. */
  readonly onFailure: (error: PolitelyError) => void;
  /** Bytes of records written to an output of `format` (metrics). */
  readonly onWritten?: (bytes: number, format: string) => void;
}

/** Text of waiting outside pushes past which a push waits (backpressure). */
const OUTSIDE_HIGH_WATER_MARK = 1024 * 1024;

interface OutsidePush {
  readonly records: readonly DatasetRecord[];
  readonly jsons: readonly string[];
  readonly bytes: number;
  resolve(): void;
  reject(error: unknown): void;
}

export class Dataset {
  private writers: readonly OutputWriter[] = [];
  private readonly tail = new TailLock();
  private readonly scope = new AsyncLocalStorage<PageRecords>();
  private failure: PolitelyError | undefined;
  private state: 'new' | 'open' | 'closed' = 'new';
  private outside: OutsidePush[] = [];
  private outsideBytes = 0;
  private flushing: Promise<void> | undefined;
  private readonly room = new RoomSignal();

  constructor(
    private readonly outputs: readonly ResolvedOutput[],
    private readonly hooks: DatasetHooks,
  ) {}

  /** Whether records go anywhere but the `record` event. */
  get hasOutputs(): boolean {
    return this.outputs.length > 0;
  }

  /** Opens every output (`resume`: the crawl's store held it already). Throws ERR_OUTPUT. */
  async open(resume: boolean): Promise<void> {
    if (this.state !== 'new') return;
    const writers: OutputWriter[] = [];
    try {
      for (const output of this.outputs) {
        const writer = await OutputWriter.open(output, resume);
        const { onWritten } = this.hooks;
        if (onWritten !== undefined) writer.onAppended = (bytes) => onWritten(bytes, output.format);
        writers.push(writer);
      }
    } catch (error) {
      await Promise.allSettled(writers.map((writer) => writer.close()));
      this.state = 'closed';
      throw error;
    }
    this.writers = writers;
    this.state = 'open';
  }

  status(): readonly OutputStatus[] {
    return this.writers.map((writer) => writer.status());
  }

  /**
   * The records of the page at `key` (its frontier URL), whose final URL is `url`; `content` gives
   * the page's content to outputs that add it (`content`).
   */
  page(key: string, url: string, content?: () => Promise<PageContent>): PageRecords {
    return new PageRecords(this, key, url, content);
  }

  /** Runs a handler in its page's context, so that `crawler.push` inside it is the page's. */
  runInPage<T>(page: PageRecords, handler: () => T): T {
    return this.hasOutputs ? this.scope.run(page, handler) : handler();
  }

  /** Pushes records from outside a handler (`crawler.push`); resolves once they are written. */
  async push(input: DatasetRecord | readonly DatasetRecord[]): Promise<void> {
    const page = this.scope.getStore();
    if (page !== undefined && !page.ended) return page.push(input);
    const { records, jsons } = validate(input);
    this.checkOpen();
    if (!this.hasOutputs) return this.emit(records, undefined);
    if (records.length === 0) return;
    const bytes = jsons.reduce((sum, json) => sum + json.length + 1, 0);
    while (this.outsideBytes >= OUTSIDE_HIGH_WATER_MARK && this.flushing !== undefined && this.failure === undefined)
      await this.room.wait();
    if (this.failure !== undefined) throw this.failure;
    await new Promise<void>((resolve, reject) => {
      this.outside.push({ records, jsons, bytes, resolve, reject });
      this.outsideBytes += bytes;
      this.flushing ??= this.flushOutside().finally(() => (this.flushing = undefined));
    });
  }

  /** Waits for every push, then closes every output. Rejects with ERR_OUTPUT if a write failed. */
  async close(): Promise<void> {
    if (this.state === 'closed') return;
    this.state = 'closed';
    while (this.flushing !== undefined) await this.flushing;
    const results = await Promise.allSettled(this.writers.map((writer) => writer.close()));
    const failed = results.find((result): result is PromiseRejectedResult => result.status === 'rejected');
    if (this.failure !== undefined) throw this.failure;
    if (failed !== undefined) throw (this.failure = failed.reason as PolitelyError);
  }

  // —— for PageRecords (page-records.ts) ——

  /** @internal The writers, the tail and the failure, for a page's records. */
  get internals(): { readonly writers: readonly OutputWriter[]; readonly tail: TailLock } {
    return { writers: this.writers, tail: this.tail };
  }

  /** @internal */
  checkOpen(): void {
    if (this.failure !== undefined) throw this.failure;
    if (this.state === 'closed')
      throw new PolitelyError('ERR_INVALID_INPUT', 'push(): the crawl has ended and its outputs are closed');
    if (this.state === 'new' && this.hasOutputs)
      throw new PolitelyError('ERR_INVALID_INPUT', 'push(): the outputs are not open yet');
  }

  /** @internal A write failed: every push from now on rejects with it, and the crawl stops. */
  fail(error: unknown): PolitelyError {
    const failure =
      error instanceof PolitelyError
        ? error
        : new PolitelyError('ERR_OUTPUT', `could not write the dataset: ${String(error)}`, { cause: error });
    if (this.failure === undefined) {
      this.failure = failure;
      this.room.open();
      this.hooks.onFailure(failure);
    }
    return this.failure;
  }

  /** @internal */
  listensForRecords(): boolean {
    return this.hooks.onRecord !== undefined && this.hooks.listens();
  }

  /** @internal */
  emit(records: readonly DatasetRecord[], url: string | undefined): void {
    if (this.hooks.onRecord === undefined || !this.hooks.listens()) return;
    for (const record of records) this.hooks.onRecord(record, url);
  }

  // —— outside pushes ——

  /** Writes waiting outside pushes in rounds: each round holds the tail, writes, commits. */
  private async flushOutside(): Promise<void> {
    while (this.outside.length > 0) {
      const release = await this.tail.acquire();
      const round = this.outside;
      this.outside = [];
      this.outsideBytes = 0;
      this.room.open();
      try {
        if (this.failure !== undefined) throw this.failure;
        const records = round.flatMap((push) => push.records);
        const jsons = round.flatMap((push) => push.jsons);
        const starts = this.writers.map((writer) => writer.size);
        try {
          await writeAll(this.writers, records, jsons);
          await settleAll(this.writers.map((writer) => writer.commit(undefined)));
        } catch (error) {
          await Promise.allSettled(this.writers.map((writer, i) => writer.rollback(starts[i]!)));
          throw this.fail(error);
        }
        for (const push of round) push.resolve();
        this.emit(records, undefined);
      } catch (error) {
        for (const push of round) push.reject(error);
      } finally {
        release();
      }
    }
  }
}
