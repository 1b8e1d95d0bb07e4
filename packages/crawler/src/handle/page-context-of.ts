// What a handler is given for one page (`PageContext`): the page as the handle stage read it
// (pipeline/stages/handle.ts), the request it answers, and ways to enqueue URLs and push records.

import type { HttpResponse, UsageReport } from '@politely/core';
import type { FrontierEntry, LastFetch, PageChange } from '@politely/frontier';
import type { CheerioAPI } from 'cheerio';
import { type PageContent, pageContentOf } from '../content/page-content.js';
import type { createLazyDocument } from '../extract/document.js';
import type { ExtractedPage } from '../extract/extract-links.js';
import { linksUnder } from '../extract/select-links.js';
import type { Frontier } from '../frontier/frontier.js';
import { checkRequestData } from '../frontier/request-data.js';
import type { EnqueueLinksOptions, EnqueueOptions, PageContext, PageRequest, RequestOptions } from '../page-context.js';

/** The page as read: its text, its DOM on demand, and what extraction found (HTML 2xx only). */
export interface ReadPage {
  readonly contentType: string | undefined;
  readonly text: string;
  readonly document: ReturnType<typeof createLazyDocument>;
  readonly extracted: ExtractedPage | null;
  readonly links: readonly string[];
  /** `links[i]` parsed, for each i (see `ExtractedWithUrls`); empty when there are no links. */
  readonly linkUrls: readonly URL[];
}

/** Everything a page's context is made of. */
export interface PageParts extends ReadPage {
  readonly entry: FrontierEntry;
  readonly response: HttpResponse;
  /** What the fetch found against the URL's last one. */
  readonly change: PageChange;
  /** The URL's last fetch, when this is a revisit. */
  readonly previous: LastFetch | undefined;
  /** The renderer's live page, when the page was rendered. */
  readonly browserPage: unknown;
  /** The page's usage verdict (computed when first asked for). */
  readonly usage: () => UsageReport;
  readonly push: PageContext['push'];
  readonly frontier: Pick<Frontier, 'add'>;
  readonly signal: AbortSignal;
}

const NO_PAGE_ROBOTS = { noindex: false, nofollow: false, sources: [] } as const;
const NO_USER_DATA: Readonly<Record<string, unknown>> = Object.freeze({});

/** The request a frontier entry stands for, as a handler sees it. */
export function requestOf(entry: FrontierEntry): PageRequest {
  return {
    url: entry.redirectedFrom ?? entry.url,
    label: entry.label,
    userData: entry.userData ?? NO_USER_DATA,
    depth: entry.depth,
    priority: entry.priority,
  };
}

/**
 * The page's context: a class, so that `$` and `usage` are getters on its prototype. An object
 * literal with getters allocates a new accessor pair for each object, in V8's old generation:
 * that old object holds the getters, the getters hold the page (text, body, response), and the
 * young collector must keep whatever an old object points to. Every page's text would then outlive
 * its page until the next full collection: tens of KB a page promoted, and a peak heap well above
 * what the crawl keeps (docs/benchmarks.md).
 */
class HandlerPage implements PageContext {
  readonly url: string;
  readonly finalUrl: string;
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: Uint8Array;
  readonly text: string;
  readonly links: readonly string[];
  readonly depth: number;
  readonly robots: PageContext['robots'];
  readonly canonicalUrl: string | null;
  readonly contentType: string | undefined;
  readonly request: PageRequest;
  readonly notModified: boolean;
  readonly rendered: boolean;
  readonly browser: unknown;
  readonly change: PageChange;
  readonly previousFetch: LastFetch | undefined;
  readonly enqueue: PageContext['enqueue'];
  readonly enqueueLinks: PageContext['enqueueLinks'];
  readonly push: PageContext['push'];
  readonly content: PageContext['content'];
  readonly signal: AbortSignal;
  readonly #parts: PageParts;
  #content: Promise<PageContent> | undefined;

  constructor(parts: PageParts) {
    const { entry, response, extracted, browserPage } = parts;
    const request = requestOf(entry);
    this.#parts = parts;
    this.url = request.url;
    this.finalUrl = entry.url;
    this.status = response.status;
    this.headers = response.headers;
    this.body = response.body;
    this.text = parts.text;
    this.links = parts.links;
    this.depth = entry.depth;
    this.robots = extracted?.robots ?? NO_PAGE_ROBOTS;
    this.canonicalUrl = extracted?.canonicalUrl ?? null;
    this.contentType = parts.contentType;
    this.request = request;
    this.notModified = parts.change === 'not-modified' || parts.change === 'unchanged';
    this.rendered = browserPage !== undefined;
    this.browser = browserPage;
    this.change = parts.change;
    this.previousFetch = parts.previous;
    const { enqueue, enqueueLinks } = enqueuersOf(parts);
    this.enqueue = enqueue;
    this.enqueueLinks = enqueueLinks;
    this.push = parts.push;
    // An own function, like `push`, so that a destructured `content()` works. Extracted at the
    // first call and kept: every call resolves with the same object.
    this.content = () => {
      this.#content ??= new Promise<PageContent>((resolve) => resolve(pageContentOf(this)));
      return this.#content;
    };
    this.signal = parts.signal;
  }

  /** The DOM, built on first read. */
  get $(): CheerioAPI {
    return this.#parts.document();
  }

  /** The usage verdict, judged on first read. */
  get usage(): UsageReport {
    return this.#parts.usage();
  }
}

export function pageContextOf(parts: PageParts): PageContext {
  return new HandlerPage(parts);
}

type Enqueuers = Pick<PageContext, 'enqueue' | 'enqueueLinks'>;

/** `page.enqueue` and `page.enqueueLinks`: the user's URLs and the page's links, with their data. */
function enqueuersOf(parts: PageParts): Enqueuers {
  const { entry, frontier } = parts;
  /** The page's links as requests with the user's data (checked: a bad one throws to the handler). */
  const requestsFor = (urls: readonly string[], given: RequestOptions, depth: number) => {
    const data = urls.length === 0 ? {} : checkRequestData(urls[0]!, given);
    return urls.map((url) => ({ url, depth, priority: given.priority ?? 0, referrer: entry.url, ...data }));
  };
  const enqueue = async (urls: string | readonly string[], given: EnqueueOptions = {}): Promise<number> =>
    frontier.add(requestsFor(typeof urls === 'string' ? [urls] : urls, given, given.depth ?? entry.depth + 1));
  const enqueueLinks = async (given: EnqueueLinksOptions = {}): Promise<number> => {
    const { extracted, links } = parts;
    if (extracted === null) return 0;
    // Links under a selector are kept only if the extractor would follow them: nofollow, the
    // page's meta robots and maxLinksPerPage apply to them as to every link.
    const followable = new Set(links);
    const under = (selector: string): string[] => linksUnder(parts.document(), selector, extracted.baseUrl);
    let picked = given.selector === undefined ? links : under(given.selector).filter((url) => followable.has(url));
    if (given.filter !== undefined) picked = picked.filter((url) => given.filter!(url));
    return frontier.add(requestsFor(picked, given, entry.depth + 1));
  };
  return { enqueue, enqueueLinks };
}
