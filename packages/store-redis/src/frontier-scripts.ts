// The frontier's state changes, each ONE Lua script, so each is atomic across every worker.
//
// Why Lua and not Bottleneck's Redis clustering: a claim must pick the ready host, pop its best
// URL, move the host's clock and record the lease in one indivisible step: if the clock and the
// queue changed in separate steps, two workers could both see a host as ready and both fetch.
// Bottleneck would also hold every waiting URL in a per-process promise (its jobs wait in the
// worker that scheduled them), whereas here URLs wait in Redis, where any worker can take them
// and where a dead worker's URLs survive it.
//
// Every script takes the crawl's fixed keys as KEYS (meta, ready, hosts, leases, seen) and its
// key prefix as ARGV[1]; it builds per-host and per-lease keys from the prefix. All of them carry
// the crawl's `{hash tag}`, so in Redis Cluster they share the slot of the declared keys.
// Times are integer ms since the epoch, passed and stored as decimal strings (Lua's tostring
// would round them to 14 digits). See keys.ts for the layout and queue-score.ts for the order.

import { PRIORITY_STEP, SLOT_BASE } from './queue-score.js';

const PRELUDE = `
local P = ARGV[1]
local META, READY, HOSTS, LEASES, SEEN = KEYS[1], KEYS[2], KEYS[3], KEYS[4], KEYS[5]
local STEP = ${PRIORITY_STEP}
local SLOT_BASE = ${SLOT_BASE}
local function qk(h) return P .. 'q:' .. h end
local function hk(h) return P .. 'h:' .. h end
local function lk(id) return P .. 'l:' .. id end
local function int(n) return string.format('%.0f', n) end

-- READY and HOSTS follow the host's state: it is schedulable when URLs are queued and it has
-- room for another request in flight; its load is queued + in flight.
local function reschedule(h)
  local s = redis.call('HMGET', hk(h), 'r', 'm', 'f')
  local queued = redis.call('ZCARD', qk(h))
  local inFlight = tonumber(s[3]) or 0
  if queued > 0 and inFlight < (tonumber(s[2]) or 1) then
    redis.call('ZADD', READY, s[1] or '0', h)
  else
    redis.call('ZREM', READY, h)
  end
  redis.call('ZADD', HOSTS, queued + inFlight, h)
end

local function enqueue(h, member, priority, slot)
  redis.call('ZADD', qk(h), int(0 - priority * STEP + slot), member)
  redis.call('HINCRBY', META, 'queued', 1)
end
-- Added or retried: behind the URLs of its priority.
local function pushBack(h, member, priority)
  enqueue(h, member, priority, SLOT_BASE + redis.call('HINCRBY', META, 'addSeq', 1) - 1)
end
-- Handed back (released, or its lease expired): ahead of the URLs of its priority.
local function pushFront(h, member, priority)
  enqueue(h, member, priority, SLOT_BASE - redis.call('HINCRBY', META, 'backSeq', 1))
end

-- Ends a lease: returns its host, entry, priority, the host's requests still in flight and the
-- lease's expiry, or nil when the lease is gone (settled, or expired and taken by another worker).
local function takeLease(id)
  local l = redis.call('HMGET', lk(id), 'h', 'e', 'p', 'x')
  redis.call('ZREM', LEASES, id)
  if not l[1] then return nil end
  redis.call('DEL', lk(id))
  local inFlight = redis.call('HINCRBY', hk(l[1]), 'f', -1)
  if inFlight < 0 then
    redis.call('HSET', hk(l[1]), 'f', 0)
    inFlight = 0
  end
  return l[1], l[2], tonumber(l[3]) or 0, inFlight, tonumber(l[4]) or 0
end

local function ensureHost(h, delayMs, maxInFlight)
  if redis.call('EXISTS', hk(h)) == 0 then
    redis.call('HSET', hk(h), 'r', 0, 'd', delayMs, 'm', maxInFlight, 'f', 0, 'n', 0, 'a', 0)
  end
end
`;

/**
 * add — ARGV: prefix, maxPerHost ('' = no bound), default delayMs, default maxInFlight, then
 * four per entry: dedupe key, host key, queue priority, encoded entry.
 * Returns one outcome per entry: 'added' | 'duplicate' | 'host-full'.
 */
const ADD = `${PRELUDE}
local maxPerHost = tonumber(ARGV[2])
local touched, out = {}, {}
for i = 5, #ARGV, 4 do
  local key, h = ARGV[i], ARGV[i + 1]
  if redis.call('SISMEMBER', SEEN, key) == 1 then
    out[#out + 1] = 'duplicate'
  else
    ensureHost(h, ARGV[3], ARGV[4])
    if maxPerHost and (tonumber(redis.call('HGET', hk(h), 'a')) or 0) >= maxPerHost then
      out[#out + 1] = 'host-full'
    else
      redis.call('SADD', SEEN, key)
      redis.call('HINCRBY', hk(h), 'a', 1)
      pushBack(h, ARGV[i + 3], tonumber(ARGV[i + 2]))
      touched[h] = true
      out[#out + 1] = 'added'
    end
  end
end
for h in pairs(touched) do reschedule(h) end
return out
`;

/**
 * claim — ARGV: prefix, now, leaseMs, most expired leases to return, idle poll ms.
 * Returns [leaseId, encoded entry, lease expiry, host clock before] for a lease;
 * [nextReadyAt] when nothing is ready; [] when nothing is queued or in flight anywhere.
 */
const CLAIM = `${PRELUDE}
local now = tonumber(ARGV[2])
-- 1. Leases past their expiry (a worker died or hung) put their URL back at the front of its
--    queue. That worker may have sent its request at any moment until its lease expired, so
--    the host waits a whole delay from the expiry.
local due = redis.call('ZRANGEBYSCORE', LEASES, '-inf', ARGV[2], 'LIMIT', 0, tonumber(ARGV[4]))
for _, id in ipairs(due) do
  local h, member, priority, _, expiredAt = takeLease(id)
  if h then
    pushFront(h, member, priority)
    local s = redis.call('HMGET', hk(h), 'r', 'd')
    local after = expiredAt + (tonumber(s[2]) or 0)
    if after > (tonumber(s[1]) or 0) then redis.call('HSET', hk(h), 'r', int(after)) end
    reschedule(h)
  end
end
-- 2. The ready host whose clock came first: its best URL, its clock moved, a lease recorded.
local top = redis.call('ZRANGE', READY, 0, 0, 'WITHSCORES')
if top[1] and tonumber(top[2]) <= now then
  local h = top[1]
  local popped = redis.call('ZPOPMIN', qk(h))
  if not popped[1] then
    reschedule(h)
    return { int(now) }
  end
  redis.call('HINCRBY', META, 'queued', -1)
  local s = redis.call('HMGET', hk(h), 'r', 'd')
  local before = tonumber(s[1]) or 0
  redis.call('HSET', hk(h), 'r', int(math.max(before, now) + (tonumber(s[2]) or 0)))
  redis.call('HINCRBY', hk(h), 'f', 1)
  local id = int(redis.call('HINCRBY', META, 'leaseSeq', 1))
  local expires = now + tonumber(ARGV[3])
  local priority = 0 - math.floor(tonumber(popped[2]) / STEP)
  redis.call('HSET', lk(id), 'h', h, 'e', popped[1], 'p', int(priority), 'x', int(expires), 'b', int(before))
  redis.call('ZADD', LEASES, int(expires), id)
  reschedule(h)
  return { id, popped[1], int(expires), int(before) }
end
-- 3. Nothing ready: when to look again. URLs in flight in any worker may bring new URLs, or
--    come back when their lease expires, without notice to this worker: look again soon.
local nextAt = nil
if top[1] then nextAt = tonumber(top[2]) end
local first = redis.call('ZRANGE', LEASES, 0, 0, 'WITHSCORES')
if first[1] then
  local again = math.min(tonumber(first[2]), now + tonumber(ARGV[5]))
  if not nextAt or again < nextAt then nextAt = again end
end
if not nextAt then return {} end
return { int(nextAt) }
`;

/**
 * settle (complete, release or retry) — ARGV: prefix, lease id, how, hostReadyAt ('' = keep).
 * Returns 1, or 0 when the lease is gone (no effect).
 */
const SETTLE = `${PRELUDE}
local h, member, priority, inFlight = takeLease(ARGV[2])
if not h then return 0 end
local how = ARGV[3]
if how == 'complete' then
  redis.call('HINCRBY', hk(h), 'n', 1)
  redis.call('HINCRBY', META, 'done', 1)
elseif how == 'release' then
  pushFront(h, member, priority)
else
  local space = string.find(member, ' ', 1, true)
  local retries = (tonumber(string.sub(member, 1, space - 1)) or 0) + 1
  pushBack(h, int(retries) .. string.sub(member, space), priority)
end
if ARGV[4] ~= '' then
  -- While other requests to the host are in flight its clock only moves forward: moving it
  -- back would shorten the gap after theirs.
  if inFlight == 0 or tonumber(ARGV[4]) > (tonumber(redis.call('HGET', hk(h), 'r')) or 0) then
    redis.call('HSET', hk(h), 'r', ARGV[4])
  end
end
reschedule(h)
return 1
`;

/** setHostPolicy — ARGV: prefix, host key, default delayMs, default maxInFlight, delayMs, maxInFlight, readyAt ('' = keep). */
const SET_HOST_POLICY = `${PRELUDE}
local h = ARGV[2]
ensureHost(h, ARGV[3], ARGV[4])
if ARGV[5] ~= '' then redis.call('HSET', hk(h), 'd', ARGV[5]) end
if ARGV[6] ~= '' then redis.call('HSET', hk(h), 'm', ARGV[6]) end
if ARGV[7] ~= '' then redis.call('HSET', hk(h), 'r', ARGV[7]) end
reschedule(h)
return 1
`;

/** counts — ARGV: prefix. Returns [queued, inFlight, done, activeHosts], one consistent snapshot. */
const COUNTS = `${PRELUDE}
local m = redis.call('HMGET', META, 'queued', 'done')
return { tonumber(m[1]) or 0, redis.call('ZCARD', LEASES), tonumber(m[2]) or 0, redis.call('ZCOUNT', HOSTS, '(0', '+inf') }
`;

/** hostCounts — ARGV: prefix, last rank (-1 = all). Returns five per host: key, queued, inFlight, done, readyAt. */
const HOST_COUNTS = `${PRELUDE}
local out = {}
for _, h in ipairs(redis.call('ZREVRANGE', HOSTS, 0, tonumber(ARGV[2]))) do
  local s = redis.call('HMGET', hk(h), 'f', 'n', 'r')
  out[#out + 1] = h
  out[#out + 1] = redis.call('ZCARD', qk(h))
  out[#out + 1] = tonumber(s[1]) or 0
  out[#out + 1] = tonumber(s[2]) or 0
  out[#out + 1] = s[3] or '0'
end
return out
`;

/** The scripts by the ioredis command name they are defined under (EVALSHA, EVAL on NOSCRIPT). */
export const FRONTIER_SCRIPTS = {
  politelyFrontierAdd: ADD,
  politelyFrontierClaim: CLAIM,
  politelyFrontierSettle: SETTLE,
  politelyFrontierSetHostPolicy: SET_HOST_POLICY,
  politelyFrontierCounts: COUNTS,
  politelyFrontierHostCounts: HOST_COUNTS,
} as const;

/** Keys every frontier script declares (see `frontierKeys`). */
export const FRONTIER_SCRIPT_KEY_COUNT = 5;

type Arg = string | number;

/** The scripts as ioredis commands: the five fixed keys, then the ARGV above. */
export interface FrontierCommands {
  politelyFrontierAdd(...args: Arg[]): Promise<string[]>;
  politelyFrontierClaim(...args: Arg[]): Promise<string[]>;
  politelyFrontierSettle(...args: Arg[]): Promise<number>;
  politelyFrontierSetHostPolicy(...args: Arg[]): Promise<number>;
  politelyFrontierCounts(...args: Arg[]): Promise<number[]>;
  politelyFrontierHostCounts(...args: Arg[]): Promise<(string | number)[]>;
}
