// Every statement of the frontier, prepared once per connection and reused. The partial indexes
// are only used when a query repeats their WHERE terms literally (`state = 1`, `queued > 0 AND
// in_flight < max_in_flight`), so those terms are written out here, never bound; INDEXED BY makes
// preparing fail, rather than a query scan, if that ever changes.

import type { Database, Statement } from 'better-sqlite3';
import { type FailureRow, type HostRow, type UrlRow, urlColumns } from './rows.js';

export interface HostSlot {
  readonly id: number;
  readonly added: number;
}

/** What `takeHostTurn` reads of a host: its clock, its hold and its room in flight. */
export interface HostTurnRow {
  readonly ready_at: number;
  readonly not_before: number;
  readonly send_ready_at: number;
  readonly send_busy_until: number;
  readonly send_turn_id: string | null;
  readonly in_flight: number;
  readonly max_in_flight: number;
}

export interface QueueRow {
  readonly priority: number;
  readonly head_id: number | null;
  readonly tail_id: number | null;
}

type Nullable<T> = T | null;

/** A URL the file knows, as an add with hints or a label reads it. */
export interface KnownUrlRow {
  readonly id: number;
  readonly host_id: number;
  readonly state: number;
  readonly priority: number;
  readonly request: string | null;
  readonly last_fetch: string | null;
}

/** A done URL to queue again: its row, host and queue. */
export interface RequeueRow {
  readonly id: number;
  readonly host_id: number;
  readonly priority: number;
}

/** A failure as `complete` keeps it. */
export interface FailureParams {
  readonly id: number;
  readonly kind: string;
  readonly reason: string;
  readonly message: string;
  readonly code: Nullable<string>;
  readonly attempts: number;
  readonly at: number;
}

/** How a settle sets the host's clock (null: as it is) and its hold (null: no new hold). */
export interface HostSettle {
  readonly readyAt: Nullable<number>;
  readonly notBefore: Nullable<number>;
  readonly id: number;
}

export interface FrontierStatements {
  readonly hostByKey: Statement<[string], HostSlot>;
  readonly insertHost: Statement<[string, number, number], HostSlot>;
  readonly hostAdded: Statement<[number, number, number]>;
  /** Whether a row holds the key (hash, key, check: see `keyCheck`). */
  readonly urlExists: Statement<[number, string, number], 1>;
  /** `urlExists` for an entry with hints or a label: the live row (no tombstone), with what they would change. */
  readonly knownUrl: Statement<[number, string, number], KnownUrlRow>;
  readonly setLastFetch: Statement<[string, number, number]>;
  /** A relabel in place: request, id. */
  readonly setRequest: Statement<[string, number]>;
  /** A relabel to a higher priority: a copy of the row, queued nowhere yet, with the new priority and request. */
  readonly copyUrl: Statement<[{ id: number; priority: number; request: string }]>;
  /** The row's URL moved to another row (copy id, id): its place in its queue is a tombstone. */
  readonly supersede: Statement<[number, number]>;
  readonly deleteUrl: Statement<[number]>;
  /** key, key_hash, host_id, depth, priority, retries, kind, data, referrer, redirected_from, redirect_hops, request, next_id */
  readonly insertUrl: Statement<
    [
      string,
      number,
      number,
      number,
      number,
      Nullable<number>,
      Nullable<string>,
      Nullable<string>,
      Nullable<string>,
      Nullable<string>,
      Nullable<number>,
      Nullable<string>,
      Nullable<number>,
    ]
  >;
  /** The largest row id of `urls` (null: none). */
  readonly lastUrlId: Statement<[], number | null>;
  readonly queue: Statement<[number, number], QueueRow>;
  readonly firstQueue: Statement<[number], QueueRow>;
  readonly saveQueue: Statement<[number, number, Nullable<number>, Nullable<number>]>;
  readonly setNext: Statement<[Nullable<number>, number]>;
  readonly urlById: Statement<[number], UrlRow & { readonly next_id: number | null; readonly moved_to: number | null }>;
  readonly nextHost: Statement<[], HostRow>;
  readonly leaseUrl: Statement<[string, number, number]>;
  readonly hostClaimed: Statement<[number, number]>;
  readonly hostEmptied: Statement<[number]>;
  readonly expiredLeases: Statement<[number], { id: number; host_id: number; priority: number }>;
  readonly earliestLeaseExpiry: Statement<[], { at: number | null }>;
  readonly leasedUrl: Statement<
    [number, string],
    { host_id: number; priority: number; key: string; last_fetch: string | null }
  >;
  readonly urlDone: Statement<[number]>;
  /** A URL done with no LastFetch kept: its row without its key and what only a queued URL needs (check, id). */
  readonly urlDoneCompact: Statement<[number, number]>;
  readonly urlDoneFetched: Statement<[{ lastFetch: string; dueAt: number; fetchedAt: number; id: number }]>;
  readonly hostCompleted: Statement<[HostSettle]>;
  readonly urlRequeued: Statement<[{ retried: number; id: number }]>;
  readonly hostRequeued: Statement<[HostSettle]>;
  readonly dueUrls: Statement<[number, number], RequeueRow>;
  /** Done URLs fetched before a time, whatever their due time (fetchedBefore, limit). */
  readonly fetchedUrls: Statement<[number, number], RequeueRow>;
  readonly insertFailure: Statement<[FailureParams]>;
  readonly forgetFailure: Statement<[number]>;
  /** Every failed URL, the oldest failure first. */
  readonly failedUrls: Statement<[], RequeueRow>;
  /** The same, of one failure kind. */
  readonly failedUrlsOfKind: Statement<[string], RequeueRow>;
  /** A URL's failure kind, if it is failed (its row id). */
  readonly failureKindOf: Statement<[number], string>;
  /** The failed URLs with their entries and failures, the oldest failure first (limit, -1: all). */
  readonly failureList: Statement<[number], FailureRow>;
  /** Empties the frontier's tables: failures, urls, queues, hosts. */
  readonly clearFrontier: readonly Statement<[]>[];
  /** Empties the crawl's metadata but the key given (the owner's record). */
  readonly clearMetadata: Statement<[string]>;
  readonly urlReopened: Statement<[number]>;
  /** done − n, queued + n (n, n, host id) */
  readonly hostReopened: Statement<[number, number, number]>;
  readonly hostPolicy: Statement<[Nullable<number>, Nullable<number>, Nullable<number>, number]>;
  readonly hostTurnState: Statement<[number], HostTurnRow>;
  /** busyUntil, host id */
  readonly hostTurnTaken: Statement<[number, number]>;
  /** busyUntil, turn id, host id */
  readonly sendTurnTaken: Statement<[number, string, number]>;
  readonly sendTurnEnded: Statement<[{ turnId: string; readyAt: number; id: number }]>;
  readonly totals: Statement<
    [],
    { queued: number | null; in_flight: number | null; done: number | null; active: number; failed: number }
  >;
  readonly busiestHosts: Statement<
    [number],
    { key: string; queued: number; in_flight: number; done: number; ready_at: number }
  >;
}

/**
 * A row holds the key when it has it, or when it is a done URL kept without it (key '') whose
 * check matches: see schema.ts, migration 6.
 */
const SAME_KEY = "(key = ? OR (key = '' AND key_check = ?))";

/** The SET terms of a settle's clock and hold (parameters @readyAt, @notBefore). */
const SETTLE_CLOCK = `not_before = max(not_before, coalesce(@notBefore, 0)),
       ready_at = max(coalesce(@readyAt, ready_at), not_before, coalesce(@notBefore, 0))`;

export function prepareFrontierStatements(db: Database): FrontierStatements {
  const p = <P extends unknown[], R = unknown>(sql: string): Statement<P, R> => db.prepare<P, R>(sql);
  return {
    hostByKey: p('SELECT id, added FROM hosts WHERE key = ?'),
    insertHost: p('INSERT INTO hosts (key, delay_ms, max_in_flight) VALUES (?, ?, ?) RETURNING id, added'),
    hostAdded: p('UPDATE hosts SET added = ?, queued = queued + ? WHERE id = ?'),
    urlExists: p<[number, string, number], 1>(
      `SELECT 1 FROM urls INDEXED BY urls_dedupe WHERE key_hash = ? AND ${SAME_KEY}`,
    ).pluck(),
    knownUrl: p(
      `SELECT id, host_id, state, priority, request, last_fetch FROM urls INDEXED BY urls_dedupe
       WHERE key_hash = ? AND ${SAME_KEY} AND moved_to IS NULL`,
    ),
    // Hints move the due time, never the fetch time: fetched_at stays as the completion wrote it.
    setLastFetch: p('UPDATE urls SET last_fetch = ?, due_at = ? WHERE id = ?'),
    setRequest: p('UPDATE urls SET request = ? WHERE id = ?'),
    // Everything but its queue link, lease and tombstone mark: the URL as it waits, retries and revisit included.
    copyUrl: p(
      `INSERT INTO urls (key, key_hash, host_id, depth, priority, retries, kind, data, referrer, redirected_from,
         redirect_hops, request, last_fetch, due_at, fetched_at)
       SELECT key, key_hash, host_id, depth, @priority, retries, kind, data, referrer, redirected_from,
         redirect_hops, @request, last_fetch, due_at, fetched_at
       FROM urls WHERE id = @id`,
    ),
    supersede: p('UPDATE urls SET moved_to = ? WHERE id = ?'),
    deleteUrl: p('DELETE FROM urls WHERE id = ?'),
    insertUrl: p(
      `INSERT INTO urls (key, key_hash, host_id, depth, priority, retries, kind, data, referrer, redirected_from,
         redirect_hops, request, next_id)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    ),
    lastUrlId: p<[], number | null>('SELECT max(id) FROM urls').pluck(),
    queue: p('SELECT priority, head_id, tail_id FROM queues WHERE host_id = ? AND priority = ?'),
    firstQueue: p(
      'SELECT priority, head_id, tail_id FROM queues WHERE host_id = ? AND head_id IS NOT NULL ORDER BY priority DESC LIMIT 1',
    ),
    saveQueue: p(
      `INSERT INTO queues (host_id, priority, head_id, tail_id) VALUES (?, ?, ?, ?)
       ON CONFLICT (host_id, priority) DO UPDATE SET head_id = excluded.head_id, tail_id = excluded.tail_id`,
    ),
    setNext: p('UPDATE urls SET next_id = ? WHERE id = ?'),
    urlById: p(`SELECT ${urlColumns()}, next_id, moved_to FROM urls WHERE id = ?`),
    nextHost: p(
      `SELECT id, key, ready_at, delay_ms FROM hosts INDEXED BY hosts_ready
       WHERE queued > 0 AND in_flight < max_in_flight ORDER BY ready_at LIMIT 1`,
    ),
    leaseUrl: p('UPDATE urls SET state = 1, next_id = NULL, lease_id = ?, lease_expires_at = ? WHERE id = ?'),
    hostClaimed: p('UPDATE hosts SET ready_at = ?, in_flight = in_flight + 1, queued = queued - 1 WHERE id = ?'),
    hostEmptied: p('UPDATE hosts SET queued = 0 WHERE id = ?'),
    expiredLeases: p(
      'SELECT id, host_id, priority FROM urls INDEXED BY urls_leases WHERE state = 1 AND lease_expires_at <= ?',
    ),
    earliestLeaseExpiry: p('SELECT min(lease_expires_at) AS at FROM urls INDEXED BY urls_leases WHERE state = 1'),
    leasedUrl: p('SELECT host_id, priority, key, last_fetch FROM urls WHERE id = ? AND state = 1 AND lease_id = ?'),
    urlDone: p('UPDATE urls SET state = 2, lease_id = NULL, lease_expires_at = NULL WHERE id = ?'),
    urlDoneCompact: p(
      `UPDATE urls SET state = 2, lease_id = NULL, lease_expires_at = NULL, key = '', key_check = ?,
       data = NULL, referrer = NULL, redirected_from = NULL, request = NULL WHERE id = ?`,
    ),
    // Apart from `urlDone` so that a completion without a LastFetch writes nothing more.
    urlDoneFetched: p(
      `UPDATE urls SET state = 2, lease_id = NULL, lease_expires_at = NULL, last_fetch = @lastFetch, due_at = @dueAt,
       fetched_at = @fetchedAt WHERE id = @id`,
    ),
    // A settle: the hold only rises, and the clock is never set before it. (Every right-hand side
    // reads the row as it was: `not_before` there is the old hold, so the new one is named too.)
    hostCompleted: p(
      `UPDATE hosts SET in_flight = in_flight - 1, done = done + 1, ${SETTLE_CLOCK}
       WHERE id = @id`,
    ),
    // `retried`: 1 for a retry, 0 for a release or an expired lease (the count stays as it was).
    urlRequeued: p(
      `UPDATE urls SET state = 0, lease_id = NULL, lease_expires_at = NULL,
       retries = CASE WHEN @retried = 0 THEN retries ELSE coalesce(retries, 0) + @retried END WHERE id = @id`,
    ),
    hostRequeued: p(
      `UPDATE hosts SET in_flight = in_flight - 1, queued = queued + 1, ${SETTLE_CLOCK}
       WHERE id = @id`,
    ),
    // Index order is due_at then rowid: the most overdue first, ties in the order they were added.
    dueUrls: p(
      `SELECT id, host_id, priority FROM urls INDEXED BY urls_due
       WHERE state = 2 AND due_at IS NOT NULL AND due_at < ? ORDER BY due_at LIMIT ?`,
    ),
    // The same by fetched_at: the longest unfetched first.
    fetchedUrls: p(
      `SELECT id, host_id, priority FROM urls INDEXED BY urls_fetched
       WHERE state = 2 AND fetched_at IS NOT NULL AND fetched_at < ? ORDER BY fetched_at LIMIT ?`,
    ),
    insertFailure: p(
      `INSERT OR REPLACE INTO failures (url_id, kind, reason, message, code, attempts, at)
       VALUES (@id, @kind, @reason, @message, @code, @attempts, @at)`,
    ),
    forgetFailure: p('DELETE FROM failures WHERE url_id = ?'),
    // Index order is at then url_id: the oldest failure first, ties in the order the URLs were added.
    failedUrls: p(
      `SELECT u.id, u.host_id, u.priority FROM failures f INDEXED BY failures_at JOIN urls u ON u.id = f.url_id
       ORDER BY f.at`,
    ),
    failedUrlsOfKind: p(
      `SELECT u.id, u.host_id, u.priority FROM failures f INDEXED BY failures_at JOIN urls u ON u.id = f.url_id
       WHERE f.kind = ? ORDER BY f.at`,
    ),
    failureKindOf: p<[number], string>('SELECT kind FROM failures WHERE url_id = ?').pluck(),
    failureList: p(
      `SELECT ${urlColumns('u')}, h.key AS host_key, f.kind AS failure_kind, f.reason, f.message, f.code, f.attempts, f.at
       FROM failures f INDEXED BY failures_at JOIN urls u ON u.id = f.url_id JOIN hosts h ON h.id = u.host_id
       ORDER BY f.at LIMIT ?`,
    ),
    clearFrontier: ['failures', 'urls', 'queues', 'hosts'].map((table) => p<[]>(`DELETE FROM ${table}`)),
    clearMetadata: p('DELETE FROM crawl_meta WHERE key <> ?'),
    // A revisit starts its attempts afresh; it joins its queue as the tail (no next).
    urlReopened: p('UPDATE urls SET state = 0, next_id = NULL, retries = NULL WHERE id = ?'),
    hostReopened: p('UPDATE hosts SET done = done - ?, queued = queued + ? WHERE id = ?'),
    hostPolicy: p(
      `UPDATE hosts SET delay_ms = coalesce(?, delay_ms), max_in_flight = coalesce(?, max_in_flight),
       ready_at = max(coalesce(?, ready_at), not_before) WHERE id = ?`,
    ),
    hostTurnState: p(
      `SELECT ready_at, not_before, send_ready_at, send_busy_until, send_turn_id, in_flight, max_in_flight
       FROM hosts WHERE id = ?`,
    ),
    // A turn: the clock to busyUntil, never before the hold. The turn is no lease: in_flight stays.
    hostTurnTaken: p('UPDATE hosts SET ready_at = max(?, not_before) WHERE id = ?'),
    // A send turn: held until busyUntil; ended, the send pace only rises.
    sendTurnTaken: p('UPDATE hosts SET send_busy_until = ?, send_turn_id = ? WHERE id = ?'),
    // Only the turn of this id is ended (one that ran out may be another's now); the pace rises anyway.
    sendTurnEnded: p(
      `UPDATE hosts SET
         send_busy_until = CASE WHEN send_turn_id = @turnId THEN 0 ELSE send_busy_until END,
         send_turn_id = CASE WHEN send_turn_id = @turnId THEN NULL ELSE send_turn_id END,
         send_ready_at = max(send_ready_at, @readyAt) WHERE id = @id`,
    ),
    totals: p(
      `SELECT sum(queued) AS queued, sum(in_flight) AS in_flight, sum(done) AS done,
       count(*) FILTER (WHERE queued > 0 OR in_flight > 0) AS active,
       (SELECT count(*) FROM failures) AS failed FROM hosts`,
    ),
    busiestHosts: p(
      'SELECT key, queued, in_flight, done, ready_at FROM hosts ORDER BY queued + in_flight DESC, id LIMIT ?',
    ),
  };
}
