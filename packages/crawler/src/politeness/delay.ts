// Politeness arithmetic. PURE: no timers, no clock — `now` is passed in.

/** The bounds of a host's delay: its floor and ceiling in milliseconds. */
export interface DelayBounds {
  /** The least gap between two requests to one host, whatever robots.txt says. */
  readonly minDelayMs: number;
  /** The most a robots.txt `Crawl-delay` may impose (a site asking for an hour is capped). */
  readonly maxDelayMs: number;
}

/** max(configured minimum, robots.txt crawl-delay capped by the maximum). */
export function hostDelayMs(crawlDelaySeconds: number | undefined, bounds: DelayBounds): number {
  const fromRobots = crawlDelaySeconds === undefined ? 0 : Math.min(crawlDelaySeconds * 1000, bounds.maxDelayMs);
  return Math.max(bounds.minDelayMs, fromRobots);
}

/** `Retry-After` (RFC 9110 10.2.3), strictly: the one parser, in core (the robots gate uses it too). */
export { retryAfterMs } from '@politely/core';

/** The input of `backoffMs`: the base delay and its cap. */
export interface BackoffOptions {
  /** The wait after the first failure. */
  readonly baseMs: number;
  /** The longest wait. */
  readonly maxMs: number;
}

/** Exponential backoff: base × 2^(failures − 1), capped. `failures` counts from 1. */
export function backoffMs(failures: number, options: BackoffOptions): number {
  if (failures <= 0) return 0;
  return Math.min(options.maxMs, options.baseMs * 2 ** Math.min(failures - 1, 30));
}

/**
 * The input of `adaptiveDelayMs`: the previous delay, the last response's latency and status, the
 * target concurrency and the bounds.
 */
export interface AdaptiveDelayInput {
  /** The delay in force before this response. */
  readonly previousMs: number;
  /** How long the response took (time to last byte). */
  readonly latencyMs: number;
  /** The HTTP status, or null for a network error. */
  readonly status: number | null;
  /** Requests we aim to have in flight at the host on average (AutoThrottle's target). */
  readonly targetConcurrency: number;
  /** The floor: the host delay from robots.txt and the configured minimum. */
  readonly floorMs: number;
  /** The ceiling for the adaptive delay. */
  readonly ceilingMs: number;
}

/**
 * A latency-adaptive delay in the manner of Scrapy's AutoThrottle: aim for
 * latency / targetConcurrency, move halfway there each response, never below the floor
 * (robots.txt and configuration always win), and never shrink on an error response,
 * whose latency says nothing about the server's capacity.
 */
export function adaptiveDelayMs(input: AdaptiveDelayInput): number {
  const target = input.latencyMs / Math.max(input.targetConcurrency, 0.01);
  let next = (input.previousMs + target) / 2;
  const isError = input.status === null || input.status >= 500 || input.status === 429;
  if (isError) next = Math.max(next, input.previousMs);
  return Math.min(input.ceilingMs, Math.max(input.floorMs, next));
}
