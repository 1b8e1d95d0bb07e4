// A redirect goes back to the frontier: its target is a new entry that passes scope, dedupe, its
// own origin's robots.txt and its own host's clock, like any URL. Only the hop count travels.

import type { SkipDetail } from '../skip-reasons.js';
import type { Frontier } from './frontier.js';
import type { FrontierEntry } from './frontier-store.js';

/** A hop that cannot be followed: the URL to report, why, and the page it was found on. */
export interface UnfollowedRedirect {
  readonly url: string;
  readonly skip: SkipDetail;
  readonly referrer: string | undefined;
}

/** Queues the redirect's target; resolves with the skip when the hop cannot be followed. */
export async function followRedirect(entry: FrontierEntry, location: string, maxRedirects: number, frontier: Frontier): Promise<UnfollowedRedirect | undefined> {
  const hops = (entry.redirectHops ?? 0) + 1;
  if (hops > maxRedirects) return { url: entry.url, skip: { reason: 'too-many-redirects', detail: `more than ${maxRedirects} redirects` }, referrer: entry.referrer };
  let target: string;
  try {
    target = new URL(location, entry.url).href;
  } catch {
    return { url: location, skip: { reason: 'invalid-url', detail: `redirect from ${entry.url} to an invalid URL` }, referrer: entry.url };
  }
  await frontier.add([
    {
      url: target,
      depth: entry.depth,
      priority: entry.priority,
      redirectedFrom: entry.redirectedFrom ?? entry.url,
      redirectHops: hops,
      // A plugin resource keeps its kind and data, and (like a cross-host sitemap) its scope exemption.
      ...(entry.kind === undefined ? {} : { kind: entry.kind, skipScope: true }),
      ...(entry.data === undefined ? {} : { data: entry.data }),
      ...(entry.referrer === undefined ? {} : { referrer: entry.referrer }),
      // A request's own headers (a token, say) stay with its origin.
      ...(entry.headers === undefined || new URL(target).origin !== new URL(entry.url).origin ? {} : { headers: entry.headers }),
    },
  ]);
  return undefined;
}
