// What the user's handler receives for each fetched page, and what a request carries for it:
// its route (label and userData), typed by the crawl's routes type when it has one.

import type { UsageReport } from '@politely/core';
import type { LastFetch, PageChange } from '@politely/frontier';
import type { CheerioAPI } from 'cheerio';
import type { PageContent } from './content/page-content.js';
import type { DatasetRecord } from './dataset/record-text.js';
import type { PageRobotsDirectives } from './extract/meta-robots.js';
import type { UserData } from './frontier/request-data.js';

/**
 * Typed routes: the type given to `createCrawler<Routes>()`, an object type that maps each label
 * to the type of the userData its requests carry (a plain-JSON object type):
 *
 * ```ts
 * type Routes = { CATEGORY: { page: number }; PRODUCT: { category: string } };
 * const crawler = createCrawler<Routes>({ userAgent, seeds, handlers: { CATEGORY, PRODUCT, default } });
 * ```
 *
 * Then each route's `page.request.userData` has its label's type, a label given anywhere
 * (`page.enqueue`, `page.enqueueLinks`, `crawler.enqueue`, seeds) must be one of the keys, and the
 * userData given with it must have that key's type (it is required when that type has required
 * fields); `handlers` needs a route for every label. `default` is not a label: it is the route of
 * requests without one, whose userData is `UserData`. `Routes` satisfies `RouteMap<Routes>`.
 *
 * Without a routes type (`object`, the default of every `Routes` parameter), or with one that has
 * a string index (`Record<string, …>`), routes are untyped: a label is any string and userData
 * is `UserData`.
 */
export type RouteMap<Routes> = { readonly [Label in keyof Routes]: object };

/** Whether `Routes` leaves routes untyped: no keys (`object`, the default) or a string index. */
export type IsUntypedRoutes<Routes> = string extends keyof Routes
  ? true
  : [keyof Routes] extends [never]
    ? true
    : false;

/** The labels of a routes type: its keys but `default`; any string for untyped routes. */
export type RouteLabel<Routes = object> =
  IsUntypedRoutes<Routes> extends true ? string : Exclude<keyof Routes & string, 'default'>;

/**
 * The userData of a request with label `Label` (`undefined` for none): `Routes[Label]` for typed
 * routes; `UserData` for a request without a label, and for untyped routes.
 */
export type UserDataOf<Routes, Label> =
  IsUntypedRoutes<Routes> extends true ? UserData : Label extends keyof Routes ? Routes[Label] : UserData;

/**
 * A request's route: its `label` and `userData`. For untyped routes, any label and any plain-JSON
 * userData. For typed routes, no label (the `default` route, userData `UserData`), or one of the
 * labels with userData of its type (required when that type has required fields).
 */
export type RequestRoute<Routes = object> =
  IsUntypedRoutes<Routes> extends true
    ? {
        /** Which route (`handlers[label]`) handles the page. @default none (`handlers.default`) */
        readonly label?: string;
        /**
         * Plain JSON carried with the request to its handler (`page.request.userData`), through every
         * store, a resume and redirects; at most 64 KiB as JSON (ERR_INVALID_INPUT past it).
         * @default {}
         */
        readonly userData?: UserData;
      }
    :
        | {
            /** No label: `handlers.default` handles the page. */
            readonly label?: undefined;
            /** Plain JSON carried with the request to its handler, at most 64 KiB as JSON. @default {} */
            readonly userData?: UserData;
          }
        | { [Label in RouteLabel<Routes>]: LabelledRoute<Routes, Label> }[RouteLabel<Routes>];

/** A request for the route `Label` of typed routes: the label, and userData of its type. */
export type LabelledRoute<Routes, Label extends RouteLabel<Routes>> = {
  /** Which route (`handlers[label]`) handles the page. */
  readonly label: Label;
} & (object extends UserDataOf<Routes, Label>
  ? {
      /** Plain JSON carried with the request to its handler, at most 64 KiB as JSON. @default {} */
      readonly userData?: UserDataOf<Routes, Label>;
    }
  : {
      /** Plain JSON carried with the request to its handler, at most 64 KiB as JSON. */
      readonly userData: UserDataOf<Routes, Label>;
    });

/** What a request carries besides its route. */
export interface RequestSettings {
  /** Higher is fetched first within a host. @default 0 */
  readonly priority?: number;
  /**
   * Headers for this request only, over the crawl-wide `headers` (the crawler's `User-Agent` and
   * `From` always win); kept on a redirect to the same origin, dropped on one to another.
   * Hop-by-hop headers, `Host`, `Content-Length`, `User-Agent` and `From` are refused with
   * ERR_INVALID_INPUT (`checkRequestHeaders`).
   * @default {}
   */
  readonly headers?: Readonly<Record<string, string>>;
}

/** What a request carries for its handler: given when it is enqueued. */
export type RequestOptions<Routes = object> = RequestSettings & RequestRoute<Routes>;

/** `page.enqueue`'s options. */
export type EnqueueOptions<Routes = object> = RequestOptions<Routes> & {
  /** Depth given to the URLs. @default the page's depth + 1 */
  readonly depth?: number;
};

/** `page.enqueueLinks`'s options. */
export type EnqueueLinksOptions<Routes = object> = RequestOptions<Routes> & {
  /**
   * A CSS selector: only links at or inside the elements it picks (`a[href]`, `area[href]`).
   * @default every link the crawler extracted from the page
   */
  readonly selector?: string;
  /** Keeps only the URLs (absolute, as they will be requested) for which it returns true. */
  readonly filter?: (url: string) => boolean;
};

/**
 * The request a page answers. With typed routes, `label` is the route's label (undefined in the
 * `default` route) and `userData` has its type.
 */
export interface PageRequest<
  Routes = object,
  Label extends RouteLabel<Routes> | undefined = RouteLabel<Routes> | undefined,
> {
  /** The URL that was requested (before any redirect). */
  readonly url: string;
  readonly label: Label;
  /** `{}` when the request carried none. */
  readonly userData: Readonly<UserDataOf<Routes, Label>>;
  /** Link distance from a seed. */
  readonly depth: number;
  readonly priority: number;
}

/**
 * The request of a page for one of `Label`'s routes: for typed routes, a union by label (so that
 * testing `request.label` narrows `request.userData`).
 */
export type PageRequestOf<Routes, Label extends RouteLabel<Routes> | undefined> =
  IsUntypedRoutes<Routes> extends true
    ? PageRequest<Routes, Label>
    : Label extends unknown
      ? PageRequest<Routes, Label>
      : never;

/**
 * What a handler is given for one page. `Routes`: the crawl's routes type (see `RouteMap`);
 * `Label`: the labels of the requests this handler takes (`undefined`: those without a label).
 */
export interface PageContext<
  Routes = object,
  Label extends RouteLabel<Routes> | undefined = RouteLabel<Routes> | undefined,
> {
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
  readonly request: PageRequestOf<Routes, Label>;
  /**
   * The page's main content (`extractContent` of @politely/content: title, text, Markdown with
   * absolute links, authors, dates, language, canonical URL, description, site name, JSON-LD,
   * OpenGraph) with its rights: `usage` and `usageSources` as `page.usage` has them, and `robots`
   * (noindex, nofollow). Extracted from `text` at the first call, against `finalUrl`; every call
   * resolves with the same object. A page whose Content-Type is not HTML rejects with
   * `ERR_INVALID_INPUT` naming it (`isHtmlContentType(page.contentType)` tells beforehand). To
   * push the content with a record: `page.push({ url: page.url, ...(await page.content()) })`.
   */
  content(): Promise<PageContent>;
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
   * label and userData; resolves with how many were new. A URL queued without a label (by a
   * sitemap, say) and not fetched yet takes the label, its userData and the higher priority,
   * and counts as new; one already fetched is not fetched again.
   */
  enqueue(urls: string | readonly string[], options?: EnqueueOptions<Routes>): Promise<number>;
  /**
   * Adds the page's links — all of `links`, or those under `options.selector` — with a label and
   * userData, through the same nofollow, scope, trap, dedupe and robots rules as every link.
   * Resolves with how many were new (a URL queued without a label takes this one, as with
   * `enqueue`). A link enqueued here first keeps its label when the crawler follows the page's
   * links by itself afterwards (that one is a duplicate).
   */
  enqueueLinks(options?: EnqueueLinksOptions<Routes>): Promise<number>;
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
  /**
   * Fires when the crawl stops at once (an abort, a fatal error, or the end of `stop()`'s grace
   * period): a long handler may end early then.
   */
  readonly signal: AbortSignal;
}

/**
 * A function that handles fetched pages; what it returns (or resolves with) is ignored. With typed
 * routes, `PageHandler<Routes, 'PRODUCT'>` is the route of `PRODUCT` requests.
 */
export type PageHandler<
  Routes = object,
  Label extends RouteLabel<Routes> | undefined = RouteLabel<Routes> | undefined,
> = (page: PageContext<Routes, Label>) => unknown;

/**
 * Handlers by request label. `default` takes requests without a label (every link the crawler
 * follows by itself). A request whose label has no handler here is refused when it is queued
 * (`ERR_INVALID_INPUT`, or `ERR_INVALID_OPTION` for a seed), before any request is made for it.
 * With typed routes, a handler for each label is required, and each takes the pages of its label
 * with their userData typed.
 */
export type RouteHandlers<Routes = object> =
  IsUntypedRoutes<Routes> extends true
    ? {
        readonly default?: PageHandler;
        readonly [label: string]: PageHandler | undefined;
      }
    : { readonly [Label in RouteLabel<Routes>]: PageHandler<Routes, Label> } & {
        /** The route of requests without a label (links the crawler follows by itself among them). */
        readonly default?: PageHandler<Routes, undefined>;
      };
