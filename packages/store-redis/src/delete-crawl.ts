// Removes every key of a crawl (its frontier and its robots cache): a finished crawl, or a test.

import type { Redis } from 'ioredis';
import { openRedis, type RedisConnection } from './connection.js';
import { type RedisKeyOptions, resolveKeyPrefix } from './keys.js';

export interface DeleteRedisCrawlOptions extends RedisKeyOptions {
  /** An ioredis client or a `RedisLink` (left open), or a `redis://` URL (opened and quit here). Required. */
  readonly redis: RedisConnection;
}

/**
 * Deletes every key under the crawl's prefix (SCAN, then UNLINK), its marker included: a worker
 * still running on it then stops (ERR_STORE). Resolves with how many keys were deleted.
 */
export async function deleteRedisCrawl(options: DeleteRedisCrawlOptions): Promise<number> {
  const prefix = resolveKeyPrefix('deleteRedisCrawl', options);
  const connection = openRedis('deleteRedisCrawl', options.redis);
  try {
    await connection.ready();
    const { redis } = connection;
    // A cluster keeps a crawl on one node (its keys share a hash tag), but scan every master.
    const nodes: Redis[] =
      'nodes' in redis && typeof redis.nodes === 'function' ? redis.nodes('master') : [redis as Redis];
    let deleted = 0;
    for (const node of nodes) {
      let cursor = '0';
      do {
        const [next, keys] = await node.scan(cursor, 'MATCH', `${escapeGlob(prefix)}*`, 'COUNT', 1000);
        cursor = next;
        if (keys.length > 0) deleted += await node.unlink(...keys);
      } while (cursor !== '0');
    }
    return deleted;
  } finally {
    await connection.close();
  }
}

/** The prefix as a literal SCAN pattern (`*`, `?`, `[`, `]` and `\` escaped). */
function escapeGlob(text: string): string {
  return text.replace(/[*?[\]\\]/g, '\\$&');
}
