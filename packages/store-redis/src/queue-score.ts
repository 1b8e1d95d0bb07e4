// The order of a host's queue as one ZSET score: highest priority first, FIFO within a priority,
// and URLs handed back (release, expired lease) ahead of their priority's waiting URLs.
//
//   score = -priority × 2^32 + slot          (ZPOPMIN takes the smallest score)
//
// - `priority` is the entry's priority rounded to an integer and clamped to
//   [MIN_QUEUE_PRIORITY, MAX_QUEUE_PRIORITY] = [-2^20, 2^20 - 1] for ordering only (the entry
//   keeps the value it was given). Priorities further apart than that tie at the bounds.
// - `slot` lies in [0, 2^32): URLs added or retried take 2^31 + n, where n counts adds and
//   retries of the crawl (FIFO); URLs handed back take 2^31 - m, where m counts hand-backs, so
//   the latest hand-back goes first (as in the memory store).
// - |score| < 2^52 + 2^32 < 2^53: every score is an exact double, which is what a ZSET holds.
// Limits: past 2^31 adds or 2^31 hand-backs in one crawl, slots spill into the neighbouring
// priority band and FIFO order within a priority is no longer exact (nothing is lost).

/** 2^32: one priority step in the score. */
export const PRIORITY_STEP = 4_294_967_296;
/** 2^31: the slot that separates handed-back URLs (below) from added ones (at or above). */
export const SLOT_BASE = 2_147_483_648;
export const MIN_QUEUE_PRIORITY = -1_048_576;
export const MAX_QUEUE_PRIORITY = 1_048_575;

/** The integer priority the queue orders by. */
export function queuePriorityOf(priority: number): number {
  if (!Number.isFinite(priority)) return priority > 0 ? MAX_QUEUE_PRIORITY : priority < 0 ? MIN_QUEUE_PRIORITY : 0;
  return Math.min(MAX_QUEUE_PRIORITY, Math.max(MIN_QUEUE_PRIORITY, Math.round(priority)));
}

/** The score of an entry of `queuePriority` in `slot` (the scripts compute the same in Lua). */
export function queueScoreOf(queuePriority: number, slot: number): number {
  return -queuePriority * PRIORITY_STEP + slot;
}
