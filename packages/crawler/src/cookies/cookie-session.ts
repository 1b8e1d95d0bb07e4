// The crawl's cookies, RFC 6265 (tough-cookie): what a response sets is sent on later requests
// that the RFC's domain and path matching allows, and to no other site. The jar decides; this
// only feeds it responses and reads it for requests.

import type { CookieJar } from 'tough-cookie';

export interface CookieSession {
  /** The `Cookie` header value for a request to `url`; '' when no cookie matches. */
  cookieFor(url: string): Promise<string>;
  /** Takes the `Set-Cookie` values of a response from `url` (a redirect's too); a cookie the RFC refuses is dropped. */
  remember(url: string, setCookies: readonly string[]): Promise<void>;
}

/** A session over `jar`; `onChange` is told each time a response stored a cookie. */
export function createCookieSession(jar: CookieJar, onChange: () => void): CookieSession {
  return {
    cookieFor: (url) => jar.getCookieString(url),
    async remember(url, setCookies) {
      let stored = false;
      for (const value of setCookies) {
        // ignoreError: a cookie for another domain, a malformed one or a Secure one over http is
        // dropped (RFC 6265 §5.3 "ignore the cookie entirely"), never an error of the page.
        const cookie = await jar.setCookie(value, url, { ignoreError: true });
        if (cookie !== undefined) stored = true;
      }
      if (stored) onChange();
    },
  };
}
