// Where the gate keeps what it learned about each origin's robots.txt: a small async store
// interface (so a shared SQLite or Redis store can replace it) and an in-memory LRU default.

import { Buffer } from 'node:buffer';
import { PolitelyError } from '../errors.js';
import { LruMap } from '../lru-map.js';

/** How the latest robots.txt fetch of an origin ended (RFC 9309 2.3.1). */
export type RobotsOutcome =
  /** 2xx: the body is the robots.txt. */
  | 'success'
  /** 4xx other than 429, too many redirects, a redirect loop: no restrictions. */
  | 'unavailable'
  /** 429, 5xx, or a network error: complete disallow for now. */
  | 'unreachable';

/**
 * How a robots.txt body is held as a string: `utf-8` when the bytes are valid UTF-8 (the body
 * is the text itself, byte-order mark included), otherwise `base64` of the raw bytes.
 */
export type RobotsBodyEncoding = 'utf-8' | 'base64';

/** A robots.txt that was fetched with a 2xx status. */
export interface RobotsCacheCopy {
  /** The body (at most the gate's `maxBytes`), encoded as `bodyEncoding` says. */
  readonly body: string;
  readonly bodyEncoding: RobotsBodyEncoding;
  /** The 2xx status it came with. */
  readonly status: number;
  /** The URL it was fetched from, after redirects. */
  readonly url: string;
  /** When it was fetched (ms since the epoch): the last success. */
  readonly fetchedAt: number;
  /** The body was longer than the byte cap and was cut there. */
  readonly truncatedAtCap: boolean;
}

/** What the gate knows about one origin. Plain JSON: every field survives `JSON.stringify`. */
export interface RobotsCacheRecord {
  /** `https://example.com`, as `robotsOriginOf` gives it. */
  readonly origin: string;
  /** How the latest fetch ended. */
  readonly outcome: RobotsOutcome;
  /** HTTP status of the latest fetch's final response; null for a network error. */
  readonly status: number | null;
  /** The URL of the latest fetch's final hop. */
  readonly url: string;
  /** When the latest fetch ended (ms since the epoch). */
  readonly fetchedAt: number;
  /**
   * Until when the latest outcome stands (ms since the epoch): from then on the next check
   * fetches again. For an `unreachable` outcome this is the retry time after backoff.
   */
  readonly expiresAt: number;
  /** Unreachable fetches in a row (0 after any other outcome). */
  readonly consecutiveFailures: number;
  /** When the current run of unreachable fetches began; only on `unreachable`. */
  readonly unreachableSince?: number;
  /** What went wrong on the latest fetch, for people; only on `unreachable`. */
  readonly error?: string;
  /**
   * The `PolitelyError` code of the latest fetch's network error (`ERR_ADDRESS_BLOCKED` when the
   * SSRF guard refused the host's address, `ERR_TIMEOUT`, `ERR_FETCH_FAILED`, …); only on
   * `unreachable`, and only when the error was a `PolitelyError`.
   */
  readonly errorCode?: string;
  /** The last 2xx copy, kept through an outage; dropped when the site answers 4xx. */
  readonly lastGood?: RobotsCacheCopy;
}

/**
 * The gate's store, one record per origin. Async so that it can live in another process;
 * records are plain JSON. Implementations may evict whatever they like: an evicted origin is
 * simply fetched again.
 */
export interface RobotsCacheStore {
  /** The record kept for `origin`, or undefined. */
  get(origin: string): Promise<RobotsCacheRecord | undefined>;
  /** Keeps `record` for `origin`, replacing any earlier one. */
  set(origin: string, record: RobotsCacheRecord): Promise<void>;
  /** Forgets `origin`'s record. */
  delete(origin: string): Promise<void>;
  /**
   * Optional, for a store shared by several processes (Redis): takes the lock on fetching
   * `origin`'s robots.txt for at most `ttlMs`, so that one process fetches it per cache period.
   * Resolves with the function that releases the lock, or null when another process holds it;
   * the gate then waits for that process's record (polling `get`) instead of fetching. A store
   * without it (the memory store) leaves it to each gate's in-process single-flight.
   */
  acquireFetchLock?(origin: string, ttlMs: number): Promise<(() => Promise<void>) | null>;
}

/** Options of `createMemoryRobotsCache`: how many origins it holds. */
export interface MemoryRobotsCacheOptions {
  /**
   * Origins held; the least recently used one is evicted beyond this.
   * @default 10000
   */
  readonly maxOrigins?: number;
}

/** The in-memory store: an LRU map, with its current size for observation. */
export interface MemoryRobotsCache extends RobotsCacheStore {
  readonly size: number;
}

export function resolveMemoryRobotsCacheOptions(
  options: MemoryRobotsCacheOptions = {},
): Required<MemoryRobotsCacheOptions> {
  const maxOrigins = options.maxOrigins ?? 10_000;
  if (!Number.isInteger(maxOrigins) || maxOrigins < 1) {
    throw new PolitelyError(
      'ERR_INVALID_OPTION',
      `createMemoryRobotsCache: maxOrigins must be a positive integer, got ${String(maxOrigins)}`,
    );
  }
  return { maxOrigins };
}

/** An in-process store holding at most `maxOrigins` origins, least recently used evicted. */
export function createMemoryRobotsCache(options?: MemoryRobotsCacheOptions): MemoryRobotsCache {
  const { maxOrigins } = resolveMemoryRobotsCacheOptions(options);
  const records = new LruMap<string, RobotsCacheRecord>(maxOrigins);
  return {
    get size() {
      return records.size;
    },
    get: (origin) => Promise.resolve(records.get(origin)),
    set: (origin, record) => {
      records.set(origin, record);
      return Promise.resolve();
    },
    delete: (origin) => {
      records.delete(origin);
      return Promise.resolve();
    },
  };
}

const UTF8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/** Holds a body as a string: UTF-8 text when it is valid UTF-8, base64 otherwise. */
export function encodeRobotsBody(bytes: Uint8Array): { body: string; bodyEncoding: RobotsBodyEncoding } {
  try {
    return { body: UTF8.decode(bytes), bodyEncoding: 'utf-8' };
  } catch {
    return {
      body: Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('base64'),
      bodyEncoding: 'base64',
    };
  }
}

/** The bytes of a stored body (a UTF-8 body is returned as text, which parses to the same bytes). */
export function decodeRobotsBody(copy: Pick<RobotsCacheCopy, 'body' | 'bodyEncoding'>): string | Uint8Array {
  return copy.bodyEncoding === 'utf-8' ? copy.body : new Uint8Array(Buffer.from(copy.body, 'base64'));
}
