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

/**
 * A line with a key that RFC 9309 and the reference parser do not define (`Content-Usage`,
 * `Content-Signal`, `Host`, `Clean-param`, …). Kept so that a program can read it; such lines never
 * affect allow/disallow matching. `parseContentUsageRule` and friends (usage preferences) read
 * the `content-usage` and `content-signal` ones.
 */
export interface RobotsExtensionLine {
  /** The key in lower case (`content-usage`), which is how extensions are recognised. */
  readonly name: string;
  /** The key as written (`Content-Usage`). */
  readonly key: string;
  /** The value as written, whitespace and comment stripped (UTF-8 text). */
  readonly value: string;
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
  /** Non-standard lines of the group (`Content-Usage`, `Content-Signal`, …), in file order. */
  readonly extensions: readonly RobotsExtensionLine[];
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
  /**
   * Only when several product tokens were given (`explain(url, ['MyBot', 'MyBot-Training'])`):
   * the explanation for each token, in the order given. The explanation itself is that of the
   * token that decided: the first that is disallowed, or the first token when all are allowed.
   */
  readonly tokens?: readonly RobotsExplanation[];
}

/**
 * What a crawler calls itself when it evaluates robots.txt: one user agent or product token, or
 * several (`['MyBot', 'MyBot-Training']`, the pattern of crawlers that split search and training
 * agents). With several, every token's groups apply and the most restrictive verdict wins.
 */
export type RobotsAgents = string | readonly string[];

/** A parsed robots.txt. Parse once, then check as many URLs as you like. */
export interface RobotsTxt {
  /** Groups in file order. Groups naming the same agent are merged when matching. */
  readonly groups: readonly RobotsGroup[];
  /** `Sitemap:` values in file order, wherever they appear (UTF-8 text, as written). */
  readonly sitemaps: readonly string[];
  /** Non-standard lines before the first `user-agent` line (they belong to no group), in file order. */
  readonly extensions: readonly RobotsExtensionLine[];
  /** Size of the input in bytes. */
  readonly totalBytes: number;
  /** Bytes that were parsed (at most the size limit). */
  readonly parsedBytes: number;
  /** The input was larger than the size limit; the rest was ignored. */
  readonly truncated: boolean;
  /**
   * Whether `userAgent` may fetch `url`. Given several product tokens, whether every one of them
   * may (the most restrictive verdict wins).
   */
  isAllowed(url: string | URL, userAgent: RobotsAgents): boolean;
  /**
   * The decision with the group chosen and the deciding rule. Given several product tokens, the
   * explanation of the token that decided, with every token's explanation in `tokens`.
   */
  explain(url: string | URL, userAgent: RobotsAgents): RobotsExplanation;
  /**
   * The crawl-delay (seconds) of the groups chosen for `userAgent`, if any sets one; given several
   * product tokens, the largest of theirs.
   */
  crawlDelay(userAgent: RobotsAgents): number | undefined;
  /**
   * The groups that apply to `userAgent`: every group naming its product token (merged when
   * matching), else the `*` groups, else none. How usage preferences find their `Content-Usage`
   * lines.
   */
  groupsFor(userAgent: string): readonly RobotsGroup[];
}
