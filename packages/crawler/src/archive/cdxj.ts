// The CDXJ index of a crawl's WARC files, in the form pywb reads (and Webrecorder's tools write):
// one line per response or revisit record,
//
//   urlkey timestamp {"url":…,"mime":…,"status":…,"digest":…,"length":…,"offset":…,"filename":…}
//
// `urlkey` is the URL's SURT key (surt.ts), `timestamp` the record's WARC-Date as 14 digits,
// UTC. The JSON is what a replay needs to find the record: which file, where, how many bytes.
// pywb binary-searches the file, so it must be sorted in byte order: sortCdxjFile, once the
// lines are written (they are appended in crawl order).

import { basename } from 'node:path';
import { PolitelyError } from '@politely/core';
import { sortLinesFile } from './line-sort.js';
import { surtKey } from './surt.js';

export { surtKey } from './surt.js';

/** One indexed record, in the raw values the WARC writer has at hand. */
export interface CdxjEntry {
  /** The record's WARC-Target-URI. */
  readonly url: string;
  /** The record's WARC-Date. */
  readonly date: Date | number;
  /** The HTTP response's Content-Type header as sent (parameters are dropped here); `undefined` if it had none. */
  readonly mime: string | undefined;
  /** The HTTP status code. */
  readonly status: number;
  /** The record's WARC-Payload-Digest, `sha256:<hex>` (the label is dropped in the index). */
  readonly payloadDigest: string;
  /** Bytes the record takes in the file (its gzip member, in a `.warc.gz`). */
  readonly length: number;
  /** Where the record starts in the file. */
  readonly offset: number;
  /** The WARC file's name (a directory before it is dropped). */
  readonly filename: string;
  readonly type: 'response' | 'revisit';
}

/** The CDXJ line of `entry`, ending in `\n`. Throws ERR_INVALID_INPUT for a date, length or offset that cannot be written. */
export function cdxjLine(entry: CdxjEntry): string {
  const fields: Record<string, string> = { url: entry.url };
  const mime = entry.type === 'revisit' ? 'warc/revisit' : mimeOf(entry.mime);
  // A response without a Content-Type has no mime field, as pywb's own indexer leaves it out.
  if (mime !== undefined) fields.mime = mime;
  fields.status = String(checkInteger('status', entry.status));
  fields.digest = digestValue(entry.payloadDigest);
  fields.length = String(checkInteger('length', entry.length));
  fields.offset = String(checkInteger('offset', entry.offset));
  fields.filename = basename(entry.filename);
  return `${keyText(surtKey(entry.url))} ${cdxjTimestamp(entry.date)} ${JSON.stringify(fields)}\n`;
}

/** `YYYYMMDDhhmmss` in UTC (the 14-digit timestamp of CDX indexes and Wayback URLs). */
export function cdxjTimestamp(date: Date | number): string {
  const time = typeof date === 'number' ? date : date.getTime();
  const when = new Date(time);
  const year = when.getUTCFullYear();
  if (!Number.isFinite(time) || year < 0 || year > 9999) {
    throw new PolitelyError(
      'ERR_INVALID_INPUT',
      `a CDXJ timestamp needs a date in years 0 to 9999, got ${String(date)}`,
    );
  }
  const two = (value: number): string => String(value).padStart(2, '0');
  return `${String(year).padStart(4, '0')}${two(when.getUTCMonth() + 1)}${two(when.getUTCDate())}${two(when.getUTCHours())}${two(when.getUTCMinutes())}${two(when.getUTCSeconds())}`;
}

export interface SortCdxjOptions {
  /** Bytes of lines held in memory at once; a larger file is sorted in runs merged from disk. @default 64 MiB */
  readonly maxMemoryBytes?: number;
  /** Stops the sort: it rejects with ERR_ABORTED, the file as it was. */
  readonly signal?: AbortSignal;
}

/**
 * Sorts a CDXJ file in place, in byte order (as `LC_ALL=C sort`), with bounded memory; the
 * sorted file replaces the original by an atomic rename. Rejects with ERR_OUTPUT naming the
 * file when it cannot be read or written (the original is then left as it was, and no temp
 * file is left behind). Empty lines are dropped.
 */
export async function sortCdxjFile(path: string, options: SortCdxjOptions = {}): Promise<void> {
  await sortLinesFile(path, options);
}

/** `text/html; charset=utf-8` → `text/html`; nothing for an empty or absent type. */
function mimeOf(contentType: string | undefined): string | undefined {
  const essence = contentType?.trim().split(/[;\s]/, 1)[0]?.trim();
  return essence === undefined || essence === '' ? undefined : essence;
}

/** `sha256:ab12…` → `ab12…` (whatever the algorithm label). */
function digestValue(digest: string): string {
  const colon = digest.indexOf(':');
  return colon === -1 ? digest : digest.slice(colon + 1);
}

/**
 * The key as it may stand in a line: a URL that is not http(s) is its own key, and a space or a
 * line break in it would cut the line; those (and other controls) are percent-escaped.
 */
function keyText(key: string): string {
  return key.replace(
    /[\u0000-\u0020\u007f]/g,
    (char) => `%${char.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`,
  );
}

function checkInteger(name: string, value: number): number {
  if (!Number.isSafeInteger(value) || value < 0) {
    throw new PolitelyError('ERR_INVALID_INPUT', `a CDXJ ${name} must be a non-negative integer, got ${String(value)}`);
  }
  return value;
}
