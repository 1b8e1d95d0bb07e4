// The `sent` event, told by a decorator of the crawl's HTTP client: every request the crawl makes
// (pages, robots.txt, tdmrep.json, a rendered page's sub-requests) goes through it, so one place
// knows which requests reached a server and when, and which failed before (DNS, a refused or
// timed-out connection, the SSRF guard, TLS). Reports judge politeness from these moments only.

import type { HttpClient, HttpRequest, HttpResponse } from '@politely/core';
import type { CrawlerEmitter } from '../events.js';

/**
 * `client`, with a `sent` event the moment each request's head is written (`HttpRequest.onSent`).
 * A client that never calls `onSent` (an `httpClient` of the caller's) still has its answered
 * requests reported: a response proves the request reached a server, so it is `sent` at its
 * start. Costs nothing while nobody listens to `sent`.
 */
export function sentReportingClient(client: HttpClient, emitter: CrawlerEmitter): HttpClient {
  return {
    get: (request) => (emitter.listens('sent') ? reportingSent(client, emitter, request) : client.get(request)),
    close: () => client.close(),
  };
}

async function reportingSent(client: HttpClient, emitter: CrawlerEmitter, request: HttpRequest): Promise<HttpResponse> {
  const startedAt = Date.now();
  let told = false;
  const tell = (at: number): void => {
    if (told) return;
    told = true;
    emitter.emit('sent', { url: request.url, at });
  };
  const response = await client.get({
    ...request,
    onSent: (at) => {
      request.onSent?.(at);
      tell(at);
    },
  });
  tell(startedAt);
  return response;
}
