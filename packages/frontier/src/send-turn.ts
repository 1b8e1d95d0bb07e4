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
  /** The held send turn's `turnId`. */
  readonly sendTurnId: string | null;
  /** The host's hold (Retry-After, backoff). */
  readonly notBefore: number;
}

/**
 * Undefined when a send turn may be granted at `now` (to `turnId`: the one holding it is granted
 * again); else when to ask again: the pace or the hold, or, while another turn is held, a moment
 * later (never past its `busyUntil`). Without `turnId`, any held turn counts (`takeHostTurn`).
 */
export function sendTurnRetryAt(state: SendTurnState, now: number, turnId?: string): number | undefined {
  const held = state.sendBusyUntil > now;
  if (held && turnId !== undefined && state.sendTurnId === turnId) return undefined;
  const pace = Math.max(state.sendReadyAt, state.notBefore);
  if (pace <= now && !held) return undefined;
  const heldRetry = held ? Math.min(state.sendBusyUntil, now + SEND_TURN_BUSY_POLL_MS) : 0;
  return Math.max(pace, heldRetry);
}
