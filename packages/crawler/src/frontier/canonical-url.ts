// URL normalisation for the frontier (PURE): one string per resource, used both as the dedupe
// key and as the URL that is fetched. By default it applies only equivalences that cannot change
// what a server sees (WHATWG parsing, RFC 3986 6.2.2 escape normalisation, no fragment); the
// rules that might (dropping or sorting query parameters, `www.`, a trailing slash) are opt-in.
// This runs for every discovered link, so a URL is parsed once and then only sliced, and query
// matchers are compiled when the options are resolved.

// One percent-escape form everywhere (RFC 3986 6.2.2): the robots engine's, so that a canonical
// URL and a robots.txt rule compare alike.
import { PolitelyError } from '@politely/core';
import { hasNormalEscapes, normalizeEscapes } from '@politely/core/internal';

/** A query parameter name to match: a string (where `*` matches any run of characters) or a RegExp. */
export type QueryParamPattern = string | RegExp;

/**
 * How URLs are canonicalised before dedupe (the `canonicalUrl` option): query parameters dropped
 * or sorted, `www.` and trailing slashes, the longest URL kept.
 */
export interface CanonicalUrlOptions {
  /**
   * Query parameters to remove, by name (after percent-decoding and `+` → space). A string
   * matches the whole name, case-sensitively, with `*` matching any run of characters
   * (`'utm_*'`); a RegExp is tested as written (anchor it yourself). Empty by default because
   * the canonical URL is also the URL fetched, and some sites do vary on these parameters;
   * pass `TRACKING_QUERY_PARAMS` to drop the common tracking tags.
   * @default []
   */
  readonly dropQueryParams?: readonly QueryParamPattern[];
  /**
   * Sort query parameters by name (stable: repeated names keep their order). Off by default:
   * parameter order is significant to some servers.
   * @default false
   */
  readonly sortQueryParams?: boolean;
  /**
   * Remove a bare `?` (an empty query): `/p?` becomes `/p`. On by default: servers treat the
   * two alike in practice, and links often differ only by it. A query emptied by
   * `dropQueryParams` is always removed with its `?`.
   * @default true
   */
  readonly removeEmptyQuery?: boolean;
  /**
   * Remove leading `www.` labels from the host (while a dot remains after them). Off by
   * default: `www.example.com` and `example.com` may be different sites.
   * @default false
   */
  readonly stripWww?: boolean;
  /**
   * Remove trailing slashes from a path other than `/`: `/a/` becomes `/a`. Off by default:
   * `/a/` and `/a` are different resources to many servers.
   * @default false
   */
  readonly removeTrailingSlash?: boolean;
  /**
   * Longest canonical URL accepted, in characters (the canonical form is ASCII, so also bytes).
   * Longer URLs give `too-long`. `Infinity` disables the cap.
   * @default 2048
   */
  readonly maxLength?: number;
}

/** Options with every default filled in and the query matcher compiled: resolve once, reuse. */
export interface ResolvedCanonicalUrlOptions {
  readonly dropQueryParams: readonly QueryParamPattern[];
  readonly sortQueryParams: boolean;
  readonly removeEmptyQuery: boolean;
  readonly stripWww: boolean;
  readonly removeTrailingSlash: boolean;
  readonly maxLength: number;
  /** Compiled from `dropQueryParams`; null when no parameter is dropped. */
  readonly isDroppedQueryParam: ((name: string) => boolean) | null;
}

export type CanonicalUrlFailureReason = 'invalid-url' | 'unsupported-scheme' | 'too-long';

export type CanonicalUrlResult =
  | { readonly ok: true; readonly url: string }
  | { readonly ok: false; readonly reason: CanonicalUrlFailureReason; readonly message: string };

/** Common tracking parameters, to pass as `dropQueryParams` (or spread into your own list). */
export const TRACKING_QUERY_PARAMS: readonly string[] = Object.freeze([
  'utm_*',
  'fbclid',
  'gclid',
  'dclid',
  'msclkid',
  'mc_cid',
  'mc_eid',
]);

export const DEFAULT_MAX_URL_LENGTH = 2048;

// Resolved options, and raw options already resolved (options are read once per object).
const resolvedCache = new WeakMap<object, ResolvedCanonicalUrlOptions>();

/** Validates `options` once and fills every default; throws `ERR_INVALID_OPTION`. */
export function resolveCanonicalUrlOptions(
  options: CanonicalUrlOptions | ResolvedCanonicalUrlOptions = {},
): ResolvedCanonicalUrlOptions {
  const cached = resolvedCache.get(options);
  if (cached !== undefined) return cached;
  if (options.dropQueryParams !== undefined && !Array.isArray(options.dropQueryParams))
    throw invalidOption(`dropQueryParams must be an array of names and RegExps, got ${typeof options.dropQueryParams}`);
  const dropQueryParams = Object.freeze([...(options.dropQueryParams ?? [])]);
  const maxLength = options.maxLength === undefined ? DEFAULT_MAX_URL_LENGTH : options.maxLength;
  if (!(maxLength === Number.POSITIVE_INFINITY || (Number.isSafeInteger(maxLength) && maxLength > 0))) {
    throw invalidOption(
      `maxLength must be a positive integer or Infinity, got ${typeof maxLength === 'number' ? maxLength : typeof maxLength}`,
    );
  }
  const resolved: ResolvedCanonicalUrlOptions = Object.freeze({
    dropQueryParams,
    sortQueryParams: booleanOption('sortQueryParams', options.sortQueryParams, false),
    removeEmptyQuery: booleanOption('removeEmptyQuery', options.removeEmptyQuery, true),
    stripWww: booleanOption('stripWww', options.stripWww, false),
    removeTrailingSlash: booleanOption('removeTrailingSlash', options.removeTrailingSlash, false),
    maxLength,
    isDroppedQueryParam: compileNameMatcher(dropQueryParams),
  });
  resolvedCache.set(options, resolved);
  resolvedCache.set(resolved, resolved);
  return resolved;
}

const DEFAULT_OPTIONS = resolveCanonicalUrlOptions();

/**
 * The canonical form of an absolute http(s) URL, or why there is none. Pass options resolved
 * by `resolveCanonicalUrlOptions` (or the same options object each time) in hot loops.
 */
export function canonicalizeUrl(
  input: string | URL,
  options?: CanonicalUrlOptions | ResolvedCanonicalUrlOptions,
): CanonicalUrlResult {
  const opts = options === undefined ? DEFAULT_OPTIONS : resolveCanonicalUrlOptions(options);
  let url: URL;
  if (typeof input === 'string') {
    try {
      url = new URL(input);
    } catch {
      return fail('invalid-url', `Not a valid absolute URL: ${quote(input)}`);
    }
  } else {
    url = input;
  }
  // The scheme read off the serialised URL: `url.protocol` would be a new string for each link.
  if (!isHttpHref(url.href)) {
    const protocol = url.protocol;
    return fail(
      'unsupported-scheme',
      `Unsupported scheme "${protocol}" in ${quote(url.href)}: only http and https are crawled`,
    );
  }
  const canonical = canonicalHref(url, opts);
  if (canonical.length > opts.maxLength) {
    return fail(
      'too-long',
      `URL is ${canonical.length} characters, over the maxLength of ${opts.maxLength}: ${quote(canonical)}`,
    );
  }
  return { ok: true, url: canonical };
}

/** Whether a serialised URL (its scheme lower-cased) is http or https. */
function isHttpHref(href: string): boolean {
  return href.startsWith('http:') || href.startsWith('https:');
}

/**
 * Slices the serialised URL instead of re-parsing it. In a serialised http(s) URL the first
 * `/` after `//` starts the path ('/' is escaped in userinfo), the first `?` starts the query
 * and the first `#` the fragment (both are escaped before them).
 */
function canonicalHref(url: URL, opts: ResolvedCanonicalUrlOptions): string {
  const href = url.href;
  const hashAt = href.indexOf('#');
  const end = hashAt === -1 ? href.length : hashAt;
  // The first ':' ends the scheme; "//" follows it.
  const pathAt = href.indexOf('/', href.indexOf(':') + 3);
  const queryAt = href.indexOf('?', pathAt);
  const pathEnd = queryAt === -1 || queryAt > end ? end : queryAt;
  // Most links are canonical as served: the serialised URL up to its fragment, with no new string.
  if (isCanonicalAsIs(href, pathAt, pathEnd, end, opts)) return hashAt === -1 ? href : href.slice(0, end);

  let origin = href.slice(0, pathAt);
  if (opts.stripWww) origin = stripWwwFromAuthority(origin, url.hostname);
  let path = normalizeEscapes(href.slice(pathAt, pathEnd));
  if (opts.removeTrailingSlash) path = stripTrailingSlashes(path);
  if (pathEnd === end) return origin + path;

  let query = normalizeEscapes(href.slice(pathEnd + 1, end));
  if (opts.isDroppedQueryParam !== null || opts.sortQueryParams) {
    const rewritten = rewriteQuery(query, opts);
    if (rewritten === '' && query !== '') return origin + path;
    query = rewritten;
  }
  if (query === '' && opts.removeEmptyQuery) return origin + path;
  return origin + path + '?' + query;
}

/**
 * Whether `href` up to `end` is its own canonical form: no option rewrites it, no escape changes,
 * and no empty query is to be removed.
 */
function isCanonicalAsIs(
  href: string,
  pathAt: number,
  pathEnd: number,
  end: number,
  opts: ResolvedCanonicalUrlOptions,
): boolean {
  if (opts.stripWww || opts.removeTrailingSlash || opts.isDroppedQueryParam !== null || opts.sortQueryParams) {
    return false;
  }
  if (pathEnd === end - 1 && opts.removeEmptyQuery) return false; // a bare '?'
  // Path and query are normalised apart: no escape spans the '?', which is no hex digit.
  return hasNormalEscapes(href, pathAt, end);
}

function stripWwwFromAuthority(origin: string, hostname: string): string {
  let host = hostname;
  while (host.startsWith('www.') && hasInnerDot(host.slice(4))) host = host.slice(4);
  if (host === hostname) return origin;
  // The host follows the userinfo's '@' ('@' is escaped inside userinfo), else the '//'.
  const hostAt = origin.lastIndexOf('@') + 1 || origin.indexOf('//') + 2;
  return origin.slice(0, hostAt) + host + origin.slice(hostAt + hostname.length);
}

/** `example.com` yes; `com`, `com.` no: stripping must leave more than a top-level label. */
function hasInnerDot(host: string): boolean {
  const dot = host.indexOf('.');
  return dot > 0 && dot < host.length - 1;
}

function stripTrailingSlashes(path: string): string {
  let end = path.length;
  while (end > 1 && path.charCodeAt(end - 1) === 0x2f) end--;
  return end === path.length ? path : path.slice(0, end);
}

/** Drops matching and empty `&`-separated parameters, then sorts by raw name if asked. */
function rewriteQuery(query: string, opts: ResolvedCanonicalUrlOptions): string {
  const isDropped = opts.isDroppedQueryParam;
  const kept: string[] = [];
  for (let start = 0; start <= query.length; ) {
    const amp = query.indexOf('&', start);
    const stop = amp === -1 ? query.length : amp;
    if (stop > start) {
      const pair = query.slice(start, stop);
      if (isDropped === null || !isDropped(decodeFormName(nameOf(pair)))) kept.push(pair);
    }
    start = stop + 1;
  }
  if (opts.sortQueryParams && !isSortedByName(kept)) return sortByName(kept).join('&');
  return kept.join('&');
}

function nameOf(pair: string): string {
  const eq = pair.indexOf('=');
  return eq === -1 ? pair : pair.slice(0, eq);
}

function isSortedByName(pairs: readonly string[]): boolean {
  for (let i = 1; i < pairs.length; i++) if (nameOf(pairs[i - 1]!) > nameOf(pairs[i]!)) return false;
  return true;
}

/** Stable (ES2019 `sort` is), so repeated names keep their relative order: `a=2&a=1` stays. */
function sortByName(pairs: readonly string[]): string[] {
  return pairs
    .map((pair) => ({ name: nameOf(pair), pair }))
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
    .map((entry) => entry.pair);
}

function decodeFormName(name: string): string {
  if (name.indexOf('%') === -1 && name.indexOf('+') === -1) return name;
  const spaced = name.replaceAll('+', ' ');
  try {
    return decodeURIComponent(spaced);
  } catch {
    return spaced; // A malformed escape: match the name as written.
  }
}

/** One function for all patterns: exact names in a Set, globs as literal parts, RegExps. */
function compileNameMatcher(patterns: readonly QueryParamPattern[]): ((name: string) => boolean) | null {
  if (patterns.length === 0) return null;
  const exact = new Set<string>();
  const others: ((name: string) => boolean)[] = [];
  for (const pattern of patterns) {
    if (typeof pattern === 'string') {
      if (pattern.includes('*')) others.push(compileGlob(pattern));
      else exact.add(pattern);
    } else if (pattern instanceof RegExp) {
      const re = statelessRegExp(pattern);
      others.push((name) => re.test(name));
    } else {
      throw invalidOption(`dropQueryParams entries must be strings or RegExps, got ${typeof pattern}`);
    }
  }
  if (others.length === 0) return (name) => exact.has(name);
  return (name) => exact.has(name) || others.some((matches) => matches(name));
}

/**
 * A glob where `*` matches any run of characters (also empty) and everything else is literal,
 * matched against the whole subject. Matched by literal parts with `indexOf` (leftmost match of
 * each middle part is always safe), so the time is at most length × parts: never the
 * backtracking blow-up of a `.*`-per-star RegExp. Shared with the scope's include/exclude.
 */
export function compileGlob(glob: string): (subject: string) => boolean {
  const parts = glob.split('*');
  if (parts.length === 1) return (subject) => subject === glob;
  const head = parts[0]!;
  const tail = parts[parts.length - 1]!;
  const middles = parts.slice(1, -1).filter((part) => part !== '');
  const fixedLength = head.length + tail.length;
  return (subject) => {
    if (subject.length < fixedLength || !subject.startsWith(head) || !subject.endsWith(tail)) return false;
    let at = head.length;
    const limit = subject.length - tail.length;
    for (const middle of middles) {
      const found = subject.indexOf(middle, at);
      if (found === -1 || found + middle.length > limit) return false;
      at = found + middle.length;
    }
    return true;
  };
}

/** A copy without the `g` and `y` flags, whose `lastIndex` would make `test` stateful. */
export function statelessRegExp(re: RegExp): RegExp {
  return re.global || re.sticky ? new RegExp(re.source, re.flags.replace(/[gy]/g, '')) : re;
}

function booleanOption(name: string, value: boolean | undefined, fallback: boolean): boolean {
  if (value === undefined) return fallback;
  if (typeof value !== 'boolean') throw invalidOption(`${name} must be a boolean, got ${typeof value}`);
  return value;
}

function invalidOption(message: string): PolitelyError {
  return new PolitelyError('ERR_INVALID_OPTION', `canonicalizeUrl: ${message}`);
}

function fail(reason: CanonicalUrlFailureReason, message: string): CanonicalUrlResult {
  return { ok: false, reason, message };
}

function quote(s: string): string {
  return JSON.stringify(s.length > 200 ? s.slice(0, 200) + '…' : s);
}
