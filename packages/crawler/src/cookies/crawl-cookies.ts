// A crawl's cookies, when on: the session its requests use, and the jar kept in the store.

import type { FrontierStore } from '@politely/frontier';
import type { CookieJar } from 'tough-cookie';
import { type CookieSession, createCookieSession } from './cookie-session.js';
import { createJarPersistence } from './jar-persistence.js';

/** How long after a cookie changed the jar is saved (once, however many change meanwhile). */
const SAVE_DEBOUNCE_MS = 1000;

export interface CrawlCookies {
  /** undefined when cookies are off. */
  readonly session: CookieSession | undefined;
  /** Restores the jar an earlier run on the store saved (nothing when off or not kept). */
  restore(): Promise<void>;
  /** Saves the jar if it changed (when the run ends). */
  flush(): Promise<void>;
}

export function createCrawlCookies(
  jar: CookieJar | undefined,
  store: FrontierStore,
  onError: (error: unknown) => void,
): CrawlCookies {
  if (jar === undefined) return { session: undefined, restore: async () => {}, flush: async () => {} };
  const persistence = createJarPersistence(jar, store, { debounceMs: SAVE_DEBOUNCE_MS, onError });
  return {
    session: createCookieSession(jar, () => persistence.changed()),
    restore: () => persistence.restore(),
    flush: () => persistence.flush(),
  };
}
