// The robots gate's fetch, as the crawler provides it: the crawler's own HTTP client (with its
// SSRF guard) and User-Agent, and every robots.txt request counted and reported as a request to
// its host. Its requests carry the crawl-wide headers and `From` like every request, but no
// cookies: robots.txt is the same for every visitor (RFC 9309), so it is fetched without a
// session and what it sets is not kept (a consent wall must not stand before it, and a robots.txt
// record shared through a cache must not depend on one crawl's session). What the fetch meant
// for the crawl (it used the host's turn, the address was refused) comes back in the gate's
// answer, not through here.

import { type HttpClient, type HttpRequest, type HttpResponse, PolitelyError, type RobotsFetch } from '@politely/core';
import { type RobotsFetchOutcome, robotsOutcomeOf } from '../metrics/crawl-metrics.js';
import { clockAfterChallenge, responseHeadAt, retryAfterMs, type SendTicket, sleepUntil } from '../politeness/index.js';
import { outgoingHeaders, type RequestProfile } from './request-profile.js';

const ROBOTS_DEFAULTS = { accept: 'text/plain,*/*;q=0.5' };

export interface RobotsFetchHooks {
  /** Called as each robots.txt request starts (for stats and the `request` event). */
  readonly onRequest: (url: URL, startedAt: number) => void;
  /** Called as each robots.txt request ends: what it got (for metrics). */
  readonly onOutcome?: (outcome: RobotsFetchOutcome) => void;
  /**
   * Waits for the host's turn to send a request (above per-host concurrency 1: robots.txt is a
   * request to the host like a page's, spaced from the others by the moment each is written).
   * Undefined when the signal fires first. Omitted, robots.txt goes at once.
   */
  readonly takeTurn?: (url: URL, signal: AbortSignal) => Promise<SendTicket | undefined>;
}

/**
 * A robots.txt answered with a signature challenge (`signing.sign: 'on-challenge'`) is fetched
 * again, signed, within the same fetch: the gate must judge the signed answer, not the challenge
 * (RFC 9309 would read a 401/403 as "no robots.txt" and a 429 as "unreachable").
 */
export interface RobotsChallengeRetry {
  readonly isChallenge: (response: HttpResponse) => boolean;
  /** The host's delay: the signed retry waits that long after the challenged request. */
  readonly delayMsOf: (url: URL) => number;
  /**
   * The longest wait for the signed retry within one fetch (it must fit in the gate's deadline);
   * asked to wait longer, the fetch fails and the gate retries robots.txt later, signed.
   */
  readonly maxWaitMs: number;
}

/** The crawl-wide part of every robots.txt request (the User-Agent is the gate's). */
export type RobotsRequestProfile = Pick<RequestProfile, 'from' | 'headers'>;

export function createCrawlerRobotsFetch(
  client: HttpClient,
  timeoutMs: number,
  hooks: RobotsFetchHooks,
  profile: RobotsRequestProfile = {},
  challenge?: RobotsChallengeRetry,
): RobotsFetch {
  return async (request) => {
    const url = new URL(request.url);
    const sent: HttpRequest = {
      url: request.url,
      headers: outgoingHeaders({ ...profile, userAgent: request.userAgent }, ROBOTS_DEFAULTS, undefined),
      signal: request.signal,
      timeoutMs,
      bodyLimit: { maxBytes: request.maxBytes, atLimit: 'truncate' },
    };
    const get = async (): Promise<HttpResponse> => {
      const ticket = await hooks.takeTurn?.(url, request.signal);
      if (hooks.takeTurn !== undefined && ticket === undefined)
        throw new PolitelyError('ERR_ABORTED', `GET ${request.url}: stopped while waiting for the host's turn`);
      hooks.onRequest(url, Date.now());
      try {
        // A refusal by the SSRF guard rejects with its PolitelyError as is: the gate keeps its code.
        const answer = await client
          .get(ticket === undefined ? sent : { ...sent, onSent: ticket.sent })
          .catch((error: unknown) => {
            hooks.onOutcome?.('error');
            throw error;
          });
        hooks.onOutcome?.(robotsOutcomeOf(answer.status));
        return answer;
      } finally {
        await ticket?.end(Date.now());
      }
    };
    let response = await get();
    if (challenge?.isChallenge(response) === true) {
      const retryAt = signedRetryAt(response, url, challenge);
      // Too long a wait for this fetch: a failed fetch (robots.txt unreachable) holds the host
      // until the gate fetches it again, signed up front then; the challenge is never judged.
      if (retryAt === undefined || retryAt - Date.now() > challenge.maxWaitMs)
        throw new PolitelyError(
          'ERR_FETCH_FAILED',
          `GET ${request.url}: HTTP ${response.status} asks for a signature, and for a longer wait than the signed retry may take here; robots.txt is fetched again, signed, when the robots gate retries`,
        );
      await sleepUntil(retryAt, [request.signal]);
      response = await get();
    }
    return {
      status: response.status,
      header: response.header,
      body: response.body,
      truncatedAtCap: response.truncated,
    };
  };
}

/** When a challenged robots.txt may be fetched again, signed: the host's delay and any Retry-After after its head. */
function signedRetryAt(response: HttpResponse, url: URL, challenge: RobotsChallengeRetry): number | undefined {
  const headAt = responseHeadAt(Date.now(), response.timing);
  const clock = clockAfterChallenge({
    headAt,
    delayMs: challenge.delayMsOf(url),
    retryAfterMs: retryAfterMs(response.header('retry-after'), headAt),
    maxWaitMs: challenge.maxWaitMs,
  });
  return clock?.readyAt;
}
