// The crawl's HTTP client when it archives: every request asks for its exchange, and the exchange
// is in the archive before the response goes back to whoever asked (the page fetch, the robots
// gate, a sitemap, tdmrep.json, a rendered page's sub-request) — so no URL counts as done before
// its records are on disk. A request that failed after its response head came (a body over the
// cap, a timeout mid-body) is archived too, marked truncated, before its error goes on.

import { exchangeOfError, type HttpClient, type HttpResponse } from '@politely/core';
import type { WarcArchive } from './warc-archive.js';

export function archivingClient(client: HttpClient, archive: WarcArchive): HttpClient {
  return {
    async get(request) {
      let response: HttpResponse;
      try {
        response = await client.get({ ...request, capture: true });
      } catch (error) {
        const exchange = exchangeOfError(error);
        if (exchange !== undefined) await archive.record(request.url, exchange);
        throw error;
      }
      if (response.exchange === undefined) archive.noteUnrecorded();
      else await archive.record(request.url, response.exchange);
      return response;
    },
    close: () => client.close(),
  };
}
