// The frontier's state changes, each ONE Lua script, so each is atomic across every worker.
//
// Why Lua and not Bottleneck's Redis clustering: a claim must pick the ready host, pop its best
// URL, move the host's clock and record the lease in one indivisible step: if the clock and the
// queue changed in separate steps, two workers could both see a host as ready and both fetch.
// Bottleneck would also hold every waiting URL in a per-process promise (its jobs wait in the
// worker that scheduled them), whereas here URLs wait in Redis, where any worker can take them
// and where a dead worker's URLs survive it.
//
// Every script here works on ONE bucket of the crawl (keys.ts). It declares, in KEYS, the keys it
// uses whatever its arguments: the bucket's fixed keys (meta, ready, hosts, leases, seen, lastFetch,
// fetched, due, fetchedAt, failures, failedAt), the worker's own lease set and the bucket's slot
// guard (a key never written: on a Redis Cluster, a call on a bucket whose slot is in migration
// is refused with TRYAGAIN before it runs, and tried again, see SLOT_GUARD in keys.ts). It takes,
// as ARGV[1..5], the bucket's key prefix, the crawl marker the worker saw when it opened the
// crawl, the worker's id, its idle poll (ms) and the store's clock ('' = this server's TIME; a
// number of ms when the store keeps the caller's clock). The keys that depend on its arguments
// or on what it reads (a host's hash and queues, a lease, a seen table, another worker's lease
// set) are built from the prefix: they carry the bucket's `{hash tag}`, so they lie in the slot of the declared keys.
// Crawl-wide scripts (the marker, the worker registry) are in crawl-scripts.ts. Times are integer
// ms since the epoch, on the store's clock, passed and stored as decimal strings (Lua's tostring
// would round them to 14 digits). See keys.ts for the layout.
//
// The crawl marker. The crawl-wide `meta.crawl` holds a random id written when the crawl's state
// is created, and every bucket's `meta.crawl` a copy, written when the crawl is opened first (see
// OPEN_BUCKET). Every script but OPEN_BUCKET first compares it with the id the worker saw at
// open: when the shard holding the bucket lost
// the crawl (restarted without persistence, keys evicted, FLUSHALL) the marker is gone, or is a
// new one another worker created since, and the script changes nothing and fails with
// POLITELY_CRAWL_GONE: the worker stops rather than crawl on from nothing and report a finished
// crawl.
//
// Workers and leases. Each store is a worker, registered in the crawl-wide `workers` until a
// deadline its heartbeat moves (crawl-scripts.ts). Its leases in a bucket are listed in the
// bucket's `wl:<worker>`. The heartbeat's reply names the workers whose deadline passed (they
// died); the worker then runs TEND on every bucket with their ids, which returns their leases to
// the front of their queues. A live worker's leases are only returned when their own expiry
// (claim time + the crawler's leaseMs) passes (CLAIM and TEND, per bucket).
//
// Next times. Every script on a bucket that the worker's claim view follows (claim, tend,
// settleMany) ends its reply with the bucket's next ready time (the first score of READY, '' when
// none) and when to look at it again for URLs that may come back ('' when no lease is out).
//
// Revisits. A URL completed with a LastFetch keeps it (lastFetch), the entry to queue again
// (fetched) and, while done, its due time (due) and its fetch time (fetchedAt: always the same
// members as due; hints move only due's score); reopenDue queues it again with the LastFetch
// appended to the member (entry-codec.ts), so that retry, release and expiry carry it untouched.
// LastFetch JSON is never re-encoded by cjson (it keeps 14 significant digits): the scripts only
// move its text, and rewrite the two fields hints change (see applyHints).
//
// Failed URLs. A completion with a failure keeps the URL's entry and the failure (failures) and
// orders it by the failure's time (failedAt); the URL is done. requeueFailed queues each again at
// the tail, as a revisit when it has a LastFetch, which it takes out of due and fetchedAt (queued,
// it must not be reopened too); reopenDue forgets the failure of a URL it reopens.
//
// Queues. A host's queue is a LIST per priority band (`q:<host>:<band>`, band = the queue
// priority, queue-score.ts), its bands listed best first in its hash (field qb). An add or a
// retry goes to the tail of its band (RPUSH), a release or an expired lease to the head (LPUSH),
// and a claim takes the head of the best band: FIFO within a priority, the latest hand-back
// first. A plain member keeps its URL relative to the host's origin (field o), see compacted.
//
// Relabels. No index of queued URLs: an add with a label of a URL seen before looks for its
// member in the host's lists, only while the host has queued members without a label (field
// ul). The relabelled member's entry's JSON is edited as text (see relabel).
//
// clear deletes every frontier key of the crawl and its metadata, found through hosts, leases and
// workers; it keeps the marker and the worker registry (the workers go on, on an empty crawl), and
// the robots cache keys.
//
// Idempotent, because ioredis sends again a command whose reply a dropped connection lost:
// settleMany, which adds and settles (record by record: entries dedupe, a settled lease is gone),
// setHostPolicy, tend; claim, whose lease id the worker chooses, so that a claim replayed after
// it ran returns the same lease instead of taking a second URL; reopenDue, whose request id the
// worker chooses and whose count the bucket keeps a minute (`ro:<request>`), so that a replay
// returns it instead of reopening more; requeueFailed (replayed, it finds none failed). Not
// clear: replayed, it also clears what other workers added in between (a crawl clears before it
// adds).

import { SEND_TURN_BUSY_POLL_MS } from '@politely/frontier';

/** What a script fails with when the crawl's marker is gone or is not the one the worker opened. */
export const CRAWL_GONE = 'POLITELY_CRAWL_GONE';
/** SETTLE_MANY's first reply value when the bucket's generation is not the one the worker sent. */
export const STALE_GENERATION = 'POLITELY_STALE_GENERATION';

const DEFINITIONS = `
if redis.replicate_commands then redis.replicate_commands() end
local P, CRAWL, ME, IDLE_POLL, NOW = ARGV[1], ARGV[2], ARGV[3], tonumber(ARGV[4]), tonumber(ARGV[5])
-- The store's clock: this server's, unless the worker sent its own (the store's clock: 'caller').
if not NOW then
  local t = redis.call('TIME')
  NOW = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
end
local META, READY, HOSTS, LEASES, SEEN = KEYS[1], KEYS[2], KEYS[3], KEYS[4], KEYS[5]
local LAST, FETCHED, DUE, FETCHED_AT = KEYS[6], KEYS[7], KEYS[8], KEYS[9]
local FAILURES, FAILED_AT, MY_LEASES = KEYS[10], KEYS[11], KEYS[12]
local function qk(h, band) return P .. 'q:' .. h .. ':' .. band end
local function hk(h) return P .. 'h:' .. h end
local function lk(id) return P .. 'l:' .. id end
local function wlk(w)
  if w == ME then return MY_LEASES end
  return P .. 'wl:' .. w
end
local function int(n) return string.format('%.0f', n) end
-- Text that parses back to the same double (tostring and cjson keep only 14 digits).
local function exact(n) return string.format('%.17g', n) end
-- The dueAt of a LastFetch record (entry-codec.ts): its first line, as the worker wrote it.
local function dueOf(record) return string.sub(record, 1, string.find(record, '\\n', 1, true) - 1) end
-- The fetchedAt of a LastFetch record, exactly (cjson decodes a number to the same double). The
-- worker writes it first in the record's JSON (encodeLastFetch), where it is read as text: a
-- record's JSON decoded costs more than the rest of a completion's Lua.
local function fetchedAtOf(record)
  local a = string.find(record, '\\n', 1, true)
  local b = string.find(record, '\\n', a + 1, true)
  local n = tonumber(string.match(record, '^{"fetchedAt":(%-?[%d%.eE%+%-]+)[,}]', b + 1))
  if not n then n = tonumber(cjson.decode(string.sub(record, b + 1)).fetchedAt) end
  if n then return exact(n) end
  return nil
end
-- A queue member (entry-codec.ts): its retry count, then its form: '\\t' plain, ' ' JSON without a
-- label, '|' JSON with one. Returns the count, the separator's position and the separator.
local function formOf(member)
  local at = string.find(member, '[^0-9]')
  return string.sub(member, 1, at - 1), at, string.sub(member, at, at)
end
-- The origin of a URL as text: before the first '/' after '://' (as originOf in entry-codec.ts).
local function originOf(url)
  local scheme = string.find(url, '://', 1, true)
  if not scheme then return '' end
  local slash = string.find(url, '/', scheme + 3, true)
  if not slash then return '' end
  return string.sub(url, 1, slash - 1)
end
-- A plain member's fields: its URL (as kept), depth and referrer (as kept).
local function plainFields(member, at)
  local a = string.find(member, '\\t', at + 1, true)
  local b = string.find(member, '\\t', a + 1, true)
  return string.sub(member, at + 1, a - 1), string.sub(member, a + 1, b - 1), string.sub(member, b + 1)
end
-- A plain member as queued: its URL relative to the host's origin (kept once per host, field o,
-- set by the first plain member queued) when it is on that origin. Other members as they are.
local function compacted(h, member)
  local count, at, sep = formOf(member)
  if sep ~= '\\t' then return member end
  local url, depth, referrer = plainFields(member, at)
  if string.sub(url, 1, 1) == '/' then return member end
  local origin = originOf(url)
  local o = redis.call('HGET', hk(h), 'o')
  if not o then
    redis.call('HSET', hk(h), 'o', origin)
    o = origin
  end
  if o ~= origin then return member end
  return count .. '\\t' .. string.sub(url, #o + 1) .. '\\t' .. depth .. '\\t' .. referrer
end
-- A queued member with its URL whole again (what a lease keeps and a claim returns).
local function expanded(h, member)
  local count, at, sep = formOf(member)
  if sep ~= '\\t' or string.sub(member, at + 1, at + 1) ~= '/' then return member end
  return count .. '\\t' .. (redis.call('HGET', hk(h), 'o') or '') .. string.sub(member, at + 1)
end
-- A whole plain member's entry as JSON (for FETCHED and FAILURES), at its queue priority.
local function plainJson(h, member, at, priority)
  local url, depth, referrer = plainFields(member, at)
  local json = '{"url":' .. cjson.encode(url) .. ',"hostKey":' .. cjson.encode(h) .. ',"depth":' .. depth .. ',"priority":' .. int(priority)
  if referrer ~= '' then
    if string.sub(referrer, 1, 1) == '/' then referrer = originOf(url) .. referrer end
    json = json .. ',"referrer":' .. cjson.encode(referrer)
  end
  return json .. '}'
end
-- A whole member (entry-codec.ts) of host h at \`priority\`: its retry count, its entry's JSON, its
-- LastFetch record ('' when none) and whether it has a label.
local function partsOf(member, h, priority)
  local count, at, sep = formOf(member)
  if sep == '\\t' then return count, plainJson(h, member, at, priority), '', false end
  local newline = string.find(member, '\\n', at + 1, true)
  if not newline then return count, string.sub(member, at + 1), '', sep == '|' end
  return count, string.sub(member, at + 1, newline - 1), string.sub(member, newline + 1), sep == '|'
end
-- The member of a JSON entry (and its LastFetch record, '' when none), with no retry count.
local function jsonMember(json, record)
  local sep = ' '
  if cjson.decode(json).label ~= nil then sep = '|' end
  if record == '' then return sep .. json end
  return sep .. json .. '\\n' .. record
end
-- dedupeKeyOf (@politely/frontier) of a decoded entry.
local function keyOf(e)
  if e.kind ~= nil and e.kind ~= 'page' then return e.kind .. ' ' .. e.url end
  return e.url
end
-- A URL kept out of the queues (FETCHED, FAILURES): \`<queue priority> <length of host key> <host
-- key><entry JSON>\`, then \`\\n<more>\` (a failure). Lengths are in bytes, as Lua counts them.
local function storedFor(h, priority, json) return int(priority) .. ' ' .. #h .. ' ' .. h .. json end
-- Returns the queue priority, host key, entry JSON and what follows ('' when nothing).
local function storedOf(stored)
  local s1 = string.find(stored, ' ', 1, true)
  local s2 = string.find(stored, ' ', s1 + 1, true)
  local length = tonumber(string.sub(stored, s1 + 1, s2 - 1))
  local rest = string.sub(stored, s2 + length + 1)
  local newline = string.find(rest, '\\n', 1, true)
  local more = ''
  if newline then
    more = string.sub(rest, newline + 1)
    rest = string.sub(rest, 1, newline - 1)
  end
  return tonumber(string.sub(stored, 1, s1 - 1)), string.sub(stored, s2 + 1, s2 + length), rest, more
end

-- The seen table: whether a URL was ever added is decided on its 64-bit fingerprint (fingerprint.ts),
-- never on its text. The fingerprints are packed 8 bytes a slot in open-addressing tables (linear
-- probing), each a STRING \`seen:<i>\` read and written with GETRANGE/SETRANGE; SEEN (a HASH)
-- counts each table's fingerprints. A table grows (rebuilt at load FP_FILL) past load FP_MAX.
-- The tables split by linear hashing, one at a time, so a rebuild stays small however large the
-- bucket: with level L and split pointer S (META fpL, fpS), 2^L + S tables, a fingerprint whose
-- low 32 bits are lo is in table lo mod 2^L, or lo mod 2^(L+1) when that is below S; table S
-- splits (its fingerprints with bit L set go to table S + 2^L) once the bucket holds FP_SPLIT
-- fingerprints per table. A fingerprint's high 32 bits choose its first slot.
local FP_SPLIT, FP_MAX, FP_FILL, FP_MIN_SLOTS = 2048, 0.85, 0.6, 16
local EMPTY_SLOT = string.rep('\0', 8)
local function fpTable(i) return P .. 'seen:' .. i end
-- 16 hex digits as 8 bytes, big-endian.
local function fpBinary(hex)
  local out = {}
  for k = 1, 15, 2 do out[#out + 1] = tonumber(string.sub(hex, k, k + 1), 16) end
  return string.char(unpack(out))
end
local function fpWord(fp, at)
  local a, b, c, d = string.byte(fp, at, at + 3)
  return ((a * 256 + b) * 256 + c) * 256 + d
end
-- The tables' level and split pointer, read once per script (only fpAdd changes them).
local fpLevel, fpSplit
local function fpShape()
  if not fpLevel then
    local m = redis.call('HMGET', META, 'fpL', 'fpS')
    fpLevel, fpSplit = tonumber(m[1]) or 0, tonumber(m[2]) or 0
  end
  return fpLevel, fpSplit
end
local function fpAddress(lo)
  local level, split = fpShape()
  local n = 2 ^ level
  local i = lo % n
  if i < split then i = lo % (2 * n) end
  return i
end
-- Every fingerprint of a table.
local function fpEntries(i)
  local all, out = redis.call('GET', fpTable(i)) or '', {}
  for at = 1, #all, 8 do
    local slot = string.sub(all, at, at + 7)
    if slot ~= EMPTY_SLOT then out[#out + 1] = slot end
  end
  return out
end
-- Table i rewritten to hold \`fps\` at load FP_FILL.
local function fpRebuild(i, fps)
  local slots = math.max(FP_MIN_SLOTS, math.ceil(#fps / FP_FILL))
  local cells = {}
  for k = 1, slots do cells[k] = EMPTY_SLOT end
  for _, fp in ipairs(fps) do
    local k = fpWord(fp, 1) % slots
    while cells[k + 1] ~= EMPTY_SLOT do k = (k + 1) % slots end
    cells[k + 1] = fp
  end
  redis.call('SET', fpTable(i), table.concat(cells))
  redis.call('HSET', SEEN, i, #fps)
end
-- Whether the fingerprint is in table i; if not, the slot (0-based) where it would go (nil when
-- the table is empty), and the table's slots.
local function fpProbe(i, fp)
  local t = fpTable(i)
  local slots = redis.call('STRLEN', t) / 8
  if slots == 0 then return false, nil, 0 end
  local k = fpWord(fp, 1) % slots
  while true do
    local last = math.min(slots, k + 8) - 1
    local chunk = redis.call('GETRANGE', t, k * 8, last * 8 + 7)
    for j = 0, last - k do
      local slot = string.sub(chunk, j * 8 + 1, j * 8 + 8)
      if slot == fp then return true, nil, slots end
      if slot == EMPTY_SLOT then return false, k + j, slots end
    end
    k = (last + 1) % slots
  end
end
-- Whether the fingerprint (hex) was seen; if not, what fpAdd takes to add it.
local function fpSeen(hex)
  local fp = fpBinary(hex)
  local i = fpAddress(fpWord(fp, 5))
  local found, slot, slots = fpProbe(i, fp)
  return found, { fp = fp, i = i, slot = slot, slots = slots }
end
-- Adds a fingerprint fpSeen did not find (nothing added in between).
local function fpAdd(at)
  local fp, i, slot = at.fp, at.i, at.slot
  local count = redis.call('HINCRBY', SEEN, i, 1)
  if slot and count <= FP_MAX * at.slots then
    redis.call('SETRANGE', fpTable(i), slot * 8, fp)
  else
    local fps = fpEntries(i)
    fps[#fps + 1] = fp
    fpRebuild(i, fps)
  end
  local total = redis.call('HINCRBY', META, 'seen', 1)
  local level, split = fpShape()
  local n = 2 ^ level
  if total > FP_SPLIT * (n + split) then
    local stay, move = {}, {}
    for _, f in ipairs(fpEntries(split)) do
      if fpWord(f, 5) % (2 * n) == split then stay[#stay + 1] = f else move[#move + 1] = f end
    end
    fpRebuild(split, stay)
    fpRebuild(split + n, move)
    split = split + 1
    if split == n then
      level, split = level + 1, 0
    end
    redis.call('HSET', META, 'fpL', level, 'fpS', split)
    fpLevel, fpSplit = level, split
  end
end
-- URLs ever added to the bucket.
local function seenCount() return tonumber(redis.call('HGET', META, 'seen')) or 0 end

-- READY and HOSTS follow the host's state: it is schedulable when URLs are queued and it has
-- room for another request in flight; its load is queued + in flight.
-- The host's priority bands with URLs queued, best (highest) first: field qb of its hash,
-- the bands as decimal integers separated by spaces. A host rarely has more than a few.
local function bandsIn(text)
  local bands = {}
  for band in string.gmatch(text or '', '%S+') do bands[#bands + 1] = tonumber(band) end
  return bands
end
local function bandsOf(h) return bandsIn(redis.call('HGET', hk(h), 'qb')) end
local function setBands(h, bands)
  local text = {}
  for i, band in ipairs(bands) do text[i] = int(band) end
  -- Nothing queued: nothing relative to the origin and nothing to relabel; a done host keeps neither.
  if #text == 0 then redis.call('HDEL', hk(h), 'qb', 'o', 'ul') else redis.call('HSET', hk(h), 'qb', table.concat(text, ' ')) end
end
-- URLs queued at the host, whose bands are \`bands\` (bandsOf when not given).
local function queuedOf(h, bands)
  local n = 0
  for _, band in ipairs(bands or bandsOf(h)) do n = n + redis.call('LLEN', qk(h, band)) end
  return n
end
local function reschedule(h)
  local s = redis.call('HMGET', hk(h), 'r', 'm', 'f', 'qb')
  local queued = queuedOf(h, bandsIn(s[4]))
  local inFlight = tonumber(s[3]) or 0
  if queued > 0 and inFlight < (tonumber(s[2]) or 1) then
    redis.call('ZADD', READY, s[1] or '0', h)
  else
    redis.call('ZREM', READY, h)
  end
  redis.call('ZADD', HOSTS, queued + inFlight, h)
end

-- Queues a member in its priority band's list (\`push\`: RPUSH or LPUSH). The host's field ul
-- counts its queued members without a label, so that a relabel looks at the queue only when one may be there.
local function enqueue(h, member, priority, push)
  local band = priority
  if redis.call(push, qk(h, band), compacted(h, member)) == 1 then
    local bands, at = bandsOf(h), 1
    while bands[at] and bands[at] > band do at = at + 1 end
    table.insert(bands, at, band)
    setBands(h, bands)
  end
  redis.call('HINCRBY', META, 'queued', 1)
  local _, _, sep = formOf(member)
  if sep ~= '|' then redis.call('HINCRBY', hk(h), 'ul', 1) end
end
-- Added or retried: behind the URLs of its priority.
local function pushBack(h, member, priority) enqueue(h, member, priority, 'RPUSH') end
-- Handed back (released, or its lease expired): ahead of the URLs of its priority.
local function pushFront(h, member, priority) enqueue(h, member, priority, 'LPUSH') end
-- Takes the head of the host's best band: the member (URL whole) and its band, or nil.
local function popBest(h)
  local bands = bandsOf(h)
  local band = bands[1]
  if band == nil then return nil end
  local member = redis.call('LPOP', qk(h, band))
  if member then
    redis.call('HINCRBY', META, 'queued', -1)
    local _, _, sep = formOf(member)
    if sep ~= '|' then redis.call('HINCRBY', hk(h), 'ul', -1) end
    -- Whole before the band list may drop the host's origin.
    member = expanded(h, member)
  end
  if redis.call('LLEN', qk(h, band)) == 0 then
    table.remove(bands, 1)
    setBands(h, bands)
  end
  if not member then return nil end
  return member, band
end

-- Ends a lease: returns its host, entry, priority, the host's requests still in flight and the
-- lease's expiry, or nil when the lease is gone (settled, or expired and taken by another worker).
local function takeLease(id)
  local l = redis.call('HMGET', lk(id), 'h', 'e', 'p', 'x', 'w')
  redis.call('ZREM', LEASES, id)
  if not l[1] then return nil end
  redis.call('DEL', lk(id))
  if l[5] then redis.call('SREM', wlk(l[5]), id) end
  local inFlight = redis.call('HINCRBY', hk(l[1]), 'f', -1)
  if inFlight < 0 then
    redis.call('HSET', hk(l[1]), 'f', 0)
    inFlight = 0
  end
  return l[1], l[2], tonumber(l[3]) or 0, inFlight, tonumber(l[4]) or 0
end

-- A lease whose worker is gone (or that expired) goes back to the front of its queue. Its worker
-- may have sent the request at any moment until \`sentBy\`, so the host waits a whole delay from then.
local function giveBack(id, sentBy)
  local h, member, priority = takeLease(id)
  if not h then return false end
  pushFront(h, member, priority)
  local s = redis.call('HMGET', hk(h), 'r', 'd')
  local after = sentBy + (tonumber(s[2]) or 0)
  if after > (tonumber(s[1]) or 0) then redis.call('HSET', hk(h), 'r', int(after)) end
  reschedule(h)
  return true
end

-- A new host joins HOSTS at once (load 0), so that clear finds every host's keys through it.
local function ensureHost(h, delayMs, maxInFlight)
  if redis.call('EXISTS', hk(h)) == 0 then
    redis.call('HSET', hk(h), 'r', 0, 'd', delayMs, 'm', maxInFlight, 'f', 0, 'n', 0, 'a', 0)
    redis.call('ZADD', HOSTS, 'NX', 0, h)
  end
end

-- The bucket's next ready time ('' = no host schedulable) and when to look again for URLs that
-- may come back (a lease's expiry, or within the idle poll while leases are out; '' = none).
local function nextTimes()
  local top = redis.call('ZRANGE', READY, 0, 0, 'WITHSCORES')
  local first = redis.call('ZRANGE', LEASES, 0, 0, 'WITHSCORES')
  local readyAt, recheckAt = '', ''
  if top[1] then readyAt = top[2] end
  if first[1] then recheckAt = int(math.min(tonumber(first[2]), NOW + IDLE_POLL)) end
  return readyAt, recheckAt
end
-- Appends the next times to a reply (a table).
local function withTimes(out)
  local readyAt, recheckAt = nextTimes()
  out[#out + 1] = readyAt
  out[#out + 1] = recheckAt
  return out
end
-- Leases past their own expiry at \`at\` (default NOW) go back, \`budget\` at most.
local function giveBackExpired(budget, at)
  at = at or NOW
  if budget <= 0 then return 0 end
  local n = 0
  for _, id in ipairs(redis.call('ZRANGEBYSCORE', LEASES, '-inf', int(at), 'LIMIT', 0, budget)) do
    local expiredAt = tonumber(redis.call('HGET', lk(id), 'x')) or at
    if not giveBack(id, expiredAt) then redis.call('ZREM', LEASES, id) end
    n = n + 1
  end
  return n
end
`;

/** Every script but OPEN_BUCKET starts here: nothing changes unless the crawl is the one the worker opened. */
const PRELUDE = `${DEFINITIONS}
if redis.call('HGET', META, 'crawl') ~= CRAWL then
  return redis.error_reply('${CRAWL_GONE} the crawl marker of ' .. P .. ' is ' .. (redis.call('HGET', META, 'crawl') or 'gone'))
end
`;

/**
 * openBucket — ARGV: head, '1' to write the crawl's marker where the bucket has none (the crawl's
 * buckets are not all marked yet: it is new, or its creator died before it marked them all).
 * Fails with CRAWL_GONE when the bucket carries another marker, or none and may not get one.
 * Returns [URLs known (added) in the bucket].
 */
const OPEN_BUCKET = `${DEFINITIONS}
local marker = redis.call('HGET', META, 'crawl')
if not marker and ARGV[6] == '1' then
  redis.call('HSET', META, 'crawl', CRAWL)
  marker = CRAWL
end
if marker ~= CRAWL then
  return redis.error_reply('${CRAWL_GONE} the crawl marker of ' .. P .. ' is ' .. (marker or 'gone'))
end
return { seenCount() }
`;

/**
 * tend — ARGV: head, most leases to return, '1' to return leases past their own expiry (at the
 * head's clock, a claim's), then the ids of workers taken for dead. Their leases in the bucket go
 * back to the front of their queues (the host waiting a whole delay from the head's clock), then,
 * if asked, leases past their own expiry.
 * Returns [dead workers' leases still out in the bucket (over the budget), URLs known, next times].
 */
const TEND = `${PRELUDE}
local budget = tonumber(ARGV[6])
local left = 0
for i = 8, #ARGV do
  local w = ARGV[i]
  for _, id in ipairs(redis.call('SRANDMEMBER', wlk(w), math.max(budget, 0))) do
    if giveBack(id, NOW) then budget = budget - 1 end
    redis.call('SREM', wlk(w), id)
  end
  left = left + redis.call('SCARD', wlk(w))
end
if ARGV[7] == '1' then giveBackExpired(budget) end
return withTimes({ left, seenCount() })
`;

/**
 * Adds the entries given in ARGV from `first` on, eight per entry: dedupe key,
 * host key, queue priority, encoded entry, hints JSON ('' = none), the entry's label and userData
 * as JSON members (`"label":…,"userData":…`; '' = no label), its priority as JSON and the
 * fingerprint of its dedupe key (fingerprint.ts). Returns one
 * outcome per entry: 'added' | 'duplicate' | 'relabelled' | 'host-full'.
 */
const ADD_ENTRIES = `
local function jsonValue(v)
  if type(v) == 'number' then return exact(v) end
  return cjson.encode(v)
end

-- lastFetchAfterHints (@politely/frontier) on a stored LastFetch record. Hints are flat (a number, a
-- string), so the merged ones are written here exactly; the rest of the record is kept as text.
local function applyHints(key, hintsJson)
  local record = redis.call('HGET', LAST, key)
  if not record then return end
  local a = string.find(record, '\\n', 1, true)
  local b = string.find(record, '\\n', a + 1, true)
  local dueAt, old, rest = string.sub(record, 1, a - 1), string.sub(record, a + 1, b - 1), string.sub(record, b + 1)
  local hints, merged, names, parts = cjson.decode(hintsJson), {}, {}, {}
  if old ~= '' then for k, v in pairs(cjson.decode(old)) do merged[k] = v end end
  for k, v in pairs(hints) do merged[k] = v end
  for k in pairs(merged) do names[#names + 1] = k end
  table.sort(names) -- a deterministic script: the same record on every replica
  for i, k in ipairs(names) do parts[i] = cjson.encode(k) .. ':' .. jsonValue(merged[k]) end
  if hints.lastmod ~= nil then
    local last = cjson.decode(rest)
    local lastmod, fetchedAt, latest = tonumber(hints.lastmod), tonumber(last.fetchedAt), tonumber(last.latestDueAt)
    if lastmod and fetchedAt and lastmod > fetchedAt then
      dueAt = exact(fetchedAt)
    elseif latest then
      dueAt = exact(latest)
    end
  end
  redis.call('HSET', LAST, key, dueAt .. '\\n{' .. table.concat(parts, ',') .. '}\\n' .. rest)
  -- Only a done URL is in DUE; a queued revisit gets its place there when it is done again.
  redis.call('ZADD', DUE, 'XX', dueAt, key)
end

-- A queued URL without a label takes the label (and userData) of an add with one, and the higher
-- of the two priorities. It keeps its place in its band's list; a higher priority moves it to the
-- tail of that band's list. The entry's JSON is edited as text, never re-encoded (cjson would
-- round numbers in data): the new members go at its end, where JSON.parse lets them win over the
-- old ones of the same name (priority, and userData if it had one). The member is looked for in
-- the host's lists (LRANGE, O(URLs queued at the host)): only when the host has a queued member
-- without a label (ul), a rare path. Returns whether it relabelled.
local function relabel(key, h, queuePriority, labelMembers, priorityJson)
  if (tonumber(redis.call('HGET', hk(h), 'ul')) or 0) <= 0 then return false end
  local o = redis.call('HGET', hk(h), 'o') or ''
  for _, band in ipairs(bandsOf(h)) do
    local list = redis.call('LRANGE', qk(h, band), 0, -1)
    for index, kept in ipairs(list) do
      local count, at, sep = formOf(kept)
      local found = false
      if sep == '\\t' then
        local url = plainFields(kept, at)
        if string.sub(url, 1, 1) == '/' then url = o .. url end
        found = url == key
      elseif sep == ' ' then
        local newline = string.find(kept, '\\n', at + 1, true)
        local json = string.sub(kept, at + 1, (newline or 0) - 1)
        found = keyOf(cjson.decode(json)) == key
      end
      if found then
        local _, json, record = partsOf(expanded(h, kept), h, band)
        local members, given, had = labelMembers, tonumber(priorityJson), tonumber(cjson.decode(json).priority)
        if given and (not had or given > had) then members = members .. ',"priority":' .. priorityJson end
        local relabelled = count .. '|' .. string.sub(json, 1, -2) .. ',' .. members .. '}'
        if record ~= '' then relabelled = relabelled .. '\\n' .. record end
        redis.call('HINCRBY', hk(h), 'ul', -1)
        if queuePriority > band then
          -- Out of its band (a unique placeholder, then removed), to the tail of the higher one.
          local gone = '\\0relabelled'
          redis.call('LSET', qk(h, band), index - 1, gone)
          redis.call('LREM', qk(h, band), 1, gone)
          redis.call('HINCRBY', META, 'queued', -1)
          if redis.call('LLEN', qk(h, band)) == 0 then
            local bands = bandsOf(h)
            for i, b in ipairs(bands) do if b == band then table.remove(bands, i) break end end
            setBands(h, bands)
          end
          pushBack(h, relabelled, queuePriority)
        else
          redis.call('LSET', qk(h, band), index - 1, relabelled)
        end
        return true
      end
    end
  end
  return false
end

-- The \`count\` entries from ARGV[first] on. The hosts that queued one are set in \`touched\`: the
-- caller reschedules them (once, after the record's settle, which may reschedule one of them).
local function addEntries(first, count, maxPerHost, delayMs, maxInFlight, touched)
  local out = {}
  for i = first, first + 8 * (count - 1), 8 do
    local key, h, labelMembers = ARGV[i], ARGV[i + 1], ARGV[i + 5]
    local seen, at = fpSeen(ARGV[i + 7])
    if seen then
      if ARGV[i + 4] ~= '' then applyHints(key, ARGV[i + 4]) end
      if labelMembers ~= '' and relabel(key, h, tonumber(ARGV[i + 2]), labelMembers, ARGV[i + 6]) then
        out[#out + 1] = 'relabelled'
      else
        out[#out + 1] = 'duplicate'
      end
    else
      ensureHost(h, delayMs, maxInFlight)
      if maxPerHost and (tonumber(redis.call('HGET', hk(h), 'a')) or 0) >= maxPerHost then
        out[#out + 1] = 'host-full'
      else
        fpAdd(at)
        redis.call('HINCRBY', hk(h), 'a', 1)
        pushBack(h, ARGV[i + 3], tonumber(ARGV[i + 2]))
        touched[h] = true
        out[#out + 1] = 'added'
      end
    end
  end
  return out
end
`;

/** One claim, shared by CLAIM and SETTLE_MANY's completion that claims for the slot it frees. */
const CLAIM_NEXT = `
-- One claim at \`now\` for lease \`leaseId\`: the ready host whose clock came first gives its best
-- URL, its clock moves, a lease is recorded. Made ahead (\`readyBy\` > now), it also takes a host
-- whose clock comes by \`readyBy\`: the request starts at that clock, and the lease runs from it.
-- Returns { leaseId, member, expiry, host clock before, host key, priority, start }, or nil when
-- no host of the bucket is ready (by \`readyBy\`).
local function claimNext(leaseId, now, leaseMs, maxExpired, readyBy)
  -- This claim ran before and its reply was lost with the connection: the same lease again.
  local mine = redis.call('HMGET', lk(leaseId), 'e', 'x', 'b', 'h', 'p')
  if mine[1] then return { leaseId, mine[1], mine[2], mine[3], mine[4], mine[5], int(tonumber(mine[2]) - leaseMs) } end
  -- Leases past their own expiry (a worker that holds a URL too long) go back to their queues.
  giveBackExpired(maxExpired, now)
  local top = redis.call('ZRANGE', READY, 0, 0, 'WITHSCORES')
  if not (top[1] and tonumber(top[2]) <= math.max(now, readyBy or now)) then return nil end
  local h = top[1]
  local start = math.max(now, tonumber(top[2]))
  local member, priority = popBest(h)
  if not member then
    reschedule(h)
    return nil
  end
  local s = redis.call('HMGET', hk(h), 'r', 'd')
  local before = tonumber(s[1]) or 0
  redis.call('HSET', hk(h), 'r', int(math.max(before, start) + (tonumber(s[2]) or 0)))
  redis.call('HINCRBY', hk(h), 'f', 1)
  local expires = start + leaseMs
  redis.call('HSET', lk(leaseId), 'h', h, 'e', member, 'p', int(priority), 'x', int(expires), 'b', int(before), 'w', ME)
  redis.call('ZADD', LEASES, int(expires), leaseId)
  redis.call('SADD', wlk(ME), leaseId)
  reschedule(h)
  return { leaseId, member, int(expires), int(before), h, int(priority), int(start) }
end
`;

/**
 * claim — ARGV: head (its clock is the claim's \`now\`), lease id (chosen by the worker: a claim
 * sent again after a lost reply is the same claim), lease duration (ms), most expired leases to
 * give back first. The ready host whose clock came first gives its best URL; its clock moves to
 * now + its delay.
 * Returns [next ready time, recheck time, URLs known in the bucket], then, for a lease: lease id,
 * member (entry-codec.ts, its URL whole), lease expiry, host clock before, host key, queue priority
 * (a plain member keeps neither). The next times are the bucket's after the claim.
 */
const CLAIM = `${PRELUDE}${CLAIM_NEXT}
local known = seenCount()
local lease = claimNext(ARGV[6], NOW, tonumber(ARGV[7]), tonumber(ARGV[8]))
local readyAt, recheckAt = nextTimes()
if not lease then return { readyAt, recheckAt, known } end
return { readyAt, recheckAt, known, lease[1], lease[2], lease[3], lease[4], lease[5], lease[6] }
`;

/**
 * Ends a lease as `how` says ('complete', 'release' or 'retry') and sets its host's clock:
 * `readyAt` ('' = keep) and `notBefore` ('' = no new hold); a completion keeps `lastFetch` (a
 * LastFetch record, '' = none) and `failure` (its JSON, '' = none) at `failedAt` (ms). Returns the
 * lease's host (rescheduled), or nil when the lease is gone (no effect).
 */
const SETTLE_LEASE = `
-- The dedupe key of a whole member whose entry's JSON is \`json\` (partsOf): a plain member's URL
-- (a plain entry has no kind), read without decoding the JSON.
local function memberKey(member, json)
  local _, at, sep = formOf(member)
  if sep == '\\t' then return (plainFields(member, at)) end
  return keyOf(cjson.decode(json))
end

-- A done URL keeps the LastFetch given, else the one it had; with one, it waits in DUE and
-- FETCHED_AT. Only a revisit (a member with a record) can have one already: a URL without the
-- record and without a new one costs no lookup.
local function remember(h, member, priority, given)
  local _, json, had = partsOf(member, h, priority)
  if given == '' and had == '' then return end
  local key = memberKey(member, json)
  local record = given
  if given == '' then
    record = redis.call('HGET', LAST, key)
    if not record then return end
  else
    redis.call('HSET', LAST, key, given)
    redis.call('HSET', FETCHED, key, storedFor(h, priority, json))
  end
  redis.call('ZADD', DUE, dueOf(record), key)
  local fetchedAt = fetchedAtOf(record)
  if fetchedAt then redis.call('ZADD', FETCHED_AT, fetchedAt, key) end
end

-- A failed URL: its entry as claimed (the member's JSON: no retry count, no revisit) and its
-- failure, until requeueFailed or reopenDue queues it again.
local function fail(h, member, priority, failure, failedAt)
  local _, json = partsOf(member, h, priority)
  local key = memberKey(member, json)
  redis.call('HSET', FAILURES, key, storedFor(h, priority, json) .. '\\n' .. failure)
  redis.call('ZADD', FAILED_AT, failedAt, key)
end

-- Settles lease \`id\` (how: complete, release or retry). Returns its host, rescheduled, or nil
-- when the lease is gone (settled, or expired and taken by another worker).
local function settleLease(id, how, readyAtArg, notBeforeArg, lastFetchArg, failureArg, failedAtArg)
  local h, member, priority, inFlight = takeLease(id)
  if not h then return nil end
  if how == 'complete' then
    redis.call('HINCRBY', hk(h), 'n', 1)
    redis.call('HINCRBY', META, 'done', 1)
    remember(h, member, priority, lastFetchArg or '')
    if failureArg and failureArg ~= '' then fail(h, member, priority, failureArg, failedAtArg) end
  elseif how == 'release' then
    pushFront(h, member, priority)
  else
    local count, at = formOf(member)
    pushBack(h, int((tonumber(count) or 0) + 1) .. string.sub(member, at), priority)
  end
  -- The host's hold (nb: a Retry-After or backoff, whichever worker's) only rises, and its clock
  -- is never set before it: a 200 settled by one worker cannot undo another's Retry-After.
  local s = redis.call('HMGET', hk(h), 'r', 'nb')
  local clock, hold = s[1] or '0', s[2] or '0'
  if notBeforeArg ~= '' and tonumber(notBeforeArg) > tonumber(hold) then
    hold = notBeforeArg
    redis.call('HSET', hk(h), 'nb', hold)
  end
  local readyAt = clock
  -- While other requests to the host are in flight its clock only moves forward: moving it back
  -- would shorten the gap after theirs.
  if readyAtArg ~= '' and (inFlight == 0 or tonumber(readyAtArg) > tonumber(clock)) then readyAt = readyAtArg end
  if tonumber(hold) > tonumber(readyAt) then readyAt = hold end
  if readyAt ~= clock then redis.call('HSET', hk(h), 'r', readyAt) end
  reschedule(h)
  return h
end
`;

/**
 * settleMany — ARGV: head, default delayMs, default maxInFlight (for hosts met first), the
 * generation of the bucket the worker believes ('' = any: see known-urls.ts; a script whose
 * records leave out links the worker knows are held sends it, and when the bucket has another
 * one the script changes nothing and returns [STALE_GENERATION, the bucket's generation]), then
 * one record per settle or add: lease id, how ('complete', 'release', 'retry', 'complete-claim', or
 * 'add': entries only, no lease), hostReadyAt ('' = keep), hostNotBefore ('' = no new hold),
 * lastFetch record, failure JSON and failedAt ('' = none; complete only), maxPerHost ('' = no
 * bound), the number of entries, then eight per entry (see ADD_ENTRIES); a 'complete-claim' then
 * five more: the new lease's id, the claim's now, its lease duration, most expired leases to
 * give back (see CLAIM) and the time a host's clock may come by and still be claimed, ahead
 * (see claimNext). Each record in turn: its entries added, then its lease settled (a lease
 * gone, settled or expired, is left alone and the others go on), then a 'complete-claim' claims
 * in the bucket for the slot the completion freed. A page's links and its completion are one
 * step: no moment at which one is stored without the other. The worker sends the records of one
 * bucket that wait together as one script (settle-batcher.ts). Returns the entries' outcomes,
 * record after record (a 'complete-claim' then its lease as CLAIM gives it and its start, seven
 * values, or seven ''), then the next times.
 */
const SETTLE_MANY = `${PRELUDE}${ADD_ENTRIES}${SETTLE_LEASE}${CLAIM_NEXT}
-- One record from ARGV[at]: appends its entries' outcomes to \`out\`; returns where the next one starts.
local function settleRecord(at, out)
  local entries, touched = tonumber(ARGV[at + 8]), {}
  for _, outcome in ipairs(addEntries(at + 9, entries, tonumber(ARGV[at + 7]), ARGV[6], ARGV[7], touched)) do
    out[#out + 1] = outcome
  end
  local how, after = ARGV[at + 1], at + 9 + 8 * entries
  if how ~= 'add' then
    local settleHow = how
    if how == 'complete-claim' then settleHow = 'complete' end
    -- The lease's host is rescheduled by its settle, after its links were queued: not again.
    local settled = settleLease(ARGV[at], settleHow, ARGV[at + 2], ARGV[at + 3], ARGV[at + 4], ARGV[at + 5], ARGV[at + 6])
    if settled then touched[settled] = nil end
  end
  -- Before the claim below: it picks from READY.
  for h in pairs(touched) do reschedule(h) end
  if how ~= 'complete-claim' then return after end
  local lease = claimNext(ARGV[after], tonumber(ARGV[after + 1]) or NOW, tonumber(ARGV[after + 2]), tonumber(ARGV[after + 3]), tonumber(ARGV[after + 4]))
  for i = 1, 7 do out[#out + 1] = lease and lease[i] or '' end
  return after + 5
end
if ARGV[8] ~= '' then
  local generation = redis.call('HGET', META, 'g') or '0'
  if generation ~= ARGV[8] then return { '${STALE_GENERATION}', generation } end
end
local out, at = {}, 9
while at <= #ARGV do at = settleRecord(at, out) end
return withTimes(out)
`;

/**
 * reopenDue — ARGV: head, dueBefore (exclusive; '' = none, '+inf' = no bound), most to reopen
 * (-1 = no bound), fetchedBefore (exclusive; '' = none, '+inf' = no bound), request id (chosen by
 * the worker: the count is kept a minute under it, and a replay returns it, reopening nothing).
 * Done URLs due before dueBefore, then done URLs fetched before fetchedBefore whatever their due
 * time, go back to the tail of their hosts' queues (as a retry does), their retry count reset and
 * their LastFetch record appended (the claim's `revisit`). A reopened URL leaves both DUE and
 * FETCHED_AT, so it is reopened once, and forgets its failure (queued, it is not failed); the
 * limit counts both kinds. Returns how many.
 */
const REOPEN_DUE = `${PRELUDE}
local replayed = redis.call('GET', P .. 'ro:' .. ARGV[9])
if replayed then return tonumber(replayed) end
local limit = tonumber(ARGV[7])
local touched, reopened = {}, 0
local function reopenFrom(set, before)
  if before == '' or (limit >= 0 and reopened >= limit) then return end
  local count = -1
  if limit >= 0 then count = limit - reopened end
  for _, key in ipairs(redis.call('ZRANGEBYSCORE', set, '-inf', '(' .. before, 'LIMIT', 0, count)) do
    redis.call('ZREM', DUE, key)
    redis.call('ZREM', FETCHED_AT, key)
    local stored, record = redis.call('HGET', FETCHED, key), redis.call('HGET', LAST, key)
    if stored and record then
      local priority, h, json = storedOf(stored)
      pushBack(h, jsonMember(json, record), priority)
      redis.call('HDEL', FAILURES, key)
      redis.call('ZREM', FAILED_AT, key)
      redis.call('HINCRBY', hk(h), 'n', -1)
      redis.call('HINCRBY', META, 'done', -1)
      touched[h] = true
      reopened = reopened + 1
    end
  end
end
reopenFrom(DUE, ARGV[6])
reopenFrom(FETCHED_AT, ARGV[8])
for h in pairs(touched) do reschedule(h) end
redis.call('SET', P .. 'ro:' .. ARGV[9], reopened, 'PX', 60000)
return reopened
`;

/**
 * requeueFailed — ARGV: head, kind ('' = any), '1' when keys follow, the keys. Every failed URL
 * (the oldest failure first), or those among the keys, of the kind when given, goes back to the
 * tail of its host's queue (as a retry does) with no retry count; one that has a LastFetch goes
 * as a revisit, and leaves DUE and FETCHED_AT until it is done again. Returns how many.
 */
const REQUEUE_FAILED = `${PRELUDE}
local kind = ARGV[6]
local keys
if ARGV[7] == '1' then
  keys = {}
  for i = 8, #ARGV do keys[#keys + 1] = ARGV[i] end
else
  keys = redis.call('ZRANGE', FAILED_AT, 0, -1)
end
local touched, requeued = {}, 0
for _, key in ipairs(keys) do
  local stored = redis.call('HGET', FAILURES, key)
  local priority, h, json, failure
  if stored then priority, h, json, failure = storedOf(stored) end
  -- A failure kept before kinds were recorded is a failed one.
  if stored and kind ~= '' and (cjson.decode(failure).kind or 'failed') ~= kind then stored = nil end
  if stored then
    redis.call('HDEL', FAILURES, key)
    redis.call('ZREM', FAILED_AT, key)
    local record = redis.call('HGET', LAST, key)
    if record then
      redis.call('ZREM', DUE, key)
      redis.call('ZREM', FETCHED_AT, key)
    end
    pushBack(h, jsonMember(json, record or ''), priority)
    redis.call('HINCRBY', hk(h), 'n', -1)
    redis.call('HINCRBY', META, 'done', -1)
    touched[h] = true
    requeued = requeued + 1
  end
end
for h in pairs(touched) do reschedule(h) end
return requeued
`;

/**
 * failures — ARGV: head, last rank (-1 = all). Returns three per failed URL of the bucket, the
 * oldest failure first: its entry's JSON, its failure's JSON and its time (ms).
 */
const FAILURES_LIST = `${PRELUDE}
local out = {}
local ranked = redis.call('ZRANGE', FAILED_AT, 0, tonumber(ARGV[6]), 'WITHSCORES')
for i = 1, #ranked, 2 do
  local stored = redis.call('HGET', FAILURES, ranked[i])
  if stored then
    local _, _, json, failure = storedOf(stored)
    out[#out + 1] = json
    out[#out + 1] = failure
    out[#out + 1] = ranked[i + 1]
  end
end
return out
`;

/**
 * clear — ARGV: head. Deletes every key of the bucket (hosts, queues, leases, dedupe, revisits,
 * failures) and resets its counters. The marker stays; the bucket's generation (`g`, the clears
 * it has seen) rises by one, so no worker leaves out a link it knew before (known-urls.ts).
 * Returns 1.
 */
const CLEAR = `${PRELUDE}
for _, h in ipairs(redis.call('ZRANGE', HOSTS, 0, -1)) do
  for _, band in ipairs(bandsOf(h)) do redis.call('UNLINK', qk(h, band)) end
  redis.call('UNLINK', hk(h))
end
for _, i in ipairs(redis.call('HKEYS', SEEN)) do redis.call('UNLINK', fpTable(i)) end
for _, id in ipairs(redis.call('ZRANGE', LEASES, 0, -1)) do
  local w = redis.call('HGET', lk(id), 'w')
  if w then redis.call('UNLINK', wlk(w)) end
  redis.call('UNLINK', lk(id))
end
redis.call('UNLINK', READY, HOSTS, LEASES, SEEN, LAST, FETCHED, DUE, FETCHED_AT, FAILURES, FAILED_AT)
redis.call('HDEL', META, 'queued', 'done', 'seen', 'fpL', 'fpS')
redis.call('HINCRBY', META, 'g', 1)
return 1
`;

/**
 * setHostPolicy — ARGV: head, host key, default delayMs, default maxInFlight, delayMs,
 * maxInFlight, readyAt ('' = keep). Returns [1, next times].
 */
const SET_HOST_POLICY = `${PRELUDE}
local h = ARGV[6]
ensureHost(h, ARGV[7], ARGV[8])
if ARGV[9] ~= '' then redis.call('HSET', hk(h), 'd', ARGV[9]) end
if ARGV[10] ~= '' then redis.call('HSET', hk(h), 'm', ARGV[10]) end
if ARGV[11] ~= '' then
  -- Never before the host's hold (see SETTLE_LEASE).
  local hold = redis.call('HGET', hk(h), 'nb')
  if hold and tonumber(hold) > tonumber(ARGV[11]) then
    redis.call('HSET', hk(h), 'r', hold)
  else
    redis.call('HSET', hk(h), 'r', ARGV[11])
  end
end
reschedule(h)
return withTimes({ 1 })
`;

// ---- Send turns (above per-host concurrency 1; see FrontierStore.takeSendTurn) ----
// Three fields of the host's hash, apart from its clock `r` that claims move: `sr`, the send pace
// (only rises), `sb`, the held turn's busyUntil (0 or absent: none) and `si`, its id. Claims and
// settles never read or write them; takeHostTurn reads them.

/**
 * sendRetryAt(h, now, id): nil when a send turn may be granted (to `id`: the one holding it is
 * granted again), else when to ask again (as send-turn.ts of @politely/frontier; id nil: any
 * held turn counts).
 */
const SEND_TURN_STATE = `
local function sendRetryAt(h, now, id)
  local s = redis.call('HMGET', hk(h), 'sr', 'sb', 'nb', 'si')
  local pace, busy = tonumber(s[1]) or 0, tonumber(s[2]) or 0
  local hold = tonumber(s[3]) or 0
  if busy > now and id and s[4] == id then return nil end
  if hold > pace then pace = hold end
  if pace <= now and busy <= now then return nil end
  if busy > now then
    local poll = busy
    if now + ${SEND_TURN_BUSY_POLL_MS} < poll then poll = now + ${SEND_TURN_BUSY_POLL_MS} end
    if poll > pace then pace = poll end
  end
  return pace
end
`;

/**
 * takeSendTurn — ARGV: head, host key, default delayMs, default maxInFlight, now, busyUntil, turn id.
 * Grants the host's send turn (sb = busyUntil, si = turn id) when none is held, or this id holds
 * it, and its pace and hold have come. Returns [1] or [0, when to ask again]. Idempotent: replayed
 * after a lost reply, it finds its own turn and grants it again.
 */
const TAKE_SEND_TURN = `${PRELUDE}${SEND_TURN_STATE}
local h, now = ARGV[6], tonumber(ARGV[9]) or NOW
ensureHost(h, ARGV[7], ARGV[8])
local retry = sendRetryAt(h, now, ARGV[11])
if retry then return { 0, int(retry) } end
redis.call('HSET', hk(h), 'sb', ARGV[10], 'si', ARGV[11])
return { 1 }
`;

/**
 * endSendTurn — ARGV: head, host key, default delayMs, default maxInFlight, readyAt, turn id.
 * Ends the host's send turn if this id holds it (one that ran out may be another's now), and
 * raises its send pace to readyAt. Idempotent.
 */
const END_SEND_TURN = `${PRELUDE}
local h = ARGV[6]
ensureHost(h, ARGV[7], ARGV[8])
local s = redis.call('HMGET', hk(h), 'sr', 'si')
local pace = tonumber(s[1]) or 0
if tonumber(ARGV[9]) > pace then pace = tonumber(ARGV[9]) end
redis.call('HSET', hk(h), 'sr', int(pace))
if s[2] == ARGV[10] then redis.call('HSET', hk(h), 'sb', 0, 'si', '') end
return 1
`;
// ---- end of send turns ----

/**
 * takeHostTurn — ARGV: head, host key, default delayMs, default maxInFlight, now, busyUntil,
 * withinLease ('1' or '0'), room poll ms.
 * A turn at the host for a request that is no queued URL (a rendered page's sub-request). When
 * the host's clock has come (never before its hold) and, unless withinLease, it has room in
 * flight, its clock moves to busyUntil (never before the hold) and READY follows it, so that its
 * queued URLs wait too; the turn is no lease (f stays). A host not met yet is created with the
 * default policy, as add creates it. Returns [1] (granted) or [0, when to ask again], then the next times.
 * Not idempotent: replayed after a lost reply, the turn finds the clock it moved and is refused
 * until busyUntil (a later turn, never an earlier one).
 */
const TAKE_HOST_TURN = `${PRELUDE}${SEND_TURN_STATE}
local h, now = ARGV[6], tonumber(ARGV[9]) or NOW
ensureHost(h, ARGV[7], ARGV[8])
local s = redis.call('HMGET', hk(h), 'r', 'nb', 'f', 'm')
local clock, hold = tonumber(s[1]) or 0, tonumber(s[2]) or 0
if hold > clock then clock = hold end
if clock > now then return withTimes({ 0, int(clock) }) end
-- Send turns: none while one is held or before its pace (SEND_TURN_STATE below).
local sendRetry = sendRetryAt(h, now, nil)
if sendRetry then return withTimes({ 0, int(sendRetry) }) end
if ARGV[11] ~= '1' and (tonumber(s[3]) or 0) >= (tonumber(s[4]) or 1) then return withTimes({ 0, int(now + tonumber(ARGV[12])) }) end
local busyUntil = ARGV[10]
if hold > tonumber(busyUntil) then busyUntil = s[2] end
redis.call('HSET', hk(h), 'r', busyUntil)
reschedule(h)
return withTimes({ 1 })
`;

/** counts — ARGV: head. Returns [queued, inFlight, done, activeHosts, URLs known, failed], one consistent snapshot. */
const COUNTS = `${PRELUDE}
local m = redis.call('HMGET', META, 'queued', 'done')
return { tonumber(m[1]) or 0, redis.call('ZCARD', LEASES), tonumber(m[2]) or 0, redis.call('ZCOUNT', HOSTS, '(0', '+inf'), seenCount(), redis.call('ZCARD', FAILED_AT) }
`;

/** hostCounts — ARGV: head, last rank (-1 = all). Returns five per host: key, queued, inFlight, done, readyAt. */
const HOST_COUNTS = `${PRELUDE}
local out = {}
for _, h in ipairs(redis.call('ZREVRANGE', HOSTS, 0, tonumber(ARGV[6]))) do
  local s = redis.call('HMGET', hk(h), 'f', 'n', 'r')
  out[#out + 1] = h
  out[#out + 1] = queuedOf(h)
  out[#out + 1] = tonumber(s[1]) or 0
  out[#out + 1] = tonumber(s[2]) or 0
  out[#out + 1] = s[3] or '0'
end
return out
`;

/** The bucket scripts by the ioredis command name they are defined under (EVALSHA, EVAL on NOSCRIPT). */
export const BUCKET_SCRIPTS = {
  politelyBucketOpen: OPEN_BUCKET,
  politelyBucketTend: TEND,
  politelyBucketClaim: CLAIM,
  politelyBucketSettleMany: SETTLE_MANY,
  politelyBucketReopenDue: REOPEN_DUE,
  politelyBucketRequeueFailed: REQUEUE_FAILED,
  politelyBucketFailures: FAILURES_LIST,
  politelyBucketClear: CLEAR,
  politelyBucketSetHostPolicy: SET_HOST_POLICY,
  politelyBucketTakeHostTurn: TAKE_HOST_TURN,
  politelyBucketTakeSendTurn: TAKE_SEND_TURN,
  politelyBucketEndSendTurn: END_SEND_TURN,
  politelyBucketCounts: COUNTS,
  politelyBucketHostCounts: HOST_COUNTS,
} as const;

/** Keys every bucket script declares (see `bucketScriptKeys`). */
export { BUCKET_SCRIPT_KEY_COUNT } from './keys.js';

type Arg = string | number;
/** ioredis flattens a command's arguments one level: an array goes as its elements. */
type ArgOrArray = Arg | readonly Arg[];
type Reply = (string | number)[];

/** The bucket scripts as ioredis commands: the bucket's keys (`bucketScriptKeys`), then the ARGV above (arrays flattened). */
export interface BucketCommands {
  politelyBucketOpen(...args: ArgOrArray[]): Promise<[number]>;
  politelyBucketTend(...args: ArgOrArray[]): Promise<Reply>;
  politelyBucketClaim(...args: ArgOrArray[]): Promise<Reply>;
  politelyBucketSettleMany(...args: ArgOrArray[]): Promise<string[]>;
  politelyBucketReopenDue(...args: ArgOrArray[]): Promise<number>;
  politelyBucketRequeueFailed(...args: ArgOrArray[]): Promise<number>;
  politelyBucketFailures(...args: ArgOrArray[]): Promise<string[]>;
  politelyBucketClear(...args: ArgOrArray[]): Promise<number>;
  politelyBucketSetHostPolicy(...args: ArgOrArray[]): Promise<Reply>;
  politelyBucketTakeHostTurn(...args: ArgOrArray[]): Promise<Reply>;
  politelyBucketTakeSendTurn(...args: ArgOrArray[]): Promise<Reply>;
  politelyBucketEndSendTurn(...args: ArgOrArray[]): Promise<number>;
  politelyBucketCounts(...args: ArgOrArray[]): Promise<number[]>;
  politelyBucketHostCounts(...args: ArgOrArray[]): Promise<Reply>;
}
