// The crawl-wide scripts: the crawl marker and layout, and the worker registry. Each touches the
// crawl-wide slot only (KEYS: meta, workers; keys.ts), and none runs on the hot path of a claim:
// a worker runs INIT once, BEAT every heartbeat and RETIRE when it closes.
//
// Workers. Each store is a worker, registered in `workers` until a deadline in Redis time that
// its heartbeat moves to now + TTL. BEAT answers with the workers whose deadline passed (they
// died, or closed while holding leases): the worker then returns their leases in every bucket
// (TEND, frontier-scripts.ts) and, once none is left anywhere, FORGETs them. Time during which
// nobody could beat (Redis was down or unreachable, or every worker was stopped) does not count
// against anybody: a live worker is not taken for dead after an outage.
//
// ARGV[1..4] of every script: the crawl marker the worker saw at open (INIT: a new random one),
// the worker's id, its registration TTL and its heartbeat period (ms).

import { CRAWL_GONE } from './frontier-scripts.js';
import { BUCKET_COUNT, LAYOUT_VERSION } from './keys.js';

/** What INIT fails with when the crawl was made by an older politely (the one-slot layout). */
export const OLD_LAYOUT = 'POLITELY_OLD_LAYOUT';

const DEFINITIONS = `
if redis.replicate_commands then redis.replicate_commands() end
local CRAWL, ME, TTL, BEAT_MS = ARGV[1], ARGV[2], tonumber(ARGV[3]), tonumber(ARGV[4])
local META, WORKERS = KEYS[1], KEYS[2]
local function int(n) return string.format('%.0f', n) end
local function redisNow()
  local t = redis.call('TIME')
  return tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
end
-- The worker is alive: its registration runs until Redis time + TTL. When nobody beat for two
-- heartbeat periods, that silence does not count against any registration.
local function beat()
  local t = redisNow()
  local last = tonumber(redis.call('HGET', META, 'beat'))
  if last and t - last > 2 * BEAT_MS then
    local gap = t - last
    local workers = redis.call('ZRANGEBYSCORE', WORKERS, '(0', '+inf', 'WITHSCORES')
    for i = 1, #workers, 2 do
      redis.call('ZADD', WORKERS, int(tonumber(workers[i + 1]) + gap), workers[i])
    end
  end
  if not last or t > last then redis.call('HSET', META, 'beat', int(t)) end
  redis.call('ZADD', WORKERS, int(t + TTL), ME)
  return t
end
`;

const PRELUDE = `${DEFINITIONS}
if redis.call('HGET', META, 'crawl') ~= CRAWL then
  return redis.error_reply('${CRAWL_GONE} the crawl marker is ' .. (redis.call('HGET', META, 'crawl') or 'gone'))
end
`;

/**
 * init — ARGV: head (a NEW random marker as the crawl), createdAt. Creates the crawl (marker,
 * layout, bucket count) unless it exists, and registers the worker. Fails with OLD_LAYOUT for a
 * crawl of another layout. Returns [the crawl's marker, '1' when every bucket carries it, live workers].
 */
const INIT = `${DEFINITIONS}
if redis.call('HSETNX', META, 'crawl', CRAWL) == 1 then
  redis.call('HSET', META, 'createdAt', ARGV[5], 'layout', '${LAYOUT_VERSION}', 'buckets', '${BUCKET_COUNT}')
end
local m = redis.call('HMGET', META, 'crawl', 'layout', 'buckets', 'bucketsReady')
if m[2] ~= '${LAYOUT_VERSION}' or m[3] ~= '${BUCKET_COUNT}' then
  return redis.error_reply('${OLD_LAYOUT} layout ' .. (m[2] or '1 (one slot)') .. ' with ' .. (m[3] or 'no') .. ' buckets')
end
local t = beat()
return { m[1], m[4] or '0', redis.call('ZCOUNT', WORKERS, '(' .. int(t), '+inf') }
`;

/** bucketsReady — ARGV: head. Every bucket carries the marker: later workers need not mark them. Returns 1. */
const BUCKETS_READY = `${PRELUDE}
redis.call('HSET', META, 'bucketsReady', '1')
return 1
`;

/** heartbeat — ARGV: head. Returns [live workers, then the ids of other workers whose registration ran out (16 at most)]. */
const BEAT = `${PRELUDE}
local t = beat()
local dead = { redis.call('ZCOUNT', WORKERS, '(' .. int(t), '+inf') }
for _, w in ipairs(redis.call('ZRANGEBYSCORE', WORKERS, '-inf', int(t), 'LIMIT', 0, 17)) do
  if w ~= ME and #dead < 17 then dead[#dead + 1] = w end
end
return dead
`;

/**
 * forget — ARGV: head, worker ids. Workers whose leases are back in their queues leave the
 * registry, unless one renewed its registration meanwhile (it was alive after all). Returns 1.
 */
const FORGET = `${PRELUDE}
local t = redisNow()
for i = 5, #ARGV do
  local deadline = tonumber(redis.call('ZSCORE', WORKERS, ARGV[i]))
  if deadline and deadline <= t then redis.call('ZREM', WORKERS, ARGV[i]) end
end
return 1
`;

/**
 * retire (a closing worker) — ARGV: head, '1' when it holds leases. A worker without leases
 * leaves the registry; one still holding some is marked closed (deadline 0), so that the next
 * heartbeat of any worker returns them.
 */
const RETIRE = `${PRELUDE}
if ARGV[5] == '1' then
  redis.call('ZADD', WORKERS, 0, ME)
else
  redis.call('ZREM', WORKERS, ME)
end
return 1
`;

/** The crawl-wide scripts by the ioredis command name they are defined under. */
export const CRAWL_SCRIPTS = {
  politelyCrawlInit: INIT,
  politelyCrawlBucketsReady: BUCKETS_READY,
  politelyCrawlBeat: BEAT,
  politelyCrawlForget: FORGET,
  politelyCrawlRetire: RETIRE,
} as const;

/** Keys every crawl-wide script declares (see `crawlScriptKeys`). */
export const CRAWL_SCRIPT_KEY_COUNT = 2;

type Arg = string | number;

export interface CrawlCommands {
  politelyCrawlInit(...args: Arg[]): Promise<[string, string, number]>;
  politelyCrawlBucketsReady(...args: Arg[]): Promise<number>;
  politelyCrawlBeat(...args: Arg[]): Promise<[number, ...string[]]>;
  politelyCrawlForget(...args: Arg[]): Promise<number>;
  politelyCrawlRetire(...args: Arg[]): Promise<number>;
}
