// politely's one priority queue: the memory frontier store's host and due-time queues and the
// archive's k-way merge of sorted runs all use it, so it lives with the shared helpers.

/** A binary min-heap ordered by `before(a, b)` (true when a comes first). */
export class Heap<T> {
  private readonly items: T[] = [];

  constructor(private readonly before: (a: T, b: T) => boolean) {}

  get size(): number {
    return this.items.length;
  }

  peek(): T | undefined {
    return this.items[0];
  }

  push(item: T): void {
    const items = this.items;
    items.push(item);
    let i = items.length - 1;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (!this.before(items[i]!, items[parent]!)) break;
      swap(items, i, parent);
      i = parent;
    }
  }

  pop(): T | undefined {
    const items = this.items;
    const top = items[0];
    const last = items.pop();
    if (items.length > 0 && last !== undefined) {
      items[0] = last;
      this.siftDown(0);
    }
    return top;
  }

  private siftDown(start: number): void {
    const items = this.items;
    let i = start;
    for (;;) {
      const left = 2 * i + 1;
      const right = left + 1;
      let first = i;
      if (left < items.length && this.before(items[left]!, items[first]!)) first = left;
      if (right < items.length && this.before(items[right]!, items[first]!)) first = right;
      if (first === i) return;
      swap(items, i, first);
      i = first;
    }
  }
}

/** Through a local, not `[a, b] = [b, a]`: that swap allocated an array each time it ran. */
function swap<T>(items: T[], i: number, j: number): void {
  const item = items[i]!;
  items[i] = items[j]!;
  items[j] = item;
}
