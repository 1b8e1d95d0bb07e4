// The Redis FrontierStore: one crawl's frontier, dedupe set, host clocks and policies, and leases,
// all in Redis, so that any number of worker processes on any number of machines share one crawl
// and its politeness. Every state change is one Lua script (frontier-scripts.ts), atomic.
//
// Times: the `now` of each claim and the `hostReadyAt` of each settle come from the workers'
// clocks and are compared across workers, so the machines' clocks must agree (NTP): a worker
// whose clock runs s ms ahead may start a request up to s ms early.

import { PolitelyError } from '@politely/core';
import {
  dedupeKeyOf,
  type AddOptions,
  type AddOutcome,
  type ClaimRequest,
  type ClaimResult,
  type FrontierCounts,
  type FrontierEntry,
  type FrontierStore,
  type HostCounts,
  type HostPolicy,
} from '@politely/crawler';
import { openRedis, type OpenedRedis, type RedisConnection } from './connection.js';
import { decodeEntry, encodeEntry } from './entry-codec.js';
import { FRONTIER_SCRIPT_KEY_COUNT, FRONTIER_SCRIPTS, type FrontierCommands } from './frontier-scripts.js';
import { frontierKeys, invalid, resolveKeyPrefix, type RedisKeyOptions } from './keys.js';
import { queuePriorityOf } from './queue-score.js';

export interface RedisFrontierStoreOptions extends RedisKeyOptions {
  /**
   * The Redis to keep the crawl in: an ioredis `Redis` or `Cluster` client (yours: `close()`
   * leaves it open), or a `redis://` URL (the store opens a connection and `close()` quits it).
   * Required.
   */
  readonly redis: RedisConnection;
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
}

const ENTRY_POINT = 'createRedisFrontierStore';

export function resolveRedisFrontierStoreOptions(options: RedisFrontierStoreOptions): ResolvedRedisFrontierStoreOptions {
  const count = (name: string, value: number, min: number): number => {
    if (!Number.isInteger(value) || value < min) throw invalid(ENTRY_POINT, `${name} must be an integer ≥ ${min}, got ${String(value)}`);
    return value;
  };
  return {
    prefix: resolveKeyPrefix(ENTRY_POINT, options),
    defaultDelayMs: count('defaultHostPolicy.delayMs', options.defaultHostPolicy?.delayMs ?? 0, 0),
    defaultMaxInFlight: count('defaultHostPolicy.maxInFlight', options.defaultHostPolicy?.maxInFlight ?? 1, 1),
    idlePollMs: count('idlePollMs', options.idlePollMs ?? 250, 1),
    maxExpiredPerClaim: count('maxExpiredPerClaim', options.maxExpiredPerClaim ?? 100, 1),
    addBatchSize: count('addBatchSize', options.addBatchSize ?? 500, 1),
  };
}

/** A FrontierStore in Redis, shared by every worker that opens the same crawl id. */
export function createRedisFrontierStore(options: RedisFrontierStoreOptions): FrontierStore {
  const resolved = resolveRedisFrontierStoreOptions(options);
  return new RedisFrontierStore(openRedis(ENTRY_POINT, options.redis), resolved);
}

class RedisFrontierStore implements FrontierStore {
  private readonly commands: FrontierCommands;
  private readonly keys: readonly string[];

  constructor(
    private readonly connection: OpenedRedis,
    private readonly options: ResolvedRedisFrontierStoreOptions,
  ) {
    for (const [name, lua] of Object.entries(FRONTIER_SCRIPTS)) {
      connection.redis.defineCommand(name, { numberOfKeys: FRONTIER_SCRIPT_KEY_COUNT, lua });
    }
    this.commands = connection.redis as unknown as FrontierCommands;
    this.keys = frontierKeys(options.prefix);
  }

  async add(entries: readonly FrontierEntry[], options: AddOptions = {}): Promise<AddOutcome[]> {
    const maxPerHost = options.maxPerHost ?? Infinity;
    if (!(maxPerHost === Infinity || (Number.isInteger(maxPerHost) && maxPerHost >= 0))) {
      throw new PolitelyError('ERR_INVALID_INPUT', `add: maxPerHost must be an integer ≥ 0, got ${String(maxPerHost)}`);
    }
    const outcomes: AddOutcome[] = [];
    for (let start = 0; start < entries.length; start += this.options.addBatchSize) {
      const args: (string | number)[] = [...this.head(), maxPerHost === Infinity ? '' : maxPerHost, this.options.defaultDelayMs, this.options.defaultMaxInFlight];
      for (const entry of entries.slice(start, start + this.options.addBatchSize)) {
        if (typeof entry.hostKey !== 'string' || entry.hostKey === '') throw new PolitelyError('ERR_INVALID_INPUT', `add: entry ${entry.url} has no hostKey`);
        args.push(dedupeKeyOf(entry), entry.hostKey, queuePriorityOf(entry.priority), encodeEntry(entry));
      }
      outcomes.push(...((await this.commands.politelyFrontierAdd(...args)) as AddOutcome[]));
    }
    return outcomes;
  }

  async claim({ now, leaseMs }: ClaimRequest): Promise<ClaimResult> {
    const at = Math.floor(time('claim: now', now));
    const lease = Math.ceil(time('claim: leaseMs', leaseMs));
    const reply = await this.commands.politelyFrontierClaim(...this.head(), at, lease, this.options.maxExpiredPerClaim, this.options.idlePollMs);
    const [id, member, expiresAt, previous] = reply;
    if (id === undefined) return { lease: null, nextReadyAt: null };
    if (member === undefined) return { lease: null, nextReadyAt: Number(id) };
    return {
      lease: { id, entry: decodeEntry(member), leaseExpiresAt: Number(expiresAt), previousHostReadyAt: Number(previous) },
    };
  }

  complete(leaseId: string, options: { readonly hostReadyAt?: number } = {}): Promise<void> {
    return this.settle(leaseId, 'complete', options.hostReadyAt);
  }

  release(leaseId: string, options: { readonly hostReadyAt?: number } = {}): Promise<void> {
    return this.settle(leaseId, 'release', options.hostReadyAt);
  }

  retry(leaseId: string, options: { readonly hostReadyAt?: number } = {}): Promise<void> {
    return this.settle(leaseId, 'retry', options.hostReadyAt);
  }

  async setHostPolicy(hostKey: string, policy: Partial<HostPolicy> & { readonly readyAt?: number }): Promise<void> {
    const { delayMs, maxInFlight, readyAt } = policy;
    if (delayMs !== undefined) time('setHostPolicy: delayMs', delayMs);
    if (maxInFlight !== undefined && !(Number.isInteger(maxInFlight) && maxInFlight >= 1)) {
      throw new PolitelyError('ERR_INVALID_INPUT', `setHostPolicy: maxInFlight must be an integer ≥ 1, got ${String(maxInFlight)}`);
    }
    await this.commands.politelyFrontierSetHostPolicy(
      ...this.head(),
      hostKey,
      this.options.defaultDelayMs,
      this.options.defaultMaxInFlight,
      delayMs === undefined ? '' : Math.ceil(delayMs),
      maxInFlight ?? '',
      readyAt === undefined ? '' : Math.ceil(time('setHostPolicy: readyAt', readyAt)),
    );
  }

  async counts(): Promise<FrontierCounts> {
    const [queued = 0, inFlight = 0, done = 0, activeHosts = 0] = await this.commands.politelyFrontierCounts(...this.head());
    return { queued, inFlight, done, activeHosts };
  }

  async hostCounts(limit = Infinity): Promise<HostCounts[]> {
    if (!(limit >= 1)) return [];
    const lastRank = limit === Infinity ? -1 : Math.floor(limit) - 1;
    const flat = await this.commands.politelyFrontierHostCounts(...this.head(), lastRank);
    const hosts: HostCounts[] = [];
    for (let i = 0; i + 4 < flat.length; i += 5) {
      hosts.push({ hostKey: String(flat[i]), queued: Number(flat[i + 1]), inFlight: Number(flat[i + 2]), done: Number(flat[i + 3]), readyAt: Number(flat[i + 4]) });
    }
    return hosts;
  }

  close(): Promise<void> {
    return this.connection.close();
  }

  /** The keys and the prefix every script starts with. */
  private head(): (string | number)[] {
    return [...this.keys, this.options.prefix];
  }

  private async settle(leaseId: string, how: 'complete' | 'release' | 'retry', hostReadyAt: number | undefined): Promise<void> {
    const readyAt = hostReadyAt === undefined ? '' : Math.ceil(time(`${how}: hostReadyAt`, hostReadyAt));
    await this.commands.politelyFrontierSettle(...this.head(), leaseId, how, readyAt);
  }
}

/** A finite number of ms, or ERR_INVALID_INPUT. */
function time(name: string, value: number): number {
  if (typeof value !== 'number' || !Number.isFinite(value)) throw new PolitelyError('ERR_INVALID_INPUT', `${name} must be a finite number of ms, got ${String(value)}`);
  return value;
}
