// The crawler's own HTTP client, built from its options: the SSRF guard, the limits, the proxy.

import { type AddressBook, createHttpClient, type HttpClient, PolitelyError } from '@politely/core';
import type { ResolvedCrawlerOptions } from '../options.js';

/**
 * The crawler's own HTTP client, with a connection per request `perHostConcurrency` allows at one
 * host (4 at the fewest); a proxy the SSRF guard refuses is an invalid option of
 * createCrawler. `addresses`: the crawl's address book (a `resolver`, or `politenessKey: 'ip'`),
 * through which every connection resolves its host name, so it reaches the address the key was
 * made from.
 */
export function ownHttpClient(options: ResolvedCrawlerOptions, addresses: AddressBook | undefined): HttpClient {
  try {
    return createHttpClient({
      blockPrivateNetworks: options.blockPrivateNetworks,
      allowNet: options.allowNet,
      connectTimeoutMs: options.connectTimeoutMs,
      maxHeaderBytes: options.maxHeaderBytes,
      // As many connections to one origin as requests may be in flight at one host: the pool's
      // own cap would otherwise queue what `perHostConcurrency` allows.
      connectionsPerOrigin: Math.max(4, options.perHostConcurrency),
      ...(options.proxy === undefined ? {} : { proxy: options.proxy }),
      ...(addresses === undefined ? {} : { addresses }),
    });
  } catch (error) {
    if (error instanceof PolitelyError && error.code === 'ERR_INVALID_OPTION')
      throw new PolitelyError(error.code, `createCrawler: ${error.message}`);
    throw error;
  }
}
