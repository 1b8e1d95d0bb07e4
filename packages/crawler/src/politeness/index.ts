// The host clock: when each host's next request may start. The only module the rest of the
// crawler imports from politeness/; the files behind it are its parts.
//
//   politeness-key.ts   which requests share one clock (`politenessKey`)
//   host-politeness.ts  what the crawl has learned of each host: crawl-delay, failures, adaptive delay
//   pace.ts             PURE: the clock after one request (`ClockChange`), from its answer
//   delay.ts            PURE: delays and backoffs as numbers
//   host-clock.ts       the holds (Retry-After, backoff) this process knows before the store does
//   host-turn.ts        a turn at a host for a request that is no queued URL (a rendered page's)
//   send-turns.ts       this process's requests to one host go out one at a time, each at its pace
//   shared-send-turns.ts  and, above per-host concurrency 1, one at a time across every worker of the store
//
// The store keeps each host's clock; pipeline/settle.ts is the one place a lease ends and it moves.

export type { AdaptiveDelayInput, BackoffOptions, DelayBounds } from './delay.js';
export { adaptiveDelayMs, backoffMs, hostDelayMs, retryAfterMs } from './delay.js';
export { HostHolds } from './host-clock.js';
export { HostPoliteness } from './host-politeness.js';
export type { HeldTurn } from './host-turn.js';
export { HostTurns, sleepUntil } from './host-turn.js';
export type { ClockChange } from './pace.js';
export {
  clockAfterChallenge,
  clockAfterFailure,
  clockAfterResponse,
  clockAfterRobots,
  clockAfterRobotsFailure,
  isRetryableStatus,
  pacedAfter,
  responseHeadAt,
} from './pace.js';
export type { PolitenessKeyMode, PolitenessKeys } from './politeness-key.js';
export { createPolitenessKeys, POLITENESS_KEY_MODES } from './politeness-key.js';
export type { SendTicket } from './send-turns.js';
export { HostSendTurns } from './send-turns.js';
export type { SharedSendTurnSettings } from './shared-send-turns.js';
export { SharedSendTurns } from './shared-send-turns.js';
