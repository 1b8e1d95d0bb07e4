// The gate's I/O: one HTTP request for a robots.txt, one hop, never following redirects (the
// gate follows them, so a crawler can schedule each hop politely). The default is undici.

import type { Dispatcher } from 'undici';
import { checkNetworks } from '../http/address-guard.js';
import { createHttpClient } from '../http/http-client.js';
import { optionChecks } from '../options/option-checks.js';

/** One robots.txt request a `RobotsFetch` makes: the URL, the user agent and the body cap. */
export interface RobotsFetchRequest {
  /** The absolute URL to GET: the origin's `/robots.txt` or a redirect target. */
  readonly url: string;
  /** Sent as the `User-Agent` header. */
  readonly userAgent: string;
  /** Aborts the request; the fetch must then reject. */
  readonly signal: AbortSignal;
  /** Read at most this many (decompressed) body bytes; reaching the cap is not an error. */
  readonly maxBytes: number;
}

/**
 * What a `RobotsFetch` returns for one hop: status, headers and the (capped) body; redirects are
 * returned, not followed.
 */
export interface RobotsFetchResponse {
  /** The HTTP status of this hop (a 3xx is returned as is, never followed). */
  readonly status: number;
  /** A response header by case-insensitive name (`location`, `cache-control`, `retry-after`, …). */
  header(name: string): string | undefined;
  /** The body, decompressed, at most `maxBytes` long. */
  readonly body: Uint8Array;
  /** The body went on past `maxBytes` and was cut there. */
  readonly truncatedAtCap: boolean;
}

/**
 * Fetches one URL, one hop. Resolves with any HTTP status; rejects on every network failure:
 * DNS, refused or reset connection, timeout, abort, or a body that ends early (before its
 * Content-Length or its last chunk).
 */
export type RobotsFetch = (request: RobotsFetchRequest) => Promise<RobotsFetchResponse>;

/** The default fetch; `close()` releases its connections. */
export interface UndiciRobotsFetch extends RobotsFetch {
  close(): Promise<void>;
}

/** Options of `createUndiciRobotsFetch`: deadlines, the undici dispatcher and the private-network guard. */
export interface UndiciRobotsFetchOptions {
  /**
   * Deadline for the whole request, from connecting to the last body byte.
   * @default 10000
   */
  readonly timeoutMs?: number;
  /**
   * Deadline for connecting (DNS, TCP, TLS); never longer than `timeoutMs`.
   * @default 10000
   */
  readonly connectTimeoutMs?: number;
  /**
   * Dispatcher to send requests through instead of the fetch's own keep-alive `Agent`
   * (which `close()` then leaves open).
   * @default a new undici Agent
   */
  readonly dispatcher?: Dispatcher;
  /**
   * The SSRF guard: refuse loopback, private, link-local, unique-local and unspecified addresses,
   * checked after DNS on every connection (see `createHttpClient`).
   * @default false (the robots gate turns it on for its own fetch)
   */
  readonly blockPrivateNetworks?: boolean;
  /** Networks allowed despite the guard (CIDRs or addresses), e.g. `['127.0.0.0/8']`. @default [] */
  readonly allowNet?: readonly string[];
}

interface ResolvedUndiciRobotsFetchOptions {
  readonly timeoutMs: number;
  readonly connectTimeoutMs: number;
  readonly dispatcher: Dispatcher | undefined;
  readonly blockPrivateNetworks: boolean;
  readonly allowNet: readonly string[];
}

/** Every option `createUndiciRobotsFetch` knows: a key missing here, or one too many, is a type error. */
const ROBOTS_FETCH_OPTION_KEYS: Record<keyof UndiciRobotsFetchOptions, true> = {
  timeoutMs: true,
  connectTimeoutMs: true,
  dispatcher: true,
  blockPrivateNetworks: true,
  allowNet: true,
};

export function resolveUndiciRobotsFetchOptions(
  options: UndiciRobotsFetchOptions = {},
): ResolvedUndiciRobotsFetchOptions {
  const check = optionChecks('createUndiciRobotsFetch');
  check.knownKeys(options, ROBOTS_FETCH_OPTION_KEYS);
  const timeoutMs = check.timeoutMs('timeoutMs', options.timeoutMs, 10_000);
  const connectTimeoutMs = Math.min(check.timeoutMs('connectTimeoutMs', options.connectTimeoutMs, 10_000), timeoutMs);
  const allowNet = checkNetworks(check, 'allowNet', options.allowNet);
  return {
    timeoutMs,
    connectTimeoutMs,
    dispatcher: options.dispatcher,
    blockPrivateNetworks: check.flag('blockPrivateNetworks', options.blockPrivateNetworks, false),
    allowNet,
  };
}

/**
 * An undici fetch with a deadline, a keep-alive agent, gzip/deflate/br, and a body cap: the
 * shared HTTP client of `../http`, with the robots.txt rule that reaching the cap is not an error.
 */
export function createUndiciRobotsFetch(options?: UndiciRobotsFetchOptions): UndiciRobotsFetch {
  const { timeoutMs, connectTimeoutMs, dispatcher, blockPrivateNetworks, allowNet } =
    resolveUndiciRobotsFetchOptions(options);
  const client = createHttpClient({
    connectTimeoutMs,
    blockPrivateNetworks,
    allowNet,
    ...(dispatcher === undefined ? {} : { dispatcher }),
  });
  const fetchRobots = async (request: RobotsFetchRequest): Promise<RobotsFetchResponse> => {
    const response = await client.get({
      url: request.url,
      headers: { 'user-agent': request.userAgent },
      signal: request.signal,
      timeoutMs,
      bodyLimit: { maxBytes: request.maxBytes, atLimit: 'truncate' },
    });
    return {
      status: response.status,
      header: response.header,
      body: response.body,
      truncatedAtCap: response.truncated,
    };
  };
  return Object.assign(fetchRobots, { close: () => client.close() });
}
