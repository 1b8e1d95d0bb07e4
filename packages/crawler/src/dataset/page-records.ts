// One page's records (`page.push`): kept with the page while they are few (PAGE_BUFFER_BYTES), so
// that a handler that pushes and then waits holds nobody up; written when the handler ends, or as
// soon as they outgrow the buffer — from then on holding the outputs' tail until the page
// commits. Committed in every output's ledger once the handler has ended and its pushes are in
// (before the page's URL counts as done), or cut if the page is handed back. See dataset.ts.

import { PolitelyError } from '@politely/core';
import type { PageContent } from '../content/page-content.js';
import type { OutputWriter } from './output-writer.js';
import { type PushedContent, RECORDS_PER_APPEND, settleAll, validate, writeAll } from './push-records.js';
import type { DatasetRecord } from './record-text.js';
import type { TailLock } from './tail-lock.js';

/** What a page's records need of the crawl's dataset (dataset.ts), which makes them. */
export interface PageDataset {
  readonly hasOutputs: boolean;
  readonly internals: { readonly writers: readonly OutputWriter[]; readonly tail: TailLock };
  /** Throws when the dataset is not open for pushes. */
  checkOpen(): void;
  /** Records a write failure (the crawl stops) and returns it as ERR_OUTPUT. */
  fail(error: unknown): PolitelyError;
  emit(records: readonly DatasetRecord[], url: string | undefined): void;
  /** Whether anyone listens to `record` events (the page keeps its records for them until it commits). */
  listensForRecords(): boolean;
}

/** A page's records kept in memory before it takes the outputs' tail (most pages push far less). */
export const PAGE_BUFFER_BYTES = 256 * 1024;

interface BufferedPush {
  readonly records: readonly DatasetRecord[];
  readonly jsons: readonly string[];
}

/**
 * One page's records: pushed while its handler runs, committed when it has ended (before its URL
 * counts as done), or cut if the page is handed back.
 */
export class PageRecords {
  /** The handler has ended: no more pushes. */
  ended = false;
  private release: (() => void) | undefined;
  private acquiring: Promise<void> | undefined;
  private starts: number[] = [];
  /** Pushes not yet accepted; made at the first push (most pages push once, or never). */
  private pending: Set<Promise<void>> | undefined;
  private failure: unknown;
  /** Pushes kept with the page until it takes the tail (see PAGE_BUFFER_BYTES). */
  private buffered: BufferedPush[] = [];
  private bufferedBytes = 0;
  /**
   * Records written (or, without outputs, pushed) but not yet announced as `record` events: a
   * page's records are announced when it commits, so a failed attempt's records never are.
   */
  private unannounced: (readonly DatasetRecord[])[] = [];
  /** The page's content, for outputs that add it: read at the first push that needs it. */
  private content: PushedContent | undefined;

  constructor(
    private readonly dataset: PageDataset,
    private readonly key: string,
    private readonly url: string,
    private readonly contentOf?: () => Promise<PageContent>,
  ) {}

  /**
   * `page.push`: resolves once the records are accepted — kept with the page (written when its
   * handler ends, before its URL counts as done), or, past the page's buffer, written.
   */
  push(input: DatasetRecord | readonly DatasetRecord[]): Promise<void> {
    if (this.ended) {
      return Promise.reject(
        new PolitelyError(
          'ERR_INVALID_INPUT',
          `page.push(): the handler of ${this.url} has ended, and its records are committed; push before it resolves, or use crawler.push()`,
        ),
      );
    }
    const write = this.write(input);
    const tracked = write.catch((error: unknown) => {
      if (error instanceof PolitelyError && error.code === 'ERR_OUTPUT') this.failure ??= error;
    });
    const pending = (this.pending ??= new Set());
    pending.add(tracked);
    void tracked.finally(() => pending.delete(tracked));
    return write;
  }

  /** After the handler: waits for its pushes, commits them; throws ERR_OUTPUT (the records cut). */
  async commit(): Promise<void> {
    this.ended = true;
    if (this.hasUnsettled()) await this.settled();
    if (this.release === undefined && this.buffered.length > 0 && this.failure === undefined) {
      try {
        await this.acquire();
      } catch (error) {
        await this.cut();
        throw this.dataset.fail(error);
      }
    }
    if (this.release === undefined) {
      if (this.failure !== undefined) throw this.failure;
      this.announce();
      return;
    }
    const { writers } = this.dataset.internals;
    try {
      if (this.failure !== undefined) throw this.failure;
      await settleAll(writers.map((writer) => writer.commit(this.key)));
    } catch (error) {
      await this.cut();
      throw this.dataset.fail(error);
    }
    this.releaseTail();
    this.announce();
  }

  /** The page is handed back (not done): its records are cut from every output. */
  async rollback(): Promise<void> {
    this.ended = true;
    await this.settled();
    this.buffered = [];
    this.unannounced = [];
    await this.cut();
  }

  private async write(input: DatasetRecord | readonly DatasetRecord[]): Promise<void> {
    const { records, jsons } = validate(input);
    this.dataset.checkOpen();
    if (!this.dataset.hasOutputs) return this.keepForAnnouncing(records);
    // A resumed crawl: outputs that hold this page's records already take none again.
    const writers = this.dataset.internals.writers.filter((writer) => !writer.holdsPage(this.key));
    if (writers.length === 0 || records.length === 0) return;
    if (this.content === undefined && writers.some((writer) => writer.contentForm !== undefined))
      this.content = await this.readContent();
    if (this.acquiring === undefined) {
      const bytes = jsons.reduce((sum, json) => sum + json.length, 0);
      if (this.bufferedBytes + bytes <= PAGE_BUFFER_BYTES) {
        this.buffered.push({ records, jsons });
        this.bufferedBytes += bytes;
        return;
      }
    }
    await (this.acquiring ??= this.acquire());
    this.dataset.checkOpen();
    for (let from = 0; from < records.length; from += RECORDS_PER_APPEND) {
      const part = records.length <= RECORDS_PER_APPEND ? records : records.slice(from, from + RECORDS_PER_APPEND);
      const partJsons = records.length <= RECORDS_PER_APPEND ? jsons : jsons.slice(from, from + RECORDS_PER_APPEND);
      try {
        await writeAll(writers, part, partJsons, this.content);
      } catch (error) {
        throw this.dataset.fail(error);
      }
      this.keepForAnnouncing(part);
    }
  }

  /** The page's content for outputs that add it; a page that is not HTML has none (null). */
  private async readContent(): Promise<PushedContent | undefined> {
    if (this.contentOf === undefined) return undefined;
    try {
      return { page: await this.contentOf() };
    } catch (error) {
      if (error instanceof PolitelyError && error.code === 'ERR_INVALID_INPUT') return { page: null };
      throw error;
    }
  }

  private keepForAnnouncing(records: readonly DatasetRecord[]): void {
    if (this.dataset.listensForRecords()) this.unannounced.push(records);
  }

  /** The page committed: its records become `record` events. */
  private announce(): void {
    if (this.unannounced.length === 0) return;
    const records = this.unannounced;
    this.unannounced = [];
    for (const part of records) this.dataset.emit(part, this.url);
  }

  /** Takes the outputs' tail, and writes what the page kept so far first. */
  private async acquire(): Promise<void> {
    this.release = await this.dataset.internals.tail.acquire();
    this.starts = this.dataset.internals.writers.map((writer) => writer.size);
    const buffered = this.buffered;
    this.buffered = [];
    this.bufferedBytes = 0;
    if (buffered.length === 0) return;
    const writers = this.dataset.internals.writers.filter((writer) => !writer.holdsPage(this.key));
    const records = buffered.flatMap((push) => push.records);
    const jsons = buffered.flatMap((push) => push.jsons);
    for (let from = 0; from < records.length; from += RECORDS_PER_APPEND) {
      const part = records.slice(from, from + RECORDS_PER_APPEND);
      try {
        await writeAll(writers, part, jsons.slice(from, from + RECORDS_PER_APPEND), this.content);
      } catch (error) {
        throw this.dataset.fail(error);
      }
      this.keepForAnnouncing(part);
    }
  }

  private async settled(): Promise<void> {
    while (this.pending !== undefined && this.pending.size > 0) await Promise.all([...this.pending]);
    await this.acquiring?.catch(() => {});
  }

  /** Whether a push is still running: a page without one commits without waiting on `settled`. */
  private hasUnsettled(): boolean {
    return (this.pending !== undefined && this.pending.size > 0) || this.acquiring !== undefined;
  }

  private async cut(): Promise<void> {
    if (this.release === undefined) return;
    const { writers } = this.dataset.internals;
    await Promise.allSettled(writers.map((writer, i) => writer.rollback(this.starts[i]!)));
    this.releaseTail();
  }

  private releaseTail(): void {
    const release = this.release;
    this.release = undefined;
    release?.();
  }
}
