// The priority a host's queue orders by: its band (frontier-scripts.ts keeps a LIST per band).
// Highest band first, FIFO within a band, URLs handed back (release, expired lease) at the head.
// `priority` is the entry's priority rounded to an integer and clamped to
// [MIN_QUEUE_PRIORITY, MAX_QUEUE_PRIORITY] = [-2^20, 2^20 - 1] for ordering only (the entry keeps
// the value it was given). Priorities further apart than that tie at the bounds.

/** The lowest queue priority the Redis store orders by; lower priorities tie with it. */
export const MIN_QUEUE_PRIORITY = -1_048_576;
/** The highest queue priority the Redis store orders by; higher priorities tie with it. */
export const MAX_QUEUE_PRIORITY = 1_048_575;

/** The integer priority the queue orders by. */
export function queuePriorityOf(priority: number): number {
  if (!Number.isFinite(priority)) return priority > 0 ? MAX_QUEUE_PRIORITY : priority < 0 ? MIN_QUEUE_PRIORITY : 0;
  return Math.min(MAX_QUEUE_PRIORITY, Math.max(MIN_QUEUE_PRIORITY, Math.round(priority)));
}
