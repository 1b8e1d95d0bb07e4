// When a host's send turn may be granted (`FrontierStore.takeSendTurn`), for the stores written
// in JavaScript; the Redis store's script says the same in Lua.

/**
 * A send turn refused because another is held asks again this much later: a held turn ends as
 * soon as its request is written, long before its `busyUntil`.
 */
export const SEND_TURN_BUSY_POLL_MS = 20;

/** A host's send state as a store keeps it (ms since the epoch; 0: none). */
export interface SendTurnState {
  /** The send pace: no send turn before it. */
  readonly sendReadyAt: number;
  /** The held send turn's `busyUntil` (0: none held). */
  readonly sendBusyUntil: number;
  /** The host's hold (Retry-After, backoff). */
  readonly notBefore: number;
}

/**
 * Undefined when a send turn may be granted at `now`; else when to ask again: the pace or the
 * hold, or, while a turn is held, a moment later (never past its `busyUntil`).
 */
export function sendTurnRetryAt(state: SendTurnState, now: number): number | undefined {
  const pace = Math.max(state.sendReadyAt, state.notBefore);
  const busy = state.sendBusyUntil > now;
  if (pace <= now && !busy) return undefined;
  const busyRetry = busy ? Math.min(state.sendBusyUntil, now + SEND_TURN_BUSY_POLL_MS) : 0;
  return Math.max(pace, busyRetry);
}
