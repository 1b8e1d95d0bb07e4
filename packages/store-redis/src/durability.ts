// Whether a Redis keeps a crawl through a restart and under memory pressure. A crawl in Redis is
// only as durable as Redis: without `appendonly yes` a restart loses it (the workers stop, see
// the crawl marker in frontier-scripts.ts), and with a `maxmemory-policy` other than
// `noeviction` Redis may evict its keys.

import { openRedis, type RedisConnection } from './connection.js';

/** What `checkRedisDurability` found: what a durable crawl lacks, or why it could not check. */
export type RedisDurability =
  /** What is missing for a durable crawl: none when `problems` is empty. */
  | { readonly checked: true; readonly problems: readonly string[] }
  /** CONFIG GET is disabled or refused (managed Redis services often rename it): why. */
  | { readonly checked: false; readonly reason: string };

/** Reads `appendonly` and `maxmemory-policy` with CONFIG GET and says what a durable crawl lacks. */
export async function checkRedisDurability(redis: RedisConnection): Promise<RedisDurability> {
  const connection = openRedis('checkRedisDurability', redis);
  try {
    const read = async (name: string): Promise<string | undefined> => {
      const reply = (await connection.run(() => connection.redis.call('CONFIG', 'GET', name))) as unknown;
      return Array.isArray(reply) && typeof reply[1] === 'string' ? reply[1] : undefined;
    };
    let appendonly: string | undefined;
    let policy: string | undefined;
    try {
      appendonly = await read('appendonly');
      policy = await read('maxmemory-policy');
    } catch (error) {
      return { checked: false, reason: (error instanceof Error ? error.message : String(error)).split('\n')[0]! };
    }
    if (appendonly === undefined || policy === undefined)
      return { checked: false, reason: 'CONFIG GET answered nothing' };
    const problems: string[] = [];
    if (appendonly !== 'yes')
      problems.push(`appendonly is ${appendonly} (a restart loses the crawl: set appendonly yes)`);
    if (policy !== 'noeviction')
      problems.push(
        `maxmemory-policy is ${policy} (Redis may evict the crawl's keys: set maxmemory-policy noeviction)`,
      );
    return { checked: true, problems };
  } finally {
    await connection.close();
  }
}
