// politely's one bounded cache: a map that forgets its least recently used entries. Map keeps
// insertion order, so re-inserting on every read keeps the oldest entry first.

export interface LruMapOptions<K, V> {
  /** Entries kept at most. */
  readonly maxSize: number;
  /**
   * A second bound, on the summed weight of the entries (say, the characters of string keys
   * that may be 500 KiB robots.txt bodies). An entry heavier than the whole budget is not kept.
   * @default no bound
   */
  readonly maxWeight?: number;
  /** The weight of one entry, for `maxWeight`. @default 1 */
  readonly weigh?: (key: K, value: V) => number;
}

/** A map holding at most `maxSize` entries (and `maxWeight`); reading or writing an entry makes it the newest. */
export class LruMap<K, V> {
  readonly maxSize: number;
  readonly maxWeight: number;
  private readonly weigh: (key: K, value: V) => number;
  private readonly entries = new Map<K, { readonly value: V; readonly weight: number }>();
  private weight = 0;

  constructor(options: number | LruMapOptions<K, V>) {
    const resolved = typeof options === 'number' ? { maxSize: options } : options;
    this.maxSize = resolved.maxSize;
    this.maxWeight = resolved.maxWeight ?? Infinity;
    this.weigh = resolved.weigh ?? (() => 1);
  }

  get size(): number {
    return this.entries.size;
  }

  get(key: K): V | undefined {
    const entry = this.entries.get(key);
    if (entry === undefined) return undefined;
    this.entries.delete(key);
    this.entries.set(key, entry);
    return entry.value;
  }

  set(key: K, value: V): void {
    this.delete(key);
    const weight = this.maxWeight === Infinity ? 1 : this.weigh(key, value);
    if (weight > this.maxWeight) return; // would evict everything: not worth keeping
    while (this.entries.size > 0 && (this.entries.size >= this.maxSize || this.weight + weight > this.maxWeight)) {
      const oldest = this.entries.keys().next();
      if (oldest.done === true) break;
      this.delete(oldest.value);
    }
    if (this.maxSize < 1) return;
    this.entries.set(key, { value, weight });
    this.weight += weight;
  }

  delete(key: K): boolean {
    const entry = this.entries.get(key);
    if (entry === undefined) return false;
    this.entries.delete(key);
    this.weight -= entry.weight;
    return true;
  }

  clear(): void {
    this.entries.clear();
    this.weight = 0;
  }
}
