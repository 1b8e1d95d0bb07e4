// @politely/core/internal: helpers shared by politely's own packages (the crawler, the sitemap
// plugin, the CLI). Not part of the public API: no stability promise, may change in any release.

export { watchAbort } from './abort-watch.js';
export { Heap } from './heap.js';
export { checkNetworks } from './http/address-guard.js';
export { displayProxyUrl, parseProxyUrl } from './http/proxy.js';
export type { ReadBody } from './http/read-body.js';
export { readBody } from './http/read-body.js';
export { FORBIDDEN_REQUEST_HEADERS } from './http/request-headers.js';
export type { LruMapOptions } from './lru-map.js';
export { LruMap } from './lru-map.js';
export type { OptionChecks } from './options/option-checks.js';
export { describeValue, optionChecks } from './options/option-checks.js';
export { MIN_ROBOTS_TXT_BYTES } from './robots/parse.js';
export { hasNormalEscapes, normalizeEscapes } from './robots/percent-encoding.js';
export { matchPathOf } from './robots/url-path.js';
export { charsetOf, decodeText } from './text/decode-text.js';
export { lowercased } from './text/lowercased.js';
export { nearestName } from './text/nearest-name.js';
export { tdmrepCanDecide } from './usage/vocabulary.js';
