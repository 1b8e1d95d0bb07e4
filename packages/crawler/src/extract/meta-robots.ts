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
const VALUED_DIRECTIVES: ReadonlySet<string> = new Set([
  'max-snippet',
  'max-image-preview',
  'max-video-preview',
  'unavailable_after',
]);

/** `name:` followed by the rest of the piece, where `name` has the characters of a product token. */
const AGENT_PREFIX = /^([A-Za-z_-]+)\s*:(.*)$/s;

interface Restrictions {
  noindex: boolean;
  nofollow: boolean;
}

/**
 * Reads one directive value. Pieces are separated by commas; inside a piece, words by whitespace
 * (`noindex nofollow` is a common slip, and reading it as written is the polite choice).
 * An agent prefix scopes the pieces after it, up to the next prefix; unprefixed pieces apply
 * to every crawler. `all`, `index`, `follow` and anything unknown change nothing.
 */
function readDirectiveValue(value: string, productToken: string): Restrictions {
  const restrictions: Restrictions = { noindex: false, nofollow: false };
  const ourAgent = productToken.toLowerCase();
  let appliesToUs = true;
  for (const rawPiece of value.split(',')) {
    let piece = rawPiece.trim();
    const prefix = AGENT_PREFIX.exec(piece);
    if (prefix !== null) {
      const name = (prefix[1] ?? '').toLowerCase();
      if (!VALUED_DIRECTIVES.has(name)) {
        appliesToUs = ourAgent !== '' && name === ourAgent;
        piece = (prefix[2] ?? '').trim();
      }
    }
    // A valued directive (`max-snippet: 20`) never restricts crawling; skip it whole.
    if (!appliesToUs || piece.includes(':')) continue;
    for (const word of piece.split(/\s+/)) {
      switch (word.toLowerCase()) {
        case 'noindex':
          restrictions.noindex = true;
          break;
        case 'nofollow':
          restrictions.nofollow = true;
          break;
        case 'none':
          restrictions.noindex = true;
          restrictions.nofollow = true;
          break;
        default:
          // `all`, `index`, `follow` are the defaults; unknown directives are ignored.
          break;
      }
    }
  }
  return restrictions;
}

/**
 * Combines every robots directive that reaches a page into what applies to our crawler. The most
 * restrictive wins: a `follow` somewhere never undoes a `nofollow` elsewhere.
 */
export function resolveRobotsDirectives(input: ResolveRobotsDirectivesInput): PageRobotsDirectives {
  let noindex = false;
  let nofollow = false;
  const sources: RobotsDirectiveSource[] = [];
  const read = (source: RobotsDirectiveSourceKind, values: readonly string[]): void => {
    for (const raw of values) {
      const value = raw.trim();
      const found = readDirectiveValue(value, input.productToken);
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
