// One origin's robots.txt fetch: the first hop and every redirect after it (RFC 9309 2.3.1.2:
// at least five hops, across origins too; a loop or one hop too many is treated as 404).

import { performance } from 'node:perf_hooks';
import { PolitelyError } from '../errors.js';
import { raceAbort } from './abort.js';
import { classifyRobotsStatus, type RobotsFetchResult } from './fetch-policy.js';
import type { RobotsFetch, RobotsFetchResponse } from './fetch-robots.js';
import { robotsTxtUrlOf } from './origin.js';
import { encodeRobotsBody, type RobotsOutcome } from './robots-cache.js';

/** Why a redirect was not followed (`invalid-location`: none, unparsable, or not http(s)); the fetch then counts as unavailable. */
export type RobotsRedirectError = 'too-many-redirects' | 'redirect-loop' | 'invalid-location';

/** Reported for every robots.txt request the gate makes: one per hop. */
export interface RobotsFetchEvent {
  /** The origin whose robots.txt is being fetched. */
  readonly origin: string;
  /** The URL of this hop. */
  readonly url: string;
  /** The HTTP status of this hop; null for a network error. */
  readonly status: number | null;
  /** The network error, when `status` is null. */
  readonly error?: Error;
  /** Wall-clock duration of this hop. */
  readonly durationMs: number;
  /** What this hop meant: `redirect` when a redirect was followed, else the fetch's outcome. */
  readonly outcome: RobotsOutcome | 'redirect';
  /** Redirects followed before this hop. */
  readonly redirects: number;
  /** Why a 3xx was not followed, when it was not. */
  readonly redirectError?: RobotsRedirectError;
}

export interface FetchRobotsTxtOptions {
  readonly origin: string;
  readonly userAgent: string;
  readonly fetch: RobotsFetch;
  readonly maxRedirects: number;
  readonly maxBytes: number;
  /** Deadline of each hop. */
  readonly timeoutMs: number;
  /** Aborts the whole fetch (the gate closing); the fetch then rejects with `ERR_ABORTED`. */
  readonly signal: AbortSignal;
  readonly report: (event: RobotsFetchEvent) => void;
  /** The wall clock (ms since the epoch) the fetch's times are read from. */
  readonly now: () => number;
}

/** How a robots.txt fetch ended, and when it ran (ms since the epoch, by the `now` option). */
export interface RobotsFetchDone {
  readonly result: RobotsFetchResult;
  /** When the first hop's request started. */
  readonly requestedAt: number;
  /** When the last hop's response was in, or its request failed. */
  readonly respondedAt: number;
}

/** Fetches an origin's robots.txt, following redirects itself, and says how and when it ended. */
export async function fetchRobotsTxt(options: FetchRobotsTxtOptions): Promise<RobotsFetchDone> {
  const { now } = options;
  const requestedAt = now();
  let respondedAt = requestedAt;
  const result = await followHops(options, () => {
    respondedAt = now();
  });
  return { result, requestedAt, respondedAt };
}

/** The hops of one fetch: the origin's /robots.txt, then each redirect followed; `responded` as each hop ends. */
async function followHops(options: FetchRobotsTxtOptions, responded: () => void): Promise<RobotsFetchResult> {
  const { origin, maxRedirects, signal } = options;
  let url = robotsTxtUrlOf(origin);
  const visited = new Set<string>([url]);
  for (let redirects = 0; ; redirects++) {
    const started = performance.now();
    const hop = await fetchHop(options, url);
    responded();
    if (signal.aborted) throw new PolitelyError('ERR_ABORTED', `robots.txt fetch for ${origin} aborted`);
    const report = (fields: Pick<RobotsFetchEvent, 'status' | 'outcome'> & Partial<RobotsFetchEvent>): void =>
      options.report({ origin, url, redirects, durationMs: performance.now() - started, ...fields });

    if (hop instanceof Error) {
      report({ status: null, outcome: 'unreachable', error: hop });
      // The fetch hands the HTTP client's error on as is, so the SSRF guard's code survives.
      const errorCode = hop instanceof PolitelyError ? hop.code : undefined;
      return {
        outcome: 'unreachable',
        status: null,
        url,
        error: hop.message,
        ...(errorCode !== undefined && { errorCode }),
      };
    }
    const { status } = hop;
    const kind = classifyRobotsStatus(status);
    if (kind !== 'redirect') {
      report({ status, outcome: kind });
      return resultOf(kind, hop, url, options.maxBytes);
    }
    const target = redirectTarget(hop.header('location'), url);
    const redirectError: RobotsRedirectError | undefined =
      target === undefined
        ? 'invalid-location'
        : visited.has(target)
          ? 'redirect-loop'
          : redirects >= maxRedirects
            ? 'too-many-redirects'
            : undefined;
    if (target === undefined || redirectError !== undefined) {
      report({ status, outcome: 'unavailable', ...(redirectError !== undefined && { redirectError }) });
      return { outcome: 'unavailable', status, url };
    }
    report({ status, outcome: 'redirect' });
    visited.add(target);
    url = target;
  }
}

async function fetchHop(options: FetchRobotsTxtOptions, url: string): Promise<RobotsFetchResponse | Error> {
  const { userAgent, maxBytes } = options;
  const signal = AbortSignal.any([options.signal, AbortSignal.timeout(options.timeoutMs)]);
  try {
    // Raced against the signal too, so that a fetch ignoring its signal cannot hang the gate.
    return await raceAbort(options.fetch({ url, userAgent, signal, maxBytes }), signal, `fetch of ${url}`);
  } catch (error) {
    return error instanceof Error ? error : new Error(String(error));
  }
}

function resultOf(
  kind: 'success' | 'unavailable' | 'unreachable',
  response: RobotsFetchResponse,
  url: string,
  maxBytes: number,
): RobotsFetchResult {
  const { status } = response;
  const cacheControl = response.header('cache-control');
  const withCacheControl = cacheControl === undefined ? {} : { cacheControl };
  if (kind === 'unavailable') return { outcome: 'unavailable', status, url, ...withCacheControl };
  if (kind === 'unreachable') {
    const retryAfter = response.header('retry-after');
    return { outcome: 'unreachable', status, url, ...(retryAfter !== undefined && { retryAfter }) };
  }
  const overCap = response.body.length > maxBytes;
  const body = encodeRobotsBody(overCap ? response.body.subarray(0, maxBytes) : response.body);
  return {
    outcome: 'success',
    status,
    url,
    ...body,
    truncatedAtCap: overCap || response.truncatedAtCap,
    ...withCacheControl,
  };
}

/** The absolute http(s) URL a Location header points to, resolved against `base`. */
function redirectTarget(location: string | undefined, base: string): string | undefined {
  if (location === undefined || location.trim() === '') return undefined;
  try {
    const target = new URL(location.trim(), base);
    if (target.protocol !== 'http:' && target.protocol !== 'https:') return undefined;
    target.hash = '';
    return target.href;
  } catch {
    return undefined;
  }
}
