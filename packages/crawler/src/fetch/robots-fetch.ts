// The robots gate's fetch, as the crawler provides it: the crawler's own HTTP client (with its
// SSRF guard) and User-Agent, and every robots.txt request counted and reported as a request to
// its host. Its requests carry the crawl-wide headers and `From` like every request, but no
// cookies: robots.txt is the same for every visitor (RFC 9309), so it is fetched without a
// session and what it sets is not kept (a consent wall must not stand before it, and a robots.txt
// record shared through a cache must not depend on one crawl's session). What the fetch meant
// for the crawl (it used the host's turn, the address was refused) comes back in the gate's
// answer, not through here.

import type { HttpClient, RobotsFetch } from '@politely/core';
import { type RobotsFetchOutcome, robotsOutcomeOf } from '../metrics/crawl-metrics.js';
import { outgoingHeaders, type RequestProfile } from './request-profile.js';

const ROBOTS_DEFAULTS = { accept: 'text/plain,*/*;q=0.5' };

export interface RobotsFetchHooks {
  /** Called as each robots.txt request starts (for stats and the `request` event). */
  readonly onRequest: (url: URL, startedAt: number) => void;
  /** Called as each robots.txt request ends: what it got (for metrics). */
  readonly onOutcome?: (outcome: RobotsFetchOutcome) => void;
}

/** The crawl-wide part of every robots.txt request (the User-Agent is the gate's). */
export type RobotsRequestProfile = Pick<RequestProfile, 'from' | 'headers'>;

export function createCrawlerRobotsFetch(
  client: HttpClient,
  timeoutMs: number,
  hooks: RobotsFetchHooks,
  profile: RobotsRequestProfile = {},
): RobotsFetch {
  return async (request) => {
    const url = new URL(request.url);
    hooks.onRequest(url, Date.now());
    // A refusal by the SSRF guard rejects with its PolitelyError as is: the gate keeps its code.
    const response = await client
      .get({
        url: request.url,
        headers: outgoingHeaders({ ...profile, userAgent: request.userAgent }, ROBOTS_DEFAULTS, undefined),
        signal: request.signal,
        timeoutMs,
        bodyLimit: { maxBytes: request.maxBytes, atLimit: 'truncate' },
      })
      .catch((error: unknown) => {
        hooks.onOutcome?.('error');
        throw error;
      });
    hooks.onOutcome?.(robotsOutcomeOf(response.status));
    return {
      status: response.status,
      header: response.header,
      body: response.body,
      truncatedAtCap: response.truncated,
    };
  };
}
