// @politely/store-sqlite/internal: the option table shared with politely's own tests. Not part
// of the public API: no stability promise, may change in any release.

export { SQLITE_STORE_OPTION_KEYS } from './options.js';
