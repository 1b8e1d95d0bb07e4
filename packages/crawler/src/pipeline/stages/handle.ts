// The extract and handler stages for a fetched page: links, meta robots and canonical from the
// HTML, the handler its request's label routes it to, with the page (its pushed records committed
// to the outputs before the stage ends); then the links to follow,
// admitted by the frontier and handed back to be stored with the page's completion. Reports what
// it drops (nofollow, links past the cap), a page no route takes, and a handler's error; an error
// that ends the crawl (isFatalCrawlError) is thrown on.

import { PolitelyError, type HttpResponse, type UsageReport } from '@politely/core';
import { createLazyDocument } from '../../extract/document.js';
import { isHtmlContentType } from '../../extract/content-type.js';
import { extractPage, type ExtractedPage } from '../../extract/extract-links.js';
import { linksUnder } from '../../extract/select-links.js';
import { decodeText } from '../../fetch/decode-text.js';
import { isFatalCrawlError } from '../../fatal-error.js';
import type { Frontier } from '../../frontier/frontier.js';
import type { FrontierEntry } from '../../frontier/frontier-store.js';
import { checkRequestData } from '../../frontier/request-data.js';
import type { ResolvedCrawlerOptions } from '../../options.js';
import type { EnqueueLinksOptions, EnqueueOptions, PageContext, PageRequest, RequestOptions } from '../../page-context.js';
import type { CrawlReporter } from '../../reporter.js';
import type { Router } from '../../handle/routes.js';
import type { Dataset } from '../../dataset/dataset.js';
import type { CrawlerEmitter } from '../../events.js';
import type { UsageKnown, UsageStage } from './usage.js';
import type { LastFetch, PageChange } from '../../frontier/last-fetch.js';

export interface HandlePageSettings {
  readonly options: Pick<ResolvedCrawlerOptions, 'productToken' | 'honorNofollow' | 'maxLinksPerPage' | 'followLinks' | 'followUnchangedLinks'>;
  /** The handler for a request's label (routes.ts). */
  readonly route: Router;
  readonly frontier: Frontier;
  readonly reporter: CrawlReporter;
  readonly signal: AbortSignal;
  /** Where `page.push` writes: the page's records are committed before this stage ends. */
  readonly dataset: Dataset;
  /** The usage verdict after the fetch (`page.usage`) and the drop of a reserved page. */
  readonly usage: UsageStage;
  readonly emitter: CrawlerEmitter;
}

const NO_PAGE_ROBOTS = { noindex: false, nofollow: false, sources: [] } as const;
const NO_USAGE_KNOWN: UsageKnown = { robots: null, tdmrep: null };
const NO_USER_DATA: Readonly<Record<string, unknown>> = Object.freeze({});

/** What a page's fetch found against its last one (revisit.ts). */
export interface PageRevisit {
  readonly change: PageChange;
  /** The URL's last fetch, when this is a revisit. */
  readonly previous: LastFetch | undefined;
}

const FIRST_FETCH: PageRevisit = { change: 'new', previous: undefined };

/** What the extract and handler stages did with a page. */
export interface HandledPage {
  /** The page's links the frontier admitted, to store with its completion. */
  readonly links: FrontierEntry[];
  /** Set when the page was kept from handlers and outputs for its usage preferences: why. */
  readonly withheld?: string;
}

/**
 * Runs the extract and handler stages. Resolves with the page's links the frontier admitted, to be
 * stored with the page's completion (the settle), or none when links are not followed.
 *
 * A page its own headers or meta tags reserve for one of the crawl's `purposes` (`known`: what
 * robots.txt and tdmrep.json said before the fetch) goes to no handler and no output, and is
 * reported as a `usage-reserved` skip. Its links are still followed (unless nofollow): a
 * reservation is about what the content is used for, not about discovering other pages, which
 * answer for themselves.
 */
export async function handlePage(
  entry: FrontierEntry,
  response: HttpResponse,
  attempt: number,
  settings: HandlePageSettings,
  known: UsageKnown = NO_USAGE_KNOWN,
  revisit: PageRevisit = FIRST_FETCH,
  browserPage?: unknown,
): Promise<HandledPage> {
  const { options, reporter } = settings;
  // A page the last fetch kept from handlers, answered 304 or unchanged: kept from them again
  // (a 304 has no meta tags to judge afresh).
  const sameAsBefore = revisit.change === 'not-modified' || revisit.change === 'unchanged';
  if (sameAsBefore && revisit.previous?.withheld !== undefined) {
    reporter.skip(entry.url, { reason: 'usage-reserved', detail: `${revisit.previous.withheld} (at the last fetch; the page has not changed since)` }, entry.referrer);
    return { links: [], withheld: revisit.previous.withheld };
  }
  // An unchanged page's links were followed when it was last fetched.
  const followLinks = options.followLinks && (revisit.change !== 'unchanged' || options.followUnchangedLinks);
  const contentType = response.header('content-type');
  const text = decodeText(response.body, contentType);
  const document = createLazyDocument(text);
  let extracted: ExtractedPage | null = null;
  if (isHtmlContentType(contentType) && response.status >= 200 && response.status < 300) {
    // One streaming pass: the DOM (`page.$`) is built only if the handler reads it.
    extracted = extractPage(text, entry.url, {
      productToken: options.productToken,
      honorNofollow: options.honorNofollow,
      xRobotsTag: response.header('x-robots-tag'),
      maxLinks: Math.min(options.maxLinksPerPage, Number.MAX_SAFE_INTEGER),
    });
    for (const url of extracted.nofollowLinks) {
      reporter.skip(url, { reason: 'nofollow', ...(extracted.nofollowReason === null ? {} : { detail: extracted.nofollowReason }) }, entry.url);
    }
    const dropped = extracted.skippedLinks.overLimit;
    if (dropped > 0) {
      reporter.skip(entry.url, { reason: 'too-many-links', detail: `${dropped} more distinct links past maxLinksPerPage (${options.maxLinksPerPage}) were not followed` }, entry.referrer);
    }
  }
  const links = extracted?.links ?? [];
  // The verdict now when it decides something or someone listens; else on `page.usage`, if read.
  const usageOf = () => settings.usage.after(entry.url, known, response.headers, extracted?.metas);
  const usage = settings.usage.judgesPages || settings.emitter.listens('usage') ? usageOf() : undefined;
  if (usage !== undefined && settings.emitter.listens('usage')) settings.emitter.emit('usage', { url: entry.url, stage: 'after-fetch', report: usage.report, reserved: usage.reserved });
  if (usage?.skip !== undefined) {
    // The body is dropped here: no handler, no record, no output.
    reporter.skip(entry.url, usage.skip, entry.referrer);
    const withheld = usage.skip.detail ?? usage.skip.reason;
    if (!followLinks || links.length === 0) return { links: [], withheld };
    return { links: await settings.frontier.admit(links.map((url) => ({ url, depth: entry.depth + 1, priority: 0, referrer: entry.url }))), withheld };
  }
  const route = settings.route(entry.label);
  if (route.handler === null && 'missing' in route) {
    reporter.error(entry.url, new PolitelyError('ERR_NO_ROUTE', `no route for ${entry.url}: ${route.missing}`), 'handler', attempt, false);
  }
  if (route.handler !== null) {
    /** The page's links as requests with the user's data (checked: a bad one throws to the handler). */
    const requestsFor = (urls: readonly string[], given: RequestOptions, depth: number) => {
      const data = urls.length === 0 ? {} : checkRequestData(urls[0]!, given);
      return urls.map((url) => ({ url, depth, priority: given.priority ?? 0, referrer: entry.url, ...data }));
    };
    const enqueue = async (urls: string | readonly string[], given: EnqueueOptions = {}): Promise<number> =>
      settings.frontier.add(requestsFor(typeof urls === 'string' ? [urls] : urls, given, given.depth ?? entry.depth + 1));
    const enqueueLinks = async (given: EnqueueLinksOptions = {}): Promise<number> => {
      if (extracted === null) return 0;
      // Links under a selector are kept only if the extractor would follow them: nofollow, the
      // page's meta robots and maxLinksPerPage apply to them as to every link.
      const followable = new Set(links);
      let picked = given.selector === undefined ? links : linksUnder(document(), given.selector, extracted.baseUrl).filter((url) => followable.has(url));
      if (given.filter !== undefined) picked = picked.filter((url) => given.filter!(url));
      return settings.frontier.add(requestsFor(picked, given, entry.depth + 1));
    };
    const handler = route.handler;
    // A revisit's records are new records: the ledger tells them from the last fetch's by its time.
    const ledgerKey = revisit.previous === undefined ? entry.url : `${entry.url} revisit@${revisit.previous.fetchedAt}`;
    const records = settings.dataset.page(ledgerKey, entry.url);
    let usageReport: UsageReport | undefined;
    const request: PageRequest = {
      url: entry.redirectedFrom ?? entry.url,
      label: entry.label,
      userData: entry.userData ?? NO_USER_DATA,
      depth: entry.depth,
      priority: entry.priority,
    };
    const page: PageContext = {
      url: request.url,
      finalUrl: entry.url,
      status: response.status,
      headers: response.headers,
      body: response.body,
      text,
      get $() {
        return document();
      },
      links,
      depth: entry.depth,
      robots: extracted?.robots ?? NO_PAGE_ROBOTS,
      get usage() {
        return (usageReport ??= usage?.report ?? usageOf().report);
      },
      canonicalUrl: extracted?.canonicalUrl ?? null,
      contentType,
      request,
      notModified: sameAsBefore,
      rendered: browserPage !== undefined,
      browser: browserPage,
      change: revisit.change,
      previousFetch: revisit.previous,
      enqueue,
      enqueueLinks,
      push: (record) => records.push(record),
      signal: settings.signal,
    };
    try {
      await settings.dataset.runInPage(records, () => handler(page));
    } catch (error) {
      if (isFatalCrawlError(error)) {
        // The URL goes back to the store: its records go from the outputs.
        await records.rollback();
        throw error;
      }
      reporter.error(entry.url, error, 'handler', attempt, false);
    }
    // The page's records are in every output (committed) before its URL can count as done; a
    // write that failed is thrown on (ERR_OUTPUT, fatal), its records cut.
    await records.commit();
  }
  if (!followLinks || links.length === 0) return { links: [] };
  return { links: await settings.frontier.admit(links.map((url) => ({ url, depth: entry.depth + 1, priority: 0, referrer: entry.url }))) };
}
