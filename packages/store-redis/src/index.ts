// @politely/store-redis: distributed crawls. The frontier, its host clocks and leases, and the
// robots.txt cache in Redis, shared by every worker process of a crawl.

export { createRedisFrontierStore, resolveRedisFrontierStoreOptions } from './redis-frontier-store.js';
export type { RedisFrontierStoreOptions, ResolvedRedisFrontierStoreOptions } from './redis-frontier-store.js';
export { createRedisRobotsCache } from './redis-robots-cache.js';
export type { RedisRobotsCache, RedisRobotsCacheOptions } from './redis-robots-cache.js';
export { deleteRedisCrawl } from './delete-crawl.js';
export type { DeleteRedisCrawlOptions } from './delete-crawl.js';
export { resolveKeyPrefix } from './keys.js';
export type { RedisKeyOptions } from './keys.js';
export type { RedisConnection } from './connection.js';
export { queuePriorityOf, MIN_QUEUE_PRIORITY, MAX_QUEUE_PRIORITY } from './queue-score.js';
