// What the bucket scripts take as ARGV, made from the FrontierStore's arguments, and checked
// before anything is sent.

import { PolitelyError } from '@politely/core';
import { type AddOptions, dedupeKeyOf, type FrontierEntry, type LastFetch, type UrlFailure } from '@politely/frontier';
import { encodeEntry, encodeLastFetch } from './entry-codec.js';
import { fingerprintOf } from './fingerprint.js';
import { queuePriorityOf } from './queue-score.js';

/** maxPerHost as add takes it ('' = no bound), checked. */
export function maxPerHostArg(options: AddOptions): string | number {
  const maxPerHost = options.maxPerHost ?? Infinity;
  if (!(maxPerHost === Infinity || (Number.isInteger(maxPerHost) && maxPerHost >= 0))) {
    throw new PolitelyError('ERR_INVALID_INPUT', `add: maxPerHost must be an integer ≥ 0, got ${String(maxPerHost)}`);
  }
  return maxPerHost === Infinity ? '' : maxPerHost;
}

/**
 * Appends the eight ARGV of an entry (see ADD_ENTRIES in frontier-scripts.ts) to `args`: a page's
 * links go into its record's own array.
 */
export function pushEntryArgs(args: (string | number)[], entry: FrontierEntry): void {
  const dedupeKey = dedupeKeyOf(entry);
  // The hints apart, for a duplicate's LastFetch (the entry's JSON is only stored, never read in Lua).
  const hints = typeof entry.hints === 'object' && entry.hints !== null ? JSON.stringify(entry.hints) : '';
  args.push(dedupeKey, entry.hostKey, queuePriorityOf(entry.priority), encodeEntry(entry), hints);
  if (entry.label === undefined) args.push('', '');
  else args.push(...relabelArgs(entry));
  args.push(fingerprintOf(dedupeKey));
}

/** The entry's host key, or ERR_INVALID_INPUT naming the entry. */
export function hostKeyOf(entry: FrontierEntry): string {
  if (typeof entry.hostKey !== 'string' || entry.hostKey === '')
    throw new PolitelyError('ERR_INVALID_INPUT', `add: entry ${entry.url} has no hostKey`);
  return entry.hostKey;
}

/** A LastFetch as the scripts take it ('' = none); its dueAt and fetchedAt become ZSET scores, so they must be finite. */
export function lastFetchArg(last: LastFetch | undefined): string {
  if (last === undefined) return '';
  time('complete: lastFetch.dueAt', last.dueAt);
  time('complete: lastFetch.fetchedAt', last.fetchedAt);
  return encodeLastFetch(last);
}

/**
 * A failure as the scripts take it: its JSON, with only the fields of `UrlFailure`, and its time
 * (a ZSET score, so finite); ['', ''] for none.
 */
export function failureArgs(failure: UrlFailure | undefined): [string, string | number] {
  if (failure === undefined) return ['', ''];
  const { kind, reason, message, code, attempts, at } = failure;
  time('complete: failure.at', at);
  return [JSON.stringify({ kind, reason, message, ...(code === undefined ? {} : { code }), attempts, at }), at];
}

/**
 * What a relabel takes of an entry with a label: its label and userData as JSON members
 * (`"label":…,"userData":…`, appended to the queued entry's JSON) and its priority as JSON.
 */
function relabelArgs({ label, userData, priority }: FrontierEntry): [string, string] {
  return [JSON.stringify({ label, userData }).slice(1, -1), JSON.stringify(priority)];
}

/** An exclusive upper bound of reopenDue as REOPEN_DUE takes it: '' = none (-Infinity), '+inf' = no bound. */
export function scoreBound(before: number): string {
  if (before === -Infinity) return '';
  return before === Infinity ? '+inf' : String(before);
}

/** A finite number of ms, or ERR_INVALID_INPUT. */
export function time(name: string, value: number): number {
  if (typeof value !== 'number' || !Number.isFinite(value))
    throw new PolitelyError('ERR_INVALID_INPUT', `${name} must be a finite number of ms, got ${String(value)}`);
  return value;
}
