// Removes every key of a crawl (its frontier in every bucket, its robots cache): a finished
// crawl, or a test.

import type { Redis } from 'ioredis';
import { openRedis, type RedisConnection } from './connection.js';
import { crawlKeyMatcher, type RedisKeyOptions, resolveCrawlKeys } from './keys.js';

/** Options of `deleteRedisCrawl`: the connection and the crawl's keys. */
export interface DeleteRedisCrawlOptions extends RedisKeyOptions {
  /**
   * An ioredis client (`Redis` or `Cluster`) or a `RedisLink` (left open), or a `redis://` or
   * `redis-cluster://` URL (opened and quit here). Required.
   */
  readonly redis: RedisConnection;
}

/**
 * Deletes every key of the crawl, crawl-wide and in every bucket, on every primary of a cluster
 * (SCAN, then UNLINK), its marker included: a worker still running on it then stops (ERR_STORE).
 * Resolves with how many keys were deleted.
 */
export async function deleteRedisCrawl(options: DeleteRedisCrawlOptions): Promise<number> {
  const matcher = crawlKeyMatcher(resolveCrawlKeys('deleteRedisCrawl', options));
  const connection = openRedis('deleteRedisCrawl', options.redis);
  try {
    await connection.ready();
    const { redis } = connection;
    const nodes: Redis[] =
      'nodes' in redis && typeof redis.nodes === 'function' && 'slots' in redis
        ? redis.nodes('master')
        : [redis as Redis];
    let deleted = 0;
    for (const node of nodes) {
      let cursor = '0';
      do {
        const [next, found] = await connection.run(() => node.scan(cursor, 'MATCH', matcher.pattern, 'COUNT', 1000));
        cursor = next;
        // One UNLINK per key (a cluster node refuses keys of several slots in one command), pipelined.
        const keys = found.filter((k) => matcher.test(k));
        if (keys.length === 0) continue;
        const pipeline = node.pipeline();
        for (const key of keys) pipeline.unlink(key);
        const replies = (await connection.run(() => pipeline.exec())) ?? [];
        for (const [error, count] of replies) {
          if (error !== null) throw error;
          deleted += Number(count);
        }
      } while (cursor !== '0');
    }
    return deleted;
  } finally {
    await connection.close();
  }
}
