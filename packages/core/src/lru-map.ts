// A bounded map that evicts its least recently used entry. Map keeps insertion order, so
// re-inserting on every read keeps the oldest entry first.

/** A map holding at most `maxSize` entries; reading or writing an entry makes it the newest. */
export class LruMap<K, V> {
  readonly maxSize: number;
  private readonly entries = new Map<K, V>();

  constructor(maxSize: number) {
    this.maxSize = maxSize;
  }

  get size(): number {
    return this.entries.size;
  }

  get(key: K): V | undefined {
    const value = this.entries.get(key);
    if (value !== undefined) {
      this.entries.delete(key);
      this.entries.set(key, value);
    }
    return value;
  }

  set(key: K, value: V): void {
    this.entries.delete(key);
    this.entries.set(key, value);
    while (this.entries.size > this.maxSize) {
      const oldest = this.entries.keys().next();
      if (oldest.done === true) break;
      this.entries.delete(oldest.value);
    }
  }

  delete(key: K): boolean {
    return this.entries.delete(key);
  }

  clear(): void {
    this.entries.clear();
  }
}
