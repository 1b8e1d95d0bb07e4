// The robots gate's records in the crawl file (table `robots_cache`, one JSON record per origin),
// so that a resumed crawl, or another process on the same file, does not fetch robots.txt again
// before the record expires. Each call is one statement: SQLite makes it atomic by itself.

import type { RobotsCacheRecord, RobotsCacheStore } from '@politely/core';
import type { Database, Statement } from 'better-sqlite3';
import { type CrawlDatabaseOptions, openCrawlDatabase, resolveCrawlDatabaseOptions } from './open-database.js';
import { migrate } from './schema.js';
import type { SqliteFrontierStore } from './sqlite-store.js';

/** Where the records go: the crawl's store (one file, one connection), an open database, or a file. */
export type SqliteRobotsCacheSource =
  | SqliteFrontierStore
  | Database
  | string
  | ({ readonly path: string } & CrawlDatabaseOptions);

/** A RobotsCacheStore in a crawl file. */
export interface SqliteRobotsCache extends RobotsCacheStore {
  /** Closes the connection if this cache opened it (from a path); otherwise does nothing. */
  close(): Promise<void>;
}

/**
 * The gate's robots.txt records in a crawl file. Pass the frontier store to keep them in the
 * same file over the same connection: `createCrawler({ store, robotsCache: createSqliteRobotsCache(store) })`.
 */
export function createSqliteRobotsCache(source: SqliteRobotsCacheSource): SqliteRobotsCache {
  const { db, owned } = databaseOf(source);
  const read: Statement<[string], string> = db
    .prepare<[string], string>('SELECT record FROM robots_cache WHERE origin = ?')
    .pluck();
  const write: Statement<[string, string, number]> = db.prepare(
    `INSERT INTO robots_cache (origin, record, updated_at) VALUES (?, ?, ?)
     ON CONFLICT (origin) DO UPDATE SET record = excluded.record, updated_at = excluded.updated_at`,
  );
  const remove: Statement<[string]> = db.prepare('DELETE FROM robots_cache WHERE origin = ?');
  return {
    get: async (origin) => {
      const json = read.get(origin);
      return json === undefined ? undefined : (JSON.parse(json) as RobotsCacheRecord);
    },
    set: async (origin, record) => {
      write.run(origin, JSON.stringify(record), Date.now());
    },
    delete: async (origin) => {
      remove.run(origin);
    },
    close: async () => {
      if (owned && db.open) db.close();
    },
  };
}

function databaseOf(source: SqliteRobotsCacheSource): { db: Database; owned: boolean } {
  if (typeof source === 'string') return { db: openCrawlDatabase(source, resolveCrawlDatabaseOptions()), owned: true };
  if (isStore(source)) return { db: source.db, owned: false };
  if (isDatabase(source)) {
    // The caller's connection keeps the caller's settings; it only gets the tables.
    migrate(source);
    return { db: source, owned: false };
  }
  return { db: openCrawlDatabase(source.path, resolveCrawlDatabaseOptions(source)), owned: true };
}

function isStore(source: object): source is SqliteFrontierStore {
  return 'db' in source && 'claim' in source;
}

function isDatabase(source: object): source is Database {
  return 'prepare' in source && 'pragma' in source;
}
