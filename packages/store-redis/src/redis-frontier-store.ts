// The Redis FrontierStore: one crawl's frontier, dedupe set, host clocks and policies, and leases,
// all in Redis, so that any number of worker processes on any number of machines share one crawl
// and its politeness. Every state change is one Lua script (frontier-scripts.ts), atomic.
//
// Times: the `now` of each claim and the `hostReadyAt` and `hostNotBefore` of each settle come
// from the workers' clocks and are compared across workers, so the machines' clocks must agree
// (NTP): a worker whose clock runs s ms ahead may start a request up to s ms early. Worker registrations
// (heartbeats) use Redis's own clock.
//
// Failures. A connection lost mid-crawl is waited for (see connection.ts); a crawl whose state
// Redis lost (its marker gone or replaced, see frontier-scripts.ts) and any other error of Redis
// reject with PolitelyError ERR_STORE: the crawler stops, and no worker reports a finished crawl.

import { randomBytes, randomUUID } from 'node:crypto';
import { PolitelyError } from '@politely/core';
import { optionChecks } from '@politely/core/internal';
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
  type LastFetch,
  type ReopenRequest,
  type RequeueFilter,
  type SettleOptions,
  type UrlFailure,
} from '@politely/frontier';
import { type OpenedRedis, openRedis, type RedisConnection, type RedisLinkOptions } from './connection.js';
import { decodeEntry, encodeEntry, encodeLastFetch } from './entry-codec.js';
import { CRAWL_GONE, FRONTIER_SCRIPT_KEY_COUNT, FRONTIER_SCRIPTS, type FrontierCommands } from './frontier-scripts.js';
import { frontierKeys, invalid, metadataKey, type RedisKeyOptions, resolveKeyPrefix } from './keys.js';
import { queuePriorityOf } from './queue-score.js';

export interface RedisFrontierStoreOptions extends RedisKeyOptions, RedisLinkOptions {
  /**
   * The Redis to keep the crawl in: a `redis://` or `rediss://` URL (the store opens a
   * connection and `close()` quits it), a `RedisLink` from `createRedisLink` (shared, e.g. with
   * the robots cache; yours to close), or an ioredis `Redis` or `Cluster` client (yours to close
   * and to configure: `connectTimeoutMs`, `maxOutageMs`, `onWarning` and `onNotice` apply only
   * to a URL). Required.
   */
  readonly redis: RedisConnection;
  /**
   * A worker (a store) that has not renewed its registration for this long is taken for dead,
   * and its leases go back to their queues at the next claim of any worker: a killed worker's
   * URLs wait about this long, whatever the crawler's `leaseMs`. A live worker's leases are
   * never taken while it heartbeats; they still expire after `leaseMs` (a stuck request).
   * Longer tolerates longer pauses of a worker's event loop; shorter recovers sooner.
   * @default 10000
   */
  readonly workerTtlMs?: number;
  /**
   * How often a worker renews its registration (a timer, `unref()`ed and stopped by `close()`;
   * each claim renews it too). At most half of `workerTtlMs`.
   * @default 2500 (or a quarter of `workerTtlMs`, when that is shorter)
   */
  readonly heartbeatMs?: number;
  /**
   * Politeness of a host until `setHostPolicy` says otherwise (applied by whichever worker
   * meets the host first).
   * @default { delayMs: 0, maxInFlight: 1 }
   */
  readonly defaultHostPolicy?: Partial<HostPolicy>;
  /**
   * When nothing is ready but URLs are in flight in some worker, `claim` answers "look again"
   * no later than this: URLs that other workers find, or hand back, arrive without notice.
   * @default 250
   */
  readonly idlePollMs?: number;
  /**
   * Expired leases returned to their queues by one claim at most (the rest by the next ones),
   * so that one script never blocks Redis for long.
   * @default 100
   */
  readonly maxExpiredPerClaim?: number;
  /**
   * Entries added by one script (one atomic step); a larger `add` takes several.
   * @default 500
   */
  readonly addBatchSize?: number;
}

export interface ResolvedRedisFrontierStoreOptions {
  readonly prefix: string;
  readonly defaultDelayMs: number;
  readonly defaultMaxInFlight: number;
  readonly idlePollMs: number;
  readonly maxExpiredPerClaim: number;
  readonly addBatchSize: number;
  readonly workerTtlMs: number;
  readonly heartbeatMs: number;
}

const ENTRY_POINT = 'createRedisFrontierStore';

/** A turn refused for want of room in flight asks again this much later (as the memory store's). */
const TURN_ROOM_POLL_MS = 50;

/** `SettleOptions` of the FrontierStore contract: the host's clock after a settle, and its hold. */
type Settle = SettleOptions;

/** Every option `createRedisFrontierStore` knows: a key missing here, or one too many, is a type error. */
const REDIS_STORE_OPTION_KEYS: Record<keyof RedisFrontierStoreOptions, true> = {
  redis: true,
  workerTtlMs: true,
  heartbeatMs: true,
  defaultHostPolicy: true,
  idlePollMs: true,
  maxExpiredPerClaim: true,
  addBatchSize: true,
  crawlId: true,
  keyPrefix: true,
  connectTimeoutMs: true,
  maxOutageMs: true,
  onWarning: true,
  onNotice: true,
};

export function resolveRedisFrontierStoreOptions(
  options: RedisFrontierStoreOptions,
): ResolvedRedisFrontierStoreOptions {
  if (typeof options === 'object' && options !== null)
    optionChecks(ENTRY_POINT).knownKeys(options, REDIS_STORE_OPTION_KEYS);
  const count = (name: string, value: number, min: number): number => {
    if (!Number.isInteger(value) || value < min)
      throw invalid(ENTRY_POINT, `${name} must be an integer ≥ ${min}, got ${String(value)}`);
    return value;
  };
  return {
    prefix: resolveKeyPrefix(ENTRY_POINT, options),
    defaultDelayMs: count('defaultHostPolicy.delayMs', options.defaultHostPolicy?.delayMs ?? 0, 0),
    defaultMaxInFlight: count('defaultHostPolicy.maxInFlight', options.defaultHostPolicy?.maxInFlight ?? 1, 1),
    idlePollMs: count('idlePollMs', options.idlePollMs ?? 250, 1),
    maxExpiredPerClaim: count('maxExpiredPerClaim', options.maxExpiredPerClaim ?? 100, 1),
    addBatchSize: count('addBatchSize', options.addBatchSize ?? 500, 1),
    ...workerTiming(options),
  };
}

function workerTiming(options: RedisFrontierStoreOptions): { workerTtlMs: number; heartbeatMs: number } {
  const workerTtlMs = options.workerTtlMs ?? 10_000;
  if (!Number.isInteger(workerTtlMs) || workerTtlMs < 100)
    throw invalid(ENTRY_POINT, `workerTtlMs must be an integer ≥ 100, got ${String(workerTtlMs)}`);
  const heartbeatMs = options.heartbeatMs ?? Math.min(2500, Math.floor(workerTtlMs / 4));
  if (!Number.isInteger(heartbeatMs) || heartbeatMs < 10 || heartbeatMs * 2 > workerTtlMs) {
    throw invalid(
      ENTRY_POINT,
      `heartbeatMs must be an integer from 10 to half of workerTtlMs (${workerTtlMs}), got ${String(heartbeatMs)}`,
    );
  }
  return { workerTtlMs, heartbeatMs };
}

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
  return new Store(
    openRedis(ENTRY_POINT, options.redis, options),
    resolved,
    options.crawlId ?? options.keyPrefix ?? '',
  );
}

class Store implements RedisFrontierStore {
  readonly workerId = `${process.pid}-${randomBytes(4).toString('hex')}`;
  private readonly commands: FrontierCommands;
  private readonly keys: readonly string[];
  private opening: Promise<void> | undefined;
  /** The crawl marker seen at open: every script checks Redis still holds this one. */
  private crawl = '';
  /** URLs added to the crawl as last seen, for the message when Redis loses them. */
  private knownUrls = 0;
  private leaseSeq = 0;
  /** `Date.now()` when the last renewal of this worker's registration that Redis confirmed was sent. */
  private confirmedAt = -Infinity;
  private heartbeat: NodeJS.Timeout | undefined;
  private beating = false;
  private closed = false;
  /** Set once the crawl is found gone: every later call fails with it. */
  private gone: PolitelyError | undefined;

  constructor(
    private readonly connection: OpenedRedis,
    private readonly options: ResolvedRedisFrontierStoreOptions,
    private readonly crawlName: string,
  ) {
    for (const [name, lua] of Object.entries(FRONTIER_SCRIPTS)) {
      connection.redis.defineCommand(name, { numberOfKeys: FRONTIER_SCRIPT_KEY_COUNT, lua });
    }
    this.commands = connection.redis as unknown as FrontierCommands;
    this.keys = frontierKeys(options.prefix);
  }

  ready(): Promise<void> {
    if (this.closed)
      return Promise.reject(new PolitelyError('ERR_STORE', `${this.connection.display}: the store is closed`));
    this.opening ??= this.open();
    return this.opening;
  }

  async add(entries: readonly FrontierEntry[], options: AddOptions = {}): Promise<AddOutcome[]> {
    const outcomes: AddOutcome[] = [];
    for (const batch of this.addBatches(entries, options)) {
      outcomes.push(
        ...this.counted(
          (await this.call('add', () => this.commands.politelyFrontierAdd(...this.head(), ...batch))) as AddOutcome[],
        ),
      );
    }
    return outcomes;
  }

  async claim({ now, leaseMs }: ClaimRequest): Promise<ClaimResult> {
    const at = Math.floor(time('claim: now', now));
    const lease = Math.ceil(time('claim: leaseMs', leaseMs));
    // The lease id is chosen here, once per claim: a claim sent again after a lost reply is the same claim.
    const leaseId = `${this.workerId}.${++this.leaseSeq}`;
    const sentAt = Date.now();
    const reply = await this.call('claim', () =>
      this.commands.politelyFrontierClaim(
        ...this.head(),
        leaseId,
        at,
        lease,
        this.options.maxExpiredPerClaim,
        this.options.idlePollMs,
      ),
    );
    this.confirmedAt = Math.max(this.confirmedAt, sentAt);
    const [known, id, member, expiresAt, previous] = reply;
    this.knownUrls = Math.max(this.knownUrls, Number(known));
    if (id === undefined) return { lease: null, nextReadyAt: null };
    if (member === undefined) return { lease: null, nextReadyAt: Number(id) };
    return { lease: this.leaseOf(String(id), String(member), Number(expiresAt), Number(previous)) };
  }

  /** The links go with the page's completion in one script; only a batch past `addBatchSize` goes first, alone. */
  async complete(leaseId: string, options: CompleteOptions = {}): Promise<AddOutcome[]> {
    const entries = options.add ?? [];
    const done = [lastFetchArg(options.lastFetch), ...failureArgs(options.failure)];
    if (entries.length === 0) {
      await this.call('complete', () =>
        this.commands.politelyFrontierSettle(
          ...this.head(),
          leaseId,
          'complete',
          ...this.settleArgs('complete', options),
          ...done,
        ),
      );
      return [];
    }
    const batches = this.addBatches(entries, options.addOptions ?? {});
    const last = batches.pop()!;
    const outcomes: AddOutcome[] = [];
    for (const batch of batches) {
      outcomes.push(
        ...this.counted(
          (await this.call('add', () => this.commands.politelyFrontierAdd(...this.head(), ...batch))) as AddOutcome[],
        ),
      );
    }
    const clock = this.settleArgs('complete', options);
    const reply = await this.call('complete', () =>
      this.commands.politelyFrontierCompleteWithLinks(...this.head(), leaseId, ...clock, ...done, ...last),
    );
    outcomes.push(...this.counted(reply as AddOutcome[]));
    return outcomes;
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
    return Number(
      await this.call('reopenDue', () =>
        this.commands.politelyFrontierReopenDue(
          ...this.head(),
          scoreBound(dueBefore),
          limit === Infinity ? -1 : limit,
          scoreBound(fetchedBefore),
        ),
      ),
    );
  }

  async requeueFailed({ urls, kind }: RequeueFilter = {}): Promise<number> {
    if (urls !== undefined && urls.length === 0) return 0;
    const named = urls === undefined ? ['0'] : ['1', ...urls];
    return Number(
      await this.call('requeueFailed', () =>
        this.commands.politelyFrontierRequeueFailed(...this.head(), kind ?? '', ...named),
      ),
    );
  }

  async failures(limit = Infinity): Promise<FailedUrl[]> {
    if (!(limit >= 1)) return [];
    const lastRank = limit === Infinity ? -1 : Math.floor(limit) - 1;
    const flat = await this.call('failures', () => this.commands.politelyFrontierFailures(...this.head(), lastRank));
    const failed: FailedUrl[] = [];
    for (let i = 0; i + 1 < flat.length; i += 2) {
      failed.push({ entry: JSON.parse(flat[i]!) as FrontierEntry, failure: JSON.parse(flat[i + 1]!) as UrlFailure });
    }
    return failed;
  }

  /**
   * Deletes the crawl's frontier and metadata in one script. The crawl's marker and its workers
   * stay (every worker goes on, on an empty crawl), and so do the robots cache's keys.
   */
  async clear(): Promise<void> {
    await this.call('clear', () => this.commands.politelyFrontierClear(...this.head()));
    this.knownUrls = 0;
  }

  release(leaseId: string, options: Settle = {}): Promise<void> {
    return this.settle(leaseId, 'release', options);
  }

  retry(leaseId: string, options: Settle = {}): Promise<void> {
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
    await this.call('setHostPolicy', () =>
      this.commands.politelyFrontierSetHostPolicy(
        ...this.head(),
        hostKey,
        this.options.defaultDelayMs,
        this.options.defaultMaxInFlight,
        delayMs === undefined ? '' : Math.ceil(delayMs),
        maxInFlight ?? '',
        readyAt === undefined ? '' : Math.ceil(time('setHostPolicy: readyAt', readyAt)),
      ),
    );
  }

  async takeHostTurn(hostKey: string, { now, busyUntil, withinLease }: HostTurnRequest): Promise<HostTurn> {
    if (typeof hostKey !== 'string' || hostKey === '')
      throw new PolitelyError(
        'ERR_INVALID_INPUT',
        `takeHostTurn: hostKey must be a non-empty string, got ${String(hostKey)}`,
      );
    // Rounded as claim and settle round: now down, the clock up (never a moment early).
    const at = Math.floor(time('takeHostTurn: now', now));
    const until = Math.ceil(time('takeHostTurn: busyUntil', busyUntil));
    const [granted, retryAt] = await this.call('takeHostTurn', () =>
      this.commands.politelyFrontierTakeHostTurn(
        ...this.head(),
        hostKey,
        this.options.defaultDelayMs,
        this.options.defaultMaxInFlight,
        at,
        until,
        withinLease ? 1 : 0,
        TURN_ROOM_POLL_MS,
      ),
    );
    return Number(granted) === 1 ? { granted: true } : { granted: false, retryAt: Number(retryAt) };
  }

  async counts(): Promise<FrontierCounts> {
    const [queued = 0, inFlight = 0, done = 0, activeHosts = 0, known = 0, failed = 0] = await this.call('counts', () =>
      this.commands.politelyFrontierCounts(...this.head()),
    );
    this.knownUrls = Math.max(this.knownUrls, known);
    return { queued, inFlight, done, failed, activeHosts };
  }

  async hostCounts(limit = Infinity): Promise<HostCounts[]> {
    if (!(limit >= 1)) return [];
    const lastRank = limit === Infinity ? -1 : Math.floor(limit) - 1;
    const flat = await this.call('hostCounts', () =>
      this.commands.politelyFrontierHostCounts(...this.head(), lastRank),
    );
    const hosts: HostCounts[] = [];
    for (let i = 0; i + 4 < flat.length; i += 5) {
      hosts.push({
        hostKey: String(flat[i]),
        queued: Number(flat[i + 1]),
        inFlight: Number(flat[i + 2]),
        done: Number(flat[i + 3]),
        readyAt: Number(flat[i + 4]),
      });
    }
    return hosts;
  }

  async saveMetadata(key: string, value: unknown): Promise<void> {
    const json = JSON.stringify(value);
    if (json === undefined)
      throw new PolitelyError('ERR_INVALID_INPUT', `saveMetadata '${key}': the value is not JSON`);
    await this.call('saveMetadata', () => this.connection.redis.hset(metadataKey(this.options.prefix), key, json));
  }

  async loadMetadata<T = unknown>(key: string): Promise<T | undefined> {
    const json = await this.call('loadMetadata', () =>
      this.connection.redis.hget(metadataKey(this.options.prefix), key),
    );
    return json === null ? undefined : (JSON.parse(json) as T);
  }

  /**
   * Stops the heartbeat and leaves the registry: leases still held (the process is going away
   * with URLs in flight) go back to their queues at the next claim of any worker. Then closes
   * the connection if the store opened it. Never rejects.
   */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    clearInterval(this.heartbeat);
    const opened = this.opening !== undefined && this.crawl !== '';
    if (opened && this.gone === undefined) {
      const retire = this.connection.run(() => this.commands.politelyFrontierRetire(...this.head())).catch(() => {});
      await Promise.race([retire, new Promise<void>((resolve) => setTimeout(resolve, 1000).unref())]);
    }
    await this.connection.close().catch(() => {});
  }

  private async open(): Promise<void> {
    try {
      await this.connection.ready();
      const sentAt = Date.now();
      const [crawl, known] = await this.connection.run(() =>
        this.commands.politelyFrontierInit(
          ...this.keys,
          this.options.prefix,
          randomUUID(),
          this.workerId,
          this.options.workerTtlMs,
          this.options.heartbeatMs,
          Date.now(),
        ),
      );
      this.crawl = String(crawl);
      this.knownUrls = Number(known);
      this.confirmedAt = sentAt;
    } catch (error) {
      throw this.storeError('open', error);
    }
    if (this.closed) return;
    this.heartbeat = setInterval(() => void this.beat(), this.options.heartbeatMs);
    this.heartbeat.unref();
  }

  private async beat(): Promise<void> {
    if (this.beating || this.closed || this.gone !== undefined) return;
    this.beating = true;
    const sentAt = Date.now();
    try {
      await this.connection.run(() => this.commands.politelyFrontierBeat(...this.head()));
      this.confirmedAt = Math.max(this.confirmedAt, sentAt);
    } catch (error) {
      this.storeError('heartbeat', error); // remembers a crawl found gone; the next call reports it
    } finally {
      this.beating = false;
    }
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
   * URLs it holds and hands them back instead.
   */
  private leaseOf(id: string, member: string, expiresAt: number, previousHostReadyAt: number): FrontierLease {
    const lease = { id, entry: decodeEntry(member), previousHostReadyAt } as {
      id: string;
      entry: FrontierEntry;
      previousHostReadyAt: number;
      leaseExpiresAt: number;
    };
    Object.defineProperty(lease, 'leaseExpiresAt', {
      enumerable: true,
      get: () => Math.min(expiresAt, this.confirmedAt + this.options.workerTtlMs),
    });
    return lease;
  }

  /** Opens the crawl first; maps failures to PolitelyError (ERR_STORE unless it is one already). */
  private async call<T>(what: string, command: () => Promise<T>): Promise<T> {
    if (this.gone !== undefined) throw this.gone;
    await this.ready();
    try {
      return await this.connection.run(command);
    } catch (error) {
      throw this.storeError(what, error);
    }
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
    return new PolitelyError('ERR_STORE', `${this.connection.display}: ${what} failed: ${message.split('\n')[0]}`, {
      cause: error,
    });
  }

  /** The keys and the head of ARGV every script starts with. */
  private head(): (string | number)[] {
    return [
      ...this.keys,
      this.options.prefix,
      this.crawl,
      this.workerId,
      this.options.workerTtlMs,
      this.options.heartbeatMs,
    ];
  }

  /** The host's clock and hold go with the settle, in one script (see SETTLE: holds only rise). */
  private async settle(leaseId: string, how: 'release' | 'retry', options: Settle): Promise<void> {
    await this.call(how, () =>
      this.commands.politelyFrontierSettle(...this.head(), leaseId, how, ...this.settleArgs(how, options), '', '', ''),
    );
  }

  /** hostReadyAt and hostNotBefore as the scripts take them ('' = not given). */
  private settleArgs(how: string, { hostReadyAt, hostNotBefore }: Settle): [string | number, string | number] {
    const readyAt = hostReadyAt === undefined ? '' : Math.ceil(time(`${how}: hostReadyAt`, hostReadyAt));
    const notBefore = hostNotBefore === undefined ? '' : Math.ceil(time(`${how}: hostNotBefore`, hostNotBefore));
    return [readyAt, notBefore];
  }

  /**
   * add's ARGV after the head, in batches of `addBatchSize` entries: maxPerHost, the default
   * policy, then seven per entry (see ADD_ENTRIES). Validates before anything is sent.
   */
  private addBatches(entries: readonly FrontierEntry[], options: AddOptions): (string | number)[][] {
    const maxPerHost = options.maxPerHost ?? Infinity;
    if (!(maxPerHost === Infinity || (Number.isInteger(maxPerHost) && maxPerHost >= 0))) {
      throw new PolitelyError('ERR_INVALID_INPUT', `add: maxPerHost must be an integer ≥ 0, got ${String(maxPerHost)}`);
    }
    const batches: (string | number)[][] = [];
    for (let start = 0; start < entries.length; start += this.options.addBatchSize) {
      const args: (string | number)[] = [
        maxPerHost === Infinity ? '' : maxPerHost,
        this.options.defaultDelayMs,
        this.options.defaultMaxInFlight,
      ];
      for (const entry of entries.slice(start, start + this.options.addBatchSize)) {
        if (typeof entry.hostKey !== 'string' || entry.hostKey === '')
          throw new PolitelyError('ERR_INVALID_INPUT', `add: entry ${entry.url} has no hostKey`);
        // The hints apart, for a duplicate's LastFetch (the entry's JSON is only stored, never read in Lua).
        const hints = typeof entry.hints === 'object' && entry.hints !== null ? JSON.stringify(entry.hints) : '';
        args.push(
          dedupeKeyOf(entry),
          entry.hostKey,
          queuePriorityOf(entry.priority),
          encodeEntry(entry),
          hints,
          ...relabelArgs(entry),
        );
      }
      batches.push(args);
    }
    return batches;
  }

  /** Counts the URLs a batch added (for the "crawl is gone" message). */
  private counted(outcomes: AddOutcome[]): AddOutcome[] {
    for (const outcome of outcomes) if (outcome === 'added') this.knownUrls++;
    return outcomes;
  }
}

/** A LastFetch as the scripts take it ('' = none); its dueAt and fetchedAt become ZSET scores, so they must be finite. */
function lastFetchArg(last: LastFetch | undefined): string {
  if (last === undefined) return '';
  time('complete: lastFetch.dueAt', last.dueAt);
  time('complete: lastFetch.fetchedAt', last.fetchedAt);
  return encodeLastFetch(last);
}

/**
 * A failure as the scripts take it: its JSON, with only the fields of `UrlFailure`, and its time
 * (a ZSET score, so finite); ['', ''] for none.
 */
function failureArgs(failure: UrlFailure | undefined): [string, string | number] {
  if (failure === undefined) return ['', ''];
  const { kind, reason, message, code, attempts, at } = failure;
  time('complete: failure.at', at);
  return [JSON.stringify({ kind, reason, message, ...(code === undefined ? {} : { code }), attempts, at }), at];
}

/**
 * What a relabel takes of an entry with a label: its label and userData as JSON members
 * (`"label":…,"userData":…`, appended to the queued entry's JSON) and its priority as JSON;
 * ['', ''] without a label.
 */
function relabelArgs({ label, userData, priority }: FrontierEntry): [string, string] {
  if (label === undefined) return ['', ''];
  return [JSON.stringify({ label, userData }).slice(1, -1), JSON.stringify(priority)];
}

/** An exclusive upper bound of reopenDue as REOPEN_DUE takes it: '' = none (-Infinity), '+inf' = no bound. */
function scoreBound(before: number): string {
  if (before === -Infinity) return '';
  return before === Infinity ? '+inf' : String(before);
}

/** A finite number of ms, or ERR_INVALID_INPUT. */
function time(name: string, value: number): number {
  if (typeof value !== 'number' || !Number.isFinite(value))
    throw new PolitelyError('ERR_INVALID_INPUT', `${name} must be a finite number of ms, got ${String(value)}`);
  return value;
}
