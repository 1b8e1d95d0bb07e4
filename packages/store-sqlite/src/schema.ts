// The crawl file's schema, as numbered migrations. `schema_version` records each one applied;
// a file written by a newer version of this package is refused rather than misread.
//
// Layout and why (what costs at millions of URLs is every B-tree written at random places: each
// insert there dirties a page the commit must write out, and the page cache cannot hold them all):
// - `urls` is a rowid table: new URLs are appended. It holds the dedupe key (the URL for a page,
//   `kind URL` for a plugin resource) and not the URL a second time: the URL is the key, or the
//   key after `kind ` (see rows.ts).
// - Dedupe searches `urls_dedupe`, an index of a 53-bit hash of the key (key-hash.ts), then
//   compares the key itself: an index of integers is several times smaller than one of URLs.
//   It is the one index every add writes away from the end; since migration 6 the hash starts
//   with the host's, so a page's links (mostly one host) land in one or two of its leaves.
// - The queue of a host is a linked list per (host, priority), `queues`, through `urls.next_id`:
//   FIFO within a priority, the highest priority first. Adding links the new row after the
//   queue's tail, a recent row whose page is likely still cached; claiming takes the head.
//   Both are O(1) by primary key, and no index sorted by host is written at random (an index
//   on (host, priority, seq) made adding 5 million URLs over 20,000 hosts take twice as long).
//   Released and expired URLs go back to the head; retried ones to the tail.
// - `state`: 0 queued, 1 leased (in flight), 2 done. `next_id` is meaningful only while queued.
// - Partial indexes keep the rest O(log n): `hosts_ready` holds only the hosts that could be
//   claimed from (something queued, room in flight), by clock; `urls_leases` only the leased
//   URLs, by expiry.
// - `hosts` keeps the counters (queued, in_flight, done, added), so counts never scan `urls`,
//   and each host's clock (`ready_at`) with its hold (`not_before`, from migration 2): the
//   latest Retry-After or backoff a settle gave. It only rises, and `ready_at` is never set
//   before it (the FrontierStore contract's `hostNotBefore`).
// - Recrawls (migration 4): `last_fetch` is the JSON `LastFetch` a completion left (null: none),
//   `due_at` its `dueAt` and `fetched_at` its `fetchedAt`, apart so that `urls_due` and
//   `urls_fetched` can index them. Those indexes hold only done URLs with a `LastFetch`, so
//   `reopenDue` reads the k due ones (by `dueBefore`, then by `fetchedBefore`) in O(log n + k),
//   and completing or adding a URL that has no `LastFetch` never writes them. A sitemap's hints
//   move `due_at`, never `fetched_at`. A reopened URL is queued like a retried one (at the tail);
//   it keeps its `last_fetch`, which a claim returns as `entry.revisit`.
// - Failed URLs (migration 5): a URL completed with a failure is done, and its failure waits in
//   `failures`, keyed by the URL's row id. Failures are rare, so a table of their own costs a
//   completion without one nothing (no column written, no index touched), `counts` counts it
//   whole, and `failures` reads it in the order of its one index (`failures_at`).
//   `requeueFailed` queues them again like `reopenDue` does (at the tail); a reopened URL loses
//   its failure too. A failed URL that had a `last_fetch` keeps it, so it is claimed as a
//   revisit, and being queued it has left `urls_due`: it cannot be queued twice. A filtered
//   `requeueFailed` finds named URLs through the dedupe index, and a `kind` through the failures
//   themselves (few): no index on `kind`.
// - Relabels (migration 5): a queued URL without a label that an add with a label meets takes
//   that label. When the priority stays, the row is updated in place (its place kept). When it
//   rises, the row must move to another list, and a singly linked list cannot unlink a row
//   without walking to it. So the row stays in its list as a tombstone (`moved_to`: the row that
//   replaced it), and a copy of it is linked at the tail of the higher priority's list. A claim
//   that finds a tombstone at a head deletes it and takes the next. A doubly linked list would
//   unlink in place but write the neighbour row on every claim and hand-back, where a relabel
//   is far rarer; the tombstone costs one row and one dedupe index entry per relabel, until it
//   is claimed past. Lookups that must find the live row (hints, relabels) skip tombstones;
//   plain dedupe does not need to: either row says the URL is known.
// - Done URLs (migration 6): a URL completed with no `LastFetch` and no failure is done for good:
//   nothing will queue it again or give its entry back. Its row keeps what counts and dedupe
//   need, not its URL: `key` becomes '' and `key_check` a second, independent 53-bit hash of it
//   (key-hash.ts), and its referrer, data and request data go. Dedupe matches such a row on both
//   hashes: 32 + 53 bits of the key within one host (the top 21 bits of `key_hash` are the
//   host's). By the birthday bound, 10⁹ done URLs all on one host share a fingerprint with
//   probability 10¹⁸/2⁸⁶ ≈ 1.3 × 10⁻⁸ (on many hosts, less): the chance that a crawl of that size
//   ever skips one URL as seen. A done row so shrunk frees its page's space, which SQLite's
//   B-tree merges and reuses for the rows that follow. A URL with a `LastFetch` (recrawls) or a
//   failure (requeueFailed) keeps its row whole.
// - `clear` empties the frontier's tables and the crawl's metadata (not the owner's record),
//   and leaves `robots_cache` and `schema_version` as they are.
//
// A migration is appended, never edited: a file records the ones it had applied, and older code
// refuses a file that has more than it knows.

import { PolitelyError } from '@politely/core';
import type { Database } from 'better-sqlite3';
import { keyHash } from './key-hash.js';

/** A migration: SQL, or a step that needs JavaScript (run inside the migrating transaction). */
type Migration = string | ((db: Database) => void);

const MIGRATIONS: readonly Migration[] = [
  // 1: frontier, robots cache, crawl metadata.
  `
  CREATE TABLE hosts (
    id            INTEGER PRIMARY KEY,
    key           TEXT    NOT NULL UNIQUE,
    ready_at      INTEGER NOT NULL DEFAULT 0,
    delay_ms      INTEGER NOT NULL,
    max_in_flight INTEGER NOT NULL,
    in_flight     INTEGER NOT NULL DEFAULT 0,
    queued        INTEGER NOT NULL DEFAULT 0,
    done          INTEGER NOT NULL DEFAULT 0,
    added         INTEGER NOT NULL DEFAULT 0
  );
  CREATE INDEX hosts_ready ON hosts (ready_at) WHERE queued > 0 AND in_flight < max_in_flight;

  CREATE TABLE queues (
    host_id  INTEGER NOT NULL,
    priority INTEGER NOT NULL,
    head_id  INTEGER,
    tail_id  INTEGER,
    PRIMARY KEY (host_id, priority)
  ) WITHOUT ROWID;

  CREATE TABLE urls (
    id               INTEGER PRIMARY KEY,
    key              TEXT    NOT NULL,
    key_hash         INTEGER NOT NULL,
    host_id          INTEGER NOT NULL,
    depth            INTEGER NOT NULL,
    priority         INTEGER NOT NULL,
    state            INTEGER NOT NULL DEFAULT 0 CHECK (state IN (0, 1, 2)),
    next_id          INTEGER,
    lease_id         TEXT,
    lease_expires_at INTEGER,
    retries          INTEGER,
    kind             TEXT,
    data             TEXT,
    referrer         TEXT,
    redirected_from  TEXT,
    redirect_hops    INTEGER
  );
  CREATE INDEX urls_dedupe ON urls (key_hash);
  CREATE INDEX urls_leases ON urls (lease_expires_at) WHERE state = 1;

  CREATE TABLE robots_cache (
    origin     TEXT    PRIMARY KEY,
    record     TEXT    NOT NULL,
    updated_at INTEGER NOT NULL
  );

  CREATE TABLE crawl_meta (
    key        TEXT    PRIMARY KEY,
    value      TEXT    NOT NULL,
    updated_at INTEGER NOT NULL
  );
  `,
  // 2: per-host holds. 0 (no hold) for the hosts of an existing file, whose clocks stay as they
  // are; `hosts_ready` (on ready_at) is unchanged.
  `
  ALTER TABLE hosts ADD COLUMN not_before INTEGER NOT NULL DEFAULT 0;
  `,
  // 3: the user's request data (label, userData, per-request headers) as JSON; null for the URLs
  // of an existing file, which carry none.
  `
  ALTER TABLE urls ADD COLUMN request TEXT;
  `,
  // 4: recrawls. Null for the URLs of an existing file: no fetch of theirs was kept, so none is
  // ever due (the index starts empty).
  `
  ALTER TABLE urls ADD COLUMN last_fetch TEXT;
  ALTER TABLE urls ADD COLUMN due_at INTEGER;
  ALTER TABLE urls ADD COLUMN fetched_at INTEGER;
  CREATE INDEX urls_due ON urls (due_at) WHERE state = 2 AND due_at IS NOT NULL;
  CREATE INDEX urls_fetched ON urls (fetched_at) WHERE state = 2 AND fetched_at IS NOT NULL;
  `,
  // 5: failed URLs and relabels. An existing file has no failure kept and no tombstone.
  `
  ALTER TABLE urls ADD COLUMN moved_to INTEGER;
  CREATE TABLE failures (
    url_id   INTEGER PRIMARY KEY,
    kind     TEXT    NOT NULL,
    reason   TEXT    NOT NULL,
    message  TEXT    NOT NULL,
    code     TEXT,
    attempts INTEGER NOT NULL,
    at       INTEGER NOT NULL
  );
  CREATE INDEX failures_at ON failures (at);
  `,
  // 6: the dedupe hash laid out by host (key-hash.ts), and done URLs without their key. Every
  // row is rehashed, and the index rebuilt once rather than written at random row by row.
  rehashDedupeKeys,
  // 7: send turns (above per-host concurrency 1): the host's send pace, the held turn's end and id,
  // apart from the clock claims move. 0 (no pace, no turn) for the hosts of an existing file.
  `
  ALTER TABLE hosts ADD COLUMN send_ready_at INTEGER NOT NULL DEFAULT 0;
  ALTER TABLE hosts ADD COLUMN send_busy_until INTEGER NOT NULL DEFAULT 0;
  ALTER TABLE hosts ADD COLUMN send_turn_id TEXT;
  `,
];

/**
 * Migration 6: every row's `key_hash` by the host-first hash, and `key_check` for the done URLs
 * kept without their key from then on. The rows of an existing file keep their keys.
 */
function rehashDedupeKeys(db: Database): void {
  db.function('politely_key_hash_6', { deterministic: true }, (key) => keyHash(String(key)));
  db.exec(`
    ALTER TABLE urls ADD COLUMN key_check INTEGER;
    DROP INDEX urls_dedupe;
    UPDATE urls SET key_hash = politely_key_hash_6(key);
    CREATE INDEX urls_dedupe ON urls (key_hash);
  `);
}

/** The schema version this package writes. */
export const SCHEMA_VERSION = MIGRATIONS.length;

/**
 * Brings the file's schema up to `SCHEMA_VERSION`, in one IMMEDIATE transaction so that two
 * processes opening a new file at once do not both create it.
 */
export function migrate(db: Database): void {
  db.transaction(() => {
    db.exec('CREATE TABLE IF NOT EXISTS schema_version (version INTEGER PRIMARY KEY, applied_at INTEGER NOT NULL)');
    const row = db.prepare('SELECT max(version) AS version FROM schema_version').get() as { version: number | null };
    const current = row.version ?? 0;
    if (current > SCHEMA_VERSION) {
      throw new PolitelyError(
        'ERR_INVALID_INPUT',
        `${db.name}: crawl file schema version ${current} is newer than this @politely/store-sqlite understands (${SCHEMA_VERSION})`,
      );
    }
    const record = db.prepare('INSERT INTO schema_version (version, applied_at) VALUES (?, ?)');
    for (let version = current + 1; version <= SCHEMA_VERSION; version++) {
      const migration = MIGRATIONS[version - 1]!;
      if (typeof migration === 'string') db.exec(migration);
      else migration(db);
      record.run(version, Date.now());
    }
  }).immediate();
}
