// A robots cache store that keeps records only as JSON text, as a shared SQLite or Redis store
// would: what a gate reads back is a copy, never the object it stored.

import type { RobotsCacheRecord, RobotsCacheStore } from '@politely/core';

/** The store; `texts` holds what it keeps, by origin. */
export function createJsonStore(): RobotsCacheStore & { readonly texts: Map<string, string> } {
  const texts = new Map<string, string>();
  return {
    texts,
    get: (origin) =>
      Promise.resolve(texts.has(origin) ? (JSON.parse(texts.get(origin) ?? '') as RobotsCacheRecord) : undefined),
    set: (origin, record) => Promise.resolve(void texts.set(origin, JSON.stringify(record))),
    delete: (origin) => Promise.resolve(void texts.delete(origin)),
  };
}
