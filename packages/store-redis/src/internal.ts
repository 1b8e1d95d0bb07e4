// @politely/store-redis/internal: the option table shared with politely's own tests. Not part
// of the public API: no stability promise, may change in any release.

export { REDIS_STORE_OPTION_KEYS } from './store-options.js';
