// @politely/frontier/internal: helpers shared by politely's own stores and tests (option tables
// and checks). Not part of the public API: no stability promise, may change in any release.

export { CRAWL_ID_RULE, isCrawlId } from './crawl-id.js';
export { HOST_POLICY_KEYS, resolveDefaultHostPolicy } from './host-policy-option.js';
export { MEMORY_STORE_OPTION_KEYS } from './memory-store.js';
