// Keeps the crawl's cookie jar in a durable store, so that a resumed crawl keeps its session: the
// jar is restored when a run starts, saved a while after a response changed it (debounced: one
// write per `debounceMs` at most, whatever the number of cookies set), and saved when the run
// ends. A store without metadata (the memory store) keeps nothing: the jar lives for one run.

import type { FrontierStore } from '@politely/frontier';
import { Cookie, type CookieJar } from 'tough-cookie';

/** The store's metadata key of the serialized jar. */
export const COOKIE_JAR_KEY = 'politely:cookie-jar';

export interface JarPersistence {
  /** Puts the cookies saved by an earlier run into the jar (those it already holds are replaced). */
  restore(): Promise<void>;
  /** The jar changed: a save is scheduled, `debounceMs` from the first change since the last save. */
  changed(): void;
  /** Saves now if the jar changed since the last save, and stops the schedule. */
  flush(): Promise<void>;
}

export interface JarPersistenceSettings {
  readonly debounceMs: number;
  /** A scheduled save failed (a flush rejects instead). */
  readonly onError: (error: unknown) => void;
}

/** What the store keeps: tough-cookie's serialization (`cookies` as JSON objects). */
interface SavedJar {
  readonly cookies?: readonly unknown[];
}

export function createJarPersistence(
  jar: CookieJar,
  store: FrontierStore,
  settings: JarPersistenceSettings,
): JarPersistence {
  if (store.saveMetadata === undefined || store.loadMetadata === undefined)
    return { restore: async () => {}, changed: () => {}, flush: async () => {} };
  const saveMetadata = store.saveMetadata.bind(store);
  const loadMetadata = store.loadMetadata.bind(store) as (key: string) => Promise<SavedJar | undefined>;
  let timer: NodeJS.Timeout | undefined;
  let dirty = false;
  let saving: Promise<void> = Promise.resolve();

  const save = (): Promise<void> => {
    clearTimeout(timer);
    timer = undefined;
    if (!dirty) return saving;
    dirty = false;
    // One save at a time, in order: a later one always writes the later jar.
    saving = saving.catch(() => {}).then(async () => saveMetadata(COOKIE_JAR_KEY, await jar.serialize()));
    return saving;
  };

  return {
    async restore() {
      const saved = await loadMetadata(COOKIE_JAR_KEY);
      for (const json of saved?.cookies ?? []) {
        const cookie = Cookie.fromJSON(json);
        if (cookie !== undefined) await jar.store.putCookie(cookie);
      }
    },
    changed() {
      dirty = true;
      if (timer !== undefined) return;
      timer = setTimeout(() => save().catch(settings.onError), settings.debounceMs);
      timer.unref();
    },
    flush: save,
  };
}
