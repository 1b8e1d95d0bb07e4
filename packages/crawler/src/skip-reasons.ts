// Why a URL was not fetched or followed, as data: the crawler's own reasons, the reasons plugins
// declare, and what a skip says besides where it happened.

/**
 * The crawler's own reasons for not fetching (or not following) a URL, as data: the type below
 * is derived from it, and a plugin may not declare a reason of the same name.
 */
export const CRAWLER_SKIP_REASONS = [
  /** robots.txt disallows it for our user agent (the skip carries the deciding `rule`). */
  'robots',
  /** The host's robots.txt stayed unreachable (5xx, 429, network error) after every retry. */
  'robots-unreachable',
  /** Outside the crawl's scope. */
  'scope',
  /** Already queued or fetched. */
  'duplicate',
  /** Deeper than `maxDepth`. */
  'depth',
  /** Looks like an endless URL space (repeated path segments, a growing query, a far-off calendar date); see `trapDetection`. */
  'trap',
  /** Reported once for a page with more links than `maxLinksPerPage`: the detail says how many were dropped. */
  'too-many-links',
  /** Linked with `rel=nofollow`, or from a page that says nofollow. */
  'nofollow',
  /** The body went past `maxBodyBytes`. */
  'too-large',
  /** The response head went past the header limit. */
  'headers-too-large',
  /** Not a URL. */
  'invalid-url',
  /** Not http or https. */
  'unsupported-scheme',
  /** Longer than the URL length cap. */
  'url-too-long',
  /** The host already has `maxPagesPerHost` URLs. */
  'max-pages-per-host',
  /** More redirect hops than `maxRedirects`. */
  'too-many-redirects',
  /** The host resolves to a loopback, private or link-local address (the SSRF guard; see `allowNet`). */
  'blocked-address',
  /**
   * A usage preference of the site reserves the URL for one of the crawl's `purposes`: robots.txt
   * `Content-Usage` / `Content-Signal` lines or /.well-known/tdmrep.json (no request was made), or
   * the page's own headers or meta tags (its body was dropped: no handler, no output). The detail
   * names each purpose and the source that reserved it.
   */
  'usage-reserved',
] as const;

/** Why the crawler did not fetch (or follow) a URL. A skip is an outcome, never an exception. */
export type SkipReason = (typeof CRAWLER_SKIP_REASONS)[number];

/**
 * A reason a plugin declared in its `skipReasons` (the sitemap plugin's `sitemap-scope`, say);
 * the skip event's `plugin` names the plugin. Any string as a type: which ones exist depends on
 * the plugins a crawler runs.
 */
export type PluginSkipReason = string & {};

/** The robots.txt rule that decided: its line number and the line as written. */
export interface RobotsRuleRef {
  readonly line: number;
  readonly text: string;
}

/** What a skip says, apart from where it happened. */
export interface SkipDetail {
  readonly reason: SkipReason | PluginSkipReason;
  /** A human-readable detail: the limit exceeded, the deciding robots.txt line, … */
  readonly detail?: string;
  /** For a `robots` skip decided by a rule: that rule (absent when robots.txt disallowed all for another reason). */
  readonly rule?: RobotsRuleRef;
  /**
   * `sub-resource` when the URL was asked for by a rendered page (a script, an API call, a frame:
   * see `render`), not found as a link. Absent for links and pages.
   */
  readonly kind?: 'sub-resource';
}

/** The skip for a URL robots.txt disallows: the deciding rule as data, and as words for people. */
export function robotsSkip(rule: RobotsRuleRef | undefined, reason: string, token?: string): SkipDetail {
  if (rule === undefined) return { reason: 'robots', detail: reason };
  const forToken = token === undefined ? '' : ` (for ${token})`;
  const detail = `line ${rule.line}: ${rule.text}${forToken}`;
  return { reason: 'robots', detail, rule: { line: rule.line, text: rule.text } };
}
