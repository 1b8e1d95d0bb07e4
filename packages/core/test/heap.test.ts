import { Heap } from '@politely/core/internal';
import fc from 'fast-check';
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

  it('keeps the heap order through any mix of pushes and pops', () => {
    const step = fc.oneof(fc.integer({ min: 0, max: 20 }), fc.constant('pop' as const));
    fc.assert(
      fc.property(fc.array(step, { maxLength: 60 }), (steps) => {
        const heap = new Heap<number>((a, b) => a < b);
        const model: number[] = [];
        for (const item of steps) {
          if (item !== 'pop') {
            heap.push(item);
            model.push(item);
            continue;
          }
          model.sort((a, b) => a - b);
          expect(heap.pop()).toBe(model.shift());
        }
        expect(heap.size).toBe(model.length);
      }),
      { numRuns: 500 },
    );
  });
});
