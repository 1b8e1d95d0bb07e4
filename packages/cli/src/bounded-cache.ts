// A small LRU map with two bounds: how many entries, and how many key characters in total
// (robots.txt bodies are the keys, and one may be 500 KiB).

export interface BoundedCacheOptions {
  /** Most entries kept. */
  readonly maxEntries: number;
  /** Most key characters kept, summed over all entries. */
  readonly maxKeyChars: number;
}

export interface BoundedCache<V> {
  get(key: string): V | undefined;
  set(key: string, value: V): void;
  readonly size: number;
}

export function createBoundedCache<V>(options: BoundedCacheOptions): BoundedCache<V> {
  // A Map iterates in insertion order, so re-inserting on a hit keeps the oldest entry first.
  const entries = new Map<string, V>();
  let keyChars = 0;

  const evictOldest = (): void => {
    const oldest = entries.keys().next();
    if (oldest.done === true) return;
    entries.delete(oldest.value);
    keyChars -= oldest.value.length;
  };

  return {
    get(key) {
      const value = entries.get(key);
      if (value !== undefined) {
        entries.delete(key);
        entries.set(key, value);
      }
      return value;
    },
    set(key, value) {
      if (key.length > options.maxKeyChars) return; // would evict everything; not worth keeping
      if (entries.delete(key)) keyChars -= key.length;
      while (entries.size > 0 && (entries.size >= options.maxEntries || keyChars + key.length > options.maxKeyChars)) {
        evictOldest();
      }
      entries.set(key, value);
      keyChars += key.length;
    },
    get size() {
      return entries.size;
    },
  };
}
