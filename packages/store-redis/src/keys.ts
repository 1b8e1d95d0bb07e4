// Where a crawl lives in Redis. Every key of a crawl starts with one prefix, by default
// `politely:{<crawlId>}:`. The braces are a Redis Cluster hash tag: all keys of a crawl hash to
// one slot, so one Lua script may touch them all (a script's keys must share a slot in Cluster).
//
//   <prefix>seen          SET   dedupe keys of every URL ever added
//   <prefix>ready         ZSET  schedulable hosts (URLs queued, room in flight) → readyAt (ms)
//   <prefix>hosts         ZSET  every host → queued + in flight (busiest first; > 0 = active)
//   <prefix>leases        ZSET  lease id → expiry (ms)
//   <prefix>meta          HASH  the crawl marker (crawl: a random id of this crawl's state, createdAt),
//                               beat (the last heartbeat, Redis time), queued, done, addSeq, backSeq
//   <prefix>q:<hostKey>   ZSET  the host's queue: encoded entry → score (see queue-score.ts)
//   <prefix>u:<hostKey>   HASH  dedupe key → queue score, of the host's queued URLs without a label (for relabels)
//   <prefix>h:<hostKey>   HASH  the host: r readyAt, d delayMs, m maxInFlight, f inFlight, n done, a added,
//                               nb its hold (the latest Retry-After/backoff; r is never set before it)
//   <prefix>l:<leaseId>   HASH  one lease: h hostKey, e encoded entry, p queue priority, x expiry, b clock before,
//                               w its worker (lease ids are `<workerId>.<n>`, chosen by the worker)
//   <prefix>lastFetch     HASH  dedupe key → what the URL's last fetch left (a LastFetch record, see entry-codec.ts)
//   <prefix>fetched       HASH  dedupe key → `<queue priority> <length of host key> <host key><entry JSON>`: a URL
//                               with a LastFetch, as reopenDue queues it again (a done URL is in no queue or lease)
//   <prefix>due           ZSET  dedupe key → its LastFetch's dueAt (ms), for DONE URLs only (a reopened URL
//                               leaves it until it is done again)
//   <prefix>fetchedAt     ZSET  dedupe key → its LastFetch's fetchedAt (ms): the same members as due, for
//                               reopenDue's fetchedBefore (hints change due's score, never this one)
//   <prefix>failures      HASH  dedupe key → `<queue priority> <length of host key> <host key><entry JSON>\n<failure
//                               JSON>`: a failed URL (done), as requeueFailed queues it again
//   <prefix>failedAt      ZSET  dedupe key → its failure's time (ms): the same members as failures, oldest first
//   <prefix>data          HASH  the crawl's metadata: key → JSON value (saveMetadata; the crawler's cookie jar)
//   <prefix>workers       ZSET  worker id → the end of its registration (Redis time, ms; 0 = closed)
//   <prefix>wl:<workerId> SET   the worker's lease ids
//   <prefix>robots:<origin>       STRING  a robots.txt record (JSON), expiring some time after it goes stale
//   <prefix>robots-lock:<origin>  STRING  the fetch lock of an origin's robots.txt (token, PX ttl)

import { PolitelyError } from '@politely/core';

export interface RedisKeyOptions {
  /**
   * Names the crawl: its keys are `politely:{<crawlId>}:…`. Processes that use one crawl id
   * (and one Redis) share one crawl. Required unless `keyPrefix` is given.
   */
  readonly crawlId?: string;
  /**
   * The prefix of every key, instead of `politely:{<crawlId>}:`. For Redis Cluster, keep a
   * `{hash tag}` in it so that all keys of the crawl share one slot.
   * @default `politely:{<crawlId>}:`
   */
  readonly keyPrefix?: string;
}

/** The key prefix of a crawl. */
export function resolveKeyPrefix(entryPoint: string, options: RedisKeyOptions): string {
  if (options.keyPrefix !== undefined) {
    if (options.keyPrefix === '') throw invalid(entryPoint, 'keyPrefix must not be empty');
    return options.keyPrefix;
  }
  const { crawlId } = options;
  if (typeof crawlId !== 'string' || crawlId === '') throw invalid(entryPoint, 'crawlId (or keyPrefix) is required');
  if (/[{}]/.test(crawlId))
    throw invalid(
      entryPoint,
      `crawlId must not contain braces (it becomes a hash tag), got ${JSON.stringify(crawlId)}`,
    );
  return `politely:{${crawlId}}:`;
}

/** The fixed keys of a crawl's frontier, in the order the scripts take them as KEYS. */
export function frontierKeys(prefix: string): readonly string[] {
  return [
    `${prefix}meta`,
    `${prefix}ready`,
    `${prefix}hosts`,
    `${prefix}leases`,
    `${prefix}seen`,
    `${prefix}workers`,
    `${prefix}lastFetch`,
    `${prefix}fetched`,
    `${prefix}due`,
    `${prefix}fetchedAt`,
    `${prefix}failures`,
    `${prefix}failedAt`,
  ];
}

/** The hash of the crawl's metadata (`saveMetadata` / `loadMetadata`). */
export const metadataKey = (prefix: string): string => `${prefix}data`;
export const robotsKey = (prefix: string, origin: string): string => `${prefix}robots:${origin}`;
export const robotsLockKey = (prefix: string, origin: string): string => `${prefix}robots-lock:${origin}`;

export function invalid(entryPoint: string, message: string): PolitelyError {
  return new PolitelyError('ERR_INVALID_OPTION', `${entryPoint}: ${message}`);
}
