// Where a crawl lives in Redis: spread over BUCKET_COUNT buckets by politeness key, so that a
// crawl spreads over the shards of a Redis Cluster, and every Lua script touches one slot.
//
// Crawl-wide keys share the hash tag `{<crawlId>}` (small, off the hot path of a claim):
//
//   politely:{<crawlId>}:meta     HASH  crawl (the crawl marker: a random id of this crawl's state), createdAt,
//                                       layout (LAYOUT_VERSION), buckets (BUCKET_COUNT), bucketsReady (1 once
//                                       every bucket carries the marker), beat (the last heartbeat, Redis time)
//   politely:{<crawlId>}:workers  ZSET  worker id → the end of its registration (Redis time, ms; 0 = closed)
//   politely:{<crawlId>}:data     HASH  the crawl's metadata: key → JSON value (saveMetadata; the cookie jar)
//
// Each bucket b (0 ≤ b < BUCKET_COUNT) has the hash tag `{<crawlId>:<b>}`. A host's state lives
// in bucket `bucketOfHost(hostKey)` = the first 4 bytes of SHA-256(hostKey), big-endian, mod
// BUCKET_COUNT. With P = `politely:{<crawlId>:<b>}:`:
//
//   <P>meta          HASH  crawl (a copy of the crawl marker, checked by every script), queued, done,
//                          seen (URLs ever added), fpL and fpS (the seen tables' level and split),
//                          g (the bucket's generation: how many times it was cleared; known-urls.ts)
//   <P>seen          HASH  seen table i → how many fingerprints it holds (see frontier-scripts.ts)
//   <P>seen:<i>      STRING seen table i: 64-bit fingerprints (fingerprint.ts) of URLs ever added to
//                          the bucket, 8 bytes a slot, open addressing; tables split by linear hashing
//   <P>ready         ZSET  schedulable hosts (URLs queued, room in flight) → readyAt (ms)
//   <P>hosts         ZSET  every host → queued + in flight (busiest first; > 0 = active)
//   <P>leases        ZSET  lease id → expiry (ms)
//   <P>q:<hostKey>:<band> LIST the host's queued members of queue priority <band> (entry-codec.ts),
//                          head first; a plain member's URL relative to the host's origin (h field o)
//   <P>h:<hostKey>   HASH  the host: r readyAt, d delayMs, m maxInFlight, f inFlight, n done, a added,
//                          nb its hold (the latest Retry-After/backoff; r is never set before it),
//                          qb its bands with URLs queued (best first), o its origin (the first plain
//                          member's), ul its queued members without a label (for relabels)
//   <P>l:<leaseId>   HASH  one lease: h hostKey, e encoded entry, p queue priority, x expiry, b clock before,
//                          w its worker (lease ids are `<bucket>/<workerId>.<n>`, chosen by the worker)
//   <P>wl:<workerId> SET   the worker's lease ids in this bucket
//   <P>lastFetch     HASH  dedupe key → what the URL's last fetch left (a LastFetch record, see entry-codec.ts)
//   <P>fetched       HASH  dedupe key → `<queue priority> <length of host key> <host key><entry JSON>`
//   <P>due           ZSET  dedupe key → its LastFetch's dueAt (ms), for DONE URLs only
//   <P>fetchedAt     ZSET  dedupe key → its LastFetch's fetchedAt (ms): the same members as due
//   <P>failures      HASH  dedupe key → `<queue priority> <length of host key> <host key><entry JSON>\n<failure JSON>`
//   <P>failedAt      ZSET  dedupe key → its failure's time (ms): the same members as failures
//   <P>ro:<request>  STRING what a reopenDue request reopened in the bucket (kept a minute: a resent script replays it)
//   <P>slot-guard    (none) never written: declared by every bucket script, so that a call on a
//                          bucket whose slot a Redis Cluster is moving is refused before it runs (SLOT_GUARD)
//
// Times (readyAt, expiries, holds, send turns) are ms on the Redis server's clock (TIME, read by
// the scripts), or the callers' with `clock: 'caller'`; LastFetch and failure times are the workers'.
//
// The robots cache (one key per origin, never in a script with others) is spread too, by origin:
// in bucket `bucketOfHost(origin)`, so that one shard does not keep every host's robots.txt.
//
//   <P>robots:<origin>       STRING  a robots.txt record (JSON), expiring some time after it goes stale
//   <P>robots-lock:<origin>  STRING  the fetch lock of an origin's robots.txt (token, PX ttl)
//
// With `keyPrefix`, its `{tag}` plays the part of `{<crawlId>}`: crawl-wide keys are
// `<keyPrefix>…`, bucket keys `<keyPrefix with {tag} replaced by {tag:b}>…`.

import { hash } from 'node:crypto';
import { PolitelyError } from '@politely/core';
import { CRAWL_ID_RULE, isCrawlId } from '@politely/frontier/internal';
/**
 * Buckets per crawl. 128: enough that the buckets' hash tags spread over the shards of a cluster
 * evenly (on 3 equal shards, one gets fewer than 20 % of the buckets for about 1 crawl id in 800),
 * few enough that a pass over every bucket (a view refresh, a heartbeat's reap of a dead worker)
 * stays a few pipelined round trips, and a bucket's fixed keys (its marker) cost little.
 */
export const BUCKET_COUNT = 128;
/**
 * The key layout version, kept in the crawl-wide meta; a crawl without one is of the one-slot
 * layout. 2 kept each bucket's dedupe keys whole in a SET; 3 keeps 64-bit fingerprints; 4 keeps a
 * host's queue as a LIST per priority band of compact members, without a per-host dedupe index.
 */
export const LAYOUT_VERSION = '4';

/** Where a crawl's keys are in Redis: its crawl id and key prefix. */
export interface RedisKeyOptions {
  /**
   * Names the crawl: its keys are `politely:{<crawlId>}:…` (crawl-wide) and
   * `politely:{<crawlId>:<bucket>}:…` (its hosts, spread over 128 buckets). Processes that use one
   * crawl id (and one Redis or Cluster) share one crawl. 1 to 100 letters, digits, `.`, `:`, `_`
   * or `-`. Required unless `keyPrefix` is given.
   */
  readonly crawlId?: string;
  /**
   * The prefix of every crawl-wide key, instead of `politely:{<crawlId>}:`. It must hold one
   * `{hash tag}`: bucket keys replace it with `{<tag>:<bucket>}`.
   * @default `politely:{<crawlId>}:`
   */
  readonly keyPrefix?: string;
}

/** Where one crawl's keys are. */
export interface CrawlKeys {
  /** The prefix of the crawl-wide keys. */
  readonly crawl: string;
  /** The prefix of bucket `b`'s keys. */
  bucket(b: number): string;
}

/** The key prefixes of a crawl. */
export function resolveCrawlKeys(entryPoint: string, options: RedisKeyOptions): CrawlKeys {
  let prefix: string;
  if (options.keyPrefix !== undefined) {
    prefix = options.keyPrefix;
    if (prefix === '') throw invalid(entryPoint, 'keyPrefix must not be empty');
    if (!/^[^{}]*\{[^{}]+\}[^{}]*$/.test(prefix))
      throw invalid(
        entryPoint,
        `keyPrefix must hold exactly one non-empty {hash tag} (bucket keys replace it with {tag:bucket}), got ${JSON.stringify(prefix)}`,
      );
  } else {
    const { crawlId } = options;
    if (typeof crawlId !== 'string' || crawlId === '') throw invalid(entryPoint, 'crawlId (or keyPrefix) is required');
    if (!isCrawlId(crawlId))
      throw invalid(entryPoint, `crawlId must be ${CRAWL_ID_RULE}, got ${JSON.stringify(crawlId)}`);
    prefix = `politely:{${crawlId}}:`;
  }
  const close = prefix.indexOf('}');
  const head = prefix.slice(0, close);
  const tail = prefix.slice(close);
  const buckets = Array.from({ length: BUCKET_COUNT }, (_, b) => `${head}:${b}${tail}`);
  return { crawl: prefix, bucket: (b) => buckets[b]! };
}

/**
 * Buckets of the hosts met lately: a page's links name few hosts, each many times. A plain Map,
 * emptied when full: a hit (nearly every lookup) then costs one lookup, with none of an LRU's
 * reordering, and a miss one hash.
 */
const recentBuckets = new Map<string, number>();
const RECENT_BUCKETS = 4096;

/** The bucket of a politeness key: SHA-256's first 4 bytes, big-endian, mod BUCKET_COUNT. */
export function bucketOfHost(hostKey: string): number {
  let b = recentBuckets.get(hostKey);
  if (b === undefined) {
    b = hash('sha256', hostKey, 'buffer').readUInt32BE(0) % BUCKET_COUNT;
    if (recentBuckets.size >= RECENT_BUCKETS) recentBuckets.clear();
    recentBuckets.set(hostKey, b);
  }
  return b;
}

/** A pattern for SCAN of every key of the crawl (crawl-wide and buckets), and a test of a key found. */
export function crawlKeyMatcher(keys: CrawlKeys): { pattern: string; test(key: string): boolean } {
  const close = keys.crawl.indexOf('}');
  const head = keys.crawl.slice(0, close);
  const tail = keys.crawl.slice(close);
  const exact = new RegExp(`^${escapeRegExp(head)}(:\\d+)?${escapeRegExp(tail)}`);
  return { pattern: `${escapeGlob(head)}*`, test: (key) => exact.test(key) };
}

/** The crawl-wide keys, in the order the crawl scripts take them as KEYS. */
export function crawlScriptKeys(keys: CrawlKeys): readonly string[] {
  return [`${keys.crawl}meta`, `${keys.crawl}workers`];
}

/** The bucket's keys every bucket script declares, in KEYS order (frontier-scripts.ts, DEFINITIONS). */
const BUCKET_FIXED_KEYS = [
  'meta',
  'ready',
  'hosts',
  'leases',
  'seen',
  'lastFetch',
  'fetched',
  'due',
  'fetchedAt',
  'failures',
  'failedAt',
] as const;

/**
 * The slot guard of a bucket: a key no script ever writes, declared by every bucket script. Redis
 * Cluster answers TRYAGAIN, before a script runs, to a call that declares keys of a slot in
 * migration of which some are on the node and some not; since the guard is never there and the
 * bucket's meta always is, every script on a bucket in migration is refused whole (never cut
 * short half-way, at a key it builds) and tried again once the migration is done or aborted.
 */
export const SLOT_GUARD = 'slot-guard';

/**
 * The keys a bucket script declares: the bucket's fixed keys, the worker's own lease set and the
 * slot guard. Every other key a script touches is chosen inside it from what it reads (the host
 * a claim picks, a lease's host, a queue's bands, a seen table), or named by ARGV (the hosts of
 * added entries, other workers' lease sets); each is built from the bucket's prefix, so it
 * carries the bucket's `{hash tag}` and lies in the slot of the declared keys by construction.
 * That is the rule for any key added to the layout.
 */
export function bucketScriptKeys(prefix: string, workerId: string): readonly string[] {
  return [...BUCKET_FIXED_KEYS.map((name) => `${prefix}${name}`), `${prefix}wl:${workerId}`, `${prefix}${SLOT_GUARD}`];
}

/** How many keys every bucket script declares (see `bucketScriptKeys`). */
export const BUCKET_SCRIPT_KEY_COUNT = BUCKET_FIXED_KEYS.length + 2;

/** The hash of the crawl's metadata (`saveMetadata` / `loadMetadata`). */
export const metadataKey = (keys: CrawlKeys): string => `${keys.crawl}data`;
export const robotsKey = (keys: CrawlKeys, origin: string): string =>
  `${keys.bucket(bucketOfHost(origin))}robots:${origin}`;
export const robotsLockKey = (keys: CrawlKeys, origin: string): string =>
  `${keys.bucket(bucketOfHost(origin))}robots-lock:${origin}`;

export function invalid(entryPoint: string, message: string): PolitelyError {
  return new PolitelyError('ERR_INVALID_OPTION', `${entryPoint}: ${message}`);
}

/** Text as a literal SCAN pattern (`*`, `?`, `[`, `]` and `\` escaped). */
function escapeGlob(text: string): string {
  return text.replace(/[*?[\]\\]/g, '\\$&');
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
