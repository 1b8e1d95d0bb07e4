// The extract and handler stages for a fetched page: links, meta robots and canonical from the
// HTML, the user's handler with the page, then the links back to the frontier. Reports what it
// drops (nofollow, links past the cap) and a handler's error; an error that ends the crawl
// (isFatalCrawlError) is thrown on.

import type { HttpResponse } from '@politely/core';
import { createLazyDocument } from '../extract/document.js';
import { isHtmlContentType } from '../extract/content-type.js';
import { extractPage, type ExtractedPage } from '../extract/extract-links.js';
import { decodeText } from '../fetch/decode-text.js';
import { isFatalCrawlError } from '../fatal-error.js';
import type { Frontier } from '../frontier/frontier.js';
import type { FrontierEntry } from '../frontier/frontier-store.js';
import type { ResolvedCrawlerOptions } from '../options.js';
import type { EnqueueOptions, PageContext } from '../page-context.js';
import type { CrawlReporter } from '../reporter.js';
import type { Dataset } from '../dataset/dataset.js';

export interface HandlePageSettings {
  readonly options: Pick<ResolvedCrawlerOptions, 'productToken' | 'honorNofollow' | 'maxLinksPerPage' | 'handler' | 'followLinks'>;
  readonly frontier: Frontier;
  readonly reporter: CrawlReporter;
  readonly signal: AbortSignal;
  /** Where `page.push` writes: the page's records are committed before this stage ends. */
  readonly dataset: Dataset;
}

const NO_PAGE_ROBOTS = { noindex: false, nofollow: false, sources: [] } as const;

export async function handlePage(entry: FrontierEntry, response: HttpResponse, attempt: number, settings: HandlePageSettings): Promise<void> {
  const { options, reporter } = settings;
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
  const enqueue = (urls: string | readonly string[], enqueueOptions: EnqueueOptions = {}): Promise<number> =>
    settings.frontier.add(
      (typeof urls === 'string' ? [urls] : urls).map((url) => ({
        url,
        depth: enqueueOptions.depth ?? entry.depth + 1,
        priority: enqueueOptions.priority ?? 0,
        referrer: entry.url,
      })),
    );
  if (options.handler !== undefined) {
    const handler = options.handler;
    const records = settings.dataset.page(entry.url, entry.url);
    const page: PageContext = {
      url: entry.redirectedFrom ?? entry.url,
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
      canonicalUrl: extracted?.canonicalUrl ?? null,
      contentType,
      enqueue,
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
  if (options.followLinks && links.length > 0) await enqueue(links);
}
