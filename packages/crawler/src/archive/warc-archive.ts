// A crawl's WARC archive: every exchange the crawl's HTTP client captured, written as a response
// (or revisit) record and the request record concurrent to it, in numbered files (warc-files.ts),
// each exchange committed in the ledger (warc-ledger.ts) before the response goes back to the
// crawler — so before its URL can count as done. Optionally a CDXJ index line per response.
//
// Revisits: the archive remembers, per URL, the last response it wrote whole (bounded: the
// newest CAPTURE_MEMORY URLs, rebuilt from the ledger on resume). The same URL answering the same
// payload again — a recrawl's unchanged page, robots.txt fetched again by a resumed crawl — is a
// revisit record (identical-payload-digest) that refers to it; a 304 to a revalidation is a
// revisit too (server-not-modified). Past the memory's bound a repeat is written whole again:
// more bytes, never a wrong record.
//
// A write that fails ends the archive: ERR_OUTPUT now and on every later exchange, and the
// crawl stops (`onFailure`); what was committed stays, and a resumed crawl cuts the rest.

import { readFileSync } from 'node:fs';
import { stat } from 'node:fs/promises';
import { hostname } from 'node:os';
import { basename } from 'node:path';
import { type HttpExchange, PolitelyError } from '@politely/core';
import { LruMap } from '@politely/core/internal';
import { AppendFile, outputError } from '../files/append-file.js';
import { OutputLock } from '../files/output-lock.js';
import { cdxjLine, sortCdxjFile } from './cdxj.js';
import {
  type ArchivedCapture,
  exchangeRecords,
  isConditional,
  payloadDigestOf,
  type ResponseKind,
} from './exchange-records.js';
import { removeFilesFrom, type WarcFileNames, WarcFiles, warcFileNames, warcFilePath } from './warc-files.js';
import {
  readWarcLedger,
  WARC_LEDGER_SUFFIX,
  type WarcCommit,
  warcCommitLine,
  warcLedgerHeaderLine,
} from './warc-ledger.js';
import type { ResolvedWarcOutput } from './warc-options.js';
import { warcFieldsBlock, warcRecordBytes, warcRecordId } from './warc-record.js';

/** URLs whose last whole response the archive remembers, for revisit records. */
const CAPTURE_MEMORY = 200_000;

/** What the warcinfo record of each file says about the crawl. */
export interface WarcCrawlInfo {
  readonly userAgent: string;
  readonly from: string | undefined;
  /** The product tokens robots.txt groups are matched against. */
  readonly robotsTokens: readonly string[];
  /** `purposes`: what the pages are for (usage preferences). */
  readonly purposes: readonly string[];
}

/** What became of a WARC output (`crawler.outputs()`). */
export interface WarcOutputStatus {
  readonly path: string;
  readonly format: 'warc';
  /** Records written by this run (warcinfo, response, revisit, request). */
  readonly records: number;
  /** Records the files held from earlier runs of the crawl (resumed into them). */
  readonly earlier: number;
  /** Bytes cut from the end of the last file when the crawl resumed: what a kill left uncommitted. */
  readonly cutBytes: number;
  /** The files written to by this run, in order. */
  readonly files: readonly string[];
  /** Exchanges archived with a response record, and with a revisit record. */
  readonly responses: number;
  readonly revisits: number;
  /** Responses that came without a captured exchange (a custom `httpClient` that does not capture). */
  readonly unrecorded: number;
  /** The CDXJ index, if written. */
  readonly cdx: string | undefined;
}

/** An exchange whose records are encoded, waiting for its round. */
interface QueuedExchange {
  readonly url: string;
  readonly exchange: HttpExchange;
  readonly payloadDigest: string;
  readonly type: 'response' | 'revisit';
  readonly responseId: string;
  /** The response record, then the request record, as they go in the file. */
  readonly encoded: readonly Buffer[];
  resolve(): void;
  reject(error: unknown): void;
}

interface Placed {
  readonly entry: QueuedExchange;
  readonly bytes: number;
}

export interface WarcArchiveHooks {
  /** A write failed: the crawl must stop. */
  readonly onFailure: (error: PolitelyError) => void;
  /** Bytes of WARC records written to the archive's files (metrics). */
  readonly onWritten?: (bytes: number) => void;
}

export class WarcArchive {
  private readonly names: WarcFileNames;
  /** Exchanges encoded and waiting to be written, and the round writing them. */
  private queue: QueuedExchange[] = [];
  private flushing: Promise<void> | undefined;
  private readonly captures = new LruMap<string, ArchivedCapture>(CAPTURE_MEMORY);
  private files: WarcFiles | undefined;
  private ledger: AppendFile | undefined;
  private index: AppendFile | undefined;
  /** This process's hold on the archive: two writers would interleave their records in one file. */
  private lock: OutputLock | undefined;
  /** The size of the current file's warcinfo: a file holding only that takes any record. */
  private warcinfoBytes = 0;
  private failure: PolitelyError | undefined;
  private state: 'new' | 'open' | 'closed' = 'new';
  private readonly counts = { records: 0, earlier: 0, cutBytes: 0, responses: 0, revisits: 0, unrecorded: 0 };
  private readonly written: string[] = [];
  /** When this run opened the archive: the crawl's start, in every warcinfo it writes. */
  private startedAt = 0;

  constructor(
    private readonly output: ResolvedWarcOutput,
    private readonly info: WarcCrawlInfo,
    private readonly hooks: WarcArchiveHooks,
  ) {
    this.names = warcFileNames(output.path);
  }

  private get ledgerPath(): string {
    return this.output.path + WARC_LEDGER_SUFFIX;
  }

  /** Opens the archive (`resume`: the crawl's store held it already). Throws ERR_OUTPUT naming the file. */
  async open(resume: boolean): Promise<void> {
    if (this.state !== 'new') return;
    this.startedAt = Date.now();
    try {
      this.lock = await OutputLock.take(this.output.path);
      if (!resume || !(await this.resume())) await this.begin();
      this.state = 'open';
    } catch (error) {
      await this.closeFiles().catch(() => {});
      this.state = 'closed';
      throw error instanceof PolitelyError ? error : outputError(this.output.path, error);
    }
  }

  /** Archives one exchange; resolves once its records are committed. Rejects with ERR_OUTPUT. */
  async record(url: string, exchange: HttpExchange): Promise<void> {
    this.checkOpen();
    const payloadDigest = payloadDigestOf(exchange);
    const records = exchangeRecords(url, exchange, this.kindOf(url, exchange, payloadDigest), payloadDigest);
    const encoded = await this.files!.encode([records.response.parts, records.request.parts]);
    this.checkOpen();
    await new Promise<void>((resolve, reject) => {
      this.queue.push({
        url,
        exchange,
        payloadDigest,
        type: records.response.type,
        responseId: records.response.id,
        encoded,
        resolve,
        reject,
      });
      this.flushing ??= this.flushQueue().finally(() => (this.flushing = undefined));
    });
  }

  /**
   * Writes waiting exchanges in rounds: each round's records in one write (a roll to the next file
   * between them where one fills up), their index lines in one, then one ledger line commits them.
   */
  private async flushQueue(): Promise<void> {
    while (this.queue.length > 0) {
      const round = this.queue.splice(0);
      try {
        if (this.failure !== undefined) throw this.failure;
        let placed: Placed[] = [];
        for (const entry of round) {
          const bytes = entry.encoded.reduce((sum, part) => sum + part.length, 0);
          const pendingBytes = placed.reduce((sum, item) => sum + item.bytes, 0);
          if (this.files!.wouldOverflow(pendingBytes + bytes, this.warcinfoBytes)) {
            await this.writePlaced(placed);
            placed = [];
            await this.files!.roll();
            await this.writeWarcinfo();
          }
          placed.push({ entry, bytes });
        }
        await this.writePlaced(placed);
      } catch (error) {
        const failure = this.fail(error);
        for (const entry of round) entry.reject(failure);
        continue;
      }
      for (const entry of round) entry.resolve();
    }
  }

  /** Appends exchanges' records to the current file and their index lines, then commits them. */
  private async writePlaced(placed: readonly Placed[]): Promise<void> {
    if (placed.length === 0) return;
    const files = this.files!;
    const encoded = placed.flatMap(({ entry }) => entry.encoded);
    const where = await files.append(encoded);
    this.hooks.onWritten?.(encoded.reduce((sum, buffer) => sum + buffer.length, 0));
    let index = '';
    const captures: [string, string, string, number][] = [];
    placed.forEach(({ entry }, i) => {
      const response = where[i * 2]!;
      const { url, exchange, payloadDigest, type } = entry;
      index += cdxjLine({
        url,
        date: exchange.sentAt,
        mime: exchange.rawHeaders.find(([name]) => name.toLowerCase() === 'content-type')?.[1],
        status: exchange.status,
        payloadDigest,
        length: response.length,
        offset: response.offset,
        filename: response.filename,
        type,
      });
      // A cut payload is no original to refer to: only whole ones are remembered.
      if (type === 'response' && exchange.truncated === undefined)
        captures.push([url, payloadDigest, entry.responseId, exchange.sentAt]);
    });
    await this.index?.append(index);
    await this.commit({ records: placed.length * 2, ...(captures.length === 0 ? {} : { captures }) });
    for (const [url, payloadDigest, id, date] of captures) this.captures.set(url, { id, date, payloadDigest });
    for (const { entry } of placed) {
      if (entry.type === 'response') this.counts.responses++;
      else this.counts.revisits++;
    }
    this.counts.records += placed.length * 2;
  }

  /** A response came without its exchange (a client that does not capture): counted, not archived. */
  noteUnrecorded(): void {
    this.counts.unrecorded++;
  }

  status(): WarcOutputStatus {
    return { path: this.output.path, format: 'warc', ...this.counts, files: [...this.written], cdx: this.output.cdx };
  }

  /** Waits for every exchange, closes the files and sorts the index. Rejects with ERR_OUTPUT if a write failed. */
  async close(): Promise<void> {
    if (this.state === 'closed') return;
    const wasOpen = this.state === 'open';
    this.state = 'closed';
    // Exchanges handed over before the close are written first.
    while (this.flushing !== undefined) await this.flushing;
    await this.closeFiles().catch((error: unknown) => this.fail(error));
    if (this.failure !== undefined) throw this.failure;
    // Sorted once the last line is in: pywb finds records by binary search.
    if (wasOpen && this.output.cdx !== undefined)
      await sortCdxjFile(this.output.cdx).catch((error: unknown) => this.fail(error));
    if (this.failure !== undefined) throw this.failure;
  }

  // —— opening ——

  /** A fresh archive: file 0 with its warcinfo, a new ledger (and index). */
  private async begin(): Promise<void> {
    const first = warcFilePath(this.names, 0);
    const existing = await Promise.all(
      [first, this.ledgerPath].map((path) =>
        stat(path).then(
          (info) => info.size > 0,
          () => false,
        ),
      ),
    );
    if (existing.some(Boolean)) {
      if (!this.output.overwrite) {
        throw new PolitelyError(
          'ERR_OUTPUT',
          `could not write ${first}: it already holds an archive and this crawl is not resuming the one that wrote it: set overwrite: true to replace it, or resume that crawl (the same store)`,
        );
      }
      await removeFilesFrom(this.names, 0);
    }
    this.ledger = await AppendFile.open(this.ledgerPath, { mode: 'truncate' });
    await this.ledger.append(warcLedgerHeaderLine());
    if (this.output.cdx !== undefined) this.index = await AppendFile.open(this.output.cdx, { mode: 'truncate' });
    this.files = await WarcFiles.open(this.names, this.output.maxFileBytes, 0, 'truncate');
    await this.writeWarcinfo();
  }

  /** Resumes into the archive its ledger describes; false when there is nothing to resume (begin anew). */
  private async resume(): Promise<boolean> {
    const read = await readWarcLedger(this.ledgerPath, (url, capture) => this.captures.set(url, capture)).catch(
      (error: NodeJS.ErrnoException) => {
        if (error.code === 'ENOENT') return null;
        throw outputError(this.ledgerPath, error);
      },
    );
    if (read === null || read?.last === undefined) {
      const first = warcFilePath(this.names, 0);
      const holds = await stat(first).then(
        (info) => info.size > 0,
        () => false,
      );
      // Files without a ledger that says what is whole in them: not ours to cut or to append to.
      if (holds && read === null)
        throw new PolitelyError(
          'ERR_OUTPUT',
          `could not write ${first}: it holds an archive but its ledger ${this.ledgerPath} is missing, so what is whole in it is unknown: move the files away, or set overwrite: true on a fresh crawl`,
        );
      this.captures.clear();
      return false;
    }
    if (read === undefined)
      throw new PolitelyError(
        'ERR_OUTPUT',
        `could not write ${this.output.path}: ${this.ledgerPath} is not a WARC ledger`,
      );
    const last: WarcCommit = read.last;
    const path = warcFilePath(this.names, last.file);
    const size = await stat(path).then(
      (info) => info.size,
      (error: unknown) => {
        throw outputError(path, error);
      },
    );
    if (size < last.end)
      throw new PolitelyError(
        'ERR_OUTPUT',
        `could not write ${path}: it holds ${size} bytes, fewer than the ${last.end} its ledger ${this.ledgerPath} records: was it changed?`,
      );
    this.files = await WarcFiles.open(this.names, this.output.maxFileBytes, last.file, 'append');
    if (size > last.end && !(await this.files.truncateTo(last.end)))
      throw outputError(path, new Error(`could not cut the ${size - last.end} bytes past its last committed record`));
    this.counts.cutBytes = size - last.end;
    await removeFilesFrom(this.names, last.file + 1);
    this.ledger = await AppendFile.open(this.ledgerPath, { mode: 'append' });
    if (read.wholeBytes < read.totalBytes && !(await this.ledger.truncateTo(read.wholeBytes)))
      throw outputError(this.ledgerPath, new Error('could not cut its half-written last line'));
    if (this.output.cdx !== undefined) {
      this.index = await AppendFile.open(this.output.cdx, { mode: 'append' });
      if (this.index.size > last.cdx && !(await this.index.truncateTo(last.cdx)))
        throw outputError(this.output.cdx, new Error('could not cut the lines past its last commit'));
    }
    this.counts.earlier = read.records;
    this.written.push(path);
    // The current file's warcinfo is in it: anything may follow until it is full.
    this.warcinfoBytes = 0;
    return true;
  }

  // —— writing ——

  /** The warcinfo record that begins the current file, committed. */
  private async writeWarcinfo(): Promise<void> {
    const files = this.files!;
    const { path } = files.current;
    const record = warcRecordBytes({
      type: 'warcinfo',
      id: warcRecordId(),
      date: Date.now(),
      fields: [['WARC-Filename', basename(path)]],
      contentType: 'application/warc-fields',
      block: [warcFieldsBlock(this.warcinfoFields())],
    });
    const [encoded] = await files.encode([record.parts]);
    await files.append([encoded!]);
    this.hooks.onWritten?.(encoded!.length);
    this.warcinfoBytes = encoded!.length;
    this.written.push(path);
    await this.commit({ records: 1 });
    this.counts.records++;
  }

  private warcinfoFields(): (readonly [string, string])[] {
    const { info } = this;
    const fields: (readonly [string, string])[] = [
      ['software', `politely/${versionOfCrawler()}`],
      ['format', 'WARC File Format 1.1'],
      ['conformsTo', 'https://iipc.github.io/warc-specifications/specifications/warc-format/warc-1.1/'],
      ['hostname', hostname()],
      ['http-header-user-agent', info.userAgent],
    ];
    if (info.from !== undefined) fields.push(['http-header-from', info.from]);
    // `classic`: robots.txt obeyed, as the IIPC's warcinfo field names it.
    fields.push(['robots', 'classic'], ['robots-tokens', info.robotsTokens.join(', ')]);
    if (info.purposes.length > 0) fields.push(['usage-purposes', info.purposes.join(', ')]);
    fields.push(['crawl-start', new Date(this.startedAt).toISOString()]);
    return fields;
  }

  private async commit(entry: Pick<WarcCommit, 'records' | 'captures'>): Promise<void> {
    const files = this.files!;
    const commit: WarcCommit = {
      file: files.current.number,
      end: files.current.size,
      cdx: this.index?.size ?? 0,
      ...entry,
    };
    await this.ledger!.append(warcCommitLine(commit));
  }

  /** What the response record of `exchange` is: whole, or a revisit of the URL's archived capture. */
  private kindOf(url: string, exchange: HttpExchange, payloadDigest: string): ResponseKind {
    const original = this.captures.get(url);
    if (exchange.status === 304 && isConditional(exchange)) return { kind: 'not-modified', original };
    if (original !== undefined && exchange.truncated === undefined && original.payloadDigest === payloadDigest)
      return { kind: 'identical', original };
    return { kind: 'response' };
  }

  private checkOpen(): void {
    if (this.failure !== undefined) throw this.failure;
    if (this.state !== 'open')
      throw new PolitelyError(
        'ERR_OUTPUT',
        `could not write ${this.output.path}: the archive is ${this.state === 'new' ? 'not open yet' : 'closed'}`,
      );
  }

  private fail(error: unknown): PolitelyError {
    if (this.failure === undefined) {
      this.failure =
        error instanceof PolitelyError && error.code === 'ERR_OUTPUT'
          ? error
          : outputError(this.files?.current.path ?? this.output.path, error);
      this.hooks.onFailure(this.failure);
    }
    return this.failure;
  }

  private async closeFiles(): Promise<void> {
    const results = await Promise.allSettled([this.files?.close(), this.ledger?.close(), this.index?.close()]);
    await this.lock?.release();
    const failed = results.find((result): result is PromiseRejectedResult => result.status === 'rejected');
    if (failed !== undefined) throw failed.reason;
  }
}

let crawlerVersion: string | undefined;

/** This package's version, for the warcinfo's `software` (read once, when an archive first needs it). */
function versionOfCrawler(): string {
  crawlerVersion ??= (
    JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }
  ).version;
  return crawlerVersion;
}
