// Small JSON values kept with the crawl (its stats, a CLI's settings): the `crawl_meta` table.

import { PolitelyError } from '@politely/core';
import type { Database, Statement } from 'better-sqlite3';

/** Reads and writes JSON values by key in the crawl file. */
export interface CrawlMetadata {
  /** Stores `value` (anything `JSON.stringify` takes) under `key`, replacing what was there. */
  save(key: string, value: unknown): void;
  /** The value stored under `key`, parsed; undefined when none. */
  load<T = unknown>(key: string): T | undefined;
}

export function createCrawlMetadata(db: Database): CrawlMetadata {
  const write: Statement<[string, string, number]> = db.prepare(
    `INSERT INTO crawl_meta (key, value, updated_at) VALUES (?, ?, ?)
     ON CONFLICT (key) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at`,
  );
  const read: Statement<[string], string> = db
    .prepare<[string], string>('SELECT value FROM crawl_meta WHERE key = ?')
    .pluck();
  return {
    save(key, value) {
      const json = JSON.stringify(value);
      if (json === undefined)
        throw new PolitelyError('ERR_INVALID_INPUT', `crawl metadata '${key}': the value is not JSON`);
      write.run(key, json, Date.now());
    },
    load<T>(key: string): T | undefined {
      const json = read.get(key);
      return json === undefined ? undefined : (JSON.parse(json) as T);
    },
  };
}
