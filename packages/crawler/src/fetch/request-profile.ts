// What every request of a crawl carries on the wire besides its own headers: the crawler's
// identity (User-Agent, From), the crawl-wide headers and, when on, the crawl's cookies. One
// merge for pages, plugin resources, redirect hops and robots.txt alike.

import type { CookieSession } from '../cookies/cookie-session.js';

export interface RequestProfile {
  /** Sent as `User-Agent`, always: no other header set overrides it. */
  readonly userAgent: string;
  /** Sent as `From` (the operator's contact address) when set, always: no other header set overrides it. */
  readonly from?: string | undefined;
  /** The crawl-wide headers (checked, names lower-cased). */
  readonly headers?: Readonly<Record<string, string>> | undefined;
  /** The crawl's cookie session, when cookies are on. Not used for robots.txt. */
  readonly cookies?: CookieSession | undefined;
}

/**
 * The headers of one request, lowest precedence first: the request kind's `defaults` (`Accept`),
 * the crawl-wide headers, the request's own headers; then `User-Agent` and `From`, which nothing
 * overrides. A `cookie` (from the jar) is appended to a `Cookie` header set by hand. Pure.
 */
export function outgoingHeaders(
  profile: RequestProfile,
  defaults: Readonly<Record<string, string>>,
  own: Readonly<Record<string, string>> | undefined,
  cookie = '',
): Record<string, string> {
  const headers: Record<string, string> = { ...defaults };
  for (const set of [profile.headers, own]) {
    if (set === undefined) continue;
    for (const [name, value] of Object.entries(set)) headers[name.toLowerCase()] = value;
  }
  headers['user-agent'] = profile.userAgent;
  if (profile.from !== undefined) headers['from'] = profile.from;
  else delete headers['from'];
  if (cookie !== '')
    headers['cookie'] =
      headers['cookie'] === undefined || headers['cookie'] === '' ? cookie : `${headers['cookie']}; ${cookie}`;
  return headers;
}
