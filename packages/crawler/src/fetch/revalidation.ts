// The HTTP side of a revisit: the conditional request headers a URL's last fetch allows, what a
// response says about the page (not modified, unchanged, changed), and the caching policy to
// keep. Header semantics (RFC 9111 freshness, which validators to send, what a 304 updates) are
// http-cache-semantics' job, a well-kept library, not hand-written here. Pure.

import { createHash } from 'node:crypto';
import type { LastFetch, PageChange } from '@politely/frontier';
import CachePolicy from 'http-cache-semantics';
import type { KeptValidators } from '../frontier/revisit-schedule.js';

/** The response headers a caching policy needs: the rest would only fill the store. */
const CACHING_HEADERS = ['cache-control', 'expires', 'date', 'age', 'last-modified', 'etag', 'pragma', 'vary'] as const;

/**
 * A crawler is one client asking again for its own earlier answer: not a cache shared between
 * users, and no heuristic freshness (a page without `Cache-Control`/`Expires` is revalidated
 * on every recrawl, not kept for a tenth of its age since `Last-Modified`).
 */
const POLICY_OPTIONS = { shared: false, cacheHeuristic: 0 } as const;

/** The request as the policy sees it: the same each time, so `Vary` never tells two crawls apart. */
const policyRequest = (url: string): CachePolicy.Request => ({ url, method: 'GET', headers: {} });

/**
 * A policy kept with a URL's LastFetch, or undefined when it cannot be read (written by another
 * version of the library, or damaged): the revisit then goes without validators, in full.
 */
function storedPolicy(stored: Readonly<Record<string, unknown>> | undefined): CachePolicy | undefined {
  if (stored === undefined) return undefined;
  try {
    return CachePolicy.fromObject(stored as unknown as CachePolicy.CachePolicyObject);
  } catch {
    return undefined;
  }
}

function cachingHeadersOf(headers: Readonly<Record<string, string>>): Record<string, string> {
  const kept: Record<string, string> = {};
  for (const name of CACHING_HEADERS) {
    const value = headers[name];
    if (value !== undefined) kept[name] = value;
  }
  return kept;
}

/** sha-256 of a body, base64url: equal bodies, equal hashes. */
export function contentHashOf(body: Uint8Array): string {
  return createHash('sha256').update(body).digest('base64url');
}

/**
 * `If-None-Match` / `If-Modified-Since` for a revisit, from the policy its last fetch kept (none
 * under `no-store`, or for a URL never fetched). Weak ETags are sent: a crawler's GET is a
 * simple request, where RFC 9110 allows them.
 */
export function conditionalHeaders(url: string, last: LastFetch | undefined): Record<string, string> {
  const policy = storedPolicy(last?.cachePolicy);
  if (policy === undefined) return {};
  const headers = policy.revalidationHeaders(policyRequest(url));
  const conditional: Record<string, string> = {};
  const etag = headers['if-none-match'];
  const since = headers['if-modified-since'];
  if (typeof etag === 'string') conditional['if-none-match'] = etag;
  if (typeof since === 'string') conditional['if-modified-since'] = since;
  return conditional;
}

/** The response as the revisit schedule needs it. */
export interface FetchedAnswer {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: Uint8Array;
}

/** What a response means for a URL, and the policy to keep for its next visit. */
export interface Revalidation {
  readonly change: PageChange;
  /** The caching policy now (after a 304: the last one, updated by the 304's headers). */
  readonly policy: CachePolicy;
  /** The policy allows keeping the response: no `no-store`. Without it, no validators are kept. */
  readonly storable: boolean;
  /** The body's hash (a 304: the last one's). */
  readonly contentHash: string | undefined;
}

export function revalidate(url: string, last: LastFetch | undefined, answer: FetchedAnswer): Revalidation {
  const request = policyRequest(url);
  if (answer.status === 304 && last !== undefined) {
    const previous = storedPolicy(last.cachePolicy);
    const policy =
      previous === undefined
        ? new CachePolicy(request, { status: last.status, headers: cachingHeadersOf(answer.headers) }, POLICY_OPTIONS)
        : revalidatedPolicy(previous, url, last.status, answer.headers);
    return { change: 'not-modified', policy, storable: policy.storable(), contentHash: last.contentHash };
  }
  const policy = new CachePolicy(
    request,
    { status: answer.status, headers: cachingHeadersOf(answer.headers) },
    POLICY_OPTIONS,
  );
  const contentHash = contentHashOf(answer.body);
  let change: PageChange = 'new';
  if (last !== undefined)
    change = last.contentHash === contentHash && last.status === answer.status ? 'unchanged' : 'changed';
  return { change, policy, storable: policy.storable(), contentHash };
}

/** What the schedule needs of a revalidation: how long it is fresh, and the validators to keep. */
export function scheduleFactsOf(revalidation: Revalidation): {
  readonly freshMs: number;
  readonly kept?: KeptValidators;
} {
  if (!revalidation.storable) return { freshMs: 0 };
  const headers = revalidation.policy.responseHeaders();
  const etag = headers['etag'];
  const lastModified = headers['last-modified'];
  return {
    freshMs: revalidation.policy.timeToLive(),
    kept: {
      ...(typeof etag === 'string' && etag !== '' ? { etag } : {}),
      ...(typeof lastModified === 'string' && lastModified !== '' ? { lastModified } : {}),
      cachePolicy: revalidation.policy.toObject() as unknown as Record<string, unknown>,
    },
  };
}

/**
 * The policy after a 304: the stored response's headers updated by the 304's (RFC 9111 §4.3.4).
 * When the 304 names no validator the library can match (a server that repeats neither ETag
 * nor Last-Modified), it is still this URL's answer to our validators: merged by hand.
 */
function revalidatedPolicy(
  previous: CachePolicy,
  url: string,
  status: number,
  headers: Readonly<Record<string, string>>,
): CachePolicy {
  const revalidated = previous.revalidatedPolicy(policyRequest(url), {
    status: 304,
    headers: cachingHeadersOf(headers),
  });
  if (revalidated.matches) return revalidated.policy;
  const stored = (previous.toObject() as { resh?: Record<string, string> }).resh ?? {};
  return new CachePolicy(
    policyRequest(url),
    { status, headers: { ...cachingHeadersOf(stored), ...cachingHeadersOf(headers) } },
    POLICY_OPTIONS,
  );
}
