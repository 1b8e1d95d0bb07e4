// The in-memory FrontierStore: per-host priority queues, and a heap of hosts ordered by the time
// each may next be fetched, so a slow or crawl-delayed host never blocks the others.

import { describeValue, Heap, optionChecks } from '@politely/core/internal';
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
  type FrontierLease,
  type FrontierStore,
  type HostCounts,
  type HostPolicy,
  type HostTurn,
  type HostTurnRequest,
  type ReopenRequest,
  type RequeueFilter,
  type SendTurnEnd,
  type SendTurnRequest,
  type SettleOptions,
  type UrlFailure,
} from './frontier-store.js';
import { resolveDefaultHostPolicy } from './host-policy-option.js';
import { type LastFetch, lastFetchAfterHints } from './last-fetch.js';
import { sendTurnRetryAt } from './send-turn.js';

/** Options of `createMemoryFrontierStore`: a host's default policy and whether fetches are remembered for recrawls. */
export interface MemoryFrontierStoreOptions {
  /**
   * Politeness of a host until `setHostPolicy` says otherwise.
   * @default { delayMs: 0, maxInFlight: 1 }
   */
  readonly defaultHostPolicy?: Partial<HostPolicy>;
  /**
   * Keep what each fetch left (`CompleteOptions.lastFetch`: validators, hash, due time, a few
   * hundred bytes per URL), so that a later crawl given this store with `recrawl` can revalidate.
   * Off, a done URL costs no more than its dedupe key. The store a crawler makes for itself
   * when given no `store` has it off: to recrawl in memory, create the store and pass it to each
   * crawler.
   * @default true
   */
  readonly rememberFetches?: boolean;
}

interface QueuedEntry {
  readonly entry: FrontierEntry;
  /** FIFO order within a priority; released entries get a negative sequence to go first. */
  readonly sequence: number;
  /** Replaced in its host's queue by a relabelled copy: skipped when it comes up. */
  stale?: true;
}

interface HostState {
  readonly key: string;
  /** Its queued URLs, and relabelled ones' stale nodes (`queued` counts only the live ones). */
  readonly queue: Heap<QueuedEntry>;
  queued: number;
  readyAt: number;
  /** The latest hold (Retry-After, backoff) settles gave: `readyAt` is never set before it. */
  notBefore: number;
  /** The send pace (`endSendTurn`): no send turn before it. Only rises. */
  sendReadyAt: number;
  /** The held send turn's `busyUntil`; 0: none held. */
  sendBusyUntil: number;
  /** The held send turn's id. */
  sendTurnId: string | null;
  delayMs: number;
  maxInFlight: number;
  inFlight: number;
  done: number;
  added: number;
  /** Bumped on every change; heap nodes with an older version are stale. */
  version: number;
}

interface ReadyNode {
  /** The host's `readyAt` when the node was pushed. */
  readonly at: number;
  readonly host: HostState;
  readonly version: number;
}

interface LeaseRecord {
  readonly lease: FrontierLease;
  readonly host: HostState;
}

/** A fetched URL's memory, and the entry to queue again when it is due. */
interface Fetched {
  readonly entry: FrontierEntry;
  last: LastFetch;
  /** Done (it may be reopened) or queued again as a revisit. */
  done: boolean;
  /** Bumped on every change; due-heap nodes with an older version are stale. */
  version: number;
}

/** A turn refused for want of room in flight asks again this much later (a lease settles meanwhile). */
const TURN_ROOM_POLL_MS = 50;

const byAt = (a: { readonly at: number }, b: { readonly at: number }): boolean => a.at < b.at;

const byPriorityThenSequence = (a: QueuedEntry, b: QueuedEntry): boolean =>
  a.entry.priority !== b.entry.priority ? a.entry.priority > b.entry.priority : a.sequence < b.sequence;

/** Every option `createMemoryFrontierStore` knows: a key missing here, or one too many, is a type error. */
export const MEMORY_STORE_OPTION_KEYS: Record<keyof MemoryFrontierStoreOptions, true> = {
  defaultHostPolicy: true,
  rememberFetches: true,
};

/** A FrontierStore in this process's memory: what the crawler makes when given no `store`. */
export function createMemoryFrontierStore(options: MemoryFrontierStoreOptions = {}): FrontierStore {
  const check = optionChecks('createMemoryFrontierStore');
  if (typeof options !== 'object' || options === null)
    check.fail(`options must be an object, got ${describeValue(options)}`);
  check.knownKeys(options, MEMORY_STORE_OPTION_KEYS);
  return new MemoryFrontierStore({
    defaultHostPolicy: resolveDefaultHostPolicy(check, options.defaultHostPolicy),
    rememberFetches: check.flag('rememberFetches', options.rememberFetches, true),
  });
}

class MemoryFrontierStore implements FrontierStore {
  private readonly seen = new Set<string>();
  /** Queued URLs without a label, by dedupe key: a later add with a label relabels them. */
  private readonly unlabelled = new Map<string, { readonly host: HostState; readonly queued: QueuedEntry }>();
  /** Failed URLs (completed with a failure), by dedupe key, in the order they failed. */
  private readonly failed = new Map<string, FailedUrl>();
  private readonly hosts = new Map<string, HostState>();
  // Every heap but the host queues orders by `at`, through one comparator: the heap's call site
  // then sees two functions, not five, and V8 keeps it fast (inlined, not megamorphic).
  private readonly ready = new Heap<ReadyNode>(byAt);
  private readonly leases = new Map<string, LeaseRecord>();
  private readonly leaseExpiries = new Heap<{ at: number; id: string }>(byAt);
  private readonly fetched = new Map<string, Fetched>();
  private readonly due = new Heap<{ readonly at: number; readonly key: string; readonly version: number }>(byAt);
  /** The same URLs by `fetchedAt`, for `fetchedBefore`. */
  private readonly byFetchedAt = new Heap<{ readonly at: number; readonly key: string; readonly version: number }>(
    byAt,
  );
  private readonly defaultDelayMs: number;
  private readonly defaultMaxInFlight: number;
  readonly remembersFetches: boolean;
  private sequence = 0;
  private releasedSequence = 0;
  private leaseCounter = 0;
  private queued = 0;
  private done = 0;

  constructor(options: MemoryFrontierStoreOptions) {
    this.defaultDelayMs = options.defaultHostPolicy?.delayMs ?? 0;
    this.defaultMaxInFlight = options.defaultHostPolicy?.maxInFlight ?? 1;
    this.remembersFetches = options.rememberFetches ?? true;
  }

  async add(entries: readonly FrontierEntry[], options: AddOptions = {}): Promise<AddOutcome[]> {
    return this.addNow(entries, options);
  }

  private addNow(entries: readonly FrontierEntry[], options: AddOptions = {}): AddOutcome[] {
    const maxPerHost = options.maxPerHost ?? Infinity;
    return entries.map((entry) => {
      const key = dedupeKeyOf(entry);
      if (this.seen.has(key)) {
        if (entry.hints !== undefined) this.applyHints(key, entry.hints);
        return entry.label !== undefined && this.relabel(key, entry) ? 'relabelled' : 'duplicate';
      }
      const host = this.host(entry.hostKey);
      if (host.added >= maxPerHost) return 'host-full';
      this.seen.add(key);
      host.added++;
      this.enqueue(host, { entry, sequence: this.sequence++ });
      return 'added';
    });
  }

  async claim({ now, leaseMs }: ClaimRequest): Promise<ClaimResult> {
    this.expireLeases(now);
    for (;;) {
      const top = this.ready.peek();
      if (top === undefined) return { lease: null, nextReadyAt: null };
      if (!this.isCurrent(top)) {
        this.ready.pop();
        continue;
      }
      if (top.at > now) return { lease: null, nextReadyAt: top.at };
      this.ready.pop();
      const host = top.host;
      const queued = this.takeHead(host);
      this.queued--;
      host.inFlight++;
      const previousHostReadyAt = host.readyAt;
      host.readyAt = Math.max(host.readyAt, now) + host.delayMs;
      this.reschedule(host);
      const lease: FrontierLease = {
        id: `lease-${++this.leaseCounter}`,
        entry: queued.entry,
        leaseExpiresAt: now + leaseMs,
        previousHostReadyAt,
      };
      this.leases.set(lease.id, { lease, host });
      this.leaseExpiries.push({ at: lease.leaseExpiresAt, id: lease.id });
      return { lease };
    }
  }

  async complete(leaseId: string, options: CompleteOptions = {}): Promise<AddOutcome[]> {
    const added = options.add === undefined ? [] : this.addNow(options.add, options.addOptions);
    const record = this.takeLease(leaseId);
    if (record === undefined) return added;
    record.host.done++;
    this.done++;
    this.remember(record.lease.entry, options.lastFetch);
    if (options.failure !== undefined) this.fail(record.lease.entry, options.failure);
    this.settle(record.host, options);
    return added;
  }

  async requeueFailed(filter: RequeueFilter = {}): Promise<number> {
    const keys = filter.urls === undefined ? this.failed.keys() : filter.urls;
    const failed: FailedUrl[] = [];
    for (const key of [...keys]) {
      const found = this.failed.get(key);
      if (found === undefined || (filter.kind !== undefined && found.failure.kind !== filter.kind)) continue;
      this.failed.delete(key);
      failed.push(found);
    }
    for (const { entry } of failed) {
      const fetched = this.fetched.get(dedupeKeyOf(entry));
      // Queued again: a due time it may have must not queue it a second time. With a LastFetch
      // (a revisit that failed) it goes as a revisit, as the durable stores queue it.
      if (fetched !== undefined) {
        fetched.done = false;
        fetched.version++;
      }
      const host = this.host(entry.hostKey);
      host.done--;
      this.done--;
      const queued = fetched === undefined ? entry : { ...entry, revisit: fetched.last };
      this.enqueue(host, { entry: queued, sequence: this.sequence++ });
    }
    return failed.length;
  }

  async failures(limit = Infinity): Promise<FailedUrl[]> {
    return [...this.failed.values()].sort((a, b) => a.failure.at - b.failure.at).slice(0, limit);
  }

  async clear(): Promise<void> {
    for (const each of [this.seen, this.unlabelled, this.failed, this.hosts, this.leases, this.fetched]) each.clear();
    for (const heap of [this.ready, this.leaseExpiries, this.due, this.byFetchedAt]) while (heap.pop() !== undefined);
    this.queued = 0;
    this.done = 0;
  }

  async reopenDue({ dueBefore, fetchedBefore = -Infinity, limit }: ReopenRequest): Promise<number> {
    let reopened = 0;
    for (const [heap, before] of [
      [this.due, dueBefore],
      [this.byFetchedAt, fetchedBefore],
    ] as const) {
      while (reopened < limit) {
        const top = heap.peek();
        if (top === undefined || top.at >= before) break;
        heap.pop();
        const fetched = this.fetched.get(top.key);
        if (fetched === undefined || fetched.version !== top.version || !fetched.done) continue;
        this.reopen(fetched);
        reopened++;
      }
    }
    return reopened;
  }

  private reopen(fetched: Fetched): void {
    fetched.done = false;
    fetched.version++;
    this.failed.delete(dedupeKeyOf(fetched.entry));
    const host = this.host(fetched.entry.hostKey);
    host.done--;
    this.done--;
    const { retries: _retries, revisit: _revisit, ...entry } = fetched.entry;
    this.enqueue(host, { entry: { ...entry, revisit: fetched.last }, sequence: this.sequence++ });
  }

  async release(leaseId: string, options: SettleOptions = {}): Promise<void> {
    const record = this.takeLease(leaseId);
    if (record === undefined) return;
    this.requeue(record, record.lease.entry);
    this.settle(record.host, options);
  }

  async retry(leaseId: string, options: SettleOptions = {}): Promise<void> {
    const record = this.takeLease(leaseId);
    if (record === undefined) return;
    const entry = record.lease.entry;
    this.enqueue(record.host, { entry: { ...entry, retries: (entry.retries ?? 0) + 1 }, sequence: this.sequence++ });
    this.settle(record.host, options);
  }

  async takeHostTurn(hostKey: string, { now, busyUntil, withinLease }: HostTurnRequest): Promise<HostTurn> {
    const host = this.host(hostKey);
    const readyAt = Math.max(host.readyAt, host.notBefore, sendTurnRetryAt(host, now) ?? 0);
    if (readyAt > now) return { granted: false, retryAt: readyAt };
    if (!withinLease && host.inFlight >= host.maxInFlight) return { granted: false, retryAt: now + TURN_ROOM_POLL_MS };
    host.readyAt = Math.max(busyUntil, host.notBefore);
    this.reschedule(host);
    return { granted: true };
  }

  async takeSendTurn(hostKey: string, { turnId, now, busyUntil }: SendTurnRequest): Promise<HostTurn> {
    const host = this.host(hostKey);
    const retryAt = sendTurnRetryAt(host, now, turnId);
    if (retryAt !== undefined) return { granted: false, retryAt };
    host.sendBusyUntil = busyUntil;
    host.sendTurnId = turnId;
    return { granted: true };
  }

  async endSendTurn(hostKey: string, { turnId, readyAt }: SendTurnEnd): Promise<void> {
    const host = this.host(hostKey);
    if (host.sendTurnId === turnId) {
      host.sendBusyUntil = 0;
      host.sendTurnId = null;
    }
    host.sendReadyAt = Math.max(host.sendReadyAt, readyAt);
  }

  async setHostPolicy(hostKey: string, policy: Partial<HostPolicy> & { readyAt?: number }): Promise<void> {
    const host = this.host(hostKey);
    if (policy.delayMs !== undefined) host.delayMs = policy.delayMs;
    if (policy.maxInFlight !== undefined) host.maxInFlight = policy.maxInFlight;
    if (policy.readyAt !== undefined) host.readyAt = Math.max(policy.readyAt, host.notBefore);
    this.reschedule(host);
  }

  async counts(): Promise<FrontierCounts> {
    let activeHosts = 0;
    for (const host of this.hosts.values()) if (host.queued > 0 || host.inFlight > 0) activeHosts++;
    return { queued: this.queued, inFlight: this.leases.size, done: this.done, failed: this.failed.size, activeHosts };
  }

  async hostCounts(limit = Infinity): Promise<HostCounts[]> {
    return [...this.hosts.values()]
      .map((h) => ({ hostKey: h.key, queued: h.queued, inFlight: h.inFlight, done: h.done, readyAt: h.readyAt }))
      .sort((a, b) => b.queued + b.inFlight - (a.queued + a.inFlight))
      .slice(0, limit);
  }

  async close(): Promise<void> {}

  /** A failed URL kept with its failure, for `failures` and `requeueFailed`. */
  private fail(entry: FrontierEntry, failure: UrlFailure): void {
    const { retries: _retries, revisit: _revisit, ...kept } = entry;
    this.failed.set(dedupeKeyOf(entry), { entry: kept, failure });
  }

  /**
   * A queued URL without a label takes the label and userData of `entry`, and the higher
   * priority: its node in the host's queue is replaced (the old one goes stale).
   */
  private relabel(key: string, entry: FrontierEntry): boolean {
    const found = this.unlabelled.get(key);
    if (found === undefined) return false;
    this.unlabelled.delete(key);
    const { host, queued } = found;
    queued.stale = true;
    host.queue.push({
      entry: {
        ...queued.entry,
        label: entry.label!,
        ...(entry.userData === undefined ? {} : { userData: entry.userData }),
        priority: Math.max(queued.entry.priority, entry.priority),
      },
      sequence: queued.sequence,
    });
    return true;
  }

  /** The host's next live queued URL (stale nodes of relabelled ones dropped on the way). */
  private takeHead(host: HostState): QueuedEntry {
    for (;;) {
      const queued = host.queue.pop()!;
      if (queued.stale) continue;
      host.queued--;
      if (queued.entry.label === undefined) this.unlabelled.delete(dedupeKeyOf(queued.entry));
      return queued;
    }
  }
  /** A done URL's memory: the one given, else the one it had (a revisit that fetched nothing). */
  private remember(entry: FrontierEntry, given: LastFetch | undefined): void {
    if (!this.remembersFetches) return;
    const key = dedupeKeyOf(entry);
    const known = this.fetched.get(key);
    const last = given ?? known?.last;
    if (last === undefined) return;
    const { revisit: _revisit, retries: _retries, ...kept } = entry;
    const fetched: Fetched = { entry: kept, last, done: true, version: (known?.version ?? 0) + 1 };
    this.fetched.set(key, fetched);
    this.due.push({ at: last.dueAt, key, version: fetched.version });
    this.byFetchedAt.push({ at: last.fetchedAt, key, version: fetched.version });
  }

  private applyHints(key: string, hints: NonNullable<FrontierEntry['hints']>): void {
    const fetched = this.fetched.get(key);
    if (fetched === undefined) return;
    fetched.last = lastFetchAfterHints(fetched.last, hints);
    fetched.version++;
    if (fetched.done) {
      this.due.push({ at: fetched.last.dueAt, key, version: fetched.version });
      this.byFetchedAt.push({ at: fetched.last.fetchedAt, key, version: fetched.version });
    }
  }

  private host(key: string): HostState {
    let host = this.hosts.get(key);
    if (host === undefined) {
      host = {
        key,
        queue: new Heap(byPriorityThenSequence),
        queued: 0,
        readyAt: 0,
        notBefore: 0,
        sendReadyAt: 0,
        sendBusyUntil: 0,
        sendTurnId: null,
        delayMs: this.defaultDelayMs,
        maxInFlight: this.defaultMaxInFlight,
        inFlight: 0,
        done: 0,
        added: 0,
        version: 0,
      };
      this.hosts.set(key, host);
    }
    return host;
  }

  private enqueue(host: HostState, queued: QueuedEntry): void {
    host.queue.push(queued);
    host.queued++;
    if (queued.entry.label === undefined) this.unlabelled.set(dedupeKeyOf(queued.entry), { host, queued });
    this.queued++;
    this.reschedule(host);
  }

  private requeue(record: LeaseRecord, entry: FrontierEntry): void {
    this.enqueue(record.host, { entry, sequence: -++this.releasedSequence });
  }

  private takeLease(leaseId: string): LeaseRecord | undefined {
    const record = this.leases.get(leaseId);
    if (record === undefined) return undefined;
    this.leases.delete(leaseId);
    record.host.inFlight--;
    return record;
  }

  /** Holds only rise; the clock is set as asked, but never before the hold (see `SettleOptions`). */
  private settle(host: HostState, { hostReadyAt, hostNotBefore }: SettleOptions): void {
    if (hostNotBefore !== undefined) host.notBefore = Math.max(host.notBefore, hostNotBefore);
    host.readyAt = Math.max(hostReadyAt ?? host.readyAt, host.notBefore);
    this.reschedule(host);
  }

  /** Expired leases (a worker that died or hung) return their URL to the queue. */
  private expireLeases(now: number): void {
    for (let top = this.leaseExpiries.peek(); top !== undefined && top.at <= now; top = this.leaseExpiries.peek()) {
      this.leaseExpiries.pop();
      const record = this.takeLease(top.id);
      if (record !== undefined) {
        this.requeue(record, record.lease.entry);
        this.reschedule(record.host);
      }
    }
  }

  private isCurrent(node: ReadyNode): boolean {
    return node.version === node.host.version && this.isSchedulable(node.host);
  }

  private isSchedulable(host: HostState): boolean {
    return host.queued > 0 && host.inFlight < host.maxInFlight;
  }

  private reschedule(host: HostState): void {
    host.version++;
    if (this.isSchedulable(host)) this.ready.push({ at: host.readyAt, host, version: host.version });
  }
}
