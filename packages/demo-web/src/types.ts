// The public data of a running local web: its hosts (a manifest tests can assert against) and the
// requests each host's server saw.

/** One request as the server saw it. The server's log is the proof of politeness. */
export interface LoggedRequest {
  /** `http://127.0.0.x:port` of the host that served it. */
  readonly origin: string;
  /** The host's name in the web (`shop`, `host-7`, …). */
  readonly host: string;
  readonly method: string;
  /** Path and query as sent on the wire (`req.url`). */
  readonly path: string;
  /** The `User-Agent` header, if one was sent. */
  readonly userAgent: string | undefined;
  /** The `Cookie` header, if one was sent (logged by the demo web, fleets and the consent web). */
  readonly cookie?: string;
  /** The `If-None-Match` header, if one was sent (a revalidating recrawl sends it). */
  readonly ifNoneMatch?: string;
  /** The `If-Modified-Since` header, if one was sent. */
  readonly ifModifiedSince?: string;
  /** The status code of the response; 0 when none was sent (the hostile web's silent host, a garbage status line). */
  readonly status: number;
  /**
   * The body bytes the server wrote for this response, as sent (gzip-encoded if it was): 0 for a
   * 304 and for HEAD. On the hostile web, where bodies may trickle or be cut, the bytes written so far.
   */
  readonly bodyBytes: number;
  /** Arrival time, `performance.now()` of this process (ms, monotonic): use it for gaps. */
  readonly atMs: number;
  /** Arrival time, `Date.now()` (ms since the epoch): use it to line up with other clocks. */
  readonly dateMs: number;
}

/**
 * One host of the web and what a polite crawler should do there, computed for the web's
 * `userAgent` from the host's own robots.txt (with `parseRobotsTxt` of `@politely/core`).
 */
export interface HostInfo {
  /** Short name, unique in the web: `hub`, `shop`, … or `host-0`, `host-1`, … in a fleet. */
  readonly name: string;
  /** What the host is there to demonstrate. */
  readonly description: string;
  /** `127.0.0.x`. */
  readonly address: string;
  readonly port: number;
  /** `http://127.0.0.x:port`, no trailing slash. */
  readonly origin: string;
  /**
   * The status `/robots.txt` answers with (200, or 404 = allow all, or 503 = disallow all); 0 for
   * a host that never answers (the hostile web's `silent`, where RFC 9309 means disallow all).
   */
  readonly robotsStatus: number;
  /** The robots.txt body when it answers 200, else `null`. */
  readonly robotsTxt: string | null;
  /** The crawl-delay (seconds) robots.txt sets for the web's user agent, if any. */
  readonly crawlDelaySeconds: number | undefined;
  /**
   * The `Disallow` values of the groups that apply to the web's user agent, as written (they may
   * hold `*` and `$`). `['/']` when robots.txt answers 5xx (RFC 9309: disallow everything).
   */
  readonly disallowedPrefixes: readonly string[];
  /** The `Sitemap:` URLs of robots.txt (possibly on other hosts). */
  readonly sitemaps: readonly string[];
  /**
   * Every path (with query) of this host that a complete, polite crawl from the web's entry URL
   * requests: pages, feeds, redirect hops and deliberately broken links, reached through links
   * that are followed (`rel=nofollow` and `<meta name="robots" content="nofollow">` honoured)
   * and allowed for the web's user agent. Excludes `/robots.txt`, sitemap files and the
   * pages under `trapPrefixes`. Sorted.
   */
  readonly expectedAllowedPaths: readonly string[];
  /** Paths that are linked, redirected to or listed in a sitemap, but disallowed: never fetch. Sorted. */
  readonly disallowedKnownPaths: readonly string[];
  /** Allowed paths reachable only through `nofollow` links. Sorted. */
  readonly nofollowPaths: readonly string[];
  /** Allowed paths listed in a sitemap but linked from nowhere. Sorted. */
  readonly sitemapOnlyPaths: readonly string[];
  /** Path prefixes of crawler traps (endless link chains), allowed but never exhausted. */
  readonly trapPrefixes: readonly string[];
}

/** A running local web. */
export interface LocalWeb {
  /** The hosts, in address order. */
  readonly hosts: readonly HostInfo[];
  /** The page to start a crawl from (the demo's hub front page, a fleet's first host front page). */
  readonly entryUrl: string;
  /** The user agent the manifest in `hosts` was computed for. */
  readonly userAgent: string;
  /** The host by name; throws `ERR_UNKNOWN_HOST`. */
  host(name: string): HostInfo;
  /** An absolute URL on the named host: `web.url('shop', '/products/oak-board')`. */
  url(name: string, path: string): string;
  /** The requests seen so far, in arrival order, of one origin or of all hosts. A copy. */
  requestLog(origin?: string): LoggedRequest[];
  /** Forgets every logged request. */
  resetLogs(): void;
  /**
   * Changes pages between two crawls: from now on each serves a new revision of its body (HTML
   * gets `<p class="revision">revision N</p>` before `</main>`; XML files and robots.txt a
   * comment), so its ETag changes and its Last-Modified becomes now (to the second, and later
   * than before); its links stay the same. Takes absolute URLs, or paths on the entry host.
   * Throws `ERR_UNKNOWN_PAGE` for a URL that is no 200 resource of the web,
   * `ERR_UNCHANGEABLE_PAGE` for one that cannot carry a marker (a gzip file, plain text), and
   * changes nothing then. The hostile web's pages never change: it throws `ERR_UNCHANGEABLE_PAGE`.
   */
  changePages(urlsOrPaths: readonly string[]): void;
  /**
   * How often the page at this URL (or path on the entry host) has changed: 0 if never, else the
   * N of the `revision N` marker it serves. Throws `ERR_UNKNOWN_PAGE` for a URL on no host of the web.
   */
  revisionOf(urlOrPath: string): number;
  /** Closes every server and every open connection; resolves when all ports are free. */
  close(): Promise<void>;
}

/** Internal: a log entry while it is being written. */
export type Mutable<T> = { -readonly [K in keyof T]: T[K] };
