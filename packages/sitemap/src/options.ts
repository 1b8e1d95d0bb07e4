// The sitemaps plugin's options: every field documented with its default, validated once.

import { PolitelyError } from '@politely/core';
import { optionChecks } from '@politely/core/internal';
import { checkRequestData, type RouteLabel, type UserData, type UserDataOf } from '@politely/crawler';
import { compileUrlPattern, type UrlMatcher, type UrlPattern } from './url-filter.js';

/** One URL a sitemap lists, with the fields the file gave for it. */
export interface SitemapUrlRecord {
  /** The URL (absolute, WHATWG-serialised). */
  readonly url: string;
  /** `<lastmod>` (Atom `<updated>`, RSS `<pubDate>`) as written in the file. */
  readonly lastmod?: string;
  /** `<changefreq>` as written in the file. */
  readonly changefreq?: string;
  /** `<priority>`, 0.0–1.0, when the file gave a valid one. */
  readonly priority?: number;
  /** The sitemap file the URL came from (after redirects). */
  readonly sitemap: string;
}

/** What discovery found for one origin. */
export interface SitemapDiscoveryRecord {
  readonly origin: string;
  /** The sitemap URLs queued for the origin: its `Sitemap:` lines, or the guessed `/sitemap.xml`. */
  readonly sitemaps: readonly string[];
  /** The origin's robots.txt declared none, and `/sitemap.xml` was queued as a guess. */
  readonly guessed: boolean;
}

/** The userData the plugin may give a page: with typed routes, one of the routes' userData types. */
export type SitemapUserData<Routes = object> = UserDataOf<Routes, RouteLabel<Routes>>;

/**
 * The sitemaps plugin's options. `Routes`: the crawl's routes type, when it has one
 * (`sitemaps<Routes>(…)`, see `RouteMap` of `@politely/crawler`): it types `label` and `userData`.
 */
export interface SitemapPluginOptions<Routes = object> {
  /**
   * Origins whose robots.txt `Sitemap:` lines are read.
   * @default the origins of the crawl's seeds
   */
  readonly origins?: readonly string[];
  /**
   * Sitemap URLs to read as well, each as if its own origin's robots.txt declared it (its URLs
   * may lie anywhere on that origin).
   * @default []
   */
  readonly sitemapUrls?: readonly string[];
  /**
   * Try `/sitemap.xml` for an origin whose robots.txt declares no sitemap. A miss (4xx, or a
   * page that is no sitemap) is not reported as an error.
   * @default false
   */
  readonly guessSitemapXml?: boolean;
  /**
   * How deep sitemap indexes may nest: a declared sitemap is at depth 0, the sitemaps its index
   * lists at 1, and so on. Deeper ones are skipped as `sitemap-limit`.
   * @default 3
   */
  readonly maxDepth?: number;
  /**
   * URLs (or child sitemaps) read from one file at most; the protocol's limit. The rest are
   * skipped, reported by one `sitemap-limit` skip per file.
   * @default 50000
   */
  readonly maxUrlsPerFile?: number;
  /**
   * Bytes read from one file at most, after decompression; the protocol's limit. A larger file
   * is cut there (one `sitemap-limit` skip) and the entries complete before the cut are used.
   * @default 52428800 (50 MiB)
   */
  readonly maxBytesPerFile?: number;
  /**
   * Keep only URLs whose `lastmod` is at or after this date. URLs without a (valid) `lastmod` are
   * kept: nothing says they did not change.
   * @default undefined (no lastmod filter)
   */
  readonly lastmodSince?: Date;
  /**
   * Keep only URLs that match one of these: a glob, where `*` stands for any run of characters
   * and which must match the whole URL (`https://example.com/blog/*`), or a RegExp, which
   * must match somewhere in it. An empty list filters nothing.
   * @default undefined (every URL)
   */
  readonly include?: readonly UrlPattern[];
  /**
   * Leave out URLs that match one of these (globs or RegExps, as for `include`).
   * @default []
   */
  readonly exclude?: readonly UrlPattern[];
  /**
   * Offer the URLs found to the frontier as pages to crawl. Like seeds, they bypass the crawl's
   * `scope` (the sitemap scope rule and `include`/`exclude` bound them instead); links found on
   * them follow the crawl's scope as usual. With false the plugin only lists them (through
   * `onUrl`) and no page is fetched because of it.
   * @default true
   */
  readonly enqueuePages?: boolean;
  /**
   * Called for every URL kept (in scope, past the filters), in file order, whether or not the
   * frontier already knew it. A returned promise is awaited before the next URL (backpressure).
   * @default undefined
   */
  readonly onUrl?: (record: SitemapUrlRecord) => void | Promise<void>;
  /**
   * Called once per origin when its robots.txt has been read for sitemaps.
   * @default undefined
   */
  readonly onDiscovery?: (record: SitemapDiscoveryRecord) => void;
  /**
   * How a sitemap `<priority>` p (0.0–1.0; 0.5 when absent, as the protocol says) becomes the
   * frontier priority of its page: `Math.round(p × priorityScale)`. With the default, 0.0 → 0,
   * 0.5 → 5 and 1.0 → 10 (the frontier fetches higher first within a host; seeds and links
   * have 0). 0 gives every page priority 0. Sitemap files themselves get
   * `round(priorityScale) + 1`, so a host reads its sitemaps before the pages they list.
   * @default 10
   */
  readonly priorityScale?: number;
  /**
   * The label of the pages the plugin queues, that is the route that handles them
   * (`handlers[label]`): a label, or a function of the URL's sitemap record (`url`, `lastmod`,
   * `changefreq`, `priority`, `sitemap`) that returns one, or undefined for none. A page without
   * a label goes to `handlers.default`. A page the plugin queued without a label, and that a
   * route enqueues with one before it is fetched, takes that label, its userData and the higher
   * priority. A label is a non-empty string of at most 256 characters: another value given here
   * is refused by `sitemaps()` (`ERR_INVALID_OPTION`); one a function returns is an `error` event
   * for its URL, which is then not queued.
   * @default undefined (no label: the `default` route)
   */
  readonly label?: RouteLabel<Routes> | ((record: SitemapUrlRecord) => RouteLabel<Routes> | undefined);
  /**
   * The userData of the pages the plugin queues (`page.request.userData`): a plain JSON object,
   * or a function of the URL's sitemap record that returns one (or undefined for none), e.g.
   * `({ lastmod }) => ({ lastmod })`. Checked as any request's userData (plain JSON, at most
   * 64 KiB as JSON): a bad value given here is refused by `sitemaps()` (`ERR_INVALID_OPTION`);
   * one a function returns is an `error` event for its URL, which is then not queued.
   * @default undefined (`{}`)
   */
  readonly userData?: SitemapUserData<Routes> | ((record: SitemapUrlRecord) => SitemapUserData<Routes> | undefined);
}

export interface ResolvedSitemapPluginOptions {
  readonly origins: readonly string[] | undefined;
  readonly sitemapUrls: readonly string[];
  readonly guessSitemapXml: boolean;
  readonly maxDepth: number;
  readonly maxUrlsPerFile: number;
  readonly maxBytesPerFile: number;
  readonly lastmodSinceMs: number | undefined;
  readonly include: readonly UrlMatcher[] | undefined;
  readonly exclude: readonly UrlMatcher[];
  readonly enqueuePages: boolean;
  readonly onUrl: ((record: SitemapUrlRecord) => void | Promise<void>) | undefined;
  readonly onDiscovery: ((record: SitemapDiscoveryRecord) => void) | undefined;
  readonly priorityScale: number;
  /** Frontier priority of sitemap files and discovery entries: above any page from a sitemap. */
  readonly sitemapPriority: number;
  /** The label of a listed page (the option's value, or its function); undefined for none. */
  readonly labelOf: ((record: SitemapUrlRecord) => unknown) | undefined;
  /** The userData of a listed page (the option's value, or its function); undefined for none. */
  readonly userDataOf: ((record: SitemapUrlRecord) => unknown) | undefined;
}

/** The default `maxUrlsPerFile` of `sitemaps()`: 50,000, the sitemaps.org limit. */
export const DEFAULT_MAX_URLS_PER_FILE = 50_000;
/** The default `maxBytesPerFile` of `sitemaps()`: 50 MiB, the sitemaps.org limit. */
export const DEFAULT_MAX_BYTES_PER_FILE = 50 * 1024 * 1024;

function invalid(message: string): PolitelyError {
  return new PolitelyError('ERR_INVALID_OPTION', `sitemaps: ${message}`);
}

function integer(name: string, value: number, min: number): number {
  if (!Number.isInteger(value) || value < min)
    throw invalid(`${name} must be an integer ≥ ${min}, got ${String(value)}`);
  return value;
}

function httpUrl(name: string, value: string): URL {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw invalid(`${name}: not an absolute URL: ${JSON.stringify(value)}`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw invalid(`${name}: not an http(s) URL: ${JSON.stringify(value)}`);
  return url;
}

/** Every option `sitemaps()` knows: a key missing here, or one too many, is a type error. */
const SITEMAP_OPTION_KEYS: Record<keyof SitemapPluginOptions, true> = {
  origins: true,
  sitemapUrls: true,
  guessSitemapXml: true,
  maxDepth: true,
  maxUrlsPerFile: true,
  maxBytesPerFile: true,
  lastmodSince: true,
  include: true,
  exclude: true,
  enqueuePages: true,
  onUrl: true,
  onDiscovery: true,
  priorityScale: true,
  label: true,
  userData: true,
};

export function resolveSitemapPluginOptions<Routes = object>(
  options: SitemapPluginOptions<Routes> = {},
): ResolvedSitemapPluginOptions {
  optionChecks('sitemaps').knownKeys(options, SITEMAP_OPTION_KEYS);
  const since = options.lastmodSince;
  if (since !== undefined && !(since instanceof Date && Number.isFinite(since.getTime())))
    throw invalid('lastmodSince must be a valid Date');
  const priorityScale = options.priorityScale ?? 10;
  if (!Number.isFinite(priorityScale) || priorityScale < 0)
    throw invalid(`priorityScale must be a finite number ≥ 0, got ${String(priorityScale)}`);
  return {
    origins:
      options.origins === undefined
        ? undefined
        : unique(options.origins.map((origin) => httpUrl('origins', origin).origin)),
    sitemapUrls: unique((options.sitemapUrls ?? []).map((url) => httpUrl('sitemapUrls', url).href)),
    guessSitemapXml: options.guessSitemapXml ?? false,
    maxDepth: integer('maxDepth', options.maxDepth ?? 3, 0),
    maxUrlsPerFile: integer('maxUrlsPerFile', options.maxUrlsPerFile ?? DEFAULT_MAX_URLS_PER_FILE, 1),
    maxBytesPerFile: integer('maxBytesPerFile', options.maxBytesPerFile ?? DEFAULT_MAX_BYTES_PER_FILE, 1),
    lastmodSinceMs: since?.getTime(),
    // No include patterns (undefined or []) means no include filter, not "include nothing".
    include:
      options.include === undefined || options.include.length === 0
        ? undefined
        : options.include.map((pattern) => compileUrlPattern(pattern, 'include')),
    exclude: (options.exclude ?? []).map((pattern) => compileUrlPattern(pattern, 'exclude')),
    enqueuePages: options.enqueuePages ?? true,
    onUrl: options.onUrl,
    onDiscovery: options.onDiscovery,
    priorityScale,
    sitemapPriority: Math.round(priorityScale) + 1,
    labelOf: valueOrFunction('label', options.label),
    userDataOf: valueOrFunction('userData', options.userData),
  };
}

/**
 * `label` or `userData` as a function of the record: a function as given, a value checked now
 * (as a request's, ERR_INVALID_OPTION naming the option) and returned for every record.
 */
function valueOrFunction(
  name: 'label' | 'userData',
  given: unknown,
): ((record: SitemapUrlRecord) => unknown) | undefined {
  if (given === undefined) return undefined;
  if (typeof given === 'function') return given as (record: SitemapUrlRecord) => unknown;
  const where = `the ${name} option`;
  try {
    checkRequestData(where, { [name]: given } as ListedRoute);
  } catch (error) {
    const message = error instanceof Error ? error.message.slice(`request ${where}: `.length) : String(error);
    throw invalid(`${message}, or a function of the sitemap record that returns one`);
  }
  return () => given;
}

/** A page's label and userData, as the frontier takes them. */
export interface ListedRoute {
  readonly label?: string;
  readonly userData?: UserData;
}

/**
 * The label and userData of a listed page, as its label and userData functions returned them
 * (fields absent when undefined); throws ERR_INVALID_INPUT, naming the URL, for a label that is
 * not one or userData that is not plain JSON.
 */
export function routeOf(record: SitemapUrlRecord, label: unknown, userData: unknown): ListedRoute {
  if (label === undefined && userData === undefined) return {};
  const given = {
    ...(label === undefined ? {} : { label }),
    ...(userData === undefined ? {} : { userData }),
  } as ListedRoute;
  const checked = checkRequestData(record.url, given);
  return {
    ...(checked.label === undefined ? {} : { label: checked.label }),
    ...(checked.userData === undefined ? {} : { userData: checked.userData }),
  };
}

function unique(values: readonly string[]): string[] {
  return [...new Set(values)];
}
