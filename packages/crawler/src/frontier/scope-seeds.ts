// The crawl's scope seeds, kept in the store's metadata: every worker of a shared crawl (Redis,
// SQLite with `shared: true`) and every run that resumes it derives its scope from one list, and
// a seed added from another process (`addSeeds`) widens the scope of the workers already running.
//
// The list holds the seeds' origins, not the seeds: the seed-based scopes (same-origin, same-host,
// same-domain) need nothing more, and a crawl of a million seeds on ten sites keeps ten entries,
// which every worker can read twice a second.

import type { FrontierStore } from '@politely/frontier';

/** The store's metadata key of the scope seeds' origins. */
export const SCOPE_SEEDS_KEY = 'politely-scope-seeds';

/** How often a running worker reads the scope seeds (the same pace as `politely control`'s poll). */
export const SCOPE_SEEDS_POLL_MS = 500;

/** Writes that lost a race with another process's are merged and written again, at most this often. */
const MAX_WRITES = 5;

type MetadataStore = Pick<FrontierStore, 'loadMetadata' | 'saveMetadata'>;

/** The origins of http(s) URLs, each once, in order (PURE); anything else is left out. */
export function scopeRootsOf(urls: Iterable<string>): string[] {
  const roots = new Set<string>();
  for (const text of urls) {
    let url: URL;
    try {
      url = new URL(text);
    } catch {
      continue;
    }
    if (url.protocol === 'http:' || url.protocol === 'https:') roots.add(url.origin);
  }
  return [...roots];
}

/** The stored list with `added` appended, each origin once (PURE); a stored value that is not a list of strings counts as empty. */
export function mergeScopeRoots(stored: unknown, added: readonly string[]): string[] {
  const list = Array.isArray(stored) ? stored.filter((entry): entry is string => typeof entry === 'string') : [];
  return [...new Set([...list, ...added])];
}

/** The origins the store holds (none when it keeps no metadata, as the memory store). */
export async function loadScopeRoots(store: MetadataStore): Promise<string[]> {
  if (store.loadMetadata === undefined) return [];
  return mergeScopeRoots(await store.loadMetadata(SCOPE_SEEDS_KEY), []);
}

/**
 * Adds `roots` to the store's list and resolves with the whole list. Metadata has no
 * compare-and-set, so two processes adding at once could each overwrite the other's: the list is
 * read back after each write and written again, merged, until it holds every root (a few times at most).
 */
export async function recordScopeRoots(store: MetadataStore, roots: readonly string[]): Promise<string[]> {
  if (store.loadMetadata === undefined || store.saveMetadata === undefined) return [...roots];
  let stored = await loadScopeRoots(store);
  for (let write = 0; write < MAX_WRITES; write++) {
    const known = new Set(stored);
    if (roots.every((root) => known.has(root))) return stored;
    await store.saveMetadata(SCOPE_SEEDS_KEY, mergeScopeRoots(stored, roots));
    stored = await loadScopeRoots(store);
  }
  return stored;
}

/**
 * Reads the store's scope seeds every `SCOPE_SEEDS_POLL_MS`, on a timer of its own (never on the
 * claim path), and calls `onRoots` with the list each time it has grown. A store that does not
 * answer is read again next time. Returns the function that stops watching.
 */
export function watchScopeRoots(store: MetadataStore, onRoots: (roots: readonly string[]) => void): () => void {
  if (store.loadMetadata === undefined) return () => {};
  let seen = -1;
  let busy = false;
  const poll = async (): Promise<void> => {
    if (busy) return;
    busy = true;
    try {
      const roots = await loadScopeRoots(store).catch(() => undefined);
      // The list only grows (a `fresh` crawl empties it before any worker watches it).
      if (roots !== undefined && roots.length !== seen) {
        seen = roots.length;
        onRoots(roots);
      }
    } finally {
      busy = false;
    }
  };
  const timer = setInterval(() => void poll(), SCOPE_SEEDS_POLL_MS);
  timer.unref();
  return () => clearInterval(timer);
}
