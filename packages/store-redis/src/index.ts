// @politely/store-redis: distributed crawls. The frontier, its host clocks and leases, and the
// robots.txt cache in Redis, shared by every worker process of a crawl.

export type { RedisConnection, RedisLink, RedisLinkOptions } from './connection.js';
export { createRedisLink } from './connection.js';
export type { DeleteRedisCrawlOptions } from './delete-crawl.js';
export { deleteRedisCrawl } from './delete-crawl.js';
export type { RedisDurability } from './durability.js';
export { checkRedisDurability } from './durability.js';
export type { RedisKeyOptions } from './keys.js';
export { MAX_QUEUE_PRIORITY, MIN_QUEUE_PRIORITY } from './queue-score.js';
export type { RedisFrontierStore, RedisFrontierStoreOptions } from './redis-frontier-store.js';
export { createRedisFrontierStore } from './redis-frontier-store.js';
export type { RedisRobotsCache, RedisRobotsCacheOptions } from './redis-robots-cache.js';
export { createRedisRobotsCache } from './redis-robots-cache.js';
export type { RedisClusterUrl, RedisUrl } from './redis-url.js';
export { isRedisClusterUrl, parseRedisClusterUrl, parseRedisUrl } from './redis-url.js';
