// The dedupe index holds a 53-bit hash of each key, not the key: an integer of 8 bytes instead of
// a URL of 60–200, so the index that every add searches and writes stays several times smaller.
// Equal hashes of different keys are no problem: a key is a duplicate only if a row has the same
// hash AND the same key (exact, whatever the hash's width; a done URL kept without its key is
// matched on this hash and `keyCheck` together, see schema.ts).
//
// The hash is laid out for locality (schema 6): its top 21 bits hash the key's host (its
// authority, `host:port`), its low 32 bits the whole key. The links of one page are mostly on one
// host, so one add writes them into one or two leaves of the index, where a hash of the whole key
// would spread them over as many leaves as links: at millions of URLs, every leaf written is a
// page the commit writes to the log and the checkpoint writes again (at 1M URLs over 10,000
// hosts, about 40 % of an add's CPU). Within one host, a new key meets an old one's low 32 bits
// at 2⁻³² per pair: with a million URLs on the host, one extra key comparison per ~4,300 adds.
//
// The hash is stored in crawl files: changing it needs a schema migration that rehashes (as 6 did).

const HOST_BITS = 21;
const HOST_MASK = (1 << HOST_BITS) - 1;
const TWO_32 = 4294967296;

/** Where the key's authority starts and ends (`kind URL` keys included); the empty range when none. */
function authorityRange(key: string): [number, number] {
  const scheme = key.indexOf('://');
  if (scheme < 0) return [0, 0];
  const start = scheme + 3;
  let end = start;
  while (end < key.length) {
    const c = key.charCodeAt(end);
    // '/', '?', '#'
    if (c === 47 || c === 63 || c === 35) break;
    end++;
  }
  return [start, end];
}

/** A 32-bit multiplicative hash (murmur-style finalizer) of key[start, end). */
function hash32(key: string, start: number, end: number, seed: number): number {
  let h = seed;
  for (let i = start; i < end; i++) h = Math.imul(h ^ key.charCodeAt(i), 2654435761);
  h = Math.imul(h ^ (h >>> 16), 2246822507);
  h = Math.imul(h ^ (h >>> 13), 3266489909);
  return (h ^ (h >>> 16)) >>> 0;
}

/** The key's dedupe hash: 21 bits of its host, then 32 bits of the whole key (a safe integer). */
export function keyHash(key: string): number {
  const [start, end] = authorityRange(key);
  const host = hash32(key, start, end, 0x41c6ce57) & HOST_MASK;
  return host * TWO_32 + hash32(key, 0, key.length, 0xdeadbeef);
}

/**
 * A second hash of the whole key, independent of `keyHash` (other seeds), 53 bits: what a done URL
 * kept without its key is matched on, beside its `keyHash` (see schema.ts, migration 6).
 */
export function keyCheck(key: string): number {
  const high = hash32(key, 0, key.length, 0x9e3779b9) & HOST_MASK;
  return high * TWO_32 + hash32(key, 0, key.length, 0x85ebca6b);
}
