// Validators and conditional requests (RFC 9110 §8.8, §13.1–13.2): every 200 of a local web
// carries a strong ETag of its body and a Last-Modified, and a request that still holds the
// current representation is answered 304 Not Modified, so recrawls can be judged by bytes.

import { createHash } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import { LocalWebError } from './errors.js';

/** What a web adds to every 200 it serves from one page: its modification time and a cache policy. */
export interface Validators {
  /** Last-Modified as ms since the epoch, a whole second. */
  readonly lastModifiedMs: number;
  /** The same time as an HTTP-date (IMF-fixdate), formatted once. */
  readonly lastModified: string;
  /** A `Cache-Control` value, or `undefined` for none (no freshness: a recrawl revalidates). */
  readonly cacheControl: string | undefined;
}

export function validatorsAt(lastModifiedMs: number, cacheControl: string | undefined): Validators {
  return { lastModifiedMs, lastModified: new Date(lastModifiedMs).toUTCString(), cacheControl };
}

/** `ms` rounded down to the second, as an HTTP-date can hold it. */
export function wholeSecond(ms: number): number {
  return Math.floor(ms / 1000) * 1000;
}

// Resources are built once and sent many times: hash each body once.
const tagCache = new WeakMap<{ readonly body: Buffer }, string>();

/**
 * The resource's strong entity tag: 22 base64url characters (132 bits) of the SHA-256 of its
 * body. The gzip-encoded representation has other bytes, so it gets its own tag (`…-gzip"`).
 */
export function entityTag(resource: { readonly body: Buffer }, gzipped: boolean): string {
  let opaque = tagCache.get(resource);
  if (opaque === undefined) {
    opaque = createHash('sha256').update(resource.body).digest('base64url').slice(0, 22);
    tagCache.set(resource, opaque);
  }
  return gzipped ? `"${opaque}-gzip"` : `"${opaque}"`;
}

const ENTITY_TAG = /(?:W\/)?("[^"]*")/g;

/** RFC 9110 §13.1.2: true when `If-None-Match` lists `tag` (weak comparison) or is `*`. */
export function noneMatchHolds(header: string, tag: string): boolean {
  if (header.trim() === '*') return true;
  for (const match of header.matchAll(ENTITY_TAG)) if (match[1] === tag) return true;
  return false;
}

/**
 * RFC 9110 §13.2.2 for a GET or HEAD of an existing representation: whether to answer 304.
 * `If-None-Match` decides when present; `If-Modified-Since` only without it, and an invalid date
 * is ignored.
 */
export function notModified(headers: IncomingHttpHeaders, tag: string, lastModifiedMs: number): boolean {
  const noneMatch = headers['if-none-match'];
  if (noneMatch !== undefined) return noneMatchHolds(noneMatch, tag);
  const since = headers['if-modified-since'];
  if (since === undefined) return false;
  const sinceMs = Date.parse(since);
  return !Number.isNaN(sinceMs) && lastModifiedMs <= sinceMs;
}

/** Throws `ERR_INVALID_OPTION` unless `value` can be sent as a header value (visible ASCII and spaces). */
export function checkCacheControl(value: string | undefined, caller: string): void {
  if (value !== undefined && !/^[\x21-\x7e](?:[\x20-\x7e]*[\x21-\x7e])?$/.test(value)) {
    throw new LocalWebError(
      'ERR_INVALID_OPTION',
      `${caller}: cacheControl must be a header value such as "max-age=60", got ${JSON.stringify(value)}`,
    );
  }
}
