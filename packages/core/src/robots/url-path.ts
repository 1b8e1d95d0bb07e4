// The URL side of matching: the path and query a URL puts on the wire
// (test/conformance/README.md rule 2), in the one percent-encoding form rules use.

import { normalizeEscapes } from './percent-encoding.js';

// A fast path for the overwhelmingly common URL: http(s), a plain host, and a path and query
// made only of characters that the WHATWG serialiser leaves as they are. For such a URL the
// serialised path+query is the input's, so `new URL` (the slow part of a check) is skipped.
const SIMPLE_ORIGIN = /^https?:\/\/[A-Za-z0-9][A-Za-z0-9.-]*(?::[0-9]*)?(?=[/?#]|$)/;
const SIMPLE_PATH_QUERY = /^(?:\/[!$-;=@-[\]-_a-z|~]*)?(?:\?[!#-&(-;=?-~]*)?(?:#|$)/;
const DOT_SEGMENT = /(?:^|\/)(?:\.|%2e)(?:\.|%2e)?(?:[/?#]|$)/i;

/** The path and query of `url` as compared against robots.txt rules. */
export function matchPathOf(url: string | URL): string {
  if (typeof url !== 'string') return normalizeEscapes(pathQueryOfParsed(url) ?? '/');
  if (url === '') return '/';
  return normalizeEscapes(fastPathQuery(url) ?? slowPathQuery(url));
}

function fastPathQuery(url: string): string | null {
  const origin = SIMPLE_ORIGIN.exec(url);
  if (origin === null) return null;
  const rest = url.slice(origin[0].length);
  if (!SIMPLE_PATH_QUERY.test(rest)) return null;
  // Dot segments ("/./", "/../", "%2e" forms) are resolved by the WHATWG parser: leave those to it.
  if ((rest.includes('/.') || rest.includes('%2')) && DOT_SEGMENT.test(rest)) return null;
  const hash = rest.indexOf('#');
  const pathQuery = hash === -1 ? rest : rest.slice(0, hash);
  return pathQuery.startsWith('/') ? pathQuery : '/' + pathQuery;
}

function slowPathQuery(url: string): string {
  let parsed: URL | null = null;
  try {
    parsed = new URL(url);
  } catch {
    // Not an absolute URL: fall through to the reference's lenient extraction.
  }
  const pathQuery = parsed === null ? null : pathQueryOfParsed(parsed);
  if (pathQuery !== null) return pathQuery;
  // Appended, not resolved against a base: a path starting with '//' must stay a path.
  return pathQueryOfParsed(new URL('http://robots.invalid' + lenientPathQuery(url))) ?? '/';
}

/** Path and query from a parsed URL's serialisation (an empty `?` is kept); null if opaque. */
function pathQueryOfParsed(url: URL): string | null {
  const pathname = url.pathname;
  if (!pathname.startsWith('/')) return null;
  const href = url.href;
  const hash = href.indexOf('#');
  const end = hash === -1 ? href.length : hash;
  // '?' cannot occur unescaped before the query in a serialised URL.
  const question = href.indexOf('?');
  return question !== -1 && question < end ? pathname + href.slice(question, end) : pathname;
}

/**
 * For strings that are not absolute URLs ("example.com/a", "/a?b"): the reference's
 * GetPathParamsQuery — skip a leading "//", a scheme up to "://", then the authority; keep
 * from the first '/', '?' or ';' up to '#'; always start with '/'.
 */
export function lenientPathQuery(url: string): string {
  const searchStart = url.startsWith('//') ? 2 : 0;
  const earlyPath = indexOfAny(url, '/?;', searchStart);
  let protocolEnd = url.indexOf('://', searchStart);
  if (protocolEnd !== -1 && earlyPath !== -1 && earlyPath < protocolEnd) protocolEnd = -1;
  protocolEnd = protocolEnd === -1 ? searchStart : protocolEnd + 3;
  const pathStart = indexOfAny(url, '/?;', protocolEnd);
  if (pathStart === -1) return '/';
  const hash = url.indexOf('#', searchStart);
  if (hash !== -1 && hash < pathStart) return '/';
  const path = url.slice(pathStart, hash === -1 ? url.length : hash);
  return path.startsWith('/') ? path : '/' + path;
}

function indexOfAny(s: string, chars: string, from: number): number {
  for (let i = from; i < s.length; i++) if (chars.includes(s[i]!)) return i;
  return -1;
}
