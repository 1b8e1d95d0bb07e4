// Opens a crawl file: WAL, synchronous=NORMAL, a busy timeout and a bounded page cache, then
// the schema.
//
// WAL lets readers (counts, a progress display, another process) run beside the one writer, and
// makes a commit one append to the log. With WAL, synchronous=NORMAL never corrupts the file and
// loses nothing when a process dies (SIGKILL, crash): a commit is in the log as soon as it
// returns. Only a power cut or an OS crash can take back the last commits before a checkpoint,
// which for a crawl means a few URLs fetched again. FULL would fsync at every commit, and a
// crawler commits several times per page (claim, add links, complete).

import { PolitelyError } from '@politely/core';
import Database from 'better-sqlite3';
import { migrate } from './schema.js';

/** Pages (of 4 KiB) the log may hold before a checkpoint: 64 MiB, as `journal_size_limit`. */
const WAL_CHECKPOINT_PAGES = 16_384;

/** How a crawl file is opened. */
export interface CrawlDatabaseOptions {
  /**
   * How long a statement waits for another connection's write lock (another process on the same
   * file) before failing with SQLITE_BUSY.
   * @default 5000
   */
  readonly busyTimeoutMs?: number;
  /**
   * SQLite's page cache for this connection, in KiB: the bound on what the store holds in memory,
   * whatever the number of URLs. Pages beyond it are read back from the file (through the OS
   * cache). 16 MiB crawls 100,000 pages as fast as 64 MiB, in less memory (docs/benchmarks.md);
   * raise it for a frontier of millions of URLs.
   * @default 16384 (16 MiB)
   */
  readonly cacheSizeKiB?: number;
}

export type ResolvedCrawlDatabaseOptions = Required<CrawlDatabaseOptions>;

function invalid(name: string, value: unknown, what: string): PolitelyError {
  return new PolitelyError(
    'ERR_INVALID_OPTION',
    `@politely/store-sqlite: ${name} must be ${what}, got ${String(value)}`,
  );
}

export function resolveCrawlDatabaseOptions(options: CrawlDatabaseOptions = {}): ResolvedCrawlDatabaseOptions {
  const busyTimeoutMs = options.busyTimeoutMs ?? 5000;
  const cacheSizeKiB = options.cacheSizeKiB ?? 16_384;
  if (!Number.isInteger(busyTimeoutMs) || busyTimeoutMs < 0)
    throw invalid('busyTimeoutMs', busyTimeoutMs, 'an integer ≥ 0');
  if (!Number.isInteger(cacheSizeKiB) || cacheSizeKiB < 64)
    throw invalid('cacheSizeKiB', cacheSizeKiB, 'an integer ≥ 64');
  return { busyTimeoutMs, cacheSizeKiB };
}

/** Opens (creating if needed) the crawl file at `path`, configured and migrated. */
export function openCrawlDatabase(path: string, options: ResolvedCrawlDatabaseOptions): Database.Database {
  if (typeof path !== 'string' || path === '') throw invalid('path', path, 'a file path');
  const db = new Database(path, { timeout: options.busyTimeoutMs });
  try {
    configureConnection(db, options);
    migrate(db);
    return db;
  } catch (error) {
    db.close();
    throw error;
  }
}

/** The per-connection settings (also applied to a database handed in by the caller). */
export function configureConnection(db: Database.Database, options: ResolvedCrawlDatabaseOptions): void {
  db.pragma(`busy_timeout = ${options.busyTimeoutMs}`);
  // journal_mode is stored in the file: a WAL file stays WAL for every later connection.
  // An in-memory database answers `memory`: nothing to share, nothing to make durable.
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  // Negative: a size in KiB rather than in pages.
  db.pragma(`cache_size = -${options.cacheSizeKiB}`);
  // No memory-mapped I/O: mapped pages of the file would count in the process's RSS.
  db.pragma('mmap_size = 0');
  // Keeps the -wal file from staying at its high-water mark after a burst of writes.
  db.pragma(`journal_size_limit = ${64 * 1024 * 1024}`);
  // Checkpoint when the log holds 64 MiB rather than SQLite's 4 MiB: a page written by many
  // commits in between is copied into the file once, and each checkpoint's fsyncs are paid 16
  // times less often (at a million URLs, one run each way: adds
  // 2.3 times as fast). The -wal file may grow to that size.
  db.pragma(`wal_autocheckpoint = ${WAL_CHECKPOINT_PAGES}`);
}
