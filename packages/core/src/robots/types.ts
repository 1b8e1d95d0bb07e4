// Public data types of the robots.txt engine. Everything here is plain, immutable data.

/** One `user-agent` line of a group. */
export interface RobotsUserAgentLine {
  /** The value as written (UTF-8 text). */
  readonly value: string;
  /** `*` (optionally followed by whitespace and anything): the group for every crawler. */
  readonly isGlobal: boolean;
  /** The product token matched against crawlers: the leading run of `[A-Za-z_-]` of the value. */
  readonly token: string;
  /** 1-based line number. */
  readonly line: number;
}

/** One `allow` or `disallow` rule. */
export interface RobotsRule {
  readonly type: 'allow' | 'disallow';
  /** The path value as written (UTF-8 text). Empty values are kept but never match. */
  readonly value: string;
  /** The value in the one percent-encoding form that URLs are compared in. */
  readonly pattern: string;
  /** 1-based line number. */
  readonly line: number;
  /** The whole line as written, comment included (UTF-8 text). */
  readonly text: string;
}

/** A group: a run of `user-agent` lines and the rules that follow them. */
export interface RobotsGroup {
  readonly userAgents: readonly RobotsUserAgentLine[];
  readonly rules: readonly RobotsRule[];
  /** `crawl-delay` in seconds (an extension to RFC 9309), if the group sets a valid one. */
  readonly crawlDelay?: number;
}

/** How a decision was reached. */
export type RobotsDecisionBasis =
  /** The deciding rule is in `rule`. */
  | 'rule'
  /** A group applies but none of its rules matches the URL: allowed. */
  | 'no-matching-rule'
  /** No group names this crawler and there is no `*` group: allowed. */
  | 'no-matching-group'
  /** `/robots.txt` itself is always allowed. */
  | 'robots-txt';

/** What a site owner's "robots.txt tester" shows: the verdict, the group, the deciding line. */
export interface RobotsExplanation {
  readonly allowed: boolean;
  readonly basis: RobotsDecisionBasis;
  /** The user agent as given. */
  readonly userAgent: string;
  /** The product token it was reduced to, which is what groups are matched against. */
  readonly productToken: string;
  /** The path and query that were compared, in normal percent-encoding. */
  readonly path: string;
  /** Whether the chosen groups name this crawler (`specific`) or are the `*` groups (`global`). */
  readonly groupKind: 'specific' | 'global' | 'none';
  /** The chosen groups (merged when several name the crawler), by their user-agent lines. */
  readonly groups: readonly (readonly RobotsUserAgentLine[])[];
  /** The deciding rule, when `basis` is `rule`. */
  readonly rule?: RobotsRule;
}

/** A parsed robots.txt. Parse once, then check as many URLs as you like. */
export interface RobotsTxt {
  /** Groups in file order. Groups naming the same agent are merged when matching. */
  readonly groups: readonly RobotsGroup[];
  /** `Sitemap:` values in file order, wherever they appear (UTF-8 text, as written). */
  readonly sitemaps: readonly string[];
  /** Size of the input in bytes. */
  readonly totalBytes: number;
  /** Bytes that were parsed (at most the size limit). */
  readonly parsedBytes: number;
  /** The input was larger than the size limit; the rest was ignored. */
  readonly truncated: boolean;
  /** Whether `userAgent` may fetch `url`. */
  isAllowed(url: string | URL, userAgent: string): boolean;
  /** The decision with the group chosen and the deciding rule. */
  explain(url: string | URL, userAgent: string): RobotsExplanation;
  /** The crawl-delay (seconds) of the groups chosen for `userAgent`, if any sets one. */
  crawlDelay(userAgent: string): number | undefined;
}
