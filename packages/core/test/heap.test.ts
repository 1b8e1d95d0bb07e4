import { Heap } from '@politely/core/internal';
import { describe, expect, it } from 'vitest';

describe('Heap', () => {
  it('pops items in the order `before` gives, whatever order they were pushed in', () => {
    const heap = new Heap<number>((a, b) => a < b);
    for (const n of [5, 1, 4, 1, 3, 9, 2]) heap.push(n);
    expect(heap.size).toBe(7);
    expect(heap.peek()).toBe(1);
    const popped: number[] = [];
    for (let n = heap.pop(); n !== undefined; n = heap.pop()) popped.push(n);
    expect(popped).toEqual([1, 1, 2, 3, 4, 5, 9]);
    expect(heap.size).toBe(0);
  });

  it('answers undefined when empty', () => {
    const heap = new Heap<string>((a, b) => a < b);
    expect(heap.peek()).toBeUndefined();
    expect(heap.pop()).toBeUndefined();
  });
});
