// Which robots.txt governs a URL: one per origin (RFC 9309 2.3). Pure: no I/O, no clock.

import { PolitelyError } from '../errors.js';

/**
 * The origin whose robots.txt governs `url`: scheme, lower-cased host (internationalised names
 * as punycode) and port, with the scheme's default port folded. `http://a`, `https://a`,
 * `http://a:8080` and `http://www.a` are four origins; `http://müller.eu` and
 * `http://xn--mller-kva.eu:80` are one. Userinfo, path, query and fragment are dropped.
 *
 * @throws PolitelyError `ERR_INVALID_URL` when `url` is not an absolute http(s) URL.
 */
export function robotsOriginOf(url: string | URL): string {
  let parsed: URL;
  try {
    parsed = typeof url === 'string' ? new URL(url) : url;
  } catch (cause) {
    throw new PolitelyError('ERR_INVALID_URL', `not an absolute URL: ${JSON.stringify(url)}`, { cause });
  }
  // The scheme read off the serialisation (lower-cased there): `protocol` is a new string per read.
  const href = parsed.href;
  if (!href.startsWith('http:') && !href.startsWith('https:')) {
    throw new PolitelyError(
      'ERR_INVALID_URL',
      `robots.txt applies to http(s) URLs only, got ${JSON.stringify(parsed.href)}`,
    );
  }
  // The WHATWG serialisation of an http(s) origin already lower-cases the host, converts
  // internationalised names to punycode, and omits the default port.
  return parsed.origin;
}

/** The robots.txt URL of the origin of `originOrUrl`: `https://a.example/robots.txt`. */
export function robotsTxtUrlOf(originOrUrl: string | URL): string {
  return robotsTxtUrlOfOrigin(robotsOriginOf(originOrUrl));
}

/** The robots.txt URL of an origin as `robotsOriginOf` gives it, without parsing it again. */
export function robotsTxtUrlOfOrigin(origin: string): string {
  return `${origin}/robots.txt`;
}
