// The last stage of a page: extract and handle. Links, meta robots and canonical from the HTML;
// the page's usage verdict after the fetch; the handler its request's label routes it to, with
// the page (its pushed records committed to the outputs before the stage ends); then the links
// to follow, admitted by the frontier and handed back to be stored with the page's completion.
// Reports what it drops (nofollow, links past the cap, a reserved page) and a page no route
// takes. A handler's error is handed back (its records dropped): the pipeline retries the page
// or fails it. An error that ends the crawl (isFatalCrawlError) is thrown on.

import { type HttpResponse, PolitelyError, type UsageReport } from '@politely/core';
import { decodeText } from '@politely/core/internal';
import type { FrontierEntry, LastFetch, PageChange } from '@politely/frontier';
import type { Dataset } from '../../dataset/dataset.js';
import type { CrawlerEmitter } from '../../events.js';
import { isHtmlContentType } from '../../extract/content-type.js';
import { createLazyDocument } from '../../extract/document.js';
import { extractResolvedWithUrls } from '../../extract/extract-links.js';
import { type ResolvedExtractOptions, resolveExtractOptions } from '../../extract/extract-options.js';
import { isFatalCrawlError } from '../../fatal-error.js';
import type { Frontier } from '../../frontier/frontier.js';
import { pageContextOf, type ReadPage } from '../../handle/page-context-of.js';
import { createRouter, type Router } from '../../handle/routes.js';
import type { ResolvedCrawlerOptions } from '../../options.js';
import type { CrawlReporter } from '../../reporter.js';
import type { CrawlServices } from '../services.js';
import { type UsageAfter, type UsageKnown, type UsageWants, usageAfterFetch } from './usage.js';

export interface HandlePageSettings {
  /** Link extraction's options, resolved once for every page (the X-Robots-Tag is each page's own). */
  readonly extract: ResolvedExtractOptions;
  readonly maxLinksPerPage: number;
  readonly followLinks: boolean;
  /** Follow the links of a page unchanged since its last fetch (they were followed then). */
  readonly followUnchangedLinks: boolean;
  /** The handler for a request's label (routes.ts). */
  readonly route: Router;
  readonly frontier: Frontier;
  readonly reporter: CrawlReporter;
  readonly signal: AbortSignal;
  /** Where `page.push` writes: the page's records are committed before this stage ends. */
  readonly dataset: Dataset;
  /** What the usage verdict after the fetch (`page.usage`) is judged for; a reserved page is dropped. */
  readonly usage: UsageWants;
  readonly emitter: CrawlerEmitter;
}

export function settingsFrom(options: ResolvedCrawlerOptions, services: CrawlServices): HandlePageSettings {
  return {
    extract: resolveExtractOptions({
      productToken: options.productToken,
      honorNofollow: options.honorNofollow,
      maxLinks: Math.min(options.maxLinksPerPage, Number.MAX_SAFE_INTEGER),
    }),
    maxLinksPerPage: options.maxLinksPerPage,
    followLinks: options.followLinks,
    followUnchangedLinks: options.followUnchangedLinks,
    route: createRouter(options.handler, options.handlers),
    frontier: services.frontier,
    reporter: services.reporter,
    signal: services.signal,
    dataset: services.dataset,
    usage: { purposes: options.purposes, tokens: options.robotsTokens },
    emitter: services.emitter,
  };
}

const NO_USAGE_KNOWN: UsageKnown = { robots: null, tdmrep: null };
const NO_HEADER_VALUES: readonly string[] = Object.freeze([]);

/** What a page's fetch found against its last one (revisit.ts). */
export interface PageRevisit {
  readonly change: PageChange;
  /** The URL's last fetch, when this is a revisit. */
  readonly previous: LastFetch | undefined;
}

const FIRST_FETCH: PageRevisit = { change: 'new', previous: undefined };

/** One page to handle: its fetched (or rendered) response, and what the stages before learned. */
export interface PageInput {
  readonly entry: FrontierEntry;
  readonly response: HttpResponse;
  /** Which attempt at the URL this is (1 for the first). */
  readonly attempt: number;
  /** What robots.txt and tdmrep.json said of the page's usage before the fetch. @default nothing */
  readonly known?: UsageKnown | undefined;
  /** What the fetch found against the URL's last one. @default a first fetch */
  readonly revisit?: PageRevisit;
  /** The renderer's live page (`page.browser`), when the page was rendered. */
  readonly browserPage?: unknown;
}

/** What the extract and handler stages did with a page. */
export interface HandledPage {
  /** The page's links the frontier admitted, to store with its completion. */
  readonly links: FrontierEntry[];
  /** Set when the page was kept from handlers and outputs for its usage preferences: why. */
  readonly withheld?: string;
  /**
   * Set when the handler threw: its error. The page's records were dropped and no links were
   * admitted; the attempt is retried (the page fetched again) or the URL fails.
   */
  readonly handlerError?: Error;
  /**
   * With `handlerError`: admits the page's links, for a page that failed for good (its links
   * are still followed: the page was read, only the handler failed). Not called for a retry.
   */
  readonly admitLinks?: () => Promise<FrontierEntry[]>;
}

/** The page's usage verdict after the fetch: computed now, or on `page.usage` if read. */
interface PageUsage {
  readonly now: UsageAfter | undefined;
  readonly later: () => UsageAfter;
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
export async function handlePage(input: PageInput, settings: HandlePageSettings): Promise<HandledPage> {
  const { entry } = input;
  const revisit = input.revisit ?? FIRST_FETCH;
  const withheldBefore = withheldAgain(entry, revisit, settings);
  if (withheldBefore !== undefined) return { links: [], withheld: withheldBefore };
  // An unchanged page's links were followed when it was last fetched.
  const followLinks = settings.followLinks && (revisit.change !== 'unchanged' || settings.followUnchangedLinks);
  const read = readPage(entry, input.response, settings);
  const usage = judgeUsage(input, read, settings);
  if (usage.now?.skip !== undefined) {
    // The body is dropped here: no handler, no record, no output.
    settings.reporter.skip(entry.url, usage.now.skip, entry.referrer);
    const withheld = usage.now.skip.detail ?? usage.now.skip.reason;
    return { links: followLinks ? await admitLinks(entry, read, settings) : [], withheld };
  }
  const handlerError = await runHandler(input, revisit, read, usage, settings);
  if (handlerError !== undefined) {
    const links = async (): Promise<FrontierEntry[]> => (followLinks ? admitLinks(entry, read, settings) : []);
    return { links: [], handlerError, admitLinks: links };
  }
  return { links: followLinks ? await admitLinks(entry, read, settings) : [] };
}

/**
 * A page the last fetch kept from handlers, answered 304 or unchanged: kept from them again (a
 * 304 has no meta tags to judge afresh). Returns why, after reporting the skip.
 */
function withheldAgain(entry: FrontierEntry, revisit: PageRevisit, settings: HandlePageSettings): string | undefined {
  const sameAsBefore = revisit.change === 'not-modified' || revisit.change === 'unchanged';
  const withheld = revisit.previous?.withheld;
  if (!sameAsBefore || withheld === undefined) return undefined;
  const detail = `${withheld} (at the last fetch; the page has not changed since)`;
  settings.reporter.skip(entry.url, { reason: 'usage-reserved', detail }, entry.referrer);
  return withheld;
}

/** Decodes the page and, for a 2xx HTML page, extracts it; reports the links it drops. */
function readPage(entry: FrontierEntry, response: HttpResponse, settings: HandlePageSettings): ReadPage {
  const { reporter } = settings;
  const contentType = response.header('content-type');
  const text = decodeText(response.body, contentType);
  const document = createLazyDocument(text);
  if (!isHtmlContentType(contentType) || response.status < 200 || response.status >= 300) {
    return { contentType, text, document, extracted: null, links: [], linkUrls: [] };
  }
  // One streaming pass: the DOM (`page.$`) is built only if the handler reads it.
  const xRobotsTag = response.header('x-robots-tag');
  const { page: extracted, linkUrls } = extractResolvedWithUrls(
    text,
    entry.url,
    settings.extract,
    xRobotsTag === undefined ? NO_HEADER_VALUES : [xRobotsTag],
  );
  const reason = extracted.nofollowReason;
  // Each skip its own literal: spreading a detail into it took V8's slow copy for every link.
  for (const url of extracted.nofollowLinks) {
    reporter.skip(url, reason === null ? { reason: 'nofollow' } : { reason: 'nofollow', detail: reason }, entry.url);
  }
  const dropped = extracted.skippedLinks.overLimit;
  if (dropped > 0) {
    const cap = settings.maxLinksPerPage;
    const detail = `${dropped} more distinct links past maxLinksPerPage (${cap}) were not followed`;
    reporter.skip(entry.url, { reason: 'too-many-links', detail }, entry.referrer);
  }
  return { contentType, text, document, extracted, links: extracted.links, linkUrls };
}

/** The verdict now when it decides something or someone listens; else on `page.usage`, if read. */
function judgeUsage(input: PageInput, read: ReadPage, settings: HandlePageSettings): PageUsage {
  const { entry, response } = input;
  const { emitter } = settings;
  const known = input.known ?? NO_USAGE_KNOWN;
  const metas = read.extracted?.metas;
  const later = (): UsageAfter => usageAfterFetch(settings.usage, entry.url, known, response.headers, metas);
  // With purposes to honour the verdict is needed before the handler; else only if asked for.
  const judges = settings.usage.purposes.length > 0;
  const now = judges || emitter.listens('usage') ? later() : undefined;
  if (now !== undefined && emitter.listens('usage')) {
    emitter.emit('usage', { url: entry.url, stage: 'after-fetch', report: now.report, reserved: now.reserved });
  }
  return { now, later };
}

/**
 * The page's handler, by its label's route, with its records committed to the outputs after it.
 * Resolves with the handler's error when it threw (its records cut from the outputs), else undefined.
 */
async function runHandler(
  input: PageInput,
  revisit: PageRevisit,
  read: ReadPage,
  usage: PageUsage,
  settings: HandlePageSettings,
): Promise<Error | undefined> {
  const { entry, attempt } = input;
  const { reporter } = settings;
  const route = settings.route(entry.label);
  if (route.handler === null) {
    if ('missing' in route) {
      const error = new PolitelyError('ERR_NO_ROUTE', `no route for ${entry.url}: ${route.missing}`);
      reporter.error(entry.url, error, 'handler', attempt, false);
    }
    return undefined;
  }
  const handler = route.handler;
  // A revisit's records are new records: the ledger tells them from the last fetch's by its time.
  const ledgerKey = revisit.previous === undefined ? entry.url : `${entry.url} revisit@${revisit.previous.fetchedAt}`;
  // Outputs with `content` read the page's content (page.content(), extracted once) at a push.
  const records = settings.dataset.page(ledgerKey, entry.url, () => page.content());
  let usageReport: UsageReport | undefined;
  // The parts named one by one: spreading `read` into this literal, with properties after it,
  // would allocate about 4 KB more a page.
  const page = pageContextOf({
    contentType: read.contentType,
    text: read.text,
    document: read.document,
    extracted: read.extracted,
    links: read.links,
    linkUrls: read.linkUrls,
    entry,
    response: input.response,
    change: revisit.change,
    previous: revisit.previous,
    browserPage: input.browserPage,
    usage: () => (usageReport ??= usage.now?.report ?? usage.later().report),
    push: (record) => records.push(record),
    frontier: settings.frontier,
    signal: settings.signal,
  });
  try {
    await settings.dataset.runInPage(records, () => handler(page));
  } catch (error) {
    // A failed attempt writes nothing: a retry must not write its records twice. A fatal error
    // sends the URL back to the store; any other is the pipeline's to retry or fail.
    await records.rollback();
    if (isFatalCrawlError(error)) throw error;
    return error instanceof Error ? error : new Error(String(error));
  }
  // The page's records are in every output (committed) before its URL can count as done; a
  // write that failed is thrown on (ERR_OUTPUT, fatal), its records cut.
  await records.commit();
  return undefined;
}

/** The page's links the frontier admits, to be stored with its completion. */
async function admitLinks(
  entry: FrontierEntry,
  read: ReadPage,
  settings: HandlePageSettings,
): Promise<FrontierEntry[]> {
  const { links, linkUrls } = read;
  if (links.length === 0) return [];
  const depth = entry.depth + 1;
  return settings.frontier.admit(
    links.map((url, i) => ({ url, parsed: linkUrls[i], depth, priority: 0, referrer: entry.url })),
  );
}
