// Page-level robots directives: <meta name="robots">, <meta name="{our token}"> and X-Robots-Tag.
// PURE: strings in, a value out. No cheerio, no node:*, so the rules can be tested on their own.

/** Where a directive came from. */
export type RobotsDirectiveSourceKind = 'meta-robots' | 'meta-agent' | 'x-robots-tag';

/** One value that applied `noindex` or `nofollow` to our crawler, as it was written. */
export interface RobotsDirectiveSource {
  readonly source: RobotsDirectiveSourceKind;
  readonly value: string;
}

/** What the page's operator asks of our crawler. Directives only add restrictions. */
export interface PageRobotsDirectives {
  /** The page must not be indexed (`noindex` or `none`). */
  readonly noindex: boolean;
  /** The page's links must not be followed (`nofollow` or `none`). */
  readonly nofollow: boolean;
  /** The values that set `noindex` or `nofollow`, in input order; empty when nothing did. */
  readonly sources: readonly RobotsDirectiveSource[];
}

export interface ResolveRobotsDirectivesInput {
  /** `content` of every `<meta name="robots">`. */
  readonly metaRobots: readonly string[];
  /** `content` of every `<meta name="{productToken}">` (the caller matches the name, case-insensitively). */
  readonly metaAgent: readonly string[];
  /** Every `X-Robots-Tag` header value; each may be comma-joined and may hold agent prefixes. */
  readonly xRobotsTag: readonly string[];
  /** Our product token (`MyBot`); an `X-Robots-Tag` agent prefix applies to us when it equals it, ignoring case. */
  readonly productToken: string;
}

/**
 * Directives that take a value after a colon (Google's list). A name followed by ':' that is not
 * one of these is a user-agent prefix, as in `X-Robots-Tag: googlebot: noindex`.
 */
const VALUED_DIRECTIVES: readonly string[] = [
  'max-snippet',
  'max-image-preview',
  'max-video-preview',
  'unavailable_after',
];

interface Restrictions {
  noindex: boolean;
  nofollow: boolean;
}

/**
 * Reads one directive value. Pieces are separated by commas; inside a piece, words by whitespace
 * (`noindex nofollow` is a common slip, and reading it as written is the polite choice).
 * An agent prefix (`name:`, the name made of a product token's characters) scopes the pieces
 * after it, up to the next prefix; unprefixed pieces apply to every crawler. `all`, `index`,
 * `follow` and anything unknown change nothing. Read by index, with no piece or word cut out:
 * it runs for every page's meta robots, which often holds several pieces.
 */
function readDirectiveValue(value: string, ourAgent: string, restrictions: Restrictions): void {
  let appliesToUs = true;
  for (let pieceAt = 0; pieceAt <= value.length; ) {
    const comma = value.indexOf(',', pieceAt);
    const pieceEnd = comma === -1 ? value.length : comma;
    let from = skipWhitespace(value, pieceAt, pieceEnd);
    const to = trimmedEnd(value, from, pieceEnd);
    const nameEnd = skipAgentName(value, from, to);
    const colon = skipWhitespace(value, nameEnd, to);
    if (nameEnd > from && colon < to && value.charCodeAt(colon) === 0x3a /* : */ && !isValued(value, from, nameEnd)) {
      appliesToUs = ourAgent !== '' && equalsIgnoringAsciiCase(value, from, nameEnd, ourAgent);
      from = skipWhitespace(value, colon + 1, to);
    }
    // A valued directive (`max-snippet: 20`) never restricts crawling; skip it whole.
    if (appliesToUs && !hasColon(value, from, to)) readWords(value, from, to, restrictions);
    pieceAt = pieceEnd + 1;
  }
}

/** Applies each whitespace-separated word of `value[from, to)`. */
function readWords(value: string, from: number, to: number, restrictions: Restrictions): void {
  for (let wordAt = skipWhitespace(value, from, to); wordAt < to; ) {
    let wordEnd = wordAt + 1;
    while (wordEnd < to && !isWhitespace(value.charCodeAt(wordEnd))) wordEnd++;
    // Only ASCII spells these words in any case: no other character lowercases to their letters.
    if (equalsIgnoringAsciiCase(value, wordAt, wordEnd, 'noindex')) restrictions.noindex = true;
    else if (equalsIgnoringAsciiCase(value, wordAt, wordEnd, 'nofollow')) restrictions.nofollow = true;
    else if (equalsIgnoringAsciiCase(value, wordAt, wordEnd, 'none')) {
      restrictions.noindex = true;
      restrictions.nofollow = true;
    }
    // `all`, `index`, `follow` are the defaults; unknown directives are ignored.
    wordAt = skipWhitespace(value, wordEnd, to);
  }
}

/** Whether `value[from, to)` names a directive that takes a value. */
function isValued(value: string, from: number, to: number): boolean {
  for (const name of VALUED_DIRECTIVES) if (equalsIgnoringAsciiCase(value, from, to, name)) return true;
  return false;
}

/** Whether `value[from, to)`, its ASCII letters lower-cased, is `lowercase`. */
function equalsIgnoringAsciiCase(value: string, from: number, to: number, lowercase: string): boolean {
  if (to - from !== lowercase.length) return false;
  for (let i = from; i < to; i++) {
    const code = value.charCodeAt(i);
    if ((code >= 0x41 && code <= 0x5a ? code | 0x20 : code) !== lowercase.charCodeAt(i - from)) return false;
  }
  return true;
}

function hasColon(value: string, from: number, to: number): boolean {
  const colon = value.indexOf(':', from);
  return colon !== -1 && colon < to;
}

/** The end of the run of `[A-Za-z_-]` starting at `from`. */
function skipAgentName(value: string, from: number, to: number): number {
  let i = from;
  for (; i < to; i++) {
    const code = value.charCodeAt(i);
    const lower = code | 0x20;
    if (!((lower >= 0x61 && lower <= 0x7a) || code === 0x5f || code === 0x2d)) break;
  }
  return i;
}

function skipWhitespace(value: string, from: number, to: number): number {
  let i = from;
  while (i < to && isWhitespace(value.charCodeAt(i))) i++;
  return i;
}

function trimmedEnd(value: string, from: number, to: number): number {
  let i = to;
  while (i > from && isWhitespace(value.charCodeAt(i - 1))) i--;
  return i;
}

/** JavaScript's whitespace, as `String#trim` and `\s` read it. */
function isWhitespace(code: number): boolean {
  if (code <= 0x20) return code === 0x20 || (code >= 0x09 && code <= 0x0d);
  if (code < 0xa0) return false;
  return (
    code === 0xa0 ||
    code === 0x1680 ||
    (code >= 0x2000 && code <= 0x200a) ||
    code === 0x2028 ||
    code === 0x2029 ||
    code === 0x202f ||
    code === 0x205f ||
    code === 0x3000 ||
    code === 0xfeff
  );
}

/**
 * Combines every robots directive that reaches a page into what applies to our crawler. The most
 * restrictive wins: a `follow` somewhere never undoes a `nofollow` elsewhere.
 */
export function resolveRobotsDirectives(input: ResolveRobotsDirectivesInput): PageRobotsDirectives {
  let noindex = false;
  let nofollow = false;
  const sources: RobotsDirectiveSource[] = [];
  const ourAgent = input.productToken.toLowerCase();
  const found: Restrictions = { noindex: false, nofollow: false };
  const read = (source: RobotsDirectiveSourceKind, values: readonly string[]): void => {
    for (const raw of values) {
      const value = raw.trim();
      found.noindex = found.nofollow = false;
      readDirectiveValue(value, ourAgent, found);
      if (!found.noindex && !found.nofollow) continue;
      noindex ||= found.noindex;
      nofollow ||= found.nofollow;
      sources.push({ source, value });
    }
  };
  read('meta-robots', input.metaRobots);
  read('meta-agent', input.metaAgent);
  read('x-robots-tag', input.xRobotsTag);
  return { noindex, nofollow, sources };
}
