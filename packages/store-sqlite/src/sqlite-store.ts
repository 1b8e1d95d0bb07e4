// The SQLite FrontierStore: one file per crawl, so a crawl survives its process. Every
// operation that changes the frontier is one IMMEDIATE transaction (better-sqlite3 is
// synchronous, so a transaction never spans an await): it takes the file's write lock when it
// begins, so two processes on one file run them one after the other and never claim one URL
// twice. Nothing is cached between operations but prepared statements: the file is the truth.

import { randomBytes } from 'node:crypto';
import {
  type AddOptions,
  type AddOutcome,
  type ClaimRequest,
  type ClaimResult,
  type CompleteOptions,
  dedupeKeyOf,
  type FailedUrl,
  type FrontierCounts,
  type FrontierEntry,
  type FrontierStore,
  type HostCounts,
  type HostPolicy,
  type HostTurn,
  type HostTurnRequest,
  type LastFetch,
  lastFetchAfterHints,
  type ReopenRequest,
  type RequeueFilter,
  type RevisitHints,
  type SendTurnEnd,
  type SendTurnRequest,
  type SendTurnState,
  type SettleOptions,
  sendTurnRetryAt,
  type UrlFailure,
} from '@politely/frontier';
import type { Database } from 'better-sqlite3';
import { type CrawlMetadata, createCrawlMetadata } from './crawl-meta.js';
import { HostQueues, type QueueAppender } from './host-queues.js';
import { keyCheck, keyHash } from './key-hash.js';
import { NewRows } from './new-rows.js';
import { openCrawlDatabase } from './open-database.js';
import {
  type ResolvedSqliteFrontierStoreOptions,
  resolveSqliteFrontierStoreOptions,
  type SqliteFrontierStoreOptions,
} from './options.js';
import { type OwnerInfo, type OwnerLock, takeOwnership } from './owner-lock.js';
import { entryOf, failedUrlOf, leaseIdOf, parseLeaseId, relabelledRequestColumn } from './rows.js';
import {
  type FailureParams,
  type FrontierStatements,
  type HostSlot,
  type HostTurnRow,
  type KnownUrlRow,
  prepareFrontierStatements,
  type RequeueRow,
} from './statements.js';

/** A FrontierStore in a SQLite file, with the crawl's metadata beside it. */
export interface SqliteFrontierStore extends FrontierStore {
  /** The open connection (for `createSqliteRobotsCache`, inspection, or your own tables). */
  readonly db: Database;
  /** The crawl file. */
  readonly path: string;
  /** A turn at a host for a request that is no queued URL (see `FrontierStore.takeHostTurn`): always there. */
  takeHostTurn(hostKey: string, request: HostTurnRequest): Promise<HostTurn>;
  /** A send turn at a host (see `FrontierStore.takeSendTurn`): always there. */
  takeSendTurn(hostKey: string, request: SendTurnRequest): Promise<HostTurn>;
  /** Ends a send turn (see `FrontierStore.endSendTurn`): always there. */
  endSendTurn(hostKey: string, end: SendTurnEnd): Promise<void>;
  /** Stores the crawl's stats (any JSON value, e.g. `crawler.stats()`), replacing earlier ones. */
  saveStats(stats: unknown): Promise<void>;
  /** The stats saved last, or undefined. */
  loadStats<T = unknown>(): Promise<T | undefined>;
  /** Stores a JSON value under `key` in the crawl's metadata (`stats` is `saveStats`'s key). */
  saveMetadata(key: string, value: unknown): Promise<void>;
  /** The JSON value stored under `key`, or undefined. */
  loadMetadata<T = unknown>(key: string): Promise<T | undefined>;
  /**
   * URLs that were in flight when the file was last closed or its process died, handed back to
   * their queues when this store took ownership of the file (0 for a `shared` store).
   */
  readonly reclaimedLeases: number;
  /**
   * Closes the connection and lets go of the file. Leases still out stay in the file: the next
   * owner hands them back at once; a `shared` store's other processes wait for them to expire.
   */
  close(): Promise<void>;
}

/**
 * Opens (or creates) the crawl file at `options.path` as a FrontierStore. Several stores, in one
 * process or several, may open one file: they share one frontier.
 */
export function createSqliteFrontierStore(options: SqliteFrontierStoreOptions): SqliteFrontierStore {
  const resolved = resolveSqliteFrontierStoreOptions(options);
  if (resolved.shared) return new SqliteStore(openCrawlDatabase(resolved.path, resolved), resolved, undefined);
  const lock = takeOwnership(resolved.path, () => ownerOf(resolved));
  try {
    return new SqliteStore(openCrawlDatabase(resolved.path, resolved), resolved, lock);
  } catch (error) {
    lock.release();
    throw error;
  }
}

const OWNER_KEY = 'owner';

/** A turn refused for want of room in flight asks again this much later (as the memory store's). */
const TURN_ROOM_POLL_MS = 50;

/** The owner the file names (read without taking the lock, for a refusal's message). */
function ownerOf(options: ResolvedSqliteFrontierStoreOptions): OwnerInfo | undefined {
  const db = openCrawlDatabase(options.path, options);
  try {
    return createCrawlMetadata(db).load<OwnerInfo>(OWNER_KEY);
  } finally {
    db.close();
  }
}

type LeaseEnd = 'complete' | 'release' | 'retry';
/** `SettleOptions` of the FrontierStore contract. */
type Settle = SettleOptions;
/** What a completion leaves beside the URL being done. */
type Completion = Pick<CompleteOptions, 'lastFetch' | 'failure'>;
type PolicyChange = Partial<HostPolicy> & { readonly readyAt?: number };

/** `urls.state` of a queued URL. */
const QUEUED = 0;

/** A host's counters while one `add` runs: read once, written back once. */
interface AddSlot {
  readonly id: number;
  added: number;
  newlyQueued: number;
}

/** Queues done URLs again; each host's counters move once, at `flush`. */
interface Requeuer {
  requeue(rows: readonly RequeueRow[]): number;
  flush(): void;
}

class SqliteStore implements SqliteFrontierStore {
  readonly path: string;
  private readonly s: FrontierStatements;
  private readonly queues: HostQueues;
  private readonly meta: CrawlMetadata;
  /** Unique to this store object: with a counter, makes lease tokens unique across processes. */
  private readonly nonce = randomBytes(6).toString('base64url');
  private leaseCounter = 0;
  private readonly transactAdd: (entries: readonly FrontierEntry[], maxPerHost: number) => AddOutcome[];
  private readonly transactClaim: (now: number, leaseMs: number) => ClaimResult;
  private readonly transactEnd: (leaseId: string, how: LeaseEnd, settle: Settle) => void;
  private readonly transactRequeueFailed: (filter: RequeueFilter) => number;
  private readonly transactClear: () => void;
  private readonly transactComplete: (leaseId: string, options: CompleteOptions) => AddOutcome[];
  private readonly transactReopen: (dueBefore: number, fetchedBefore: number | undefined, limit: number) => number;
  private readonly transactPolicy: (hostKey: string, policy: PolicyChange) => void;
  private readonly transactTurn: (hostKey: string, request: HostTurnRequest) => HostTurn;
  private readonly transactSendTurn: (hostKey: string, request: SendTurnRequest) => HostTurn;
  private readonly transactEndSendTurn: (hostKey: string, end: SendTurnEnd) => void;

  readonly reclaimedLeases: number;

  constructor(
    readonly db: Database,
    private readonly options: ResolvedSqliteFrontierStoreOptions,
    private readonly ownerLock: OwnerLock | undefined,
  ) {
    this.path = options.path;
    this.s = prepareFrontierStatements(db);
    this.queues = new HostQueues(this.s);
    this.meta = createCrawlMetadata(db);
    // `.immediate`: BEGIN IMMEDIATE takes the write lock up front, so a transaction that reads a
    // host's state and then writes it cannot be overtaken by another process in between.
    this.transactAdd = immediate(db, (entries: readonly FrontierEntry[], maxPerHost: number) =>
      this.addNow(entries, maxPerHost),
    );
    this.transactClaim = immediate(db, (now: number, leaseMs: number) => this.claimNow(now, leaseMs));
    this.transactEnd = immediate(db, (leaseId: string, how: LeaseEnd, settle: Settle) =>
      this.endLease(leaseId, how, settle),
    );
    // A page's links and its being done: one transaction, so one commit (one fsync) per page.
    this.transactComplete = immediate(db, (leaseId: string, options: CompleteOptions) => {
      const added =
        options.add === undefined || options.add.length === 0
          ? []
          : this.addNow(options.add, options.addOptions?.maxPerHost ?? Infinity);
      this.endLease(leaseId, 'complete', options, options);
      return added;
    });
    this.transactRequeueFailed = immediate(db, (filter: RequeueFilter) => this.requeueFailedNow(filter));
    this.transactClear = immediate(db, () => {
      for (const statement of this.s.clearFrontier) statement.run();
      this.s.clearMetadata.run(OWNER_KEY);
    });
    this.transactReopen = immediate(db, (dueBefore: number, fetchedBefore: number | undefined, limit: number) =>
      this.reopenNow(dueBefore, fetchedBefore, limit),
    );
    this.transactPolicy = immediate(db, (hostKey: string, policy: PolicyChange) => {
      const host = this.hostSlot(hostKey);
      this.s.hostPolicy.run(policy.delayMs ?? null, policy.maxInFlight ?? null, policy.readyAt ?? null, host.id);
    });
    this.transactTurn = immediate(db, (hostKey: string, request: HostTurnRequest) => this.turnNow(hostKey, request));
    this.transactSendTurn = immediate(db, (hostKey: string, request: SendTurnRequest) =>
      this.sendTurnNow(hostKey, request),
    );
    this.transactEndSendTurn = immediate(db, (hostKey: string, { turnId, readyAt }: SendTurnEnd) => {
      this.s.sendTurnEnded.run({ turnId, readyAt, id: this.hostSlot(hostKey).id });
    });
    // The owner of the file: no live process holds a lease, so every URL in flight goes back now.
    this.reclaimedLeases =
      ownerLock === undefined
        ? 0
        : immediate(db, () => {
            this.meta.save(OWNER_KEY, { pid: process.pid, since: new Date().toISOString() } satisfies OwnerInfo);
            return this.expireLeases(Number.MAX_SAFE_INTEGER);
          })();
  }

  async add(entries: readonly FrontierEntry[], options: AddOptions = {}): Promise<AddOutcome[]> {
    if (entries.length === 0) return [];
    return this.transactAdd(entries, options.maxPerHost ?? Infinity);
  }

  async claim({ now, leaseMs }: ClaimRequest): Promise<ClaimResult> {
    return this.transactClaim(now, leaseMs);
  }

  async complete(leaseId: string, options: CompleteOptions = {}): Promise<AddOutcome[]> {
    return this.transactComplete(leaseId, options);
  }

  async reopenDue({ dueBefore, fetchedBefore, limit }: ReopenRequest): Promise<number> {
    if (!(limit >= 1)) return 0;
    // LIMIT -1: no limit.
    return this.transactReopen(dueBefore, fetchedBefore, Number.isFinite(limit) ? Math.floor(limit) : -1);
  }

  async requeueFailed(filter: RequeueFilter = {}): Promise<number> {
    return this.transactRequeueFailed(filter);
  }

  async failures(limit = Infinity): Promise<FailedUrl[]> {
    // LIMIT -1: no limit.
    const rows = this.s.failureList.all(Number.isFinite(limit) ? Math.max(0, Math.floor(limit)) : -1);
    return rows.map(failedUrlOf);
  }

  /** Empties the frontier and the crawl's metadata; the robots cache in the file stays. */
  async clear(): Promise<void> {
    this.transactClear();
  }

  async release(leaseId: string, options: Settle = {}): Promise<void> {
    this.transactEnd(leaseId, 'release', options);
  }

  async retry(leaseId: string, options: Settle = {}): Promise<void> {
    this.transactEnd(leaseId, 'retry', options);
  }

  async setHostPolicy(hostKey: string, policy: PolicyChange): Promise<void> {
    this.transactPolicy(hostKey, policy);
  }

  async takeHostTurn(hostKey: string, request: HostTurnRequest): Promise<HostTurn> {
    return this.transactTurn(hostKey, request);
  }

  async takeSendTurn(hostKey: string, request: SendTurnRequest): Promise<HostTurn> {
    return this.transactSendTurn(hostKey, request);
  }

  async endSendTurn(hostKey: string, end: SendTurnEnd): Promise<void> {
    this.transactEndSendTurn(hostKey, end);
  }

  async counts(): Promise<FrontierCounts> {
    const row = this.s.totals.get()!;
    return {
      queued: row.queued ?? 0,
      inFlight: row.in_flight ?? 0,
      done: row.done ?? 0,
      failed: row.failed,
      activeHosts: row.active,
    };
  }

  async hostCounts(limit = Infinity): Promise<HostCounts[]> {
    // LIMIT -1: no limit.
    const rows = this.s.busiestHosts.all(Number.isFinite(limit) ? Math.max(0, Math.floor(limit)) : -1);
    return rows.map((h) => ({
      hostKey: h.key,
      queued: h.queued,
      inFlight: h.in_flight,
      done: h.done,
      readyAt: h.ready_at,
    }));
  }

  async saveStats(stats: unknown): Promise<void> {
    this.meta.save('stats', stats);
  }

  async loadStats<T = unknown>(): Promise<T | undefined> {
    return this.meta.load<T>('stats');
  }

  async saveMetadata(key: string, value: unknown): Promise<void> {
    this.meta.save(key, value);
  }

  async loadMetadata<T = unknown>(key: string): Promise<T | undefined> {
    return this.meta.load<T>(key);
  }

  async close(): Promise<void> {
    if (this.db.open) this.db.close();
    this.ownerLock?.release();
  }

  private addNow(entries: readonly FrontierEntry[], maxPerHost: number): AddOutcome[] {
    const slots = new Map<string, AddSlot>();
    const appender = this.queues.appender();
    const newRows = new NewRows(this.s, appender);
    const outcomes = entries.map((entry) => this.addOne(entry, maxPerHost, slots, appender, newRows));
    newRows.flush();
    appender.flush();
    for (const slot of slots.values()) {
      if (slot.newlyQueued > 0) this.s.hostAdded.run(slot.added, slot.newlyQueued, slot.id);
    }
    return outcomes;
  }

  private addOne(
    entry: FrontierEntry,
    maxPerHost: number,
    slots: Map<string, AddSlot>,
    appender: QueueAppender,
    newRows: NewRows,
  ): AddOutcome {
    const key = dedupeKeyOf(entry);
    if (entry.hints === undefined && entry.label === undefined && newRows.has(key)) return 'duplicate';
    const hash = keyHash(key);
    const check = keyCheck(key);
    if (entry.hints === undefined && entry.label === undefined) {
      if (this.s.urlExists.get(hash, key, check) !== undefined) return 'duplicate';
    } else {
      // Hints and labels act on the row itself: this add's new rows are written first.
      newRows.flush();
      const known = this.s.knownUrl.get(hash, key, check);
      if (known !== undefined) return this.addKnown(known, entry, appender);
    }
    let slot = slots.get(entry.hostKey);
    if (slot === undefined) {
      const host = this.hostSlot(entry.hostKey);
      slot = { id: host.id, added: host.added, newlyQueued: 0 };
      slots.set(entry.hostKey, slot);
    }
    if (slot.added >= maxPerHost) return 'host-full';
    newRows.add(entry, key, hash, slot.id);
    slot.added++;
    slot.newlyQueued++;
    return 'added';
  }

  /** An add of a URL the file knows: its hints applied, then its label if it is queued without one. */
  private addKnown(known: KnownUrlRow, entry: FrontierEntry, appender: QueueAppender): AddOutcome {
    if (entry.hints !== undefined && known.last_fetch !== null)
      this.applyHints(known.id, JSON.parse(known.last_fetch) as LastFetch, entry.hints);
    if (entry.label === undefined || known.state !== QUEUED) return 'duplicate';
    return this.relabel(known, entry, entry.label, appender) ? 'relabelled' : 'duplicate';
  }

  /**
   * A queued URL without a label takes the label of `entry` (see `relabelledRequestColumn`) and
   * the higher priority. The same priority: in place. A higher one: a copy at the tail of that
   * queue, and the row left in its own as a tombstone (see schema.ts).
   */
  private relabel(known: KnownUrlRow, entry: FrontierEntry, label: string, appender: QueueAppender): boolean {
    const request = relabelledRequestColumn(known.request, label, entry.userData);
    if (request === undefined) return false;
    if (!(entry.priority > known.priority)) {
      this.s.setRequest.run(request, known.id);
      return true;
    }
    const copy = Number(this.s.copyUrl.run({ id: known.id, priority: entry.priority, request }).lastInsertRowid);
    this.s.supersede.run(copy, known.id);
    appender.append(known.host_id, entry.priority, copy);
    return true;
  }

  private claimNow(now: number, leaseMs: number): ClaimResult {
    this.expireLeases(now);
    for (;;) {
      const host = this.s.nextHost.get();
      if (host === undefined) return { lease: null, nextReadyAt: this.nextLeaseExpiry(now) };
      if (host.ready_at > now) return { lease: null, nextReadyAt: host.ready_at };
      const row = this.queues.popFront(host.id);
      if (row === undefined) {
        // Its counter said queued, its queues are empty: believe the queues (never, barring a bug).
        this.s.hostEmptied.run(host.id);
        continue;
      }
      const token = `${this.nonce}.${(++this.leaseCounter).toString(36)}`;
      const leaseExpiresAt = now + leaseMs;
      this.s.leaseUrl.run(token, leaseExpiresAt, row.id);
      this.s.hostClaimed.run(Math.max(host.ready_at, now) + host.delay_ms, host.id);
      return {
        lease: {
          id: leaseIdOf(row.id, token),
          entry: entryOf(row, host.key),
          leaseExpiresAt,
          previousHostReadyAt: host.ready_at,
        },
      };
    }
  }

  /**
   * A turn at the host for a request that is no queued URL: read and moved in one IMMEDIATE
   * transaction, so two processes on one file never both get it. A host the file does not know
   * is created with the default policy, as `add` would: later claims there see the moved clock.
   */
  private turnNow(hostKey: string, { now, busyUntil, withinLease }: HostTurnRequest): HostTurn {
    const { id } = this.hostSlot(hostKey);
    const host = this.s.hostTurnState.get(id)!;
    const clock = Math.max(host.ready_at, host.not_before, sendTurnRetryAt(sendStateOf(host), now) ?? 0);
    if (clock > now) return { granted: false, retryAt: clock };
    if (!withinLease && host.in_flight >= host.max_in_flight)
      return { granted: false, retryAt: now + TURN_ROOM_POLL_MS };
    this.s.hostTurnTaken.run(busyUntil, id);
    return { granted: true };
  }

  /** A send turn at the host: read and taken in one IMMEDIATE transaction (see `turnNow`). */
  private sendTurnNow(hostKey: string, { turnId, now, busyUntil }: SendTurnRequest): HostTurn {
    const { id } = this.hostSlot(hostKey);
    const retryAt = sendTurnRetryAt(sendStateOf(this.s.hostTurnState.get(id)!), now, turnId);
    if (retryAt !== undefined) return { granted: false, retryAt };
    this.s.sendTurnTaken.run(busyUntil, turnId, id);
    return { granted: true };
  }

  /** A sitemap read again: its hints move the URL's due time (`lastFetchAfterHints`). */
  private applyHints(id: number, last: LastFetch, hints: RevisitHints): void {
    const next = lastFetchAfterHints(last, hints);
    this.s.setLastFetch.run(JSON.stringify(next), next.dueAt, id);
  }

  /**
   * Due done URLs, the most overdue first, back at the tails of their queues (as a retry); then,
   * if the limit leaves room, done URLs fetched before `fetchedBefore`, the longest ago first.
   * (Those of the first pass are queued again by then, so the second does not take them twice.)
   * `limit` -1: no limit.
   */
  private reopenNow(dueBefore: number, fetchedBefore: number | undefined, limit: number): number {
    const requeuer = this.requeuer();
    let reopened = requeuer.requeue(this.s.dueUrls.all(dueBefore, limit));
    if (fetchedBefore !== undefined && (limit < 0 || reopened < limit)) {
      reopened += requeuer.requeue(this.s.fetchedUrls.all(fetchedBefore, limit < 0 ? -1 : limit - reopened));
    }
    requeuer.flush();
    return reopened;
  }

  /** The failed URLs the filter takes (every one without), at the tails of their queues, the oldest failure first. */
  private requeueFailedNow({ urls, kind }: RequeueFilter): number {
    const requeuer = this.requeuer();
    const rows =
      urls !== undefined
        ? this.failedAmong(urls, kind)
        : kind === undefined
          ? this.s.failedUrls.all()
          : this.s.failedUrlsOfKind.all(kind);
    const requeued = requeuer.requeue(rows);
    requeuer.flush();
    return requeued;
  }

  /** The rows of the failed URLs among `urls` (dedupe keys), of `kind` when given. */
  private failedAmong(urls: readonly string[], kind: UrlFailure['kind'] | undefined): RequeueRow[] {
    const rows: RequeueRow[] = [];
    for (const key of new Set(urls)) {
      const row = this.s.knownUrl.get(keyHash(key), key, keyCheck(key));
      if (row === undefined) continue;
      const failedAs = this.s.failureKindOf.get(row.id);
      if (failedAs === undefined || (kind !== undefined && failedAs !== kind)) continue;
      rows.push({ id: row.id, host_id: row.host_id, priority: row.priority });
    }
    return rows;
  }

  /**
   * Done URLs back at the tails of their queues (as a retry), their attempts afresh and their
   * failure, if any, forgotten: queued, they are no longer failed. A `last_fetch` stays: a claim
   * returns it as the entry's revisit.
   */
  private requeuer(): Requeuer {
    const appender = this.queues.appender();
    const perHost = new Map<number, number>();
    return {
      requeue: (rows) => {
        for (const { id, host_id, priority } of rows) {
          this.s.urlReopened.run(id);
          this.s.forgetFailure.run(id);
          appender.append(host_id, priority, id);
          perHost.set(host_id, (perHost.get(host_id) ?? 0) + 1);
        }
        return rows.length;
      },
      flush: () => {
        appender.flush();
        for (const [hostId, n] of perHost) this.s.hostReopened.run(n, n, hostId);
      },
    };
  }

  /** Expired leases (a worker that died or hung) put their URL back at the head of its queue. */
  private expireLeases(now: number): number {
    const expired = this.s.expiredLeases.all(now);
    for (const { id, host_id, priority } of expired) {
      this.s.urlRequeued.run({ retried: 0, id });
      this.s.hostRequeued.run({ readyAt: null, notBefore: null, id: host_id });
      this.queues.pushFront(host_id, priority, id);
    }
    return expired.length;
  }

  /** Nothing claimable: null when nothing is in flight either, else when to look again. */
  private nextLeaseExpiry(now: number): number | null {
    const { at } = this.s.earliestLeaseExpiry.get()!;
    return at === null ? null : Math.min(at, now + this.options.idlePollMs);
  }

  /**
   * `completion.lastFetch`: what a completion's fetch left; omitted, the URL keeps the one it had.
   * `completion.failure`: kept with the done URL, which is then failed.
   */
  private endLease(
    leaseId: string,
    how: LeaseEnd,
    { hostReadyAt, hostNotBefore }: Settle,
    { lastFetch, failure }: Completion = {},
  ): void {
    const parsed = parseLeaseId(leaseId);
    if (parsed === null) return;
    // A lease that expired (and was perhaps claimed again) is stale: ending it does nothing.
    const leased = this.s.leasedUrl.get(parsed.rowId, parsed.token);
    if (leased === undefined) return;
    const host = { readyAt: hostReadyAt ?? null, notBefore: hostNotBefore ?? null, id: leased.host_id };
    if (how === 'complete') {
      // Done for good (nothing kept for a revisit, no failure to requeue): its URL is not kept.
      if (lastFetch === undefined && failure === undefined && leased.last_fetch === null)
        this.s.urlDoneCompact.run(keyCheck(leased.key), parsed.rowId);
      else if (lastFetch === undefined) this.s.urlDone.run(parsed.rowId);
      else {
        this.s.urlDoneFetched.run({
          lastFetch: JSON.stringify(lastFetch),
          dueAt: lastFetch.dueAt,
          fetchedAt: lastFetch.fetchedAt,
          id: parsed.rowId,
        });
      }
      if (failure !== undefined) this.s.insertFailure.run({ id: parsed.rowId, ...failureColumns(failure) });
      this.s.hostCompleted.run(host);
      return;
    }
    this.s.urlRequeued.run({ retried: how === 'retry' ? 1 : 0, id: parsed.rowId });
    this.s.hostRequeued.run(host);
    if (how === 'retry') this.queues.pushBack(leased.host_id, leased.priority, parsed.rowId);
    else this.queues.pushFront(leased.host_id, leased.priority, parsed.rowId);
  }

  /** The host's row, created with the default policy when the file does not know it yet. */
  private hostSlot(hostKey: string): HostSlot {
    const policy = this.options.defaultHostPolicy;
    return this.s.hostByKey.get(hostKey) ?? this.s.insertHost.get(hostKey, policy.delayMs, policy.maxInFlight)!;
  }
}

/** A failure as its row holds it (every field bound by name, none left out). */
function failureColumns({ kind, reason, message, code, attempts, at }: UrlFailure): Omit<FailureParams, 'id'> {
  return { kind, reason, message, code: code ?? null, attempts, at };
}

/** `fn` as a BEGIN IMMEDIATE transaction: committed when it returns, rolled back when it throws. */
function immediate<A extends unknown[], R>(db: Database, fn: (...args: A) => R): (...args: A) => R {
  const transaction = db.transaction(fn);
  return (...args: A) => transaction.immediate(...args);
}

/** A host row's send state, as `sendTurnRetryAt` reads it. */
function sendStateOf(host: HostTurnRow): SendTurnState {
  return {
    sendReadyAt: host.send_ready_at,
    sendBusyUntil: host.send_busy_until,
    sendTurnId: host.send_turn_id,
    notBefore: host.not_before,
  };
}
