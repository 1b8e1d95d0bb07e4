// The SURT url key of a CDXJ index: the form a URL is looked up by. pywb binary-searches its
// CDXJ files for exactly the key it computes from the requested URL (the range `key` to
// `key + '!'`), with the python `surt` package's default settings; so a line whose key differs by
// one character is never found. These are those settings, written anew from what they do:
//
// - Only http(s) URLs are keyed; any other text (`dns:`, `urn:`, `mailto:`, a URL without a
//   scheme, one the WHATWG parser refuses) is its own key, unchanged, and never throws.
// - Scheme, user info and fragment dropped; a default port (80, 443) dropped, any other kept.
// - Host lowercased (and IDNA-encoded, IPv4 forms normalised, by the WHATWG parser), runs of
//   dots collapsed and edge dots dropped, a leading `www.`/`www<digits>.` dropped, the labels
//   reversed and joined by commas, then `)`. IPv4 hosts are reversed too (`1,0,0,127)`): both
//   pywb and warcio.js do so. IPv6 hosts lose their brackets, as in python `surt`.
// - Path and query percent-decoded until nothing changes, then re-encoded (only bytes outside
//   `!`…`~`, `#` and `%` are escaped), so `%7E` and `~` give one key.
// - Path: `.` and `..` segments resolved, empty segments dropped (but the last), lowercased, a
//   trailing slash dropped (`/a/` → `/a`; `/` stays), ASP.NET session ids taken out.
// - Query: session ids (jsessionid, phpsessid, sid, ASPSESSIONID…, cfid+cftoken) taken out,
//   lowercased, its `&`-separated arguments sorted by name then value; an empty query dropped.
//
// warcio.js's getSurt is a lighter version of this (no decoding, no path normalising, no
// trailing-slash drop, arguments sorted as whole strings): where the two differ we follow
// python `surt`, since that is what pywb looks records up with.

/** The CDXJ url key of `url` (pywb's SURT form); a URL that is not http(s) is returned unchanged. */
export function surtKey(url: string): string {
  const parsed = parseHttpUrl(url);
  if (parsed === undefined) return url;
  const host = hostKey(parsed.hostname);
  const port = parsed.port === '' ? '' : `:${parsed.port}`;
  const query = queryKey(parsed.search);
  return `${host}${port})${pathKey(parsed.pathname)}${query === '' ? '' : `?${query}`}`;
}

/** The URL parsed by the WHATWG parser, when it is http(s) and parses; otherwise `undefined`. */
function parseHttpUrl(url: string): URL | undefined {
  // python `surt` also mends a doubled scheme (`http://https://host/`), a common crawl artefact.
  const mended = url.trim().replace(/^(?:https?:\/\/)+(https?:\/\/)/, '$1');
  if (!/^https?:/i.test(mended)) return undefined;
  try {
    return new URL(mended);
  } catch {
    return undefined;
  }
}

const WWW_PREFIX = /^www\d*\./;

/** `www.Example.co.uk` → `uk,co,example`. */
function hostKey(hostname: string): string {
  const bare = hostname.startsWith('[') && hostname.endsWith(']') ? hostname.slice(1, -1) : hostname;
  const tidy = trimDots(bare.replaceAll('..', '.')).toLowerCase().replace(WWW_PREFIX, '');
  return tidy.split('.').reverse().join(',');
}

function trimDots(text: string): string {
  let start = 0;
  let end = text.length;
  while (start < end && text[start] === '.') start += 1;
  while (end > start && text[end - 1] === '.') end -= 1;
  return text.slice(start, end);
}

/** The path part of the key (always starting with `/`). */
function pathKey(pathname: string): string {
  const decoded = unescapeRepeatedly(Buffer.from(pathname, 'latin1'));
  const path = stripPathSessionId(escapeOnce(normalizePath(decoded)).toLowerCase());
  return path.length > 1 && path.endsWith('/') ? path.slice(0, -1) : path;
}

/** The query part of the key, without its `?`; empty for none. */
function queryKey(search: string): string {
  if (search.length <= 1) return '';
  const decoded = unescapeRepeatedly(Buffer.from(search.slice(1), 'latin1'));
  const query = stripQuerySessionId(escapeOnce(decoded)).toLowerCase();
  return query === '' ? '' : sortQuery(query);
}

const SLASH = 0x2f;
const PERCENT = 0x25;
const HASH = 0x23;

/**
 * Decodes `%XX` escapes again and again until none is left to decode (`%2525` → `%`). Each pass
 * that changes something shortens the bytes by two or more, so the passes are bounded by the length.
 */
function unescapeRepeatedly(bytes: Buffer): Buffer {
  let current = bytes;
  for (let pass = 0; pass <= bytes.length; pass += 1) {
    const next = percentDecode(current);
    if (next.length === current.length) return current;
    current = next;
  }
  return current;
}

function percentDecode(bytes: Buffer): Buffer {
  const out = Buffer.allocUnsafe(bytes.length);
  let size = 0;
  for (let i = 0; i < bytes.length; i += 1) {
    const byte = bytes[i] as number;
    const high = byte === PERCENT ? hexValue(bytes[i + 1]) : -1;
    const low = high >= 0 ? hexValue(bytes[i + 2]) : -1;
    if (low >= 0) {
      out[size] = high * 16 + low;
      i += 2;
    } else {
      out[size] = byte;
    }
    size += 1;
  }
  return out.subarray(0, size);
}

function hexValue(byte: number | undefined): number {
  if (byte === undefined) return -1;
  if (byte >= 0x30 && byte <= 0x39) return byte - 0x30;
  const lower = byte | 0x20;
  return lower >= 0x61 && lower <= 0x66 ? lower - 0x61 + 10 : -1;
}

/** Escapes every byte outside `!`…`~`, and `#` and `%` themselves, as `%XX` (upper-case hex). */
function escapeOnce(bytes: Buffer): string {
  let out = '';
  for (const byte of bytes) {
    const plain = byte >= 0x21 && byte <= 0x7e && byte !== HASH && byte !== PERCENT;
    out += plain ? String.fromCharCode(byte) : `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return out;
}

/**
 * Resolves `.` and `..` segments and drops empty ones but the last (so `//a//b/` → `/a/b/`),
 * on the decoded bytes: a `%2F` decoded is a separator here, as in python `surt`. A `..` with
 * nothing before it is kept.
 */
function normalizePath(path: Buffer): Buffer {
  const segments = splitBytes(path, SLASH).slice(1);
  const kept: Buffer[] = [];
  for (const segment of segments) {
    const text = segment.length <= 2 ? segment.toString('latin1') : '';
    if (text === '.') continue;
    if (text === '..' && kept.length > 0) kept.pop();
    else kept.push(segment);
  }
  const parts: Buffer[] = [Buffer.from('/')];
  kept.forEach((segment, index) => {
    const last = index === kept.length - 1;
    if (last) parts.push(segment);
    else if (segment.length > 0) parts.push(segment, Buffer.from('/'));
  });
  return Buffer.concat(parts);
}

function splitBytes(bytes: Buffer, separator: number): Buffer[] {
  const parts: Buffer[] = [];
  let start = 0;
  for (let at = bytes.indexOf(separator); at !== -1; at = bytes.indexOf(separator, start)) {
    parts.push(bytes.subarray(start, at));
    start = at + 1;
  }
  parts.push(bytes.subarray(start));
  return parts;
}

// ASP.NET cookieless session ids in the path: `/(S(24 chars))/page.aspx` and `/(24 chars)/page.aspx`.
const PATH_SESSION_IDS = [
  /^(.*\/)\((?:[a-z]\([0-9a-z]{24}\))+\)\/([^?]+\.aspx.*)$/i,
  /^(.*\/)\([0-9a-z]{24}\)\/([^?]+\.aspx.*)$/i,
];

function stripPathSessionId(path: string): string {
  let result = path;
  for (const pattern of PATH_SESSION_IDS) {
    const match = pattern.exec(result);
    if (match !== null) result = `${match[1] ?? ''}${match[2] ?? ''}`;
  }
  return result;
}

// Session ids in the query; each taken out once, with the `&` after it (the one before stays).
const QUERY_SESSION_IDS = [
  /^(.*)jsessionid=[0-9a-z]{32}(?:&(.*))?$/i,
  /^(.*)phpsessid=[0-9a-z]{32}(?:&(.*))?$/i,
  /^(.*)sid=[0-9a-z]{32}(?:&(.*))?$/i,
  /^(.*)aspsessionid[a-z]{8}=[a-z]{24}(?:&(.*))?$/i,
  /^(.*)cfid=[^&]+&cftoken=[^&]+(?:&(.*))?$/i,
];

function stripQuerySessionId(query: string): string {
  let result = query;
  for (const pattern of QUERY_SESSION_IDS) {
    const match = pattern.exec(result);
    if (match !== null) result = `${match[1] ?? ''}${match[2] ?? ''}`;
  }
  return result;
}

/**
 * Sorts the arguments by name, then by value, an argument without `=` before one with it
 * (`a-b=1&a=2` → `a=2&a-b=1`: names compared alone, not whole arguments).
 */
function sortQuery(query: string): string {
  const pairs = query.split('&').map((argument) => {
    const equals = argument.indexOf('=');
    return equals === -1
      ? { argument, name: argument, value: undefined }
      : { argument, name: argument.slice(0, equals), value: argument.slice(equals + 1) };
  });
  pairs.sort((a, b) => compareText(a.name, b.name) || compareValue(a.value, b.value));
  return pairs.map((pair) => pair.argument).join('&');
}

function compareValue(a: string | undefined, b: string | undefined): number {
  if (a === undefined || b === undefined) return (a === undefined ? 0 : 1) - (b === undefined ? 0 : 1);
  return compareText(a, b);
}

/** Code-unit order, which is byte order here: the text is ASCII once escaped. */
function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
