// The crawl report's data: plain JSON, built by the collector from the crawler's events and
// turned into HTML by `renderCrawlReport`. Every string in it may come from the web.

/** One request as the crawler started it. */
export interface ReportRequest {
  /** When it started (ms since the epoch), before any connection. */
  readonly at: number;
  /** `page`, `robots`, or a plugin's kind (`sitemap`, …). */
  readonly kind: string;
  readonly url: string;
  /**
   * When its head was written to a socket (ms since the epoch): it reached a server. Absent when
   * it failed before (DNS, a refused or timed-out connection, the SSRF guard, TLS), and in reports
   * made before send times were recorded (there an answered request counts as sent at `at`).
   */
  readonly sentAt?: number;
  /** The gap the host's clock kept before it (crawl-delay or minimum, backoff aside); absent for robots.txt. */
  readonly delayMs?: number;
  /** HTTP status of the response; null for a network error; absent when no answer was seen. */
  readonly status?: number | null;
  readonly durationMs?: number;
}

/** One end of a gap: a request that reached the server, and when it was written. */
export interface GapEnd {
  /** When its head was written (ms since the epoch). */
  readonly at: number;
  readonly kind: string;
  readonly url: string;
}

/** The two requests that make a host's tightest gap (the smallest gap ÷ delay). */
export interface TightestGap {
  readonly before: GapEnd;
  readonly after: GapEnd;
}

/**
 * The gaps between consecutive requests sent to one host (their heads written to a socket),
 * against the delay in force. Attempts that never reached a server make no gap.
 */
export interface GapSummary {
  /** Gaps measured (requests sent − 1). */
  readonly count: number;
  /** The shortest gap (ms); null without gaps. */
  readonly minMs: number | null;
  /** The delay that applied to the shortest gap. */
  readonly delayAtMinMs: number | null;
  /** The smallest gap ÷ its delay (1 or more is polite); null without gaps. */
  readonly minRatio: number | null;
  /** Gaps shorter than the delay that applied to them: 0 for a polite crawl. */
  readonly tooShort: number;
  readonly meanMs: number | null;
  /** The two requests of the gap at `minMs`; absent without gaps, and in reports made before it was recorded. */
  readonly tightest?: TightestGap;
}

/** One robots.txt request (one hop) and how it ended. */
export interface RobotsFetchReport {
  readonly at: number;
  readonly url: string;
  /** HTTP status; null for a network error. */
  readonly status: number | null;
  /** `success` (2xx: rules), `unavailable` (4xx: all allowed), `unreachable` (5xx/429/network: all disallowed), `redirect`. */
  readonly outcome: string;
  readonly durationMs: number;
  readonly error?: string;
}

/** URLs decided alike by one host's robots.txt: same verdict, same basis, same deciding line. */
export interface RobotsDecisionReport {
  readonly allowed: boolean;
  /** The gate's reason (`rules`, `unavailable`, `cached`, …) or the skip's (`robots-unreachable`). */
  readonly basis: string;
  /** Line number of the deciding rule, when a rule decided. */
  readonly line?: number;
  /** The deciding line as written (`Disallow: /cart`). */
  readonly text?: string;
  /** Free text when no line decided (why robots.txt was not usable). */
  readonly detail?: string;
  readonly count: number;
  /** A few of the URLs. */
  readonly examples: readonly string[];
}

/** URLs of one host for which one source reserved one purpose (usage preferences). */
export interface UsageReservationReport {
  /** The purpose reserved (`ai-train`, `tdm`, …). */
  readonly purpose: string;
  /** The source's kind (`robots-content-usage`, `tdmrep-json`, `tdm-header`, `meta-robots`, …). */
  readonly kind: string;
  /** The source, for people: `robots.txt line 3: Content-Usage: /x train-ai=n`, `header tdm-reservation: 1`. */
  readonly source: string;
  /** URLs it reserved the purpose for. */
  readonly count: number;
  /** Of them, skipped as `usage-reserved` (the crawl's `--purpose` includes it). */
  readonly skipped: number;
  /** A few of the URLs. */
  readonly examples: readonly string[];
}

/** What a recrawl's revisits of one host's URLs found (`--recrawl`). */
export interface RevisitReport {
  /** URLs fetched again because they were due. */
  readonly revisited: number;
  /** Answered 304 Not Modified. */
  readonly notModified: number;
  /** Answered in full with the same body. */
  readonly unchanged: number;
  readonly changed: number;
  /** Body bytes the 304s did not send (decoded sizes of the bodies they stood for). */
  readonly bytesSaved: number;
}

/** What rendering pages cost one host, or the crawl (`--render`). */
export interface RenderReport {
  /** Pages of the host loaded in the browser. */
  readonly pageLoads: number;
  /** Requests rendered pages made to the host that the crawler sent. */
  readonly subRequests: number;
  /** Requests the crawl's cache answered without a request. */
  readonly fromCache: number;
  /** Requests not sent, by why (robots, blocked-address, resource-type, websocket, …). */
  readonly refused: Readonly<Record<string, number>>;
}

/** One host in the report: its requests and the gaps between them, its delay, robots.txt fetches, skips. */
export interface HostReport {
  /** The politeness key: the host name. */
  readonly hostKey: string;
  /** A friendlier name, when the caller knows one (the demo web's `shop`, `news`, …). */
  readonly label?: string;
  readonly origins: readonly string[];
  /** Requests in start order (at most the collector's cap; see `requestCount`). */
  readonly requests: readonly ReportRequest[];
  /** All requests, including those beyond the cap. */
  readonly requestCount: number;
  /** Of them, attempts that never reached a server (no gap is measured from them); absent when none. */
  readonly unsent?: number;
  /** The delay in force at the end (ms). */
  readonly delayMs: number;
  /** The robots.txt `Crawl-delay` (seconds) for the crawler's user agent, when one was set. */
  readonly crawlDelaySeconds?: number;
  readonly gaps: GapSummary;
  readonly robotsFetches: readonly RobotsFetchReport[];
  readonly decisions: readonly RobotsDecisionReport[];
  readonly statuses: Readonly<Record<string, number>>;
  readonly skips: Readonly<Record<string, number>>;
  /** Responses timed (robots.txt included) and their mean and largest duration. */
  readonly latency: { readonly count: number; readonly meanMs: number | null; readonly maxMs: number | null };
  /**
   * Purposes the host's usage preferences reserve, by source (robots.txt lines, tdmrep.json,
   * headers, meta tags); absent in reports from before usage preferences were recorded.
   */
  readonly usage?: readonly UsageReservationReport[];
  /** Revisits of the host's URLs; absent when the crawl revisited none there. */
  readonly revisits?: RevisitReport;
  /** What rendered pages loaded and asked of the host; absent when none did. */
  readonly rendering?: RenderReport;
}

/** A URL that failed, as the report lists it: the URL, the message and the stage it failed in. */
export interface ReportError {
  readonly url: string;
  readonly message: string;
  readonly stage: string;
}

/** The crawl's totals in the report: pages, requests, robots.txt requests, bytes, errors, retries and pace. */
export interface ReportTotals {
  readonly pages: number;
  readonly requests: number;
  readonly robotsRequests: number;
  /** Requests sent signed (Web Bot Auth, `--signing-key`); absent when none was. */
  readonly signedRequests?: number;
  readonly bytes: number;
  readonly errors: number;
  readonly retries: number;
  /** URLs still queued at the end. */
  readonly queued: number;
  /**
   * URLs in flight when a stop's grace period ran out (or at a second signal): aborted, put back
   * in the store and fetched again by the next run. Absent when none was.
   */
  readonly releasedAtStop?: number;
  readonly durationMs: number;
  readonly pagesPerSecond: number;
  /** Revisits in all; absent when the crawl revisited nothing. */
  readonly revisits?: RevisitReport;
  /** Rendering in all; absent when the crawl rendered nothing. */
  readonly rendering?: RenderReport;
}

/** Everything the HTML report shows of one crawl: its settings, totals, statuses, skips, hosts and errors. */
export interface CrawlReportData {
  readonly title: string;
  readonly userAgent: string;
  readonly seeds: readonly string[];
  readonly startedAt: number;
  readonly finishedAt: number;
  /** The crawl was stopped (Ctrl-C) before it finished. */
  readonly aborted: boolean;
  /** Runs of the crawl this report covers (a crawl stopped and resumed from its store). @default 1 */
  readonly runs?: number;
  /** Settings worth showing, as name/value pairs (`delay`, `concurrency`, …). */
  readonly settings: readonly (readonly [string, string])[];
  readonly totals: ReportTotals;
  readonly statuses: Readonly<Record<string, number>>;
  readonly skips: Readonly<Record<string, number>>;
  readonly hosts: readonly HostReport[];
  /** Errors that were final (no retry left), at most the collector's cap. */
  readonly errors: readonly ReportError[];
}
