// The robots gate's fetch, as the crawler provides it: the crawler's own HTTP client (with its
// SSRF guard) and User-Agent, and every robots.txt request counted and reported as a request to
// its host. What the fetch meant for the crawl (it used the host's turn, the address was
// refused) comes back in the gate's answer, not through here.

import type { HttpClient, RobotsFetch } from '@politely/core';

export interface RobotsFetchHooks {
  /** Called as each robots.txt request starts (for stats and the `request` event). */
  readonly onRequest: (url: URL, startedAt: number) => void;
}

export function createCrawlerRobotsFetch(client: HttpClient, timeoutMs: number, hooks: RobotsFetchHooks): RobotsFetch {
  return async (request) => {
    const url = new URL(request.url);
    hooks.onRequest(url, Date.now());
    // A refusal by the SSRF guard rejects with its PolitelyError as is: the gate keeps its code.
    const response = await client.get({
      url: request.url,
      headers: { 'user-agent': request.userAgent, accept: 'text/plain,*/*;q=0.5' },
      signal: request.signal,
      timeoutMs,
      bodyLimit: { maxBytes: request.maxBytes, atLimit: 'truncate' },
    });
    return { status: response.status, header: response.header, body: response.body, truncatedAtCap: response.truncated };
  };
}
