// @politely/frontier: the contract between the crawler and its frontier stores. A store keeps the
// queued URLs, their hosts' clocks and leases, and what each fetch left; the crawler only asks.
// The contract suite for store authors is in @politely/frontier/testing.

export type {
  AddOptions,
  AddOutcome,
  ClaimRequest,
  ClaimResult,
  CompletedAndClaimed,
  CompleteOptions,
  CompletionClaimRequest,
  FailedUrl,
  FrontierCounts,
  FrontierEntry,
  FrontierLease,
  FrontierStore,
  HostCounts,
  HostPolicy,
  HostTurn,
  HostTurnRequest,
  ReopenRequest,
  RequeueFilter,
  SendTurnEnd,
  SendTurnRequest,
  SettleOptions,
  UrlFailure,
} from './frontier-store.js';
export { dedupeKeyOf } from './frontier-store.js';
export type { ChangeFrequency, LastFetch, PageChange, RevisitHints } from './last-fetch.js';
export { lastFetchAfterHints } from './last-fetch.js';
export type { MemoryFrontierStoreOptions } from './memory-store.js';
export { createMemoryFrontierStore } from './memory-store.js';
export type { SendTurnState } from './send-turn.js';
export { SEND_TURN_BUSY_POLL_MS, sendTurnRetryAt } from './send-turn.js';
