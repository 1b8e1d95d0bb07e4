// The robots gate's fetch, as the crawler provides it: the crawler's own HTTP client and
// User-Agent, and every robots.txt request counted and reported as a request to its host.

import { PolitelyError, type HttpClient, type RobotsFetch } from '@politely/core';

export interface RobotsFetchHooks {
  /** Called as each robots.txt request starts. */
  readonly onRequest: (url: URL, startedAt: number) => void;
  /** Called when the SSRF guard refused the host's address: its URLs are skipped, not retried. */
  readonly onBlocked: (url: URL) => void;
}

export function createCrawlerRobotsFetch(client: HttpClient, timeoutMs: number, hooks: RobotsFetchHooks): RobotsFetch {
  return async (request) => {
    const url = new URL(request.url);
    hooks.onRequest(url, Date.now());
    const response = await client
      .get({
        url: request.url,
        headers: { 'user-agent': request.userAgent, accept: 'text/plain,*/*;q=0.5' },
        signal: request.signal,
        timeoutMs,
        bodyLimit: { maxBytes: request.maxBytes, atLimit: 'truncate' },
      })
      .catch((error: unknown) => {
        if (error instanceof PolitelyError && error.code === 'ERR_ADDRESS_BLOCKED') hooks.onBlocked(url);
        throw error;
      });
    return { status: response.status, header: response.header, body: response.body, truncatedAtCap: response.truncated };
  };
}
