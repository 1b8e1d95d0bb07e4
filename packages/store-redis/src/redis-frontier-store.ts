// The Redis FrontierStore: one crawl's frontier, dedupe set, host clocks and policies, and leases,
// all in Redis (one server, or a Redis Cluster), so that any number of worker processes on any
// number of machines share one crawl and its politeness. Every state change is one Lua script
// on one bucket (frontier-scripts.ts), atomic; a host's state is all in its bucket (keys.ts).
//
// Ops per page: a claim is one script on the bucket the worker's view says is ready soonest
// (claim-view.ts; a whole refresh, one script per bucket, only when nothing is ready); a
// completion is one script on the page's bucket, plus one per other bucket its links fall in
// (sent together, before it); and the completions, releases, retries and adds of one bucket that
// wait together share one script (settle-batcher.ts). A completion may also claim for the slot
// it frees (completeAndClaim): in the same script, among the hosts of the page's bucket, so that
// a page costs one script instead of two when one of them is ready (the crawler then claims
// nothing itself for that slot). A heartbeat is one crawl-wide script.
//
// Times: the scripts read the time from Redis (TIME), and every time they keep or answer is on
// Redis's clock, so that politeness across workers does not depend on the workers' clocks. Each
// worker learns its clock's offset from Redis's (server-clock.ts) and converts every time it
// gives (a settle's `hostReadyAt` and `hostNotBefore`, a turn's `busyUntil`, a claim's
// `readyBy`) or gets (a lease's `startAt`, expiry and `previousHostReadyAt`, `nextReadyAt`, a
// turn's `retryAt`), so that the crawler waits on its own clock. The `now` a caller passes is a
// hint (with `clock: 'caller'`, the store's clock: then the machines' clocks must agree). Worker
// registrations (heartbeats) use Redis's own clock either way. A LastFetch's and a failure's
// times are the worker's: they are records, not turns.
//
// Failures. A connection lost mid-crawl is waited for (see connection.ts); a crawl whose state
// Redis lost (its marker gone or replaced, see frontier-scripts.ts) and any other error of Redis
// reject with PolitelyError ERR_STORE: the crawler stops, and no worker reports a finished crawl.

import { randomBytes, randomUUID } from 'node:crypto';
import { PolitelyError } from '@politely/core';
import type {
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
} from '@politely/frontier';
import { dedupeKeyOf } from '@politely/frontier';
import { ClaimView, timesOf } from './claim-view.js';
import { type OpenedRedis, openRedis } from './connection.js';
import { CRAWL_SCRIPT_KEY_COUNT, CRAWL_SCRIPTS, type CrawlCommands, OLD_LAYOUT } from './crawl-scripts.js';
import { decodeEntry } from './entry-codec.js';
import {
  BUCKET_SCRIPT_KEY_COUNT,
  BUCKET_SCRIPTS,
  type BucketCommands,
  CRAWL_GONE,
  STALE_GENERATION,
} from './frontier-scripts.js';
import { BUCKET_COUNT, bucketOfHost, bucketScriptKeys, crawlScriptKeys, LAYOUT_VERSION, metadataKey } from './keys.js';
import { KnownUrls } from './known-urls.js';
import { NO_REPLICA_ACKS, type ReplicaAcks, replicaAcks } from './replica-acks.js';
import { ServerClock } from './server-clock.js';
import { type SentSettles, SettleBatcher, type SettledRecord, type SettleRecord } from './settle-batcher.js';
import { failureArgs, hostKeyOf, lastFetchArg, maxPerHostArg, pushEntryArgs, scoreBound, time } from './store-args.js';
import {
  ENTRY_POINT,
  type RedisFrontierStoreOptions,
  type ResolvedRedisFrontierStoreOptions,
  resolveRedisFrontierStoreOptions,
} from './store-options.js';

export type { RedisFrontierStoreOptions, ResolvedRedisFrontierStoreOptions } from './store-options.js';
export { resolveRedisFrontierStoreOptions } from './store-options.js';

/** A turn refused for want of room in flight asks again this much later (as the memory store's). */
const TURN_ROOM_POLL_MS = 50;
/** The values a completion that also claims gets back for its lease (see SETTLE_MANY). */
const CLAIMED_LEASE_FIELDS = 7;
/** Buckets one claim tries (its view may be stale: another worker took what it saw ready). */
const CLAIM_TRIES = 8;

type Arg = string | number;

/** A FrontierStore in Redis; `ready()` connects and opens (or creates) the crawl ahead of first use. */
export interface RedisFrontierStore extends FrontierStore {
  /** This worker's id in the crawl's registry (`<pid>-<random>`). */
  readonly workerId: string;
  /**
   * Connects, checks the database, opens the crawl (creating its marker if it is new) and
   * registers the worker. Every method does it first; call it to fail early. Rejects with
   * ERR_STORE (Redis unreachable) or ERR_INVALID_OPTION (no such database).
   */
  ready(): Promise<void>;
  /**
   * A turn at a host for a request that is no queued URL (see `FrontierStore.takeHostTurn`): one
   * script, so two workers never both get it. Always there.
   */
  takeHostTurn(hostKey: string, request: HostTurnRequest): Promise<HostTurn>;
  /**
   * `complete`, and in its one script a claim among the hosts of the page's bucket (see
   * `FrontierStore.completeAndClaim`). Always there.
   */
  completeAndClaim(
    leaseId: string,
    options: CompleteOptions,
    claim: CompletionClaimRequest,
  ): Promise<CompletedAndClaimed>;
  /** A send turn at a host (see `FrontierStore.takeSendTurn`): one script, atomic across workers. Always there. */
  takeSendTurn(hostKey: string, request: SendTurnRequest): Promise<HostTurn>;
  /** Ends a send turn (see `FrontierStore.endSendTurn`). Always there. */
  endSendTurn(hostKey: string, end: SendTurnEnd): Promise<void>;
  /**
   * Stores a JSON value under `key` with the crawl (a hash beside its frontier), replacing what
   * was there: shared by every worker of the crawl, deleted with it. The crawler keeps its cookie
   * jar so (`politely:cookie-jar`); the last worker to save wins.
   */
  saveMetadata(key: string, value: unknown): Promise<void>;
  /** The JSON value stored under `key`, or undefined. */
  loadMetadata<T = unknown>(key: string): Promise<T | undefined>;
}

/** A FrontierStore in Redis, shared by every worker that opens the same crawl id. */
export function createRedisFrontierStore(options: RedisFrontierStoreOptions): RedisFrontierStore {
  const resolved = resolveRedisFrontierStoreOptions(options);
  const connection = openRedis(ENTRY_POINT, options.redis, options);
  const acks =
    resolved.replicaAcks === 0
      ? NO_REPLICA_ACKS
      : replicaAcks(
          connection.redis,
          resolved.replicaAcks,
          resolved.replicaAckTimeoutMs,
          options.onWarning ?? warnOnStderr,
        );
  return new Store(connection, resolved, options.crawlId ?? options.keyPrefix ?? '', acks);
}

function warnOnStderr(message: string): void {
  process.emitWarning(message, { code: 'POLITELY_REPLICA_ACKS' });
}

/** The bucket a lease id names (`<bucket>/<worker>.<n>`), or undefined for an id that is none of ours. */
function bucketOfLease(leaseId: string): number | undefined {
  // The digits before the first '/' (read by hand: this runs for every settle).
  const slash = leaseId.indexOf('/');
  if (slash <= 0) return undefined;
  let b = 0;
  for (let i = 0; i < slash; i++) {
    const digit = leaseId.charCodeAt(i) - 48;
    if (digit < 0 || digit > 9) return undefined;
    b = b * 10 + digit;
    if (b >= BUCKET_COUNT) return undefined;
  }
  return b;
}

const ALL_BUCKETS = Array.from({ length: BUCKET_COUNT }, (_, b) => b);

class Store implements RedisFrontierStore {
  readonly workerId = `${process.pid}-${randomBytes(4).toString('hex')}`;
  private readonly commands: BucketCommands & CrawlCommands;
  /** Each bucket's keys, as its scripts declare them (`bucketScriptKeys`). */
  private readonly bucketKeys: readonly (readonly string[])[];
  /** Each bucket's meta key: what replica acks wait on. */
  private readonly bucketMeta: readonly string[];
  /** The store's clock (Redis's, or the caller's) as this worker sees it. */
  private readonly clock: ServerClock;
  private readonly view: ClaimView;
  private readonly settles: SettleBatcher;
  /** Links known to be held: left out of their page's completion (known-urls.ts). */
  private readonly known: KnownUrls;
  private opening: Promise<void> | undefined;
  /** Set once the crawl is open: calls skip waiting for `ready()`. */
  private opened = false;
  /** The crawl marker seen at open: every script checks Redis still holds this one. */
  private crawl = '';
  /** URLs added to the crawl as last seen, for the message when Redis loses them. */
  private knownUrls = 0;
  private leaseSeq = 0;
  /** The leases this worker holds: a closing worker with none leaves the registry at once. */
  private readonly held = new Set<string>();
  /** `Date.now()` when the last renewal of this worker's registration that Redis confirmed was sent. */
  private confirmedAt = -Infinity;
  private heartbeat: NodeJS.Timeout | undefined;
  private beating = false;
  private closed = false;
  /** Set once the crawl is found gone: every later call fails with it. */
  private gone: PolitelyError | undefined;
  /** `rememberFetches`: false tells the crawler to work out no LastFetch. */
  readonly remembersFetches: boolean;

  constructor(
    private readonly connection: OpenedRedis,
    private readonly options: ResolvedRedisFrontierStoreOptions,
    private readonly crawlName: string,
    private readonly acks: ReplicaAcks,
  ) {
    for (const [name, lua] of Object.entries(BUCKET_SCRIPTS))
      connection.redis.defineCommand(name, { numberOfKeys: BUCKET_SCRIPT_KEY_COUNT, lua });
    for (const [name, lua] of Object.entries(CRAWL_SCRIPTS))
      connection.redis.defineCommand(name, { numberOfKeys: CRAWL_SCRIPT_KEY_COUNT, lua });
    this.commands = connection.redis as unknown as BucketCommands & CrawlCommands;
    this.bucketKeys = ALL_BUCKETS.map((b) => bucketScriptKeys(options.keys.bucket(b), this.workerId));
    this.bucketMeta = this.bucketKeys.map((keys) => keys[0]!);
    this.clock = new ServerClock(options.clock === 'redis' ? 'server' : 'caller');
    this.view = new ClaimView(BUCKET_COUNT, options.idlePollMs);
    this.settles = new SettleBatcher((b, records) => this.settleMany(b, records), options.addBatchSize);
    this.remembersFetches = options.rememberFetches;
    this.known = new KnownUrls(options.knownUrlCache, BUCKET_COUNT);
  }

  ready(): Promise<void> {
    if (this.closed)
      return Promise.reject(new PolitelyError('ERR_STORE', `${this.connection.display}: the store is closed`));
    this.opening ??= this.open();
    return this.opening;
  }

  /**
   * One script per bucket the entries fall in, sent together (in batches of addBatchSize), each
   * shared with the settles and adds waiting on its bucket.
   */
  async add(entries: readonly FrontierEntry[], options: AddOptions = {}): Promise<AddOutcome[]> {
    const maxPerHost = maxPerHostArg(options);
    const groups = groupByBucket(entries);
    const outcomes: AddOutcome[] = [];
    await this.addGroups(groups, entries, maxPerHost, outcomes);
    return outcomes;
  }

  async claim({ now, leaseMs }: ClaimRequest): Promise<ClaimResult> {
    const local = Math.floor(time('claim: now', now));
    const lease = Math.ceil(time('claim: leaseMs', leaseMs));
    await this.ready();
    // The view keeps the store's times (frontier-scripts.ts, "Next times").
    const at = Math.floor(this.clock.toStore(local));
    let refreshed = false;
    for (let attempt = 0; attempt < CLAIM_TRIES; attempt++) {
      const b = this.view.pick(at);
      if (b === undefined) {
        if (refreshed || !this.view.needsRefresh(at)) break;
        await this.refresh(local);
        refreshed = true;
        continue;
      }
      // The lease id is chosen here, once per claim: a claim sent again after a lost reply is the same claim.
      const leaseId = `${b}/${this.workerId}.${++this.leaseSeq}`;
      const reply = await this.call('claim', () =>
        this.commands.politelyBucketClaim(this.head(b, local), leaseId, lease, this.options.maxExpiredPerClaim),
      );
      this.view.learn(b, timesOf(reply.slice(0, 2)));
      const [, , , id, member, expiresAt, previous, hostKey, priority] = reply;
      if (id === undefined || member === undefined) continue;
      this.held.add(String(id));
      if (this.acks !== NO_REPLICA_ACKS) await this.acks.after(this.bucketMeta[b]!);
      const entry = decodeEntry(String(member), String(hostKey), Number(priority));
      return { lease: this.leaseOf(String(id), entry, Number(expiresAt), Number(previous)) };
    }
    if (this.view.empty()) return { lease: null, nextReadyAt: null };
    return { lease: null, nextReadyAt: this.clock.toLocal(this.view.nextLook(at, refreshed)) };
  }

  /**
   * The links in other buckets go first (one script per bucket, together); then the page's
   * completion with the links of its own bucket, in one script (shared with the settles of the
   * bucket waiting with it). Only a batch past `addBatchSize` goes alone.
   */
  async complete(leaseId: string, options: CompleteOptions = {}): Promise<AddOutcome[]> {
    return (await this.completeWith(leaseId, options)).outcomes;
  }

  /**
   * `complete`, and in its script on the page's bucket a claim for the slot it frees: among the
   * hosts of that bucket only (one hash slot), at `now`, or ahead, by `readyBy`. No lease when
   * none of them is ready.
   */
  async completeAndClaim(
    leaseId: string,
    options: CompleteOptions,
    { now, leaseMs, readyBy }: CompletionClaimRequest,
  ): Promise<CompletedAndClaimed> {
    const at = Math.floor(time('completeAndClaim: now', now));
    const by = readyBy === undefined ? at : Math.max(at, Math.floor(time('completeAndClaim: readyBy', readyBy)));
    // On Redis's clock the script takes its own now ('') and readyBy converted (never before that now).
    const server = this.clock.kind === 'server';
    const claim = {
      at: server ? '' : at,
      leaseMs: Math.ceil(time('completeAndClaim: leaseMs', leaseMs)),
      readyBy: server ? (readyBy === undefined ? '' : Math.floor(this.clock.toStore(by))) : by,
    };
    return this.completeWith(leaseId, options, claim);
  }

  private async completeWith(
    leaseId: string,
    options: CompleteOptions,
    claim?: { readonly at: Arg; readonly leaseMs: number; readonly readyBy: Arg },
  ): Promise<CompletedAndClaimed> {
    const entries = options.add ?? [];
    // Without rememberFetches, a done URL keeps no LastFetch (nor the entry that goes with it).
    const lastFetch = lastFetchArg(this.remembersFetches ? options.lastFetch : undefined);
    const [failure, failedAt] = failureArgs(options.failure);
    const [readyAt, notBefore] = this.settleArgs('complete', options);
    const maxPerHost = maxPerHostArg(options.addOptions ?? NO_ADD_OPTIONS);
    const groups = groupByBucket(entries);
    const page = bucketOfLease(leaseId);
    const outcomes: AddOutcome[] = [];
    if (page === undefined) {
      await this.addGroups(groups, entries, maxPerHost, outcomes);
      return { outcomes, next: null };
    }
    // The page's own links the crawl is known to hold stay here; the script checks that they may.
    const generation = this.known.generationOf(page);
    const { unknown, known } = this.partitionKnown(entries, groups.get(page) ?? [], page);
    groups.delete(page);
    const batches = this.batches(unknown);
    const last = batches.pop() ?? [];
    if (batches.length > 0) groups.set(page, batches.flat());
    if (groups.size > 0) await this.addGroups(groups, entries, maxPerHost, outcomes);
    // The new lease's id is chosen here, once: the script sent again after a lost reply is the same claim.
    const nextId = claim === undefined ? '' : `${page}/${this.workerId}.${++this.leaseSeq}`;
    const how = claim === undefined ? 'complete' : 'complete-claim';
    // The record's ARGV built in one array (see SETTLE_MANY): a page's links may be many.
    const recordOf = (links: readonly number[]): SettleRecord => {
      const args: Arg[] = [leaseId, how, readyAt, notBefore, lastFetch, failure, failedAt, maxPerHost, links.length];
      for (const i of links) pushEntryArgs(args, entries[i]!);
      if (claim !== undefined)
        args.push(nextId, claim.at, claim.leaseMs, this.options.maxExpiredPerClaim, claim.readyBy);
      return { args, links: links.length + (claim === undefined ? 0 : CLAIMED_LEASE_FIELDS) };
    };
    const filtered = recordOf(last);
    const record: SettleRecord =
      known.length === 0
        ? filtered
        : { args: filtered.args, links: filtered.links, unfiltered: () => recordOf(last.concat(known)), generation };
    const { outcomes: got, sent, generation: answeredIn } = await this.settleIn(page, leaseId, record);
    const carried = sent === record ? last : last.concat(known);
    for (let k = 0; k < carried.length; k++) outcomes[carried[k]!] = got[k] as AddOutcome;
    if (sent === record) for (const index of known) outcomes[index] = 'duplicate';
    this.learnHeld(entries, carried, outcomes, answeredIn);
    for (const index of carried) if (outcomes[index] === 'added') this.knownUrls++;
    if (claim === undefined) return { outcomes, next: null };
    const at = carried.length;
    const id = got[at];
    if (id === undefined || id === '' || id === null) return { outcomes, next: null };
    this.held.add(String(id));
    const entry = decodeEntry(String(got[at + 1]), String(got[at + 4]), Number(got[at + 5]));
    // Claimed ahead: its host's clock comes after the claim's now.
    const startAt = Number(got[at + 6]);
    const lease = this.leaseOf(String(id), entry, Number(got[at + 2]), Number(got[at + 3]), startAt);
    return { outcomes, next: lease };
  }

  /** The entries at `indices` (of bucket `b`) this worker knows the crawl holds, and the others. */
  private partitionKnown(
    entries: readonly FrontierEntry[],
    indices: readonly number[],
    b: number,
  ): { unknown: number[]; known: number[] } {
    const unknown: number[] = [];
    const known: number[] = [];
    for (const i of indices)
      (mayBeLeftOut(entries[i]!) && this.known.holds(dedupeKeyOf(entries[i]!), b) ? known : unknown).push(i);
    return { unknown, known };
  }

  /** Remembers the entries at `indices` that the crawl now holds (added, or there already). */
  private learnHeld(
    entries: readonly FrontierEntry[],
    indices: readonly number[],
    outcomes: readonly AddOutcome[],
    generation: number,
  ): void {
    if (this.known.capacity === 0) return;
    for (const i of indices) {
      const outcome = outcomes[i];
      if ((outcome === 'added' || outcome === 'duplicate') && mayBeLeftOut(entries[i]!))
        this.known.remember(dedupeKeyOf(entries[i]!), generation);
    }
  }

  async reopenDue({ dueBefore, fetchedBefore = -Infinity, limit }: ReopenRequest): Promise<number> {
    if (typeof dueBefore !== 'number' || Number.isNaN(dueBefore))
      throw new PolitelyError(
        'ERR_INVALID_INPUT',
        `reopenDue: dueBefore must be a number of ms, got ${String(dueBefore)}`,
      );
    if (typeof fetchedBefore !== 'number' || Number.isNaN(fetchedBefore)) {
      throw new PolitelyError(
        'ERR_INVALID_INPUT',
        `reopenDue: fetchedBefore must be a number of ms, got ${String(fetchedBefore)}`,
      );
    }
    if (!(limit === Infinity || (Number.isInteger(limit) && limit >= 0))) {
      throw new PolitelyError('ERR_INVALID_INPUT', `reopenDue: limit must be an integer ≥ 0, got ${String(limit)}`);
    }
    if (limit === 0 || (dueBefore === -Infinity && fetchedBefore === -Infinity)) return 0;
    // The request id makes each bucket's script replay-safe (a resent script returns its count).
    const request = randomUUID();
    const reopenIn = async (b: number, most: number): Promise<number> =>
      Number(
        await this.call('reopenDue', () =>
          this.commands.politelyBucketReopenDue(
            ...this.head(b),
            scoreBound(dueBefore),
            most === Infinity ? -1 : most,
            scoreBound(fetchedBefore),
            request,
          ),
        ),
      );
    let reopened = 0;
    if (limit === Infinity) {
      reopened = sum(await Promise.all(ALL_BUCKETS.map((b) => reopenIn(b, Infinity))));
    } else {
      for (const b of ALL_BUCKETS) {
        if (reopened >= limit) break;
        reopened += await reopenIn(b, limit - reopened);
      }
    }
    if (reopened > 0) this.view.invalidate();
    return reopened;
  }

  async requeueFailed({ urls, kind }: RequeueFilter = {}): Promise<number> {
    if (urls !== undefined && urls.length === 0) return 0;
    const named = urls === undefined ? ['0'] : ['1', ...urls];
    const counts = await this.everyBucket('requeueFailed', (b) =>
      this.commands.politelyBucketRequeueFailed(...this.head(b), kind ?? '', ...named),
    );
    const requeued = sum(counts.map(Number));
    if (requeued > 0) this.view.invalidate();
    return requeued;
  }

  async failures(limit = Infinity): Promise<FailedUrl[]> {
    if (!(limit >= 1)) return [];
    const lastRank = limit === Infinity ? -1 : Math.floor(limit) - 1;
    const flats = await this.everyBucket('failures', (b) =>
      this.commands.politelyBucketFailures(...this.head(b), lastRank),
    );
    const failed: (FailedUrl & { at: number })[] = [];
    for (const flat of flats) {
      for (let i = 0; i + 2 < flat.length; i += 3) {
        failed.push({
          entry: JSON.parse(flat[i]!) as FrontierEntry,
          failure: JSON.parse(flat[i + 1]!) as UrlFailure,
          at: Number(flat[i + 2]),
        });
      }
    }
    return failed
      .sort((a, b) => a.at - b.at)
      .slice(0, limit === Infinity ? undefined : Math.floor(limit))
      .map(({ entry, failure }) => ({ entry, failure }));
  }

  /**
   * Deletes the crawl's frontier (every bucket) and metadata. The crawl's marker and its workers
   * stay (every worker goes on, on an empty crawl), and so do the robots cache's keys.
   */
  async clear(): Promise<void> {
    await this.everyBucket('clear', (b) => this.commands.politelyBucketClear(...this.head(b)));
    await this.call('clear', () => this.connection.redis.unlink(metadataKey(this.options.keys)));
    this.view.invalidate();
    this.knownUrls = 0;
    this.known.clear();
  }

  release(leaseId: string, options: SettleOptions = {}): Promise<void> {
    return this.settle(leaseId, 'release', options);
  }

  retry(leaseId: string, options: SettleOptions = {}): Promise<void> {
    return this.settle(leaseId, 'retry', options);
  }

  async setHostPolicy(hostKey: string, policy: Partial<HostPolicy> & { readonly readyAt?: number }): Promise<void> {
    const { delayMs, maxInFlight, readyAt } = policy;
    if (delayMs !== undefined) time('setHostPolicy: delayMs', delayMs);
    if (maxInFlight !== undefined && !(Number.isInteger(maxInFlight) && maxInFlight >= 1)) {
      throw new PolitelyError(
        'ERR_INVALID_INPUT',
        `setHostPolicy: maxInFlight must be an integer ≥ 1, got ${String(maxInFlight)}`,
      );
    }
    const b = bucketOfHost(hostKey);
    const reply = await this.call('setHostPolicy', () =>
      this.commands.politelyBucketSetHostPolicy(
        ...this.head(b),
        hostKey,
        this.options.defaultDelayMs,
        this.options.defaultMaxInFlight,
        delayMs === undefined ? '' : Math.ceil(delayMs),
        maxInFlight ?? '',
        readyAt === undefined ? '' : Math.ceil(this.clock.toStore(time('setHostPolicy: readyAt', readyAt))),
      ),
    );
    this.view.learn(b, timesOf(reply));
  }

  async takeHostTurn(hostKey: string, { now, busyUntil, withinLease }: HostTurnRequest): Promise<HostTurn> {
    checkHostKey('takeHostTurn', hostKey);
    // Rounded as claim and settle round: now down, the clock up (never a moment early).
    const at = Math.floor(time('takeHostTurn: now', now));
    const until = Math.ceil(this.clock.toStore(time('takeHostTurn: busyUntil', busyUntil)));
    const b = bucketOfHost(hostKey);
    const reply = await this.call('takeHostTurn', () =>
      this.commands.politelyBucketTakeHostTurn(
        ...this.head(b, at),
        hostKey,
        this.options.defaultDelayMs,
        this.options.defaultMaxInFlight,
        this.nowArg(at),
        until,
        withinLease ? 1 : 0,
        TURN_ROOM_POLL_MS,
      ),
    );
    this.view.learn(b, timesOf(reply));
    return this.turnOf(reply);
  }

  async takeSendTurn(hostKey: string, { turnId, now, busyUntil }: SendTurnRequest): Promise<HostTurn> {
    checkHostKey('takeSendTurn', hostKey);
    // Rounded as takeHostTurn rounds: now down, the turn's end up.
    const at = Math.floor(time('takeSendTurn: now', now));
    const until = Math.ceil(this.clock.toStore(time('takeSendTurn: busyUntil', busyUntil)));
    const b = bucketOfHost(hostKey);
    const reply = await this.call('takeSendTurn', () =>
      this.commands.politelyBucketTakeSendTurn(
        ...this.head(b, at),
        hostKey,
        this.options.defaultDelayMs,
        this.options.defaultMaxInFlight,
        this.nowArg(at),
        until,
        checkTurnId('takeSendTurn', turnId),
      ),
    );
    return this.turnOf(reply);
  }

  async endSendTurn(hostKey: string, { turnId, readyAt }: SendTurnEnd): Promise<void> {
    checkHostKey('endSendTurn', hostKey);
    const b = bucketOfHost(hostKey);
    await this.call('endSendTurn', () =>
      this.commands.politelyBucketEndSendTurn(
        ...this.head(b),
        hostKey,
        this.options.defaultDelayMs,
        this.options.defaultMaxInFlight,
        Math.ceil(this.clock.toStore(time('endSendTurn: readyAt', readyAt))),
        checkTurnId('endSendTurn', turnId),
      ),
    );
  }

  async counts(): Promise<FrontierCounts> {
    const all = await this.everyBucket('counts', (b) => this.commands.politelyBucketCounts(...this.head(b)));
    const total = (i: number): number => sum(all.map((counts) => Number(counts[i] ?? 0)));
    this.knownUrls = Math.max(this.knownUrls, total(4));
    return { queued: total(0), inFlight: total(1), done: total(2), failed: total(5), activeHosts: total(3) };
  }

  async hostCounts(limit = Infinity): Promise<HostCounts[]> {
    if (!(limit >= 1)) return [];
    const lastRank = limit === Infinity ? -1 : Math.floor(limit) - 1;
    const flats = await this.everyBucket('hostCounts', (b) =>
      this.commands.politelyBucketHostCounts(...this.head(b), lastRank),
    );
    const hosts: HostCounts[] = [];
    for (const flat of flats) {
      for (let i = 0; i + 4 < flat.length; i += 5) {
        hosts.push({
          hostKey: String(flat[i]),
          queued: Number(flat[i + 1]),
          inFlight: Number(flat[i + 2]),
          done: Number(flat[i + 3]),
          readyAt: this.localTime(Number(flat[i + 4])),
        });
      }
    }
    // Busiest first, as one bucket orders its hosts (ties: the greater key first, as ZREVRANGE).
    const load = (h: HostCounts): number => h.queued + h.inFlight;
    hosts.sort((a, b) => load(b) - load(a) || (a.hostKey < b.hostKey ? 1 : a.hostKey > b.hostKey ? -1 : 0));
    return limit === Infinity ? hosts : hosts.slice(0, Math.floor(limit));
  }

  async saveMetadata(key: string, value: unknown): Promise<void> {
    const json = JSON.stringify(value);
    if (json === undefined)
      throw new PolitelyError('ERR_INVALID_INPUT', `saveMetadata '${key}': the value is not JSON`);
    await this.call('saveMetadata', () => this.connection.redis.hset(metadataKey(this.options.keys), key, json));
  }

  async loadMetadata<T = unknown>(key: string): Promise<T | undefined> {
    const json = await this.call('loadMetadata', () => this.connection.redis.hget(metadataKey(this.options.keys), key));
    return json === null ? undefined : (JSON.parse(json) as T);
  }

  /**
   * Stops the heartbeat and leaves the registry: leases still held (the process is going away
   * with URLs in flight) go back to their queues. Then closes the connection if the store opened
   * it. Never rejects.
   */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    clearInterval(this.heartbeat);
    const opened = this.opening !== undefined && this.crawl !== '';
    if (opened && this.gone === undefined) {
      const retire = this.retire().catch(() => {});
      await Promise.race([retire, new Promise<void>((resolve) => setTimeout(resolve, 1000).unref())]);
    }
    await this.connection.close().catch(() => {});
  }

  /**
   * Hands back the leases this worker still holds (their hosts wait a whole delay from now: the
   * requests may have been sent), then leaves the registry; if that fails half-way, it stays
   * marked closed, and the next heartbeat of any worker returns what is left.
   */
  private async retire(): Promise<void> {
    const buckets = new Set([...this.held].map(bucketOfLease).filter((b) => b !== undefined));
    const left = await Promise.all(
      [...buckets].map((b) =>
        this.connection.run(() =>
          this.commands.politelyBucketTend(...this.head(b), this.held.size, '0', this.workerId),
        ),
      ),
    ).then(
      (replies) => replies.some((reply) => Number(reply[0]) > 0),
      () => true,
    );
    await this.connection.run(() => this.commands.politelyCrawlRetire(...this.crawlHead(), left ? '1' : '0'));
  }

  private async open(): Promise<void> {
    try {
      await this.connection.ready();
      const sentAt = Date.now();
      const [crawl, bucketsReady, workers] = await this.connection.run(() =>
        this.commands.politelyCrawlInit(
          ...crawlScriptKeys(this.options.keys),
          randomUUID(),
          this.workerId,
          this.options.workerTtlMs,
          this.options.heartbeatMs,
          Date.now(),
        ),
      );
      this.crawl = String(crawl);
      this.confirmedAt = sentAt;
      // The offset of this worker's clock from Redis's, before the first claim: the best of three.
      for (let i = 0; i < 3; i++) await this.sampleClock();
      this.view.otherWorkers(Number(workers) > 1);
      // Every bucket carries the marker; a new crawl's buckets get it here (by whichever worker comes first).
      const mark = bucketsReady === '1' ? '0' : '1';
      const known = await Promise.all(
        ALL_BUCKETS.map((b) => this.connection.run(() => this.commands.politelyBucketOpen(...this.head(b), mark))),
      );
      this.knownUrls = sum(known.map((reply) => Number(reply[0])));
      if (mark === '1') await this.connection.run(() => this.commands.politelyCrawlBucketsReady(...this.crawlHead()));
    } catch (error) {
      throw this.storeError('open', error);
    }
    this.opened = true;
    if (this.closed) return;
    this.heartbeat = setInterval(() => void this.beat(), this.options.heartbeatMs);
    this.heartbeat.unref();
  }

  /**
   * Renews the registration; the reply names workers taken for dead, whose leases this worker
   * then returns in every bucket (one script per bucket, together) before they leave the registry.
   */
  private async beat(): Promise<void> {
    if (this.beating || this.closed || this.gone !== undefined) return;
    this.beating = true;
    const sentAt = Date.now();
    try {
      const [workers, ...dead] = await this.connection.run(() => this.commands.politelyCrawlBeat(...this.crawlHead()));
      this.confirmedAt = Math.max(this.confirmedAt, sentAt);
      this.view.otherWorkers(Number(workers) > 1);
      await this.sampleClock();
      if (dead.length > 0) {
        const replies = await this.everyBucket('heartbeat', (b) =>
          this.commands.politelyBucketTend(...this.head(b), this.options.maxExpiredPerClaim, '0', ...dead),
        );
        for (const [b, reply] of replies.entries()) this.view.learn(b, timesOf(reply));
        if (replies.every((reply) => Number(reply[0]) === 0))
          await this.connection.run(() => this.commands.politelyCrawlForget(...this.crawlHead(), ...dead));
      }
    } catch (error) {
      this.storeError('heartbeat', error); // remembers a crawl found gone; the next call reports it
    } finally {
      this.beating = false;
    }
  }

  /** The whole view at once: every bucket tended (its expired leases returned) and its next times learnt. */
  private async refresh(now: number): Promise<void> {
    const replies = await this.everyBucket('claim', (b) =>
      this.commands.politelyBucketTend(...this.head(b, now), this.options.maxExpiredPerClaim, '1'),
    );
    for (const [b, reply] of replies.entries()) this.view.learn(b, timesOf(reply));
    this.knownUrls = Math.max(this.knownUrls, sum(replies.map((reply) => Number(reply[1]))));
    this.view.refreshed();
  }

  /**
   * The lease the crawler gets. The store takes a lease back (a) when its own expiry passes
   * (claim time + the crawler's leaseMs: a URL held too long) or (b) when its worker's
   * registration runs out (the worker is taken for dead: a killed process, or one that could
   * not reach Redis to renew it for workerTtlMs). The crawler checks `Date.now() >=
   * leaseExpiresAt` before it sends the request (process-url.ts), and after that moment the
   * store assumes no request: so `leaseExpiresAt` is the earlier of the two, read when asked. For
   * (b) this worker only knows when it last renewed its registration for sure (the send time of
   * the last confirmed renewal; Redis counts from when it ran, later), so its own view is the
   * earlier, safe one. While the heartbeat runs, (b) stays seconds ahead and (a) decides, as
   * with any store; a worker cut off from Redis for workerTtlMs stops sending requests for the
   * URLs it holds and hands them back instead. `startAt` (a claim made ahead: the host's clock,
   * and the lease runs from it) is kept only when it is still to come. Every time is converted
   * from the store's clock to this worker's.
   */
  private leaseOf(
    id: string,
    entry: FrontierEntry,
    expiresAt: number,
    previousHostReadyAt: number,
    startAt?: number,
  ): FrontierLease {
    const lease = { id, entry, previousHostReadyAt } as {
      id: string;
      entry: FrontierEntry;
      previousHostReadyAt: number;
      leaseExpiresAt: number;
      startAt?: number;
    };
    const local = (storeMs: number): number => this.localTime(storeMs);
    lease.previousHostReadyAt = local(previousHostReadyAt);
    const start = startAt === undefined ? undefined : local(startAt);
    if (start !== undefined && start > Date.now()) lease.startAt = start;
    const expires = local(expiresAt);
    Object.defineProperty(lease, 'leaseExpiresAt', {
      enumerable: true,
      get: () => Math.min(expires, this.confirmedAt + this.options.workerTtlMs),
    });
    return lease;
  }

  /** Opens the crawl first; maps failures to PolitelyError (ERR_STORE unless it is one already). */
  private call<T>(what: string, command: () => Promise<T>): Promise<T> {
    if (this.gone !== undefined) return Promise.reject(this.gone);
    const sent = this.opened && !this.closed ? this.connection.run(command) : this.runWhenOpen(command);
    return sent.catch((error: unknown) => {
      throw this.storeError(what, error);
    });
  }

  private async runWhenOpen<T>(command: () => Promise<T>): Promise<T> {
    await this.ready();
    return this.connection.run(command);
  }

  /** One script on every bucket, sent together; their replies by bucket. */
  private everyBucket<T>(what: string, command: (b: number) => Promise<T>): Promise<T[]> {
    return Promise.all(ALL_BUCKETS.map((b) => this.call(what, () => command(b))));
  }

  private storeError(what: string, error: unknown): PolitelyError {
    if (error instanceof PolitelyError) return error;
    const message = error instanceof Error ? error.message : String(error);
    if (message.includes(CRAWL_GONE)) {
      this.gone ??= new PolitelyError(
        'ERR_STORE',
        `the crawl ${this.crawlName} in ${this.connection.display} is gone (Redis restarted without persistence, keys evicted or flushed): ${this.knownUrls} URLs were known before; stopping`,
        { cause: error },
      );
      return this.gone;
    }
    if (message.includes(OLD_LAYOUT)) {
      return new PolitelyError(
        'ERR_STORE',
        `the crawl ${this.crawlName} in ${this.connection.display} was made by an older politely, of another key layout (${message.slice(message.indexOf(OLD_LAYOUT) + OLD_LAYOUT.length + 1)}); this one uses layout ${LAYOUT_VERSION} (${BUCKET_COUNT} buckets, URLs seen kept as 64-bit fingerprints, queues as compact lists): finish it with the politely that made it, or delete it (deleteRedisCrawl) and crawl again`,
        { cause: error },
      );
    }
    return new PolitelyError('ERR_STORE', `${this.connection.display}: ${what} failed: ${replyText(error)}`, {
      cause: error,
    });
  }

  /**
   * A bucket's declared keys and the head of ARGV its scripts start with (`now`: the caller's
   * clock, ms, sent only when the store keeps the caller's clock; on Redis's, the script reads TIME).
   */
  private head(b: number, now = Date.now()): Arg[] {
    return [
      ...this.bucketKeys[b]!,
      this.options.keys.bucket(b),
      this.crawl,
      this.workerId,
      this.options.idlePollMs,
      this.nowArg(Math.floor(now)),
    ];
  }

  /** A script's `now` argument: the caller's, or '' (the script reads Redis's TIME). */
  private nowArg(now: number): Arg {
    return this.clock.kind === 'server' ? '' : now;
  }

  /** A time the store answered, on this worker's clock (0, "never", stays 0). */
  private localTime(storeMs: number): number {
    return storeMs === 0 ? 0 : this.clock.toLocal(storeMs);
  }

  /** A TIME sample for the clock's offset (server-clock.ts); a failed one is skipped. */
  private async sampleClock(): Promise<void> {
    if (this.clock.kind === 'caller') return;
    await this.clock.sample(() => this.connection.run(() => this.connection.redis.time())).catch(() => {});
  }

  /** A turn script's reply (`[granted, retryAt]`) as a `HostTurn`, its time on this worker's clock. */
  private turnOf([granted, retryAt]: readonly unknown[]): HostTurn {
    return Number(granted) === 1 ? { granted: true } : { granted: false, retryAt: this.clock.toLocal(Number(retryAt)) };
  }

  /** The crawl-wide keys and the head of ARGV the crawl scripts start with. */
  private crawlHead(): Arg[] {
    return [
      ...crawlScriptKeys(this.options.keys),
      this.crawl,
      this.workerId,
      this.options.workerTtlMs,
      this.options.heartbeatMs,
    ];
  }

  /** The host's clock and hold go with the settle, in one script (see SETTLE_LEASE: holds only rise). */
  private async settle(leaseId: string, how: 'release' | 'retry', options: SettleOptions): Promise<void> {
    const clock = this.settleArgs(how, options);
    const b = bucketOfLease(leaseId);
    if (b === undefined) return;
    await this.settleIn(b, leaseId, { args: [leaseId, how, ...clock, '', '', '', '', 0], links: 0 });
  }

  /** A settle of a lease on bucket `b`, batched with those waiting with it; its links' outcomes. */
  private async settleIn(b: number, leaseId: string, record: SettleRecord): Promise<SettledRecord> {
    const settled = await this.settles.settle(b, record);
    this.held.delete(leaseId);
    return settled;
  }

  /**
   * One SETTLE_MANY script on bucket `b`: the bucket's next times learnt and the replicas waited
   * for, once. Records that leave out known links go as they are only while the bucket's
   * generation is the one they were made in; when Redis says it has moved on (another worker's
   * `clear()`), the script changed nothing and goes again with every link.
   */
  private async settleMany(b: number, records: readonly SettleRecord[]): Promise<SentSettles> {
    const what = howOf(records);
    const believed = this.known.generationOf(b);
    let sent = records.some((r) => r.unfiltered !== undefined && r.generation !== believed)
      ? records.map((r) => (r.unfiltered !== undefined && r.generation !== believed ? r.unfiltered() : r))
      : records;
    const checked = sent.some((r) => r.unfiltered !== undefined);
    const send = (generation: number | ''): Promise<unknown[]> =>
      this.call(what, () => {
        // Built once the crawl is open (the head carries its marker). Arrays as they are: ioredis
        // flattens a command's arguments one level, so nothing is copied here.
        const args: (Arg | readonly Arg[])[] = [
          this.head(b),
          this.options.defaultDelayMs,
          this.options.defaultMaxInFlight,
          generation,
        ];
        for (const record of sent) args.push(record.args);
        return this.commands.politelyBucketSettleMany(...args);
      });
    // The generation believed when the script went: it ran in that one or a later one.
    let generation = believed;
    let reply = await send(checked ? believed : '');
    if (reply[0] === STALE_GENERATION) {
      this.known.learnGeneration(b, Number(reply[1]));
      generation = this.known.generationOf(b);
      sent = sent.map((r) => r.unfiltered?.() ?? r);
      reply = await send('');
    }
    this.view.learn(b, timesOf(reply));
    if (this.acks !== NO_REPLICA_ACKS) await this.acks.after(this.bucketMeta[b]!);
    return { reply, sent, generation };
  }

  /** hostReadyAt and hostNotBefore as the scripts take them ('' = not given). */
  private settleArgs(how: string, { hostReadyAt, hostNotBefore }: SettleOptions): [Arg, Arg] {
    const store = (name: string, value: number): number => Math.ceil(this.clock.toStore(time(name, value)));
    const readyAt = hostReadyAt === undefined ? '' : store(`${how}: hostReadyAt`, hostReadyAt);
    const notBefore = hostNotBefore === undefined ? '' : store(`${how}: hostNotBefore`, hostNotBefore);
    return [readyAt, notBefore];
  }

  /** The entries of each group added to its bucket (the buckets together), their outcomes put in place. */
  private async addGroups(
    groups: ReadonlyMap<number, readonly number[]>,
    entries: readonly FrontierEntry[],
    maxPerHost: Arg,
    outcomes: AddOutcome[],
  ): Promise<void> {
    await Promise.all(
      [...groups].map(async ([b, indices]) => {
        for (const batch of this.batches(indices)) {
          const got = await this.addTo(
            b,
            maxPerHost,
            batch.map((i) => entries[i]!),
          );
          for (const [k, index] of batch.entries()) outcomes[index] = got[k]!;
        }
      }),
    );
  }

  /** Entries added to bucket `b` (an 'add' record, sent with what waits on the bucket); returns their outcomes. */
  private async addTo(b: number, maxPerHost: Arg, entries: readonly FrontierEntry[]): Promise<AddOutcome[]> {
    const { outcomes, generation } = await this.settles.settle(b, {
      args: addArgs(maxPerHost, entries),
      links: entries.length,
    });
    const got = outcomes as AddOutcome[];
    this.learnHeld(entries, [...entries.keys()], got, generation);
    return this.counted(got);
  }

  /** Indices in batches of `addBatchSize`. */
  private batches(indices: readonly number[]): number[][] {
    const batches: number[][] = [];
    for (let start = 0; start < indices.length; start += this.options.addBatchSize)
      batches.push(indices.slice(start, start + this.options.addBatchSize));
    return batches;
  }

  /** Counts the URLs a batch added (for the "crawl is gone" message). */
  private counted(outcomes: AddOutcome[]): AddOutcome[] {
    for (const outcome of outcomes) if (outcome === 'added') this.knownUrls++;
    return outcomes;
  }
}

/**
 * Whether a link the crawl holds may be left out of its script: only one whose add would change
 * nothing there (a label may relabel the queued URL, hints update its revisit record).
 */
function mayBeLeftOut(entry: FrontierEntry): boolean {
  return entry.label === undefined && entry.hints === undefined;
}

/** The entries' indices by bucket, in order; every entry checked (a host key) before anything is sent. */
function groupByBucket(entries: readonly FrontierEntry[]): Map<number, number[]> {
  const groups = new Map<number, number[]>();
  entries.forEach((entry, index) => {
    const b = bucketOfHost(hostKeyOf(entry));
    const group = groups.get(b);
    if (group === undefined) groups.set(b, [index]);
    else group.push(index);
  });
  return groups;
}

/** The ARGV of an 'add' record (see SETTLE_MANY): no lease, the entries' eight each. */
function addArgs(maxPerHost: Arg, entries: readonly FrontierEntry[]): Arg[] {
  const args: Arg[] = ['', 'add', '', '', '', '', '', maxPerHost, entries.length];
  for (const entry of entries) pushEntryArgs(args, entry);
  return args;
}

/** What a batch of records does, for an error's message: their one kind, or 'settle'. */
function howOf(records: readonly SettleRecord[]): string {
  const first = String(records[0]?.args[1] ?? 'settle');
  for (const record of records) if (record.args[1] !== first) return 'settle';
  return first;
}

const NO_ADD_OPTIONS: AddOptions = {};

/** What a Redis Cluster answers about a slot that moves between nodes (a resharding). */
const SLOT_MOVING =
  /TRYAGAIN|\bASK\b|non local key|CROSSSLOT|do not hash to the same slot|Too many Cluster redirections/;

/**
 * A failure's whole text on one line (a reply may span lines, or start with an empty one), and,
 * for a slot moving between the nodes of a Redis Cluster, what that means.
 */
function replyText(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  const text = message.replace(/\s*\n\s*/g, ' ').trim() || (error instanceof Error ? error.name : 'unknown error');
  if (!SLOT_MOVING.test(text)) return text;
  return `${text} (the bucket's hash slot is being moved between Redis Cluster nodes and the move did not end in time: finish or abort it with CLUSTER SETSLOT, then run the crawl again)`;
}

const sum = (values: readonly number[]): number => values.reduce((total, value) => total + value, 0);

function checkHostKey(method: string, hostKey: string): void {
  if (typeof hostKey !== 'string' || hostKey === '')
    throw new PolitelyError(
      'ERR_INVALID_INPUT',
      `${method}: hostKey must be a non-empty string, got ${String(hostKey)}`,
    );
}

function checkTurnId(method: string, turnId: string): string {
  if (typeof turnId !== 'string' || turnId === '')
    throw new PolitelyError('ERR_INVALID_INPUT', `${method}: turnId must be a non-empty string, got ${String(turnId)}`);
  return turnId;
}
