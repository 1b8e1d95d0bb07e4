// The robots gate's store in Redis: every worker of a crawl shares what each learned about an
// origin's robots.txt, and its fetch lock makes one of them fetch it per cache period.

import { randomUUID } from 'node:crypto';
import type { RobotsCacheRecord, RobotsCacheStore } from '@politely/core';
import { openRedis, type RedisConnection, type RedisLinkOptions } from './connection.js';
import { invalid, type RedisKeyOptions, resolveCrawlKeys, robotsKey, robotsLockKey } from './keys.js';

/** Options of `createRedisRobotsCache`: the connection, the crawl's keys and how long stale records are kept. */
export interface RedisRobotsCacheOptions extends RedisKeyOptions, RedisLinkOptions {
  /**
   * The Redis to keep records in: a `redis://`, `rediss://`, `redis-cluster://` or
   * `rediss-cluster://` URL (opened here, quit by `close()`), a `RedisLink` (shared with the frontier store: one connection; yours to close),
   * or an ioredis `Redis` or `Cluster` client (yours to close). Required.
   */
  readonly redis: RedisConnection;
  /**
   * How long a record stays in Redis after it stops being current. The gate fetches again once
   * a record expires, but keeps its last good copy through an outage (RFC 9309 2.4), so a stale
   * record is worth keeping a while; an evicted one is simply fetched again.
   * @default 604800000 (7 days)
   */
  readonly keepStaleMs?: number;
  /**
   * The clock the record lifetimes (`expiresAt`) are compared with, for the key TTLs.
   * @default Date.now
   */
  readonly now?: () => number;
}

/** A RobotsCacheStore in Redis, with a fetch lock per origin; `close()` quits a connection it opened. */
export interface RedisRobotsCache extends RobotsCacheStore {
  acquireFetchLock(origin: string, ttlMs: number): Promise<(() => Promise<void>) | null>;
  close(): Promise<void>;
}

/** Deletes the lock only if it still holds our token: an expired lock may belong to another process now. */
const RELEASE_LOCK = `
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0
`;

interface LockCommands {
  politelyRobotsReleaseLock(key: string, token: string): Promise<number>;
}

const ENTRY_POINT = 'createRedisRobotsCache';

/**
 * A robots.txt cache in Redis, shared by every worker of a crawl: one fetch per origin per cache
 * period across them all.
 */
export function createRedisRobotsCache(options: RedisRobotsCacheOptions): RedisRobotsCache {
  const prefix = resolveCrawlKeys(ENTRY_POINT, options);
  const keepStaleMs = options.keepStaleMs ?? 7 * 24 * 60 * 60 * 1000;
  if (!Number.isInteger(keepStaleMs) || keepStaleMs < 0)
    throw invalid(ENTRY_POINT, `keepStaleMs must be an integer ≥ 0, got ${String(keepStaleMs)}`);
  const now = options.now ?? Date.now;
  const connection = openRedis(ENTRY_POINT, options.redis, options);
  const { redis, run } = connection;
  redis.defineCommand('politelyRobotsReleaseLock', { numberOfKeys: 1, lua: RELEASE_LOCK });
  const commands = redis as unknown as LockCommands;

  return {
    async get(origin) {
      const text = await run(() => redis.get(robotsKey(prefix, origin)));
      if (text === null) return undefined;
      try {
        return JSON.parse(text) as RobotsCacheRecord;
      } catch {
        return undefined; // not a record of ours: fetched again, and overwritten
      }
    },
    async set(origin, record) {
      const ttlMs = Math.max(0, Math.ceil(record.expiresAt - now())) + keepStaleMs;
      await run(() => redis.set(robotsKey(prefix, origin), JSON.stringify(record), 'PX', Math.max(1, ttlMs)));
    },
    async delete(origin) {
      await run(() => redis.del(robotsKey(prefix, origin)));
    },
    async acquireFetchLock(origin, ttlMs) {
      const key = robotsLockKey(prefix, origin);
      const token = randomUUID();
      const taken = await run(() => redis.set(key, token, 'PX', Math.max(1, Math.ceil(ttlMs)), 'NX'));
      if (taken === null) return null;
      return async () => {
        await run(() => commands.politelyRobotsReleaseLock(key, token));
      };
    },
    close: () => connection.close(),
  };
}
