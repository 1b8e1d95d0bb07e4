// createCrawler's options as types: every field documented with its default. options.ts
// validates them once; option-combinations.ts refuses pairs that cannot take effect together.

import type { JsonWebKey } from 'node:crypto';
import type { MeterProvider } from '@opentelemetry/api';
import type {
  Ed25519PrivateJwk,
  HostResolver,
  HttpClient,
  RequestSigner,
  RobotsCacheStore,
  RobotsGate,
  SignMode,
  UsagePurpose,
  WebBotAuthDraft,
} from '@politely/core';
import type { FrontierStore } from '@politely/frontier';
import type { CookieJar } from 'tough-cookie';
import type { CrawlLogger } from './crawl-logger.js';
import type { OutputOptions, ResolvedOutputs } from './dataset/output-options.js';
import type { CanonicalUrlOptions } from './frontier/canonical-url.js';
import type { ScopeOption } from './frontier/scope.js';
import type { ResolvedTrapDetection, TrapDetectionOptions } from './frontier/trap-detector.js';
import type { FailedRequestHandler } from './handle/failed-request.js';
import type { PageHandler, RequestOptions, RouteHandlers } from './page-context.js';
import type { PageRenderer, RenderWaitUntil } from './page-renderer.js';
import type { CrawlerPlugin } from './plugin.js';
import type { PolitenessKeyMode } from './politeness/index.js';

/** What `render` is asked about a page: its request. */
export interface RenderRequest {
  /** The page's URL (after redirects). */
  readonly url: string;
  /** The request's label, if any. */
  readonly label: string | undefined;
  readonly userData: Readonly<Record<string, unknown>>;
  readonly depth: number;
}

/** Whether a page is rendered: `true` for every page, or a function of its request. */
export type RenderChoice = boolean | ((request: RenderRequest) => boolean);

/**
 * A seed with its own priority, route (label and userData) and headers (see `RequestOptions`).
 * With typed routes (`createCrawler<Routes>`), the label is one of the routes' and the userData
 * has its type.
 */
export type SeedRequest<Routes = object> = {
  readonly url: string;
} & RequestOptions<Routes>;

/** Latency-adaptive politeness, in the manner of Scrapy's AutoThrottle. */
export interface AdaptiveDelayOptions {
  /**
   * Requests to aim for in flight at one host on average: the delay tends to latency / this. A
   * finite number > 0.
   * @default 1
   */
  readonly targetConcurrency?: number;
  /**
   * The most the adaptive delay may grow to.
   * @default 60000
   */
  readonly maxDelayMs?: number;
}

/**
 * `createCrawler`'s options. `Routes`: the crawl's routes type, when it has one (see `RouteMap`):
 * it types `handlers`, `handler` and the seeds' labels and userData.
 */
export interface CrawlerOptions<Routes = object> {
  /**
   * Sent as `User-Agent` with every request; its product token (`MyBot` in
   * `MyBot/1.0 (+https://example.com/bot)`) is what robots.txt groups are matched against.
   * By convention it names the crawler and a contact URL. Required.
   */
  readonly userAgent: string;
  /** Where the crawl starts. Seeds are always in scope (the scope is derived from them). @default [] */
  readonly seeds?: readonly (string | SeedRequest<Routes>)[];
  /**
   * Called for every fetched page (2xx and 4xx), after robots.txt allowed it. An error it throws
   * fails the attempt: the records it pushed are dropped, an `error` event (stage `handler`)
   * says whether it will be retried, and the page is fetched again, like a failed fetch, up to
   * `maxRetries` times; after the last attempt the URL is stored as failed and goes to
   * `onFailed`. A fatal error (see `isFatalCrawlError`: a `PolitelyError` with code `ERR_OUTPUT`
   * or `ERR_STORE`, such as a record that could not be written) is not retried: the URL stays
   * in the store, the crawl stops and `run()` rejects with it. The URL counts as done only once
   * the handler resolved.
   */
  readonly handler?: PageHandler<Routes>;
  /**
   * Handlers by request label, instead of one `handler`: a page goes to `handlers[label]` for the
   * label its request carries (seeds, `enqueue`, `enqueueLinks`), and to `handlers.default` when
   * it has no label (links the crawler follows by itself). A label no handler takes is refused
   * when its request is queued (`ERR_INVALID_OPTION` for a seed, `ERR_INVALID_INPUT` for
   * `enqueue`), before any request for it. A page without a label when there is no `default` is
   * an `error` event, and the crawl goes on. Errors are treated as `handler`'s.
   * @default none
   */
  readonly handlers?: RouteHandlers<Routes>;
  /**
   * Called once for each page that failed for good (its fetch or handler failed on every
   * attempt), with its request, its last error and a `push` for records, before the store keeps
   * it as failed (`store.failures()`; `retryFailed` puts it back).
   * @default none
   */
  readonly onFailed?: FailedRequestHandler;
  /**
   * Put the store's failed URLs back in their queues before crawling: the pages that failed for
   * good and the seeds that were refused in earlier runs are tried again, under this run's options.
   * @default false
   */
  readonly retryFailed?: boolean;
  /**
   * Start the crawl over on the given store: every URL, host clock and value it holds is
   * forgotten first (a robots.txt cache is kept). The outputs start afresh too: an existing
   * output file then needs `overwrite`, as for any new crawl.
   * @default false
   */
  readonly fresh?: boolean;
  /** Where queued URLs wait. @default an in-memory store */
  readonly store?: FrontierStore;
  /**
   * The robots gate. Prefer `robotsCache` to share robots.txt between processes: a gate of your
   * own does not send its robots.txt requests through this crawler's counting and host clocks.
   * @default a gate that fetches robots.txt through this crawler's polite fetch
   */
  readonly gate?: RobotsGate;
  /**
   * Where the crawler's own gate keeps robots.txt records (a SQLite or Redis store shares them).
   * Refused beside `gate` (give the cache to your gate).
   * @default in memory
   */
  readonly robotsCache?: RobotsCacheStore;
  /**
   * HTTP client. The options that configure the crawler's own client (`proxy`, `connectTimeoutMs`,
   * `maxHeaderBytes`, and `allowNet`, `blockPrivateNetworks` and `resolver` where nothing else
   * uses them) are refused beside it (`ERR_INVALID_OPTION` naming both): they could not take effect.
   * @default one keep-alive undici client with the SSRF guard, closed when the crawl ends
   */
  readonly httpClient?: HttpClient;
  /**
   * Where the crawl records its metrics (OpenTelemetry: pages by outcome, skips by reason,
   * requests, bytes, the store's latency, politeness waits and holds; docs/metrics.md). Nothing
   * is recorded, at no cost, until a provider is registered (`metrics.setGlobalMeterProvider`) or
   * given here. Host names and URLs never become attribute values. With a provider, the crawl's
   * HTTP client and store are wrapped to time them (`crawler.store` is then that wrapper).
   * @default the global provider (`metrics.getMeterProvider()` of `@opentelemetry/api`), read when the crawler is created
   */
  readonly meterProvider?: MeterProvider;
  /**
   * Where the crawl's log entries go: an object with `debug`, `info`, `warn` and `error`, each
   * `(fields, message?)`, such as a pino logger. Each entry's fields have an `event` (`request`,
   * `response`, `robots`, `skip`, `error`, `warning`, `done`) and what it is about (`url`, `host`,
   * `status`, `reason`, `durationMs`, …). The crawler itself writes nothing to the console.
   * @default none: nothing is logged (the events are there to listen to)
   */
  readonly logger?: CrawlLogger;
  /**
   * Refuse to connect to loopback, private, link-local (169.254.169.254), unique-local and
   * unspecified addresses, checked after DNS on every hop (the SSRF guard); such URLs are
   * skipped as `blocked-address`. Applies to the crawler's own HTTP client (see `httpClient`).
   * @default true
   */
  readonly blockPrivateNetworks?: boolean;
  /** Networks allowed despite the guard, as CIDRs or addresses, e.g. `['127.0.0.0/8']` for a local test web. @default [] */
  readonly allowNet?: readonly string[];
  /**
   * Headers sent with every request the crawler makes: pages, plugin resources (sitemaps),
   * redirect hops and robots.txt (e.g. `{ 'Accept-Language': 'en' }`). A request's own headers
   * override them. Refused (`ERR_INVALID_OPTION`, naming the header): hop-by-hop headers
   * (`Connection`, `Keep-Alive`, `TE`, `Trailer`, `Transfer-Encoding`, `Upgrade`,
   * `Proxy-Connection`, `Proxy-Authorization`, `Proxy-Authenticate`), `Host`, `Content-Length`,
   * `User-Agent` (that is `userAgent`), `From` (that is `from`), invalid names and values with
   * CR, LF or NUL (see `checkRequestHeaders` of `@politely/core`).
   * @default {}
   */
  readonly headers?: Readonly<Record<string, string>>;
  /**
   * The e-mail address of the person responsible for the crawl, sent as `From` with every
   * request, robots.txt included (RFC 9110 §10.1.2): what a polite crawler sends so that a site
   * owner can reach a person. Must look like an address (`ops@example.com`).
   * @default undefined (no From header)
   */
  readonly from?: string;
  /**
   * Cookies (RFC 6265, with tough-cookie), off unless asked for: `true` for a new jar, or a
   * tough-cookie `CookieJar` of your own (pre-filled, say). A cookie a response sets (a page, a
   * plugin resource, a redirect's 3xx) is sent on later requests that the RFC's domain and path
   * rules allow, never to other sites. robots.txt is fetched without cookies and what it sets is
   * ignored. A store with metadata (SQLite, Redis) keeps the jar (saved at most once a second
   * while it changes, and when the run ends) and the next run on that store restores it, so a
   * resumed crawl keeps its session; the memory store keeps it for one run.
   * @default false
   */
  readonly cookies?: boolean | CookieJar;
  /**
   * One egress proxy for every request (`http://host:port`, or `http://user:password@host:port`),
   * through undici's `ProxyAgent` (CONNECT tunnels). The SSRF guard still applies to every target:
   * the crawler resolves each target's name itself and refuses a blocked address before the proxy
   * is asked; and the proxy's own address must be globally reachable or allowed in `allowNet`
   * (a private proxy given as an address is refused here, `ERR_INVALID_OPTION`). One proxy, no
   * rotation: a polite crawler has one identity. Applies to the crawler's own HTTP client (see `httpClient`).
   * @default undefined (direct connections)
   */
  readonly proxy?: string;
  /**
   * Web Bot Auth: sign every request the crawl sends (pages, robots.txt, sitemaps, redirect hops,
   * retries, rendered sub-requests) with HTTP Message Signatures (RFC 9421), a fresh signature
   * each time. See docs/web-bot-auth.md. A bad key is refused (`ERR_INVALID_OPTION`, the message
   * never quoting the private part).
   * @default undefined (nothing is signed)
   */
  readonly signing?: SigningOptions;
  /**
   * Stops the crawl at once: nothing new is claimed, in-flight requests are aborted and their URLs
   * go back to the store. `crawler.stop()` stops it gently (see `stopGraceMs`).
   */
  readonly signal?: AbortSignal;
  /**
   * How long `crawler.stop()` lets the requests in flight finish (their pages handled and
   * written as usual) before it aborts them; the URLs of those aborted go back to the store, to
   * be fetched by the next run (counted in `CrawlStats.releasedAtStop`).
   * @default 10000
   */
  readonly stopGraceMs?: number;
  /**
   * Requests in flight across all hosts, at most. While `adaptiveConcurrency` is on, the crawl
   * holds fewer whenever this process cannot keep up with what it fetches.
   * @default 16
   */
  readonly concurrency?: number;
  /**
   * Holds fewer requests in flight than `concurrency` while this process's event loop is
   * saturated and ready work waits for it (busy 95 % of the time, its timers over 5 ms late):
   * there, more in flight adds no pages per second, only responses waiting in memory. The limit
   * starts at 16 (or `concurrency`, when lower) and is reconsidered every 250 ms: it falls (to 4
   * at the fewest) while the loop is overloaded and climbs by a quarter toward `concurrency`
   * whenever the loop has idle time, so a crawl that waits on the network soon holds all of
   * `concurrency`. `crawler.concurrencyLimit` tells the limit now. `false`: `concurrency` in
   * flight whenever URLs are ready, from the start.
   * @default true
   */
  readonly adaptiveConcurrency?: boolean;
  /** Requests in flight at one host. @default 1 */
  readonly perHostConcurrency?: number;
  /** Least gap between the starts of two requests to one host, whatever robots.txt says. @default 250 */
  readonly minDelayMs?: number;
  /** The most a robots.txt `Crawl-delay` may impose. @default 30000 */
  readonly maxCrawlDelayMs?: number;
  /** Latency-adaptive delay on top of the others; off when absent. @default undefined */
  readonly adaptiveDelay?: AdaptiveDelayOptions;
  /** Pages fetched at most, overall. @default Infinity */
  readonly maxPages?: number;
  /**
   * URLs admitted per host at most (queued, in flight or done); the rest are skipped as
   * `max-pages-per-host`. A backstop against a host that generates URLs without end. A "host" is
   * a politeness key: with `politenessKey: 'domain'` or `'ip'` the bound is per domain or server.
   * @default 100000
   */
  readonly maxPagesPerHost?: number;
  /**
   * Link distance from a seed beyond which links are not followed (`depth` skips). A backstop
   * against link chains without end; `Infinity` removes it.
   * @default 100
   */
  readonly maxDepth?: number;
  /**
   * The trap heuristic for endless URL spaces: repeated path segments, ever-growing query
   * strings, calendar pages far from today. A discovered link (or redirect target) that looks
   * like one is skipped as `trap`, with the reason. Seeds, `crawler.enqueue()` URLs and URLs a
   * sitemap lists are exempt. `false` turns it off.
   * @default {} (on, with the defaults of `TrapDetectionOptions`)
   */
  readonly trapDetection?: TrapDetectionOptions | false;
  /**
   * Links taken from one page at most; the page's further links are dropped, counted as one
   * `too-many-links` skip for the page. Bounds the memory and queue growth one page can cause.
   * @default 10000
   */
  readonly maxLinksPerPage?: number;
  /** Which discovered URLs may be crawled. @default 'same-domain' */
  readonly scope?: ScopeOption;
  /** URL normalisation for dedupe (query rules, length cap). @default {} */
  readonly canonicalUrl?: CanonicalUrlOptions;
  /** Follow links found on pages automatically. @default true */
  readonly followLinks?: boolean;
  /** Honour `rel=nofollow` on links (page-level nofollow is always honoured). @default true */
  readonly honorNofollow?: boolean;
  /** Redirect hops followed from one requested URL. @default 5 */
  readonly maxRedirects?: number;
  /**
   * Largest body in bytes, counted both decoded (a gzip, deflate or brotli bomb stops here) and
   * as received; the body is streamed and the request aborted at the limit, and the page is
   * skipped as `too-large`.
   * @default 10485760 (10 MiB)
   */
  readonly maxBodyBytes?: number;
  /**
   * Deadline for one response, from sending the request to its last body byte: a server that
   * trickles a byte at a time is cut off (a retryable `ERR_TIMEOUT`).
   * @default 30000
   */
  readonly requestTimeoutMs?: number;
  /** Deadline for connecting (DNS, TCP, TLS). Applies to the crawler's own HTTP client (see `httpClient`). @default 10000 */
  readonly connectTimeoutMs?: number;
  /**
   * Largest response head (status line and headers), in bytes; a larger one is skipped as
   * `headers-too-large`. Applies to the crawler's own HTTP client (see `httpClient`).
   * @default 65536
   */
  readonly maxHeaderBytes?: number;
  /** Attempts after the first for 5xx, 429 and network errors. @default 2 */
  readonly maxRetries?: number;
  /** Backoff after the first failure at a host; doubles per consecutive failure. @default 1000 */
  readonly backoffBaseMs?: number;
  /** Longest backoff, and longest `Retry-After` honoured. @default 300000 */
  readonly backoffMaxMs?: number;
  /** Robots.txt fetch attempts for a host whose robots.txt is unreachable before its URLs are skipped. @default 3 */
  readonly maxRobotsRetries?: number;
  /** How long a claimed URL is held before the store hands it to another worker. @default 300000 */
  readonly leaseMs?: number;
  /** Plugins that add resource kinds and seed sources (e.g. sitemaps from `@politely/sitemap`). @default [] */
  readonly plugins?: readonly CrawlerPlugin[];
  /**
   * Files the records pushed with `page.push` and `crawler.push` are written to, each as JSON
   * lines or CSV, streamed (memory bounded whatever the count). A page's records are written
   * before its URL counts as done; a resumed crawl appends and writes none twice (each file's
   * `<path>.ledger` says which pages it holds). A write that fails stops the crawl with
   * `ERR_OUTPUT`. With none, pushed records only reach the `record` event. A path ending in
   * `.warc` or `.warc.gz` (or `format: 'warc'`) is the crawl's WARC archive instead: every
   * request and response of the crawl, as sent and received (see `OutputOptions.format`).
   * @default []
   */
  readonly outputs?: readonly OutputOptions[];
  /**
   * What the crawl's pages are for (`'search'`, `'ai-input'`, `'ai-train'`, `'ai-train-images'`,
   * `'tdm'`): sites state usage preferences (robots.txt `Content-Usage` and `Content-Signal`
   * lines, `/.well-known/tdmrep.json`, `Content-Usage` / `tdm-reservation` / `X-Robots-Tag`
   * headers, `tdm-reservation` and `noai` meta tags), and a URL reserved for one of these purposes
   * is skipped as `usage-reserved`: without a request when robots.txt or tdmrep.json reserve it,
   * and, when the page's own headers or meta tags do, with its body dropped before the handler and
   * the outputs. `/.well-known/tdmrep.json` is fetched (once per origin per `tdmrepCacheMs`) only
   * when one of these purposes is one TDMRep can decide (`tdm` and the purposes within it).
   * With none, the verdicts are still computed (`page.usage`) and nothing is skipped.
   * @default []
   */
  readonly purposes?: readonly UsagePurpose[];
  /**
   * Product tokens robots.txt is evaluated for, besides the product token of `userAgent` (which
   * always applies): `['MyBot-Training']` beside `MyBot/1.0` makes both `MyBot`'s and
   * `MyBot-Training`'s groups apply. The most restrictive verdict wins: a URL disallowed for any
   * token is skipped (`explain` and the skip's detail say which token decided), the largest
   * crawl-delay applies, and every token's `Content-Usage` / `Content-Signal` lines count.
   * @default [the product token of userAgent]
   */
  readonly robotsTokens?: readonly string[];
  /**
   * How long an origin's `/.well-known/tdmrep.json` (or its absence) is kept before it is fetched
   * again, when `purposes` need it.
   * @default 86400000 (24 hours)
   */
  readonly tdmrepCacheMs?: number;
  /**
   * Revisit the URLs this crawl's store already holds as fetched, when they are due: their HTTP
   * freshness (`Cache-Control`, `Expires`; at once for `no-cache`) has run out and their adaptive
   * revisit interval has passed, or a sitemap says they changed. A revisit sends the validators
   * the last fetch left (`If-None-Match`, `If-Modified-Since`); a `304` reaches the handler as
   * `page.notModified` with no body, and a `200` with the same content hash counts as unchanged
   * too. Every revisit passes the robots gate and the host's clock like any request. Without it,
   * a store's done URLs stay done (a resumed crawl fetches only what was left).
   * @default false
   */
  readonly recrawl?: boolean;
  /**
   * The shortest revisit interval: a URL is not due sooner after its last fetch, whatever it
   * said. The interval starts here and grows (×1.5) each time a URL is found unchanged, and
   * shrinks (×0.5) when it changed, within `revisitMinMs` and `revisitMaxMs` (Nutch's adaptive
   * fetch schedule, in short). With 0, a recrawl started by hand revisits everything not fresh.
   * @default 0
   */
  readonly revisitMinMs?: number;
  /**
   * The longest a URL is kept from a recrawl after its last fetch, whatever its freshness,
   * interval or sitemap `lastmod` say.
   * @default 2592000000 (30 days)
   */
  readonly revisitMaxMs?: number;
  /**
   * Extract and follow the links of a page a recrawl found unchanged (a `200` with the same
   * content hash). Off, they are not extracted again: they were followed on an earlier fetch.
   * A `304` has no body to extract from either way.
   * @default false
   */
  readonly followUnchangedLinks?: boolean;
  /**
   * Which requests share one politeness clock — its delay, its per-key concurrency
   * (`perHostConcurrency`), Retry-After and backoff: `host`, the URL's host name; `domain`, its
   * registrable domain (`a.example.com` and `b.example.com` are one key; the public suffix list's
   * ICANN section, through tldts, so one platform's tenants such as `a.github.io` and
   * `b.github.io` share one too); `ip`, the address its host name resolves to (every site a shared
   * server hosts is one key). In `ip` mode a name is resolved when its URLs are queued, through the
   * SSRF guard, cached within its DNS TTL (bounded), and its requests connect to that address.
   * robots.txt stays per origin; the key's delay is the largest that any of its origins asks for.
   * @default 'host'
   */
  readonly politenessKey?: PolitenessKeyMode;
  /**
   * How host names resolve, for every request the crawler's own client makes (pages, robots.txt,
   * sitemaps) and for `politenessKey: 'ip'`: a function from a name to its addresses (with their
   * DNS TTL when known). The SSRF guard judges what it answers. Each name is pinned to one address
   * (the first) for its TTL, between 1 s and 5 min (60 s when no TTL is given). For tests (many
   * names on one loopback address) and custom DNS; not with a `proxy` (the proxy resolves names).
   * @default the system's resolver (dns.lookup: /etc/hosts, then DNS)
   */
  readonly resolver?: HostResolver;
  /**
   * Render pages in a browser before links are extracted and the handler runs: `true` for every
   * page, or a function of the request (its URL, label, user data) so that only the pages that
   * need it pay for it. Needs `renderer`. The crawler fetches the page as always (robots.txt, the
   * host's clock, redirects, retries); a 2xx HTML answer is then loaded in the browser from that
   * response — it is not requested twice — and every request the page makes (scripts, API calls,
   * frames) goes through the crawler: robots.txt of its origin, the address guard, the crawler's
   * User-Agent and headers, and the clock and room in flight of its host. The handler sees the
   * rendered DOM (`page.$`, `page.links`) and the live page (`page.browser`).
   * @default false
   */
  readonly render?: RenderChoice;
  /**
   * What renders pages (`new ChromiumRenderer()` of `@politely/browser`). Required with `render`,
   * refused without it, as the other render options are.
   * @default none
   */
  readonly renderer?: PageRenderer;
  /**
   * When a rendered page counts as loaded: `networkidle` (no request for 500 ms: a page that
   * fetches its content from an API has it), `load` or `domcontentloaded`.
   * @default 'networkidle'
   */
  readonly renderWaitUntil?: RenderWaitUntil;
  /**
   * How long a page's render may take, its sub-requests' waits for their hosts' turns included;
   * past it the page counts as hung and is retried (within `maxRetries`).
   * @default 60000
   */
  readonly renderTimeoutMs?: number;
  /**
   * Resource types (Playwright's: `image`, `media`, `font`, `stylesheet`, …) a rendered page's
   * requests of are not sent at all: a crawl reads the DOM, not the pictures.
   * @default ['image', 'media', 'font']
   */
  readonly renderBlockResourceTypes?: readonly string[];
}

/** `createCrawler({ signing })`: the key, where its directory is published, the draft to follow. */
export interface SigningOptions {
  /** The private Ed25519 JWK (`kty: 'OKP'`, `crv: 'Ed25519'`, `x`, `d`; `kid`, if given, its RFC 7638 thumbprint). */
  readonly key: JsonWebKey | Ed25519PrivateJwk;
  /**
   * https URL naming your key directory, sent in the `Signature-Agent` header so a verifier can
   * find the key: its origin (`https://bot.example`), where verifiers fetch
   * `/.well-known/http-message-signatures-directory`. With `draft: 'ietf-01'` a URL with a path
   * is ignored by verifiers, and the crawl says so in a `warning` event.
   */
  readonly signatureAgent: string;
  /**
   * Which `Signature-Agent` form to send: `'meunier'`, the quoted string `"…"` covered as
   * `"signature-agent"`, which today's published verifiers accept (Cloudflare's `web-bot-auth`,
   * `http-message-sig`); or `'ietf-01'` (draft-ietf-webbotauth-httpsig-protocol-01), a
   * dictionary member `sig1="…"` covered as `"signature-agent";key="sig1"`, which only verifiers
   * that resolve `;key=` accept (`web-bot-auth` 0.1.3 refuses it). See docs/web-bot-auth.md.
   * @default 'meunier'
   */
  readonly draft?: WebBotAuthDraft;
  /**
   * When to sign: `'always'`, every request; `'on-challenge'`, requests go unsigned until a host
   * answers one with 401, 403 or 429 and an `Accept-Signature` header. That request is retried
   * once, signed, through the host's politeness clock (never sooner than its delay after the
   * unsigned request, nor than the response's `Retry-After`), and the host's requests are signed
   * from then on (the 10,000 hosts that challenged most recently are remembered). A challenged
   * robots.txt is retried signed before RFC 9309's rules for its status apply.
   * @default 'always'
   */
  readonly sign?: SignMode;
}

export interface ResolvedCrawlerOptions
  extends Required<
    Omit<
      CrawlerOptions,
      | 'store'
      | 'gate'
      | 'robotsCache'
      | 'httpClient'
      | 'meterProvider'
      | 'logger'
      | 'allowNet'
      | 'signal'
      | 'adaptiveDelay'
      | 'handler'
      | 'handlers'
      | 'onFailed'
      | 'seeds'
      | 'plugins'
      | 'trapDetection'
      | 'headers'
      | 'from'
      | 'cookies'
      | 'proxy'
      | 'signing'
      | 'outputs'
      | 'purposes'
      | 'robotsTokens'
      | 'resolver'
      | 'render'
      | 'renderer'
      | 'renderBlockResourceTypes'
    >
  > {
  /** Record outputs (jsonl, csv) and the WARC archive. */
  readonly outputs: ResolvedOutputs;
  readonly trapDetection: ResolvedTrapDetection | null;
  readonly plugins: readonly CrawlerPlugin[];
  readonly allowNet: readonly string[];
  readonly productToken: string;
  readonly seeds: readonly SeedRequest[];
  readonly handler: PageHandler | undefined;
  readonly handlers: RouteHandlers | undefined;
  readonly onFailed: FailedRequestHandler | undefined;
  readonly adaptiveDelay: Required<AdaptiveDelayOptions> | undefined;
  /** Checked, names lower-cased. */
  readonly headers: Readonly<Record<string, string>>;
  readonly from: string | undefined;
  /** The jar, when cookies are on. */
  readonly cookies: CookieJar | undefined;
  readonly proxy: string | undefined;
  /** The signer and when it signs (`signing`); undefined when nothing is signed. */
  readonly signing: { readonly signer: RequestSigner; readonly sign: SignMode } | undefined;
  /** Distinct, in the order given. */
  readonly purposes: readonly UsagePurpose[];
  /** The product token of `userAgent` first, then the other `robotsTokens`, distinct. */
  readonly robotsTokens: readonly string[];
  readonly resolver: HostResolver | undefined;
  /** Which pages are rendered, and by what; undefined when none is. */
  readonly render:
    | { readonly choose: (request: RenderRequest) => boolean; readonly renderer: PageRenderer }
    | undefined;
  readonly renderBlockResourceTypes: ReadonlySet<string>;
}
