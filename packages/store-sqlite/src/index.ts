// @politely/store-sqlite: durable crawls on one machine. The frontier, the robots.txt cache and
// the crawl's metadata in one SQLite file per crawl.

export type { CrawlDatabaseOptions } from './open-database.js';
export type { SqliteFrontierStoreOptions } from './options.js';
export type { SqliteRobotsCache, SqliteRobotsCacheSource } from './robots-cache.js';
export { createSqliteRobotsCache } from './robots-cache.js';
export { SCHEMA_VERSION } from './schema.js';
export type { SqliteFrontierStore } from './sqlite-store.js';
export { createSqliteFrontierStore } from './sqlite-store.js';
