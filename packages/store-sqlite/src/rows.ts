// Rows of the crawl file ↔ frontier values: entries, lease ids.

import type { FailedUrl, FrontierEntry, LastFetch, RevisitHints, UrlFailure } from '@politely/frontier';

export interface HostRow {
  readonly id: number;
  readonly key: string;
  readonly ready_at: number;
  readonly delay_ms: number;
}

export interface UrlRow {
  readonly id: number;
  readonly key: string;
  readonly depth: number;
  readonly priority: number;
  readonly retries: number | null;
  readonly kind: string | null;
  readonly data: string | null;
  readonly referrer: string | null;
  readonly redirected_from: string | null;
  readonly redirect_hops: number | null;
  /**
   * The user's request data and a sitemap's hints as JSON: `{ label?, userData?, headers?,
   * hints? }`; null when none. (Hints ride here: an add writes no other column for them.)
   */
  readonly request: string | null;
  /** The `LastFetch` a completion left, as JSON; null when none. */
  readonly last_fetch: string | null;
}

/** The user's part of an entry and its hints, as the `request` column holds them. */
interface RequestColumn {
  readonly label?: string;
  readonly userData?: Readonly<Record<string, unknown>>;
  readonly headers?: Readonly<Record<string, string>>;
  readonly hints?: RevisitHints;
}

/** The `request` column for an entry: null (no JSON work) when it carries none of these. */
export function requestColumnOf(entry: RequestColumn): string | null {
  if (
    entry.label === undefined &&
    entry.userData === undefined &&
    entry.headers === undefined &&
    entry.hints === undefined
  )
    return null;
  // JSON.stringify leaves out the fields that are undefined.
  return JSON.stringify({ label: entry.label, userData: entry.userData, headers: entry.headers, hints: entry.hints });
}

/**
 * The `request` column of a queued URL that an add with a label relabels: that `label`, the add's
 * `userData` (else the one the URL had), and the URL's headers and hints. Undefined when the URL
 * has a label already: it keeps it.
 */
export function relabelledRequestColumn(
  column: string | null,
  label: string,
  userData: RequestColumn['userData'],
): string | undefined {
  const queued = column === null ? {} : requestOf(column);
  if (queued.label !== undefined) return undefined;
  const data = userData ?? queued.userData;
  return JSON.stringify({ ...queued, label, ...(data === undefined ? {} : { userData: data }) });
}

/** The columns of `urls` that `UrlRow` reads, for SELECT lists; `table` prefixes each (`u.`) for a join. */
export function urlColumns(table = ''): string {
  const prefix = table === '' ? '' : `${table}.`;
  return [
    'id',
    'key',
    'depth',
    'priority',
    'retries',
    'kind',
    'data',
    'referrer',
    'redirected_from',
    'redirect_hops',
    'request',
    'last_fetch',
  ]
    .map((column) => prefix + column)
    .join(', ');
}

/** A row of `failures` joined to its URL and host. */
export interface FailureRow extends UrlRow {
  readonly host_key: string;
  /** The failure's kind (`kind` is the URL's). */
  readonly failure_kind: string;
  readonly reason: string;
  readonly message: string;
  readonly code: string | null;
  readonly attempts: number;
  readonly at: number;
}

/** A failed URL as `failures` gives it: its entry as claimed, without retry count or revisit. */
export function failedUrlOf(row: FailureRow): FailedUrl {
  const { retries: _retries, revisit: _revisit, ...entry } = entryOf(row, row.host_key);
  const failure: UrlFailure = {
    kind: row.failure_kind === 'refused' ? 'refused' : 'failed',
    reason: row.reason,
    message: row.message,
    ...(row.code === null ? {} : { code: row.code }),
    attempts: row.attempts,
    at: row.at,
  };
  return { entry, failure };
}

/**
 * The entry a row holds. The URL is the dedupe key, after `kind ` for a plugin resource. Only a
 * done URL gets a `last_fetch`, and only `reopenDue` queues a done URL again: a row that has one
 * is a revisit.
 */
export function entryOf(row: UrlRow, hostKey: string): FrontierEntry {
  const isPage = row.kind === null || row.kind === 'page';
  return {
    url: isPage ? row.key : row.key.slice(row.kind!.length + 1),
    hostKey,
    depth: row.depth,
    priority: row.priority,
    ...(row.referrer === null ? {} : { referrer: row.referrer }),
    ...(row.redirected_from === null ? {} : { redirectedFrom: row.redirected_from }),
    ...(row.redirect_hops === null ? {} : { redirectHops: row.redirect_hops }),
    ...(row.retries === null ? {} : { retries: row.retries }),
    ...(row.kind === null ? {} : { kind: row.kind }),
    ...(row.data === null ? {} : { data: JSON.parse(row.data) as Record<string, unknown> }),
    ...(row.request === null ? {} : requestOf(row.request)),
    ...(row.last_fetch === null ? {} : { revisit: JSON.parse(row.last_fetch) as LastFetch }),
  };
}

/**
 * A lease id is `<url row id>:<token>`: the row is found by its primary key, and the token (unique
 * to one claim, across processes) tells a live lease from a stale one.
 */
export function leaseIdOf(rowId: number, token: string): string {
  return `${rowId}:${token}`;
}

export function parseLeaseId(leaseId: string): { rowId: number; token: string } | null {
  const colon = leaseId.indexOf(':');
  if (colon <= 0) return null;
  const rowId = Number(leaseId.slice(0, colon));
  if (!Number.isSafeInteger(rowId)) return null;
  return { rowId, token: leaseId.slice(colon + 1) };
}

function requestOf(column: string): RequestColumn {
  const { label, userData, headers, hints } = JSON.parse(column) as RequestColumn;
  return {
    ...(label === undefined ? {} : { label }),
    ...(userData === undefined ? {} : { userData }),
    ...(headers === undefined ? {} : { headers }),
    ...(hints === undefined ? {} : { hints }),
  };
}
