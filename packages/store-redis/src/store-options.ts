// The options of the Redis FrontierStore, checked where they are given.

import { describeValue, type OptionChecks, optionChecks } from '@politely/core/internal';
import type { HostPolicy } from '@politely/frontier';
import { resolveDefaultHostPolicy } from '@politely/frontier/internal';
import type { RedisConnection, RedisLinkOptions } from './connection.js';
import { type CrawlKeys, type RedisKeyOptions, resolveCrawlKeys } from './keys.js';

/**
 * Options of `createRedisFrontierStore`: the connection, the crawl's keys, worker heartbeats and a
 * host's default policy.
 */
export interface RedisFrontierStoreOptions extends RedisKeyOptions, RedisLinkOptions {
  /**
   * The Redis to keep the crawl in: a `redis://` or `rediss://` URL, or a
   * `redis-cluster://HOST:PORT,HOST:PORT` or `rediss-cluster://…` URL of any reachable nodes of a
   * Redis Cluster (the store opens a connection and `close()` quits it), a `RedisLink` from
   * `createRedisLink` (shared, e.g. with the robots cache; yours to close), or an ioredis `Redis`
   * or `Cluster` client (yours to close and to configure: `connectTimeoutMs`, `maxOutageMs` and
   * `onNotice` apply only to a URL; `onWarning` also hears of `replicaAcks` shortfalls). Required.
   */
  readonly redis: RedisConnection;
  /**
   * A worker (a store) that has not renewed its registration for this long is taken for dead,
   * and its leases go back to their queues at the next heartbeat of any worker: a killed worker's
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
  /**
   * Durability against a failover: after each state change (an add, a claim, a settle), wait
   * until this many replicas of the shard that holds it acknowledged it (Redis `WAIT`), at most
   * `replicaAckTimeoutMs`. When fewer did, `onWarning` is told (the crawl goes on). 0 waits for
   * none: Redis replication is asynchronous, and a failover may lose the last changes.
   * @default 0
   */
  readonly replicaAcks?: number;
  /**
   * How long one `replicaAcks` wait may take.
   * @default 1000
   */
  readonly replicaAckTimeoutMs?: number;
  /**
   * Keep what each fetch left (`CompleteOptions.lastFetch`: validators, hash, due time, and the
   * URL's entry to queue it again, a few hundred bytes per URL), so that `reopenDue` and a crawl
   * with `recrawl` can revisit and revalidate. Off, a done URL keeps no text: only its 64-bit
   * fingerprint in its bucket's seen table (about 11 bytes), and the crawler works out no
   * LastFetch for it.
   * @default true
   */
  readonly rememberFetches?: boolean;
  /**
   * URLs a worker remembers the crawl holds (those met least lately forgotten first): a page's
   * link among them, on the page's own host (or another host of its bucket), without a label or
   * hints, is answered 'duplicate' without being sent to Redis, as a site's navigation links are
   * on every page of it. Safe against `clear()` by any worker (the completion's script checks
   * that the bucket was not cleared since). About 200 bytes of the worker's memory per URL; 0
   * sends every link.
   * @default 20000
   */
  readonly knownUrlCache?: number;
  /**
   * Whose clock decides when a host's turn comes. `'redis'`: the Redis server's (TIME, read by
   * each script), so that politeness across workers does not depend on their clocks; each
   * worker learns the offset of its clock from Redis's (TIME, at open and with each heartbeat)
   * and converts every time it gives or gets (a lease's `startAt` and expiry, a host's next
   * turn, `nextReadyAt`), and the `now` it passes is a hint. `'caller'`: the `now` each call
   * passes (all workers' clocks must agree; for a single worker, or tests with a clock of
   * their own).
   * @default 'redis'
   */
  readonly clock?: 'redis' | 'caller';
}

export interface ResolvedRedisFrontierStoreOptions {
  readonly keys: CrawlKeys;
  readonly defaultDelayMs: number;
  readonly defaultMaxInFlight: number;
  readonly idlePollMs: number;
  readonly maxExpiredPerClaim: number;
  readonly addBatchSize: number;
  readonly workerTtlMs: number;
  readonly heartbeatMs: number;
  readonly replicaAcks: number;
  readonly replicaAckTimeoutMs: number;
  readonly rememberFetches: boolean;
  readonly knownUrlCache: number;
  readonly clock: 'redis' | 'caller';
}

export const ENTRY_POINT = 'createRedisFrontierStore';

/** Every option `createRedisFrontierStore` knows: a key missing here, or one too many, is a type error. */
export const REDIS_STORE_OPTION_KEYS: Record<keyof RedisFrontierStoreOptions, true> = {
  redis: true,
  workerTtlMs: true,
  heartbeatMs: true,
  defaultHostPolicy: true,
  idlePollMs: true,
  maxExpiredPerClaim: true,
  addBatchSize: true,
  replicaAcks: true,
  replicaAckTimeoutMs: true,
  rememberFetches: true,
  knownUrlCache: true,
  clock: true,
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
  const check = optionChecks(ENTRY_POINT);
  if (typeof options !== 'object' || options === null)
    check.fail(`options must be an object { redis, crawlId, … }, got ${describeValue(options)}`);
  check.knownKeys(options, REDIS_STORE_OPTION_KEYS);
  if (options.crawlId !== undefined && options.keyPrefix !== undefined)
    check.fail('crawlId cannot take effect with keyPrefix: keyPrefix names the keys instead; give one of them');
  for (const name of ['crawlId', 'keyPrefix'] as const) {
    const value = options[name];
    if (value !== undefined && typeof value !== 'string')
      check.fail(`${name} must be a string, got ${describeValue(value)}`);
  }
  checkLinkOptions(check, options);
  const policy = resolveDefaultHostPolicy(check, options.defaultHostPolicy, { wholeDelay: true });
  return {
    keys: resolveCrawlKeys(ENTRY_POINT, options),
    defaultDelayMs: policy.delayMs,
    defaultMaxInFlight: policy.maxInFlight,
    idlePollMs: check.count('idlePollMs', options.idlePollMs, 250, 1),
    maxExpiredPerClaim: check.count('maxExpiredPerClaim', options.maxExpiredPerClaim, 100, 1),
    addBatchSize: check.count('addBatchSize', options.addBatchSize, 500, 1),
    replicaAcks: check.count('replicaAcks', options.replicaAcks, 0, 0),
    replicaAckTimeoutMs: check.count('replicaAckTimeoutMs', options.replicaAckTimeoutMs, 1000, 1),
    rememberFetches: check.flag('rememberFetches', options.rememberFetches, true),
    knownUrlCache: check.count('knownUrlCache', options.knownUrlCache, 20_000, 0),
    clock: clockOf(check, options.clock),
    ...workerTiming(check, options),
  };
}

/** The options of the connection the store opens: checked now, and refused with a client it did not open. */
function checkLinkOptions(check: OptionChecks, options: RedisFrontierStoreOptions): void {
  check.count('connectTimeoutMs', options.connectTimeoutMs, 5000, 100);
  check.count('maxOutageMs', options.maxOutageMs, 60_000, 0);
  check.callback('onWarning', options.onWarning);
  check.callback('onNotice', options.onNotice);
  if (typeof options.redis === 'string') return;
  for (const name of ['connectTimeoutMs', 'maxOutageMs', 'onNotice'] as const) {
    check.conflict(
      name,
      options[name],
      'a RedisLink or an ioredis client as redis',
      'it configures a connection the store opens from a URL; configure the link or client where it is made',
    );
  }
}

function clockOf(check: OptionChecks, value: unknown): 'redis' | 'caller' {
  if (value === undefined) return 'redis';
  if (value !== 'redis' && value !== 'caller')
    check.fail(`clock must be 'redis' or 'caller', got ${describeValue(value)}`);
  return value;
}

function workerTiming(
  check: OptionChecks,
  options: RedisFrontierStoreOptions,
): { workerTtlMs: number; heartbeatMs: number } {
  const workerTtlMs = check.count('workerTtlMs', options.workerTtlMs, 10_000, 100);
  const heartbeatMs = check.count('heartbeatMs', options.heartbeatMs, Math.min(2500, Math.floor(workerTtlMs / 4)), 10);
  if (heartbeatMs * 2 > workerTtlMs)
    check.fail(`heartbeatMs must be an integer from 10 to half of workerTtlMs (${workerTtlMs}), got ${heartbeatMs}`);
  return { workerTtlMs, heartbeatMs };
}
