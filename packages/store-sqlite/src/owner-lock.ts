// Who owns a crawl file. A crawl opened by one process holds a lock that the operating system
// lets go of when that process ends, however it ends (SIGKILL included): an exclusive
// transaction, held open, on a small SQLite file beside the crawl file (`crawl.db-owner`).
// While it is held, a second process is refused at once with a clear error; once it is free,
// whoever opens the crawl knows that no live process holds a lease, and hands every URL that
// was in flight back to its queue at once instead of waiting for the leases to expire.

import { PolitelyError } from '@politely/core';
import Database from 'better-sqlite3';

/** What a crawl's owner leaves in the crawl file, for the message a second process gets. */
export interface OwnerInfo {
  readonly pid: number;
  readonly since: string;
}

export interface OwnerLock {
  /** Lets go of the crawl (also done by the OS when the process ends). */
  release(): void;
}

/** The lock file beside a crawl file. */
export function ownerLockPath(crawlPath: string): string {
  return `${crawlPath}-owner`;
}

/**
 * Takes the crawl at `crawlPath` for this process, or throws `ERR_STORE_IN_USE`, naming the
 * owner when `describeOwner` can tell it.
 */
export function takeOwnership(crawlPath: string, describeOwner: () => OwnerInfo | undefined): OwnerLock {
  const path = ownerLockPath(crawlPath);
  let db: Database.Database;
  try {
    db = new Database(path, { timeout: 0 });
  } catch (error) {
    throw new PolitelyError(
      'ERR_INVALID_OPTION',
      `createSqliteFrontierStore: cannot create the lock file ${path}: ${(error as Error).message}`,
      { cause: error },
    );
  }
  try {
    // No journal file beside the lock file: nothing is ever written to it.
    db.pragma('journal_mode = MEMORY');
    db.exec('BEGIN EXCLUSIVE');
  } catch (error) {
    db.close();
    if ((error as { code?: string }).code !== 'SQLITE_BUSY') throw error;
    const owner = safely(describeOwner);
    const who = owner === undefined ? 'another process' : `another process (pid ${owner.pid}, since ${owner.since})`;
    throw new PolitelyError(
      'ERR_STORE_IN_USE',
      `${crawlPath} is in use by ${who}: one process owns a crawl file (open it with shared: true to share it between processes)`,
      {
        cause: error,
      },
    );
  }
  return {
    release() {
      if (db.open) db.close();
    },
  };
}

function safely<T>(read: () => T): T | undefined {
  try {
    return read();
  } catch {
    return undefined;
  }
}
