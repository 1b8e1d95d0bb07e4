// When a host's next request may start, from what one request learned. PURE arithmetic: every
// time is passed in (ms since the epoch), nothing reads a clock.
//
// The gap a host sees between two of our requests is measured by the server, from when each
// request reached it. We cannot see that moment, but we can see one after it: the response head
// (the server had the request by then). So the pace runs from the head, and never from when we
// sent the request (a request that queued in a busy process, or a slow connect, would otherwise
// shorten the gap the server sees).

/**
 * What an outcome asks of the host's clock. Every field is an absolute time (ms since the epoch);
 * none can move the clock back before a hold already in force (see host-clock.ts).
 */
export interface ClockChange {
  /**
   * The pace: when the host's next request may start because of this one (the response head plus
   * the host's delay). Omitted, the store keeps the clock the claim set.
   */
  readonly readyAt?: number;
  /**
   * No request was made: the clock as it stood before the claim, handed back so that the claim
   * costs the host no delay slot (a robots-disallowed URL, say). Applied only where no other
   * claim of the host can have moved the clock since (pipeline/settle.ts); ignored with `readyAt`.
   */
  readonly handBackTo?: number;
  /** A hold: no request to the host before this (a Retry-After, a backoff). */
  readonly notBefore?: number;
}

/**
 * `Date.now()` truncates to whole milliseconds and the server's clock does not: one more
 * millisecond keeps a gap from being measured a fraction short.
 */
const CLOCK_GRAIN_MS = 1;

/**
 * When the response head arrived, read back from `now` (taken once the body is in) less the
 * body's time: one clock and one duration. Adding the head's time to when the request started
 * would mix two clocks' readings, and a process descheduled in between would start early.
 */
export function responseHeadAt(now: number, timing: { readonly totalMs: number; readonly headersMs: number }): number {
  return now + CLOCK_GRAIN_MS - (timing.totalMs - timing.headersMs);
}

/** The host's clock after a response (or the robots.txt response): its head plus the delay. */
export function pacedAfter(headAt: number, delayMs: number): ClockChange {
  return { readyAt: headAt + delayMs };
}

/**
 * The host's clock after the claim's robots gate check. When the check waited for a robots.txt
 * fetch, that request used the host's turn: the clock runs from its response. Otherwise no
 * request was made, and the clock as it stood before the claim is handed back.
 */
export function clockAfterRobots(
  fetchedRobots: { readonly respondedAt: number } | undefined,
  delayMs: number,
  previousReadyAt: number,
): ClockChange {
  if (fetchedRobots === undefined) return { handBackTo: previousReadyAt };
  return { readyAt: fetchedRobots.respondedAt + CLOCK_GRAIN_MS + delayMs };
}

/**
 * The host's clock while its robots.txt is unreachable: held until the gate fetches it again
 * (`retryAt`: its backoff or the server's Retry-After), and never sooner than the host's delay
 * after the failed fetch this check made, if it made one (a backoff shorter than the delay must
 * not bring the next request closer).
 */
export function clockAfterRobotsFailure(
  retryAt: number,
  fetchedRobots: { readonly respondedAt: number } | undefined,
  delayMs: number,
): ClockChange {
  const paced = fetchedRobots === undefined ? retryAt : fetchedRobots.respondedAt + CLOCK_GRAIN_MS + delayMs;
  return holdUntil(Math.max(retryAt, paced));
}

/**
 * A hold: the host waits until `until` for its next request of any kind (robots.txt retries
 * included). The pace is set there too, for a store that keeps no holds of its own.
 */
export function holdUntil(until: number): ClockChange {
  return { readyAt: until, notBefore: until };
}

export interface FailedAttemptWait {
  /** When the failure was seen: the response head, or the end of a failed request. */
  readonly at: number;
  /** The backoff for the host's consecutive failures so far (at least its delay). */
  readonly backoffMs: number;
  /** What the server asked for in `Retry-After`, read against `at` (ms); undefined when it asked for nothing valid. */
  readonly retryAfterMs: number | undefined;
  /** The longest wait the crawler accepts (`backoffMaxMs`): a server asking for a day is capped. */
  readonly maxWaitMs: number;
}

/**
 * The hold after a failed attempt (a retryable status or a network error): the longer of the
 * backoff and the server's Retry-After (capped). It holds the whole host: a server that asks a
 * client to slow down means the client, not one URL.
 */
export function clockAfterFailure(wait: FailedAttemptWait): ClockChange {
  const askedMs = Math.min(wait.maxWaitMs, wait.retryAfterMs ?? 0);
  return holdUntil(wait.at + Math.max(wait.backoffMs, askedMs));
}

/**
 * The clock after a final response: paced from its head, and held until a Retry-After the
 * server sent with a 429 or 503 that is not retried (the URL's last attempt): the URL is done,
 * but the host was still asked to wait.
 */
export function clockAfterResponse(input: {
  readonly headAt: number;
  readonly delayMs: number;
  readonly status: number;
  readonly retryAfterMs: number | undefined;
  readonly maxWaitMs: number;
}): ClockChange {
  const paced = pacedAfter(input.headAt, input.delayMs);
  const asksToWait = (input.status === 429 || input.status === 503) && input.retryAfterMs !== undefined;
  if (!asksToWait) return paced;
  const notBefore = input.headAt + Math.min(input.maxWaitMs, input.retryAfterMs);
  return { readyAt: Math.max(paced.readyAt ?? notBefore, notBefore), notBefore };
}

/**
 * The host's clock after a signature challenge (`signing.sign: 'on-challenge'`): the signed retry
 * waits for the host's delay after the challenged request and for any `Retry-After` (a hold).
 * Undefined when the server asks for a longer wait than `maxWaitMs`: then there is no retry, and
 * the challenge is the answer.
 */
export function clockAfterChallenge(input: {
  readonly headAt: number;
  readonly delayMs: number;
  readonly retryAfterMs: number | undefined;
  readonly maxWaitMs: number;
}): ClockChange | undefined {
  const paced = input.headAt + input.delayMs;
  if (input.retryAfterMs === undefined) return { readyAt: paced };
  if (input.retryAfterMs > input.maxWaitMs) return undefined;
  const notBefore = input.headAt + input.retryAfterMs;
  return { readyAt: Math.max(paced, notBefore), notBefore };
}

/** Statuses worth another attempt: the server is overloaded or failing, not refusing. */
export function isRetryableStatus(status: number): boolean {
  return status === 429 || status >= 500;
}
