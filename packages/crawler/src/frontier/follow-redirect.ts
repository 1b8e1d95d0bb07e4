// A redirect goes back to the frontier: its target is a new entry that passes scope, dedupe, its
// own origin's robots.txt and its own host's clock, like any URL. What travels: the hop count, the
// request's label and userData (the page is the one the user asked for), a plugin's kind and
// data, and the request's own headers while the hop stays on the origin they were given for (a
// header such as Authorization must not reach another site: the Fetch standard drops it too).

import type { FrontierEntry } from '@politely/frontier';
import type { SkipDetail } from '../skip-reasons.js';
import type { Frontier } from './frontier.js';

/** A hop that cannot be followed: the URL to report, why, and the page it was found on. */
export interface UnfollowedRedirect {
  readonly url: string;
  readonly skip: SkipDetail;
  readonly referrer: string | undefined;
}

/** Queues the redirect's target; resolves with the skip when the hop cannot be followed. */
export async function followRedirect(
  entry: FrontierEntry,
  location: string,
  maxRedirects: number,
  frontier: Frontier,
): Promise<UnfollowedRedirect | undefined> {
  const hops = (entry.redirectHops ?? 0) + 1;
  if (hops > maxRedirects)
    return {
      url: entry.url,
      skip: { reason: 'too-many-redirects', detail: `more than ${maxRedirects} redirects` },
      referrer: entry.referrer,
    };
  let target: string;
  try {
    target = new URL(location, entry.url).href;
  } catch {
    return {
      url: location,
      skip: { reason: 'invalid-url', detail: `redirect from ${entry.url} to an invalid URL` },
      referrer: entry.url,
    };
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
      ...(entry.label === undefined ? {} : { label: entry.label }),
      ...(entry.userData === undefined ? {} : { userData: entry.userData }),
      ...(entry.headers !== undefined && sameOrigin(target, entry.url) ? { headers: entry.headers } : {}),
    },
  ]);
  return undefined;
}

function sameOrigin(a: string, b: string): boolean {
  return new URL(a).origin === new URL(b).origin;
}
