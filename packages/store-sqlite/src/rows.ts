// Rows of the crawl file ↔ frontier values: entries, lease ids.

import type { FrontierEntry } from '@politely/crawler';

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
  /** The user's request data as JSON: `{ label?, userData?, headers? }`; null when none. */
  readonly request: string | null;
}

/** The user's part of an entry, as the `request` column holds it. */
interface RequestColumn {
  readonly label?: string;
  readonly userData?: Readonly<Record<string, unknown>>;
  readonly headers?: Readonly<Record<string, string>>;
}

/** The `request` column for an entry: null (no JSON work) when it carries none of the user's data. */
export function requestColumnOf(entry: FrontierEntry): string | null {
  if (entry.label === undefined && entry.userData === undefined && entry.headers === undefined) return null;
  // JSON.stringify leaves out the fields that are undefined.
  return JSON.stringify({ label: entry.label, userData: entry.userData, headers: entry.headers });
}

/** The columns of `urls` that `UrlRow` reads, for SELECT lists. */
export const URL_COLUMNS = 'id, key, depth, priority, retries, kind, data, referrer, redirected_from, redirect_hops, request';

/** The entry a row holds. The URL is the dedupe key, after `kind ` for a plugin resource. */
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
  const { label, userData, headers } = JSON.parse(column) as RequestColumn;
  return { ...(label === undefined ? {} : { label }), ...(userData === undefined ? {} : { userData }), ...(headers === undefined ? {} : { headers }) };
}
