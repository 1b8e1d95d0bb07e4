// The frontier's storage contract. The crawler never holds queued URLs itself: they wait here.
// Every method is async and every state change is one store operation, so that a durable
// (SQLite) or shared (Redis) implementation can make each one atomic across processes.

import type { LastFetch, RevisitHints } from './last-fetch.js';

/** A URL waiting in the frontier. Plain, serialisable data. */
export interface FrontierEntry {
  /** The canonical URL: both what is fetched and the dedupe key. */
  readonly url: string;
  /** The politeness key of the URL's host: requests with one key share one clock. */
  readonly hostKey: string;
  /** Link distance from a seed (seeds are 0). */
  readonly depth: number;
  /** Higher is fetched first within a host. @default 0 */
  readonly priority: number;
  /** The page this URL was found on, if any. */
  readonly referrer?: string;
  /** When this entry continues a redirect: the URL originally requested. */
  readonly redirectedFrom?: string;
  /** Redirect hops taken so far to reach this URL. */
  readonly redirectHops?: number;
  /** Failed attempts so far. */
  readonly retries?: number;
  /** What the URL is: a page (the default) or a resource a plugin processes (`sitemap`, …). */
  readonly kind?: string;
  /** Plugin data carried with the entry (plain JSON). */
  readonly data?: Readonly<Record<string, unknown>>;
  /** The user's label: which route (`handlers[label]`) handles the page. */
  readonly label?: string;
  /** The user's data carried with the request to its handler (plain JSON). */
  readonly userData?: Readonly<Record<string, unknown>>;
  /**
   * This request's own headers (names lower-cased), checked with `checkRequestHeaders` of
   * `@politely/core` when the request was made. Sent over the crawl-wide `headers`; the
   * crawler's `User-Agent` and `From` always win. A redirect hop to the same origin keeps them;
   * a hop to another origin drops them (like credentials in a browser's redirect).
   */
  readonly headers?: Readonly<Record<string, string>>;
  /**
   * A sitemap's hints about when the URL changes, given with `add`. On an `add` of a URL the
   * store holds with a `LastFetch`, the store applies them to it (`lastFetchAfterHints`).
   */
  readonly hints?: RevisitHints;
  /**
   * Set by the store on a claimed URL that `reopenDue` put back: what the last fetch of it left
   * (validators, content hash, interval). Not given with `add`.
   */
  readonly revisit?: LastFetch;
}

/** The dedupe key of an entry: its URL for a page; kind and URL for other resources. */
export function dedupeKeyOf(entry: FrontierEntry): string {
  return entry.kind === undefined || entry.kind === 'page' ? entry.url : `${entry.kind} ${entry.url}`;
}

/** A URL taken from the frontier, owned by one worker until `leaseExpiresAt`. */
export interface FrontierLease {
  readonly id: string;
  readonly entry: FrontierEntry;
  readonly leaseExpiresAt: number;
  /** The host's clock before this claim moved it, to hand back if no request was made. */
  readonly previousHostReadyAt: number;
  /**
   * When its request may start, if later than the claim: a completion's claim made ahead
   * (`CompletionClaimRequest.readyBy`) took a host whose clock came a moment after its `now`.
   * The lease runs from then. Absent: at once.
   */
  readonly startAt?: number;
}

/** What `FrontierStore.claim` returns: a lease on the next URL of a ready host, or when the next host becomes ready. */
export type ClaimResult =
  | { readonly lease: FrontierLease }
  /** Nothing ready now: the earliest time a host becomes ready, or null when nothing is queued. */
  | { readonly lease: null; readonly nextReadyAt: number | null };

/** What `FrontierStore.claim` is asked: the time, and how long the worker may hold the URL. */
export interface ClaimRequest {
  /** The current time (ms since the epoch) on the caller's clock (see `FrontierStore` on times). */
  readonly now: number;
  /** How long the worker may hold the URL before it returns to the queue. */
  readonly leaseMs: number;
}

/**
 * What `add` did with one entry:
 * - `added`: the URL is new, and queued.
 * - `duplicate`: the store holds the URL already; nothing changed.
 * - `relabelled`: the URL was queued (not yet claimed) without a label, and the entry has one: the
 *   queued URL took the entry's `label` and `userData`, and the higher of the two priorities. So a
 *   URL a plugin (a sitemap) queued first still meets the route that enqueues it with a label.
 * - `host-full`: refused, the host has `maxPerHost` URLs.
 */
export type AddOutcome = 'added' | 'duplicate' | 'relabelled' | 'host-full';

/** Options of `FrontierStore.add`: the most URLs one host may have. */
export interface AddOptions {
  /** Refuse entries for a host that already has this many URLs (queued, in flight or done). */
  readonly maxPerHost?: number;
}

/** The politeness state of one host, kept with its queue so that every worker shares it. */
export interface HostPolicy {
  /** Minimum gap between the starts of two requests to this host. */
  readonly delayMs: number;
  /** Requests to this host that may be in flight at once. */
  readonly maxInFlight: number;
}

/** The store's URLs by state (queued, in flight, done, failed) and its active hosts. */
export interface FrontierCounts {
  readonly queued: number;
  readonly inFlight: number;
  /** Finished URLs: fetched, skipped or failed (`failed` counts the last apart too). */
  readonly done: number;
  /** Of the done URLs, those completed with a `failure` and not requeued since (`requeueFailed`). */
  readonly failed: number;
  /** Hosts with URLs queued or in flight. */
  readonly activeHosts: number;
}

/** One host's URLs by state, and its clock. */
export interface HostCounts {
  readonly hostKey: string;
  readonly queued: number;
  readonly inFlight: number;
  readonly done: number;
  readonly readyAt: number;
}

/**
 * How a settle (`complete`, `release`, `retry`) sets the host's clock: the time its next request
 * may start. Two kinds of time, kept apart because they behave differently:
 *
 * - a pace (`hostReadyAt`) is about this request only: the delay after its response, or, when no
 *   request was made, the clock as it was before the claim (`previousHostReadyAt`, handed back so
 *   that, say, a robots-disallowed URL costs the host no delay slot). It may move the clock back.
 * - a hold (`hostNotBefore`) is about the host: the server asked for a pause (`Retry-After` on
 *   429/503), or a failure backs off. With several requests in flight at one host — in one
 *   process or in several workers sharing the store — they settle in any order, and a later 200
 *   must not let the next request go before a sibling's Retry-After.
 *
 * So the store keeps per host the latest hold it was told (it only rises), and never sets the
 * host's clock before it: not by the `hostReadyAt` of any settle, whoever sends it, nor by
 * `setHostPolicy({ readyAt })`. A claim only moves the clock later. The retried URL goes back to
 * its host's queue, whose clock holds it too: no per-URL "not before" is needed.
 */
export interface SettleOptions {
  /**
   * The host's clock after this settle (ms since the epoch); omitted, the clock stays as it is.
   * Raised to the host's hold if it is earlier.
   */
  readonly hostReadyAt?: number;
  /**
   * No request to the host may start before this (ms since the epoch): a Retry-After or a
   * backoff. The store keeps the latest such time per host, never lowers it, and never sets the
   * host's clock before it (see `SettleOptions`).
   */
  readonly hostNotBefore?: number;
}

/**
 * A `complete` that also adds the URLs the finished one led to (its links), in the same atomic
 * step: a page's links and its being done are stored together, so a crawl that stops between
 * them cannot exist, and the page costs the store one round trip after its claim instead of two.
 */
export interface CompleteOptions extends SettleOptions {
  /**
   * Entries to add, exactly as `add` would (dedupe, `maxPerHost`). They are added even when the
   * lease is no longer this worker's: the page was fetched, and dedupe makes a second add harmless.
   */
  readonly add?: readonly FrontierEntry[];
  /** `add`'s options for `add`. */
  readonly addOptions?: AddOptions;
  /**
   * What the fetch left, kept as the URL's `LastFetch` (replacing an earlier one) for `reopenDue`
   * and the next claim's `entry.revisit`. Omitted, the URL keeps the one it had, if any. Kept only
   * when the lease is still this worker's.
   */
  readonly lastFetch?: LastFetch;
  /**
   * The URL ended without success (a fetch or handler that failed after its retries, a seed that
   * was refused): the store keeps its entry and this failure, counts it as `failed`, lists it in
   * `failures` and puts it back with `requeueFailed`. Kept only when the lease is still this worker's.
   */
  readonly failure?: UrlFailure;
}

/** The claim `completeAndClaim` makes: a `ClaimRequest`, which may be made a moment ahead. */
export interface CompletionClaimRequest extends ClaimRequest {
  /**
   * Also take a host whose clock comes by this time (ms since the epoch, a few ms after `now`):
   * the lease's `startAt` then says when its request may start. The finished URL's own host is
   * often ready a moment after its completion is sent (its clock runs from the response's head);
   * without this, a claim one round trip later takes it. A store may ignore it (then only hosts
   * ready at `now` are claimed).
   * @default now
   */
  readonly readyBy?: number;
}

/** What `completeAndClaim` resolves with. */
export interface CompletedAndClaimed {
  /** `complete`'s answer: one `AddOutcome` per `options.add` entry (empty without any). */
  readonly outcomes: AddOutcome[];
  /** The URL claimed in the same step, or null when none was ready where the store looked. */
  readonly next: FrontierLease | null;
}

/** Why a URL ended without success: kept by the store so a later run can try it again. */
export interface UrlFailure {
  /**
   * `failed`: its fetch, render or handler failed on every attempt. `refused`: a seed the crawl
   * did not fetch (a blocked address, robots.txt, …), which a run under other options may.
   */
  readonly kind: 'failed' | 'refused';
  /**
   * What failed: the stage whose error it was (`fetch`, `handler`, `processor`), or the skip
   * reason of a refused seed (`blocked-address`, `robots`, `robots-unreachable`, …).
   */
  readonly reason: string;
  /** The error's message, or the skip's detail. */
  readonly message: string;
  /** The error's code, when it had one (`ERR_HTTP_STATUS`, `ERR_ADDRESS_BLOCKED`, …). */
  readonly code?: string;
  /** Attempts made at the URL. */
  readonly attempts: number;
  /** When it failed (ms since the epoch). */
  readonly at: number;
}

/** A URL the store holds as failed, with its entry as it was claimed (`retries` reset by `requeueFailed`). */
export interface FailedUrl {
  readonly entry: FrontierEntry;
  readonly failure: UrlFailure;
}

/** Which failed URLs `requeueFailed` puts back: all of them without a filter. */
export interface RequeueFilter {
  /** Only these (dedupe keys: a page's URL, as stored). */
  readonly urls?: readonly string[];
  /** Only failures of this kind. */
  readonly kind?: UrlFailure['kind'];
}

/** What `FrontierStore.reopen` is asked: which done URLs are due for a revisit. */
export interface ReopenRequest {
  /** Reopen URLs whose `LastFetch.dueAt` is before this (ms since the epoch). */
  readonly dueBefore: number;
  /**
   * Reopen too, whatever their `dueAt`, URLs whose `LastFetch.fetchedAt` is before this: the
   * crawl's longest wait (`revisitMaxMs`) as it is now, which may be shorter than the one their
   * `dueAt` was computed with. Omitted, `dueAt` alone decides.
   */
  readonly fetchedBefore?: number;
  /** At most this many in one call. */
  readonly limit: number;
}

/** A turn at a host for a request that is no queued URL: a rendered page's sub-request. */
export interface HostTurnRequest {
  /** The current time (ms since the epoch). */
  readonly now: number;
  /**
   * The host's clock while the turn's request is out: no claim and no other turn at the host
   * before it. The caller sets the clock again once the answer is in (`setHostPolicy({ readyAt })`).
   */
  readonly busyUntil: number;
  /**
   * The caller holds a lease at this host (the rendered page's own): the turn rides on that
   * lease's in-flight slot, so only the clock must have come. Otherwise the host also needs room
   * for one more request in flight (`maxInFlight`).
   */
  readonly withinLease: boolean;
}

/** Whether a turn was granted; if not, when to ask again. */
export type HostTurn = { readonly granted: true } | { readonly granted: false; readonly retryAt: number };

/**
 * A send turn: the right to write one request to a host now, shared by every worker of the
 * store. Used above per-host concurrency 1, where claims of a host overlap and a claimed
 * request reaches the server some time after its claim: the store then spaces the requests as
 * they are written, not as they are claimed.
 */
export interface SendTurnRequest {
  /**
   * Names this turn, unique across workers: asked again with the same id while it holds the turn
   * (a request sent again after its reply was lost), the store grants it again; `endSendTurn`
   * ends only the turn of this id.
   */
  readonly turnId: string;
  /** The current time (ms since the epoch). */
  readonly now: number;
  /**
   * The longest the turn may be held: the latest the request may be written (its connect and
   * request timeouts). A worker that dies holding the turn blocks the host's sends until then.
   */
  readonly busyUntil: number;
}

/** How a send turn ends: when the host's next request may be written. */
export interface SendTurnEnd {
  /** The `turnId` the turn was taken with: a turn that ran out and was granted to another is not ended. */
  readonly turnId: string;
  /**
   * The moment the request was written (or, never written, the turn's end) plus the host's
   * delay. The host's send pace only rises to it: an earlier one never moves it back.
   */
  readonly readyAt: number;
}

/**
 * The frontier store contract: where queued URLs wait, with each host's clock and policy, the
 * leases of URLs being fetched, and what each fetch left. Every method is one atomic async step;
 * the contract suite is in `@politely/frontier/testing`.
 *
 * Times are ms since the epoch, on the store's clock. A store that one process uses (memory), or
 * processes on one machine (SQLite: one file, one machine, one clock), takes the caller's `now`.
 * A store shared by processes on several machines decides by one clock for all of them (the Redis
 * store: the server's, read by each script), and the `now` its callers pass is a hint; it converts
 * the times it is given (`hostReadyAt`, `hostNotBefore`, `busyUntil`, `readyBy`, a send turn's
 * `readyAt`) from the caller's clock and those it answers (`nextReadyAt`, a lease's `startAt`,
 * `leaseExpiresAt` and `previousHostReadyAt`, a turn's `retryAt`, `HostCounts.readyAt`) to it, so
 * that a caller waits on its own clock and politeness does not depend on the callers' clocks.
 * Times a store keeps as records (`LastFetch`, `UrlFailure.at`, `reopenDue`'s bounds) are the
 * callers'.
 */
export interface FrontierStore {
  /**
   * False when the store keeps no `CompleteOptions.lastFetch` (a memory store made with
   * `rememberFetches: false`): the crawler then does not work one out for each page.
   * @default true (undefined)
   */
  readonly remembersFetches?: boolean;
  /**
   * Adds entries whose URL was never added before (dedupe is the store's job). An entry with
   * `hints` whose URL the store already holds with a `LastFetch` updates it (`lastFetchAfterHints`):
   * a sitemap read again says which pages changed.
   */
  add(entries: readonly FrontierEntry[], options?: AddOptions): Promise<AddOutcome[]>;
  /**
   * Atomically takes the highest-priority URL of a host whose clock has come (readyAt ≤ now)
   * and that has room for another request in flight; moves that host's clock to
   * now + its delay. Expired leases are returned to their queues first.
   */
  claim(request: ClaimRequest): Promise<ClaimResult>;
  /**
   * The URL is finished (fetched, skipped or failed for good), and the entries in `options.add`
   * are added, all in one atomic step. A lease that is no longer this worker's (expired, settled)
   * is not ended again and its clock options are ignored; its `add` entries are still added.
   * Resolves with one `AddOutcome` per `options.add` entry (empty without any).
   */
  complete(leaseId: string, options?: CompleteOptions): Promise<AddOutcome[]>;
  /**
   * Optional: `complete`, and in the same round trip to the store a `claim(claim)`, for the slot
   * the finished URL frees. The claim looks only where the completion's own step can reach (the
   * Redis store: the hosts of the finished URL's bucket, one hash slot); `next` null means none
   * was ready there, and the caller claims as usual. A lease in `next` is claimed like any other
   * (its host's clock moved by it): the caller dispatches it at once, as it would a claimed one,
   * and makes no request for it before its `startAt`. A store whose calls cost no round trip
   * (memory, SQLite) has no need of it.
   */
  completeAndClaim?(
    leaseId: string,
    options: CompleteOptions,
    claim: CompletionClaimRequest,
  ): Promise<CompletedAndClaimed>;
  /**
   * Puts done URLs that are due for a revisit (a `LastFetch` whose `dueAt` < `dueBefore`, or whose
   * `fetchedAt` < `fetchedBefore`) back at
   * the tail of their hosts' queues, at most `limit`, atomically; resolves with how many. A
   * reopened URL is claimed like any other, with `entry.revisit` set to its `LastFetch` and its
   * retry count reset. Counts move from done to queued. A crawl calls it with `dueBefore` at its
   * start, so a URL fetched during the crawl (`dueAt` ≥ its `fetchedAt`) is not reopened again by it.
   */
  reopenDue(request: ReopenRequest): Promise<number>;
  /**
   * Puts every failed URL (completed with a `failure`) back at the tail of its host's queue,
   * atomically, with its retry count reset and its failure forgotten; resolves with how many.
   * Counts move from done (and failed) to queued. Its label, userData and priority are kept.
   * `filter` narrows it to the failed URLs among `urls` (dedupe keys: a page's URL), and/or of
   * one failure `kind`.
   */
  requeueFailed(filter?: RequeueFilter): Promise<number>;
  /** The failed URLs the store holds, oldest failure first, at most `limit` (default: all). */
  failures(limit?: number): Promise<FailedUrl[]>;
  /**
   * Forgets every URL (queued, in flight, done, failed), host, hold, lease and metadata value:
   * the store is as new (a crawl's `fresh`). A robots.txt cache kept beside it is not touched.
   * Leases still held are void: settling one later changes nothing.
   */
  clear(): Promise<void>;
  /**
   * Atomically: when the host's clock has come (readyAt ≤ now, never before its hold) and, unless
   * `withinLease`, it has room in flight, moves its clock to `busyUntil` and grants the turn; else
   * says when to ask again (the host's clock, or a moment later when only room is lacking). A host
   * the store has not met is created with the default policy. Optional: without it a crawl
   * cannot render pages (their sub-requests would have no shared clock).
   */
  takeHostTurn?(hostKey: string, request: HostTurnRequest): Promise<HostTurn>;
  /**
   * Atomically: when the host's send pace and its hold have come and no send turn is held there
   * (or the one held ran past its `busyUntil`), holds the host's send turn until `busyUntil` and
   * grants it (again, to the `turnId` holding it); else says when to ask again (the pace or hold, or, while a turn is held, a moment
   * later: it ends when its request is written, long before its `busyUntil`). Kept apart from the
   * clock claims move: a claim neither waits for a send turn nor moves it, so a worker's own claim
   * never delays its request. A host the store has not met is created with the default policy.
   * While a send turn is held or its pace has not come, `takeHostTurn` is refused too. Optional,
   * with `endSendTurn`: without them a crawl above per-host concurrency 1 spaces only its own
   * process's requests by the moment they are written.
   */
  takeSendTurn?(hostKey: string, request: SendTurnRequest): Promise<HostTurn>;
  /**
   * Ends the host's send turn taken as `end.turnId`: the next may be granted at `end.readyAt`
   * (the send pace only rises). A turn that ran out, or is another's now, is not ended, but the
   * pace is still raised.
   */
  endSendTurn?(hostKey: string, end: SendTurnEnd): Promise<void>;
  /** Puts the URL back at the head of its host queue (the attempt did not count). */
  release(leaseId: string, options?: SettleOptions): Promise<void>;
  /** Puts the URL back for another attempt, with its retry count raised. */
  retry(leaseId: string, options?: SettleOptions): Promise<void>;
  /**
   * Sets a host's politeness policy (crawl-delay learned). `readyAt` sets its clock, but never
   * before the host's hold (see `SettleOptions`).
   */
  setHostPolicy(hostKey: string, policy: Partial<HostPolicy> & { readonly readyAt?: number }): Promise<void>;
  /** The store's URLs by state, and its active hosts. */
  counts(): Promise<FrontierCounts>;
  /** The busiest hosts first, at most `limit`. */
  hostCounts(limit?: number): Promise<HostCounts[]>;
  /**
   * Keeps a small JSON value under `key` with the crawl, replacing what was there (the crawler
   * keeps its cookie jar so, under `politely:cookie-jar`). Optional: a durable store (SQLite,
   * Redis) has it, so a resumed crawl finds the value; without it nothing outlives the run.
   */
  saveMetadata?(key: string, value: unknown): Promise<void>;
  /** The JSON value `saveMetadata` kept under `key`, or undefined. Optional, with `saveMetadata`. */
  loadMetadata?<T = unknown>(key: string): Promise<T | undefined>;
  /** Releases what the store holds open (connections, files). */
  close(): Promise<void>;
}
