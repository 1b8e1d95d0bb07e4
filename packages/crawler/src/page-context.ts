// What the user's handler receives for each fetched page.

import type { UsageReport } from '@politely/core';
import type { LastFetch, PageChange } from '@politely/frontier';
import type { CheerioAPI } from 'cheerio';
import type { DatasetRecord } from './dataset/record-text.js';
import type { PageRobotsDirectives } from './extract/meta-robots.js';

/** What a request carries for its handler: given when it is enqueued. */
export interface RequestOptions {
  /** Higher is fetched first within a host. @default 0 */
  readonly priority?: number;
  /** Which route (`handlers[label]`) handles the page. @default none (`handlers.default`) */
  readonly label?: string;
  /**
   * Plain JSON carried with the request to its handler (`page.request.userData`), through every
   * store, a resume and redirects; at most 64 KiB as JSON (ERR_INVALID_INPUT past it).
   * @default {}
   */
  readonly userData?: Readonly<Record<string, unknown>>;
  /**
   * Headers for this request only, over the crawl-wide `headers` (the crawler's `User-Agent` and
   * `From` always win); kept on a redirect to the same origin, dropped on one to another.
   * Hop-by-hop headers, `Host`, `Content-Length`, `User-Agent` and `From` are refused with
   * ERR_INVALID_INPUT (`checkRequestHeaders`).
   * @default {}
   */
  readonly headers?: Readonly<Record<string, string>>;
}

export interface EnqueueOptions extends RequestOptions {
  /** Depth given to the URLs. @default the page's depth + 1 */
  readonly depth?: number;
}

export interface EnqueueLinksOptions extends RequestOptions {
  /**
   * A CSS selector: only links at or inside the elements it picks (`a[href]`, `area[href]`).
   * @default every link the crawler extracted from the page
   */
  readonly selector?: string;
  /** Keeps only the URLs (absolute, as they will be requested) for which it returns true. */
  readonly filter?: (url: string) => boolean;
}

/** The request a page answers. */
export interface PageRequest {
  /** The URL that was requested (before any redirect). */
  readonly url: string;
  readonly label: string | undefined;
  /** `{}` when the request carried none. */
  readonly userData: Readonly<Record<string, unknown>>;
  /** Link distance from a seed. */
  readonly depth: number;
  readonly priority: number;
}

export interface PageContext {
  /** The URL that was requested (before any redirect). */
  readonly url: string;
  /** The URL the response came from (after redirects). */
  readonly finalUrl: string;
  readonly status: number;
  /** Response headers, names lower-cased. */
  readonly headers: Readonly<Record<string, string>>;
  /** The body, decoded from gzip/deflate/br. */
  readonly body: Uint8Array;
  /** The body as text, in the charset the page declares (UTF-8 otherwise). */
  readonly text: string;
  /** The page parsed with cheerio, on first use (shared with link extraction). */
  readonly $: CheerioAPI;
  /** Absolute links to follow (scope and dedupe are applied when they are enqueued). */
  readonly links: readonly string[];
  /** Link distance from a seed. */
  readonly depth: number;
  /** The page's `noindex` / `nofollow` from meta robots and X-Robots-Tag. */
  readonly robots: PageRobotsDirectives;
  /**
   * What the site says the page may be used for: a verdict per purpose (`allowed`, `reserved`,
   * `unknown`) with the sources that decided, from robots.txt lines, /.well-known/tdmrep.json
   * (fetched only when the crawl's `purposes` need it), the response headers and the meta tags;
   * see `usageOf` of @politely/core for the combining rule. A page reserved for one of the crawl's
   * `purposes` never reaches a handler, so here every wanted purpose is `allowed` or `unknown`.
   */
  readonly usage: UsageReport;
  /** `<link rel="canonical">`, resolved; null when absent. */
  readonly canonicalUrl: string | null;
  readonly contentType: string | undefined;
  /**
   * The page was rendered (`render`): `body`, `text`, `$` and `links` are the DOM once its scripts
   * ran (UTF-8), not the HTML as served.
   */
  readonly rendered: boolean;
  /**
   * While the handler runs, the live page of a rendered page (a Playwright `Page` with
   * `@politely/browser`: `page.browser as import('playwright-core').Page`), for clicks and waits;
   * what it requests still goes through the crawler. Closed once the handler resolves. Undefined
   * for a page that was not rendered.
   */
  readonly browser: unknown;
  /** The request this page answers: its label and userData among others. */
  readonly request: PageRequest;
  /**
   * A recrawl found the page as it was at its last fetch: the server answered `304 Not Modified`
   * to the validators sent (then `status` is 304 and `body`, `text` and `links` are empty), or sent
   * a body whose hash equals the last one (`change` tells which). Outputs record it; a handler that
   * wants only new content returns early.
   */
  readonly notModified: boolean;
  /**
   * What this fetch found against the URL's last one: `new` (first fetch), `not-modified` (304),
   * `unchanged` (same body), `changed`.
   */
  readonly change: PageChange;
  /** What the URL's last fetch left (validators, status, time, hash), on a recrawl; else undefined. */
  readonly previousFetch: LastFetch | undefined;
  /**
   * Adds URLs to the frontier (normalised, scoped, deduped, robots-checked), with their own
   * label and userData; resolves with how many were new.
   */
  enqueue(urls: string | readonly string[], options?: EnqueueOptions): Promise<number>;
  /**
   * Adds the page's links — all of `links`, or those under `options.selector` — with a label and
   * userData, through the same nofollow, scope, trap, dedupe and robots rules as every link.
   * Resolves with how many were new. A link enqueued here first keeps its label when the crawler
   * follows the page's links by itself afterwards (that one is a duplicate).
   */
  enqueueLinks(options?: EnqueueLinksOptions): Promise<number>;
  /**
   * Appends a record (a plain JSON-serialisable object), or an array of them, to the crawl's
   * `outputs`, and emits a `record` event for each once written. Resolves once they are accepted:
   * kept with the page (up to 256 KiB of records, written when the handler ends) or, past that,
   * written. Rejects with
   * `ERR_OUTPUT` when they cannot be (the crawl then stops, and this URL stays not done), or
   * `ERR_INVALID_INPUT` for a record that is not a plain JSON object. The page's records are
   * written before its URL counts as done; in a resumed crawl a page whose records are already in
   * an output is not written to it again. A page whose records outgrow its buffer holds the
   * outputs' tail until its handler ends, and other pages' pushes wait.
   */
  push(records: DatasetRecord | readonly DatasetRecord[]): Promise<void>;
  /** Fires when the crawl is being stopped. */
  readonly signal: AbortSignal;
}

/** A function that handles fetched pages; what it returns (or resolves with) is ignored. */
export type PageHandler = (page: PageContext) => unknown;

/**
 * Handlers by request label. `default` takes requests without a label (every link the crawler
 * follows by itself). A request whose label has no handler here is refused when it is queued
 * (`ERR_INVALID_INPUT`, or `ERR_INVALID_OPTION` for a seed), before any request is made for it.
 */
export interface RouteHandlers {
  readonly default?: PageHandler;
  readonly [label: string]: PageHandler | undefined;
}
