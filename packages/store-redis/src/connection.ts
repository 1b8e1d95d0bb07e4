// A Redis connection given by the caller (theirs to close) or by URL (ours: opened here,
// closed by the store's close()).

import { Redis, type Cluster } from 'ioredis';
import { invalid } from './keys.js';

/** An ioredis connection (`Redis` or `Cluster`), or a `redis://` / `rediss://` URL to open one. */
export type RedisConnection = Redis | Cluster | string;

export interface OpenedRedis {
  readonly redis: Redis | Cluster;
  /** Closes the connection if this module opened it; leaves a caller's connection open. */
  close(): Promise<void>;
}

export function openRedis(entryPoint: string, connection: RedisConnection): OpenedRedis {
  if (typeof connection === 'string') {
    if (!/^rediss?:\/\//.test(connection)) throw invalid(entryPoint, `redis must be a redis:// or rediss:// URL or an ioredis client, got ${JSON.stringify(connection)}`);
    const redis = new Redis(connection);
    return {
      redis,
      close: async () => {
        await redis.quit().catch(() => redis.disconnect());
      },
    };
  }
  // Duck-typed rather than `instanceof`, which a second copy of ioredis in node_modules would fail.
  if (typeof connection !== 'object' || connection === null || typeof connection.defineCommand !== 'function') {
    throw invalid(entryPoint, 'redis must be a redis:// URL or an ioredis Redis or Cluster client');
  }
  return { redis: connection, close: () => Promise.resolve() };
}
