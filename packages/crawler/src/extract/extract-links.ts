// HTML → the links to follow, the page's robots directives, its canonical URL and title, from
// one streaming pass (html-scan.ts): no DOM is built. PURE. Never throws on content: the scan
// reads any string, and every href is parsed in a try. Only a caller's mistake (an invalid page
// URL, invalid options) throws.

import { PolitelyError } from '@politely/core';
import { lowercased } from '@politely/core/internal';
import { type ExtractOptions, type ResolvedExtractOptions, resolveExtractOptions } from './extract-options.js';
import { type HtmlFacts, scanHtml } from './html-scan.js';
import { type PageRobotsDirectives, resolveRobotsDirectives } from './meta-robots.js';

/** Links found on the page but not returned, by reason. Duplicates and self-links are not counted. */
export interface SkippedLinkCounts {
  /** Hrefs with a scheme other than http and https (`mailto:`, `javascript:`, `tel:`, `data:`, `ftp:` …). */
  readonly scheme: number;
  /** Hrefs that are not URLs (`http://[`, `https://a b/`). */
  readonly invalid: number;
  /** Distinct URLs beyond `maxLinks`. */
  readonly overLimit: number;
}

/** Why `nofollowLinks` holds what it holds. */
export type NofollowReason =
  /** The page said `nofollow` or `none` (see `robots.sources`): every link is here. */
  | 'robots'
  /** Each URL here was only linked with a `rel` token from `nofollowRels`. */
  | 'rel';

export interface ExtractedPage {
  /** Absolute http(s) URLs to follow, without fragments, distinct, in order of first appearance. */
  readonly links: readonly string[];
  /** URLs not to follow, same form; a URL linked both ways is followable and appears in `links` only. */
  readonly nofollowLinks: readonly string[];
  /** `robots` when the page is nofollow, else `rel` when `nofollowLinks` is not empty, else null. */
  readonly nofollowReason: NofollowReason | null;
  readonly skippedLinks: SkippedLinkCounts;
  /** Occurrences of each `rel` token (lowercased) on the page's `a[href]` and `area[href]`; a prototype-less object. */
  readonly relCounts: Readonly<Record<string, number>>;
  readonly robots: PageRobotsDirectives;
  /** The first `<link rel="canonical">`, resolved, without fragment; null if missing, invalid or not http(s). */
  readonly canonicalUrl: string | null;
  /** The URL relative links were resolved against: the first `<base href>` or the page URL. */
  readonly baseUrl: string;
  /** The first `<title>`, whitespace collapsed; null if missing or blank. */
  readonly title: string | null;
  /** Every `<meta name content>` pair, in page order, as written (for usage preferences: `tdm-reservation`, `noai`). */
  readonly metas: readonly { readonly name: string; readonly content: string }[];
}

/** HTML's ASCII whitespace; `String#trim` would also strip characters that browsers keep. */
const ASCII_WHITESPACE = /[\t\n\f\r ]+/;
const EDGE_WHITESPACE = /^[\t\n\f\r ]+|[\t\n\f\r ]+$/g;

/** Strips HTML's ASCII whitespace from both ends (as browsers do with an `href`). */
export function trimAscii(value: string): string {
  // Most values have no whitespace at either end: no regex, no new string.
  if (
    value === '' ||
    (!isAsciiWhitespace(value.charCodeAt(0)) && !isAsciiWhitespace(value.charCodeAt(value.length - 1)))
  )
    return value;
  return value.replace(EDGE_WHITESPACE, '');
}

/**
 * Whether `href` starts with a scheme other than http or https, as the URL parser's scheme state
 * reads one (`[A-Za-z][A-Za-z0-9+.-]*:`). Read character by character: it runs for every link,
 * and a regex match would allocate its result each time.
 */
function hasOtherScheme(href: string): boolean {
  if (!isAsciiAlpha(href.charCodeAt(0))) return false;
  let end = 1;
  for (; end < href.length; end++) {
    const code = href.charCodeAt(end);
    if (code === 0x3a /* : */) break;
    if (!(isAsciiAlpha(code) || (code >= 0x30 && code <= 0x39) || code === 0x2b || code === 0x2e || code === 0x2d))
      return false;
  }
  if (end === href.length) return false; // no colon: a relative reference
  return !isHttpScheme(href, end);
}

/** Whether `href`'s first `length` characters are `http` or `https`, in any case. */
function isHttpScheme(href: string, length: number): boolean {
  if (length !== 4 && length !== 5) return false;
  for (let i = 0; i < length; i++) if ((href.charCodeAt(i) | 0x20) !== 'https'.charCodeAt(i)) return false;
  return true;
}

function isAsciiAlpha(code: number): boolean {
  const lower = code | 0x20;
  return lower >= 0x61 && lower <= 0x7a;
}

/** Tab, line feed, form feed, carriage return, space. */
function isAsciiWhitespace(code: number): boolean {
  return code === 0x20 || code === 0x09 || code === 0x0a || code === 0x0c || code === 0x0d;
}
/**
 * Whether `url` is http(s), read off its serialisation (where the scheme is lowercase): the
 * `protocol` getter makes a new string each time, twice for every link.
 */
function isHttp(url: URL): boolean {
  const href = url.href;
  return href.startsWith('http:') || href.startsWith('https:');
}

/**
 * Writes the tokens of a space-separated attribute (`rel`), lowercased, into `tokens` from its
 * start, and returns how many there are. One array serves every link of a page (a new one per
 * link grew to 17 slots at its second token, and emptying one with `length = 0` drops its
 * slots). Read character by character: a regex split allocates per call.
 */
function readTokens(value: string | undefined, tokens: string[]): number {
  let count = 0;
  // Most links have no `rel`.
  if (value === undefined) return count;
  for (let start = nextTokenStart(value, 0); start < value.length; ) {
    const end = tokenEnd(value, start);
    // Lowercasing token by token is lowercasing the whole value: case mappings never make or
    // take ASCII whitespace, and whitespace bounds the final-sigma context.
    tokens[count++] = lowercased(value.slice(start, end));
    start = nextTokenStart(value, end);
  }
  return count;
}

/** Whether `value`, read as space-separated tokens ignoring case, holds `token` (lowercase). */
function hasToken(value: string, token: string): boolean {
  for (let start = nextTokenStart(value, 0); start < value.length; ) {
    const end = tokenEnd(value, start);
    if (tokenEquals(value, start, end, token)) return true;
    start = nextTokenStart(value, end);
  }
  return false;
}

/** Whether `value.slice(start, end)`, lowercased, is `lowercase`; without a string for ASCII. */
function tokenEquals(value: string, start: number, end: number, lowercase: string): boolean {
  for (let i = start; i < end; i++) {
    // Non-ASCII lowercases by Unicode rules (the Kelvin sign is a `k`): leave it to toLowerCase.
    if (value.charCodeAt(i) > 0x7f) return value.slice(start, end).toLowerCase() === lowercase;
  }
  if (end - start !== lowercase.length) return false;
  for (let i = start; i < end; i++) {
    const code = value.charCodeAt(i);
    if ((code >= 0x41 && code <= 0x5a ? code | 0x20 : code) !== lowercase.charCodeAt(i - start)) return false;
  }
  return true;
}

/** The index of the first non-whitespace character at or after `from`, or the length. */
function nextTokenStart(value: string, from: number): number {
  let i = from;
  while (i < value.length && isAsciiWhitespace(value.charCodeAt(i))) i++;
  return i;
}

/** The index just past the token starting at `start`. */
function tokenEnd(value: string, start: number): number {
  let i = start + 1;
  while (i < value.length && !isAsciiWhitespace(value.charCodeAt(i))) i++;
  return i;
}

/** Parses `href` against `base`, as an absolute http(s) URL without fragment, or says why not. */
export function toHttpUrl(href: string, base: URL): string | 'scheme' | 'invalid' {
  const url = parseHttpUrl(href, base);
  return typeof url === 'string' ? url : withoutFragment(url.href);
}

/** Parses `href` against `base` as an absolute http(s) URL (its fragment kept), or says why not. */
function parseHttpUrl(href: string, base: URL): URL | 'scheme' | 'invalid' {
  // A cheap look at the scheme first: a megabyte `data:` URI is skipped without being parsed.
  if (hasOtherScheme(href)) return 'scheme';
  let url: URL;
  try {
    url = new URL(href, base);
  } catch {
    return 'invalid';
  }
  return isHttp(url) ? url : 'scheme';
}

/**
 * A serialized URL without its fragment. In a serialized URL the first `#` starts the fragment
 * (the serializer percent-encodes it everywhere else), and slicing it off is much cheaper than
 * `url.hash = ''`, which parses the URL again.
 */
function withoutFragment(href: string): string {
  const hashAt = href.indexOf('#');
  return hashAt < 0 ? href : href.slice(0, hashAt);
}

/** The first `<base href>`, resolved against the page URL, if it gives an http(s) URL (HTML: the frozen base URL). */
function readBaseUrl(href: string | undefined, pageUrl: URL): URL {
  if (href === undefined) return pageUrl;
  try {
    const base = new URL(trimAscii(href), pageUrl);
    return isHttp(base) ? base : pageUrl;
  } catch {
    return pageUrl;
  }
}

/** The first `<link rel=canonical href>`, resolved; null if its href is empty, invalid or not http(s). */
function readCanonicalUrl(links: HtmlFacts['linkRels'], base: URL): string | null {
  let canonical: HtmlFacts['linkRels'][number] | undefined;
  for (let i = 0; i < links.length && canonical === undefined; i++) {
    if (hasToken(links[i]!.rel, 'canonical')) canonical = links[i];
  }
  const href = trimAscii(canonical?.href ?? '');
  if (href === '') return null;
  const url = toHttpUrl(href, base);
  return url === 'scheme' || url === 'invalid' ? null : url;
}

function readTitle(title: string | undefined): string | null {
  if (title === undefined) return null;
  const text = title
    .split(ASCII_WHITESPACE)
    .filter((word) => word !== '')
    .join(' ');
  return text === '' ? null : text;
}

function readRobots(
  metas: HtmlFacts['metas'],
  options: ResolvedExtractOptions,
  xRobotsTag: readonly string[],
): PageRobotsDirectives {
  const metaRobots: string[] = [];
  const metaAgent: string[] = [];
  const ourName = options.productToken.toLowerCase();
  for (let i = 0; i < metas.length; i++) {
    const meta = metas[i]!;
    const name = lowercased(trimAscii(meta.name));
    if (name === 'robots') metaRobots.push(meta.content);
    if (name === ourName) metaAgent.push(meta.content);
  }
  return resolveRobotsDirectives({
    metaRobots,
    metaAgent,
    xRobotsTag,
    productToken: options.productToken,
  });
}

/**
 * The link lists of one page: distinct URLs, first appearance first, each list capped. A URL
 * linked both with and without nofollow is followable: it moves to `follow`. Built as the
 * arrays the page returns; the sets that only nofollow links and the cap need are made when
 * a page first needs them.
 */
class LinkLists {
  /** Followable URLs, and each one's parse (which may still hold a fragment), by index. */
  readonly links: string[] = [];
  readonly linkUrls: URL[] = [];
  private readonly followed = new Set<string>();
  private nofollow: Set<string> | undefined;
  /** Distinct URLs dropped by the cap and not returned elsewhere. */
  private overLimit: Set<string> | undefined;

  constructor(private readonly maxLinks: number) {}

  add(url: string, parsed: URL, followable: boolean): void {
    if (this.followed.has(url)) return;
    if (followable) {
      this.nofollow?.delete(url);
      if (this.links.length < this.maxLinks) {
        this.followed.add(url);
        this.links.push(url);
        this.linkUrls.push(parsed);
        this.overLimit?.delete(url);
      } else {
        this.overLimit ??= new Set();
        this.overLimit.add(url);
      }
    } else if (!this.nofollow?.has(url) && !this.overLimit?.has(url)) {
      this.nofollow ??= new Set();
      if (this.nofollow.size < this.maxLinks) this.nofollow.add(url);
      else {
        this.overLimit ??= new Set();
        this.overLimit.add(url);
      }
    }
  }

  nofollowLinks(): string[] {
    return this.nofollow === undefined ? [] : [...this.nofollow];
  }

  overLimitCount(): number {
    return this.overLimit?.size ?? 0;
  }
}

/** An extracted page, and its links as parsed while extracting them. */
export interface ExtractedWithUrls {
  readonly page: ExtractedPage;
  /**
   * `page.links[i]` parsed, for each i (the parse may still hold the link's fragment): the
   * frontier takes them, so that no link is parsed twice.
   */
  readonly linkUrls: readonly URL[];
}

/** Extracts from the page's decoded HTML. `pageUrl` is the final URL, after redirects. */
export function extractPage(html: string, pageUrl: string, options: ExtractOptions): ExtractedPage {
  return extractPageWithUrls(html, pageUrl, options).page;
}

/** `extractPage`, with the links' parses. */
export function extractPageWithUrls(html: string, pageUrl: string, options: ExtractOptions): ExtractedWithUrls {
  return extractFromFacts(scanHtml(html), pageUrl, options);
}

/**
 * `extractPageWithUrls` for a crawler: `options` resolved once (`resolveExtractOptions`), and
 * `xRobotsTag`, the response's own header values, in place of theirs.
 */
export function extractResolvedWithUrls(
  html: string,
  pageUrl: string,
  options: ResolvedExtractOptions,
  xRobotsTag: readonly string[],
): ExtractedWithUrls {
  return extractFromResolvedFacts(scanHtml(html), pageUrl, options, xRobotsTag);
}

/** Resolves what a page's HTML holds (see `scanHtml`) into what the crawler follows. */
export function extractFromFacts(facts: HtmlFacts, pageUrl: string, options: ExtractOptions): ExtractedWithUrls {
  const resolved = resolveExtractOptions(options);
  return extractFromResolvedFacts(facts, pageUrl, resolved, resolved.xRobotsTag);
}

function extractFromResolvedFacts(
  facts: HtmlFacts,
  pageUrl: string,
  options: ResolvedExtractOptions,
  xRobotsTag: readonly string[],
): ExtractedWithUrls {
  let page: URL;
  try {
    page = new URL(pageUrl);
  } catch (cause) {
    throw new PolitelyError('ERR_INVALID_URL', `extractPage: invalid page URL ${JSON.stringify(pageUrl)}`, { cause });
  }
  page.hash = '';
  const pageHref = page.href;
  const base = readBaseUrl(facts.baseHref, page);
  const robots = readRobots(facts.metas, options, xRobotsTag);
  const lists = new LinkLists(options.maxLinks);
  let schemeSkipped = 0;
  let invalidSkipped = 0;
  const relCounts: Record<string, number> = Object.create(null) as Record<string, number>;
  const rels: string[] = [];
  for (let i = 0; i < facts.hrefs.length; i++) {
    const relCount = readTokens(facts.rels[i], rels);
    for (let r = 0; r < relCount; r++) relCounts[rels[r]!] = (relCounts[rels[r]!] ?? 0) + 1;
    const href = trimAscii(facts.hrefs[i] ?? '');
    if (href === '') continue; // the page itself
    const parsed = parseHttpUrl(href, base);
    if (parsed === 'scheme') schemeSkipped++;
    else if (parsed === 'invalid') invalidSkipped++;
    else {
      const url = withoutFragment(parsed.href);
      if (url === pageHref) continue;
      const relNofollow = options.honorNofollow && anyIn(rels, relCount, options.nofollowRels);
      lists.add(url, parsed, !robots.nofollow && !relNofollow);
    }
  }
  const nofollowLinks = lists.nofollowLinks();
  const extracted: ExtractedPage = {
    links: lists.links,
    nofollowLinks,
    nofollowReason: robots.nofollow ? 'robots' : nofollowLinks.length > 0 ? 'rel' : null,
    skippedLinks: { scheme: schemeSkipped, invalid: invalidSkipped, overLimit: lists.overLimitCount() },
    relCounts,
    robots,
    canonicalUrl: readCanonicalUrl(facts.linkRels, base),
    baseUrl: base.href,
    title: readTitle(facts.title),
    metas: facts.metas,
  };
  return { page: extracted, linkUrls: lists.linkUrls };
}

/** Whether any of the first `count` of `tokens` is one of `wanted`; a loop, not a closure per link. */
function anyIn(tokens: readonly string[], count: number, wanted: readonly string[]): boolean {
  for (let i = 0; i < count; i++) if (wanted.includes(tokens[i]!)) return true;
  return false;
}
