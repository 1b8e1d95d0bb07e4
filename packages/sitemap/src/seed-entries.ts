// The entries of one parsed sitemap file → the frontier, in batches as they are read: page URLs
// (checked against the sitemap's scope and the filters) or, for an index, child sitemaps.
// Nothing is kept once the file is done: memory is bounded by one file, never by the crawl.

import { PolitelyError } from '@politely/core';
import { changeFrequencyOf, type FrontierRequest, type PluginContext } from '@politely/crawler';
import type { RevisitHints } from '@politely/frontier';
import type { CrossSubmissions } from './cross-submission.js';
import { FileTally } from './file-tally.js';
import { type HeldUrl, heldUrlRequest } from './held-url.js';
import { type ListedRoute, type ResolvedSitemapPluginOptions, routeOf, type SitemapUrlRecord } from './options.js';
import type { SitemapEntries } from './read-sitemap.js';
import { type SitemapEntryData, sitemapEntryData, sitemapScopeOf } from './sitemap-scope.js';
import type { RawSitemapEntry } from './sitemapper-reader.js';
import type { SitemapSkipReason } from './skip-reasons.js';
import { filterOutReason, frontierPriorityOf } from './url-filter.js';

/** URLs offered to the frontier at once. */
export const ENQUEUE_BATCH_SIZE = 1000;

export const SITEMAP_KIND = 'sitemap';

export interface SeedFile {
  /** The sitemap file (its final URL, after redirects). */
  readonly sitemapUrl: string;
  readonly data: SitemapEntryData;
  readonly entries: SitemapEntries;
  /** Resolve relative URLs against the sitemap's (feeds allow them; sitemaps and text files do not). */
  readonly resolveRelative: boolean;
}

type SeedContext = Pick<PluginContext<SitemapSkipReason>, 'enqueue' | 'skip' | 'error' | 'signal'>;

/** A frontier request for a sitemap file. */
export function sitemapRequest(
  url: string,
  data: SitemapEntryData,
  priority: number,
  referrer?: string,
): FrontierRequest {
  return {
    url,
    depth: 0,
    priority,
    kind: SITEMAP_KIND,
    skipScope: true,
    data: sitemapEntryData(data),
    ...(referrer === undefined ? {} : { referrer }),
  };
}

/**
 * Page URLs of a urlset, feed or text sitemap. Its scope takes in every origin known to declare
 * it (`declarations`); a URL on an origin whose robots.txt is not read yet is held there.
 */
export async function seedPages(
  context: SeedContext,
  file: SeedFile,
  options: ResolvedSitemapPluginOptions,
  declarations: CrossSubmissions,
): Promise<void> {
  const declaredFor = declarations.declaredFor(file.sitemapUrl, file.data.declaredFor);
  const scope = sitemapScopeOf(file.sitemapUrl, declaredFor);
  const tally = new FileTally();
  const batch = createBatch(context);
  let read = 0;
  for await (const entry of file.entries) {
    if (read++ >= options.maxUrlsPerFile) {
      tally.note('over-limit', file.sitemapUrl);
      continue;
    }
    const url = httpUrlOf(entry.loc, file.resolveRelative ? file.sitemapUrl : undefined);
    if (url === null) {
      tally.note('invalid', entry.loc ?? '(no <loc>)');
      continue;
    }
    const record = recordOf(url.href, entry, file.sitemapUrl);
    if (!scope.allows(url)) {
      if (!declarations.mayHold(url.origin)) tally.note('scope', url.href);
      else {
        const held = { record, sitemapUrl: file.sitemapUrl, via: file.data.via ?? [], declaredFor };
        await batch.add(heldUrlRequest(held, options.sitemapPriority));
      }
      continue;
    }
    await offerPage(context, record, options, batch, tally);
    throwIfAborted(context.signal, file.sitemapUrl);
  }
  await batch.flush();
  tally.report(context, file.sitemapUrl, {
    scope: scope.description,
    maxUrlsPerFile: options.maxUrlsPerFile,
    maxDepth: options.maxDepth,
  });
}

/**
 * URLs held for an origin whose robots.txt is now read (held-urls.ts): those a sitemap it declared
 * listed go on as any sitemap URL would; the others are reported out of scope, per sitemap.
 */
export async function seedHeldPages(
  context: SeedContext,
  held: { readonly admitted: readonly HeldUrl[]; readonly refused: readonly HeldUrl[] },
  options: ResolvedSitemapPluginOptions,
  declarations: CrossSubmissions,
): Promise<void> {
  const tallies = new Map<string, FileTally>();
  const tallyOf = (sitemapUrl: string): FileTally => {
    let tally = tallies.get(sitemapUrl);
    if (tally === undefined) tallies.set(sitemapUrl, (tally = new FileTally()));
    return tally;
  };
  const batch = createBatch(context);
  for (const { record, sitemapUrl } of held.admitted)
    await offerPage(context, record, options, batch, tallyOf(sitemapUrl));
  for (const { record, sitemapUrl } of held.refused) tallyOf(sitemapUrl).note('scope', record.url);
  await batch.flush();
  const declaredFor = new Map(held.refused.map((url) => [url.sitemapUrl, url.declaredFor]));
  for (const [sitemapUrl, tally] of tallies) {
    const scope = sitemapScopeOf(sitemapUrl, declarations.declaredFor(sitemapUrl, declaredFor.get(sitemapUrl) ?? []));
    tally.report(context, sitemapUrl, {
      scope: scope.description,
      maxUrlsPerFile: options.maxUrlsPerFile,
      maxDepth: options.maxDepth,
    });
  }
}

/** A URL in its sitemap's scope: the filters, `onUrl`, then the frontier with its label and userData. */
async function offerPage(
  context: SeedContext,
  record: SitemapUrlRecord,
  options: ResolvedSitemapPluginOptions,
  batch: Batch,
  tally: FileTally,
): Promise<void> {
  const filtered = filterOutReason(record.url, record.lastmod, options);
  if (filtered !== null) {
    tally.note('filter', record.url, filtered);
    return;
  }
  const listened = options.onUrl?.(record);
  if (listened !== undefined) await listened;
  if (options.enqueuePages) {
    const route = checkedRouteOf(context, record, options);
    if (route === null) return;
    // Like seeds, pages a site declares bypass the crawl's scope: the sitemap's own scope rule
    // and the include/exclude filters bound them instead. Links found on them do not.
    const hints = revisitHintsOf(record);
    await batch.add({
      url: record.url,
      depth: 0,
      priority: frontierPriorityOf(record.priority, options.priorityScale),
      skipScope: true,
      referrer: record.sitemap,
      ...(hints === undefined ? {} : { hints }),
      ...route,
    });
  }
}

/**
 * The page's label and userData (`label`, `userData`); null, reported as an error for the URL,
 * when a function of the options returned one that is no label or no plain JSON. What such a
 * function throws goes on to the crawler, as `onUrl`'s does.
 */
function checkedRouteOf(
  context: SeedContext,
  record: SitemapUrlRecord,
  options: ResolvedSitemapPluginOptions,
): ListedRoute | null {
  if (options.labelOf === undefined && options.userDataOf === undefined) return {};
  const label = options.labelOf?.(record);
  const userData = options.userDataOf?.(record);
  try {
    return routeOf(record, label, userData);
  } catch (error) {
    if (!(error instanceof PolitelyError && error.code === 'ERR_INVALID_INPUT')) throw error;
    context.error(record.url, error);
    return null;
  }
}

/**
 * `lastmod` and `changefreq` as the frontier's revisit hints: a recrawl does not revisit a page
 * whose lastmod is older than its last fetch. An unreadable value is no hint.
 */
function revisitHintsOf(record: SitemapUrlRecord): RevisitHints | undefined {
  const lastmod = record.lastmod === undefined ? NaN : Date.parse(record.lastmod);
  const changefreq = changeFrequencyOf(record.changefreq);
  if (!Number.isFinite(lastmod) && changefreq === undefined) return undefined;
  return { ...(Number.isFinite(lastmod) ? { lastmod } : {}), ...(changefreq === undefined ? {} : { changefreq }) };
}

/** Child sitemaps of an index: one level deeper, declared for the same origins (now and later). */
export async function seedChildSitemaps(
  context: SeedContext,
  file: SeedFile,
  options: ResolvedSitemapPluginOptions,
  declarations: CrossSubmissions,
): Promise<void> {
  const declaredFor = declarations.declaredFor(file.sitemapUrl, file.data.declaredFor);
  const scope = sitemapScopeOf(file.sitemapUrl, declaredFor);
  const tally = new FileTally();
  const batch = createBatch(context);
  const childData: SitemapEntryData = {
    depth: file.data.depth + 1,
    declaredFor,
    via: [file.sitemapUrl, ...(file.data.via ?? [])],
  };
  let read = 0;
  for await (const entry of file.entries) {
    if (read++ >= options.maxUrlsPerFile) {
      tally.note('over-limit', file.sitemapUrl);
      continue;
    }
    const url = httpUrlOf(entry.loc, undefined);
    if (url === null) tally.note('invalid', entry.loc ?? '(no <loc>)');
    else if (!scope.allows(url)) tally.note('scope', url.href);
    else if (childData.depth > options.maxDepth) tally.note('depth', url.href);
    // An index that lists itself (or an ancestor) ends here: the frontier reports a duplicate.
    else {
      declarations.listed(url.href, file.sitemapUrl);
      await batch.add(sitemapRequest(url.href, childData, options.sitemapPriority, file.sitemapUrl));
    }
    throwIfAborted(context.signal, file.sitemapUrl);
  }
  await batch.flush();
  tally.report(context, file.sitemapUrl, {
    scope: scope.description,
    maxUrlsPerFile: options.maxUrlsPerFile,
    maxDepth: options.maxDepth,
  });
}

/**
 * A stopped crawl ends the file with ERR_ABORTED: the crawler then puts the sitemap back in the
 * frontier (a durable store reads it again on resume; the pages already queued dedupe).
 */
function throwIfAborted(signal: AbortSignal, sitemapUrl: string): void {
  if (signal.aborted)
    throw new PolitelyError('ERR_ABORTED', `sitemap ${sitemapUrl}: the crawl was stopped`, { cause: signal.reason });
}

interface Batch {
  add(request: FrontierRequest): Promise<void>;
  flush(): Promise<void>;
}

function createBatch(context: SeedContext): Batch {
  let requests: FrontierRequest[] = [];
  const flush = async (): Promise<void> => {
    if (requests.length === 0) return;
    const sending = requests;
    requests = [];
    await context.enqueue(sending);
  };
  return {
    add: async (request) => {
      requests.push(request);
      if (requests.length >= ENQUEUE_BATCH_SIZE) await flush();
    },
    flush,
  };
}

/** Unicode spaces (no-break space, ideographic space, …) and zero-width ones at either end of a `<loc>`. */
const LOC_EDGE_SPACES = /^[\s\u200b]+|[\s\u200b]+$/g;

function httpUrlOf(rawLoc: string | undefined, base: string | undefined): URL | null {
  // XML trims its own whitespace; a generator's no-break spaces around a URL are as meaningless.
  const loc = rawLoc?.replace(LOC_EDGE_SPACES, '');
  if (loc === undefined || loc === '') return null;
  try {
    const url = new URL(loc, base);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url : null;
  } catch {
    return null;
  }
}

function recordOf(url: string, entry: RawSitemapEntry, sitemap: string): SitemapUrlRecord {
  const priority = entry.priority === undefined || entry.priority.trim() === '' ? NaN : Number(entry.priority);
  return {
    url,
    ...(entry.lastmod === undefined || entry.lastmod === '' ? {} : { lastmod: entry.lastmod }),
    ...(entry.changefreq === undefined || entry.changefreq === '' ? {} : { changefreq: entry.changefreq }),
    ...(priority >= 0 && priority <= 1 ? { priority } : {}),
    sitemap,
  };
}
