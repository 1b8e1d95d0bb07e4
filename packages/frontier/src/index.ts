// @politely/frontier: the contract between the crawler and its frontier stores. A store keeps the
// queued URLs, their hosts' clocks and leases, and what each fetch left; the crawler only asks.
// The contract suite for store authors is in @politely/frontier/testing.

export { dedupeKeyOf } from './frontier-store.js';
export type {
  FrontierStore,
  FrontierEntry,
  FrontierLease,
  ClaimRequest,
  ClaimResult,
  AddOutcome,
  AddOptions,
  HostPolicy,
  FrontierCounts,
  HostCounts,
  SettleOptions,
  CompleteOptions,
  ReopenRequest,
  HostTurn,
  HostTurnRequest,
} from './frontier-store.js';
export { lastFetchAfterHints } from './last-fetch.js';
export type { LastFetch, RevisitHints, ChangeFrequency, PageChange } from './last-fetch.js';
export { createMemoryFrontierStore } from './memory-store.js';
export type { MemoryFrontierStoreOptions } from './memory-store.js';
