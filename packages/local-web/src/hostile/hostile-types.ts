// The data of the hostile web that its hosts share: the cases a crawler must survive, what it
// must report for each, and what one host contributes to the web before it is served.

/** What a well-behaved crawler reports for a case. */
export type HostileExpectation =
  /** A good page: the crawler fetches it (200) and it belongs in the results. */
  | { readonly kind: 'page' }
  /** The crawler reports a skip with exactly this reason (`too-large`, `trap`, …). */
  | { readonly kind: 'skip'; readonly reason: string }
  /** The crawler reports a fetch error (timeout, reset, premature close) after its retries. */
  | { readonly kind: 'error' };

/** One way a server misbehaves, and what the crawler must make of it. */
export interface HostileCase {
  /** Kebab-case, unique in the web: `endless-redirect`, `gzip-bomb`, … */
  readonly name: string;
  /** One sentence: what the server does. */
  readonly description: string;
  /** The URL the hub links to. */
  readonly entryUrl: string;
  /**
   * The crawler's skip or error for this case is reported on a URL starting with one of these
   * (a redirect chain's path prefix, `file://`, `http://169.254.169.254/`, …). For a `page`
   * case: `[entryUrl]`.
   */
  readonly reportedUrlPrefixes: readonly string[];
  readonly expect: HostileExpectation;
}

/** The hosts of the hostile web, in address order. */
export const HOSTILE_HOST_NAMES = [
  'hub',
  'redirects',
  'bodies',
  'content',
  'traps',
  'big-robots',
  'raw',
  'silent',
] as const;

export type HostileHostName = (typeof HOSTILE_HOST_NAMES)[number];

/** The hosts served by `node:http`; `raw` and `silent` speak (or not) over bare `node:net`. */
export const HOSTILE_HTTP_HOST_NAMES = ['hub', 'redirects', 'bodies', 'content', 'traps', 'big-robots'] as const;

export type HostileOrigins = Readonly<Record<HostileHostName, string>>;

/** What one host contributes to the web's manifest. */
export interface HostileHostFacts {
  readonly name: HostileHostName;
  readonly description: string;
  /** The robots.txt body (served with 200), or `null` for a host that never answers at all. */
  readonly robotsTxt: string | null;
  readonly cases: readonly HostileCase[];
  /** Paths (with query) of this host that a complete crawl must fetch with status 200. */
  readonly goodPaths: readonly string[];
  /** Paths linked from this host's pages that robots.txt disallows: never fetch. */
  readonly disallowedKnownPaths?: readonly string[];
  readonly trapPrefixes?: readonly string[];
}

export const PAGE: HostileExpectation = { kind: 'page' };
export const ERROR: HostileExpectation = { kind: 'error' };

export function skip(reason: string): HostileExpectation {
  return { kind: 'skip', reason };
}

/** A `page` case: the good page at `entryUrl`, reported on itself. */
export function pageCase(name: string, description: string, entryUrl: string): HostileCase {
  return { name, description, entryUrl, reportedUrlPrefixes: [entryUrl], expect: PAGE };
}
