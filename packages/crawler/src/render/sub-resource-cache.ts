// A browser's HTTP cache, for the crawl's rendered pages: intercepting every request turns the
// browser's own cache off, and without one each page would fetch the site's scripts again — one
// more request per script per page, each waiting for its host's turn. A response the server lets
// a private cache keep (RFC 9111: Cache-Control, Expires, or heuristic freshness from
// Last-Modified, as a browser does) answers later pages without a request; a stale one is
// revalidated (If-None-Match / If-Modified-Since) and a 304 answers from it. The rules are
// http-cache-semantics', a well-kept library. Bounded in bytes, least recently used first out;
// one per crawl, in memory.

import type { HttpResponse } from '@politely/core';
import CachePolicy from 'http-cache-semantics';

/** What the cache holds for a URL: the policy, and the answer as it was last received. */
interface Cached {
  policy: CachePolicy;
  readonly status: number;
  headers: readonly (readonly [string, string])[];
  readonly body: Buffer;
}

/** A lookup's verdict: answer from the cache, revalidate with these headers, or fetch. */
export type CacheLookup =
  | {
      readonly kind: 'fresh';
      readonly status: number;
      readonly headers: readonly (readonly [string, string])[];
      readonly body: Buffer;
    }
  | { readonly kind: 'stale'; readonly conditional: Readonly<Record<string, string>> }
  | { readonly kind: 'miss' };

const MISS: CacheLookup = { kind: 'miss' };
/** A private cache (one client's), as a browser's is. */
const POLICY_OPTIONS = { shared: false } as const;

export class SubResourceCache {
  private readonly entries = new Map<string, Cached>();
  private bytes = 0;

  /** `maxBytes`: bodies kept at most, in all; a body past an eighth of it is never kept. */
  constructor(private readonly maxBytes: number) {}

  lookup(url: string, accept: string): CacheLookup {
    const cached = this.entries.get(url);
    if (cached === undefined) return MISS;
    // Recently used goes to the end of the map's order.
    this.entries.delete(url);
    this.entries.set(url, cached);
    const request = requestOf(url, accept);
    if (cached.policy.satisfiesWithoutRevalidation(request)) {
      return {
        kind: 'fresh',
        status: cached.status,
        headers: withHeaders(cached.headers, cached.policy.responseHeaders()),
        body: cached.body,
      };
    }
    const conditional: Record<string, string> = {};
    const revalidation = cached.policy.revalidationHeaders(request);
    for (const name of ['if-none-match', 'if-modified-since']) {
      const value = revalidation[name];
      if (typeof value === 'string') conditional[name] = value;
    }
    return Object.keys(conditional).length === 0 ? MISS : { kind: 'stale', conditional };
  }

  /**
   * What a response to `url` means for the cache: a 304 refreshes the entry and is answered with
   * it (resolves with the cached answer); a storable response is kept. Resolves with the answer
   * to give the page: the cached one for a 304 that matched, else undefined (give the response).
   */
  received(
    url: string,
    accept: string,
    response: HttpResponse,
    headers: readonly (readonly [string, string])[],
    body: Buffer,
  ): CacheLookup | undefined {
    const request = requestOf(url, accept);
    const cached = this.entries.get(url);
    const responseOfPolicy = { status: response.status, headers: response.headers };
    if (response.status === 304 && cached !== undefined) {
      const { policy, modified } = cached.policy.revalidatedPolicy(request, responseOfPolicy);
      if (!modified) {
        cached.policy = policy;
        return {
          kind: 'fresh',
          status: cached.status,
          headers: withHeaders(cached.headers, policy.responseHeaders()),
          body: cached.body,
        };
      }
      return undefined;
    }
    const policy = new CachePolicy(request, responseOfPolicy, POLICY_OPTIONS);
    if (!policy.storable() || response.status !== 200 || body.length > this.maxBytes / 8) return undefined;
    if (
      policy.timeToLive() === 0 &&
      response.header('etag') === undefined &&
      response.header('last-modified') === undefined
    )
      return undefined;
    this.forget(url);
    this.entries.set(url, { policy, status: response.status, headers, body });
    this.bytes += body.length;
    for (const [oldest] of this.entries) {
      if (this.bytes <= this.maxBytes) break;
      this.forget(oldest);
    }
    return undefined;
  }

  private forget(url: string): void {
    const cached = this.entries.get(url);
    if (cached === undefined) return;
    this.entries.delete(url);
    this.bytes -= cached.body.length;
  }
}

const requestOf = (url: string, accept: string): CachePolicy.Request => ({ url, method: 'GET', headers: { accept } });

/** The kept headers with the policy's updated ones (Age, a 304's new validators) over them. */
function withHeaders(
  kept: readonly (readonly [string, string])[],
  updated: CachePolicy.Headers,
): (readonly [string, string])[] {
  const replaced = new Set(Object.keys(updated));
  const merged: (readonly [string, string])[] = kept.filter(([name]) => !replaced.has(name));
  for (const [name, value] of Object.entries(updated)) {
    if (typeof value === 'string') merged.push([name, value]);
    else if (Array.isArray(value)) for (const one of value) merged.push([name, one]);
  }
  return merged;
}
