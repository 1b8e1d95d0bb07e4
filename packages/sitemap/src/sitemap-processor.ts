// The `sitemap` resource kind: the crawler fetched the file (robots-checked, in its host's turn,
// size-capped); here it is read and its entries go to the frontier. Every problem is a counted
// error or skip for this one file, and the crawl goes on.

import { PolitelyError } from '@politely/core';
import type { ResourceContext, ResourceProcessor } from '@politely/crawler';
import type { CrossSubmissions } from './cross-submission.js';
import type { ResolvedSitemapPluginOptions } from './options.js';
import { readSitemap } from './read-sitemap.js';
import { seedChildSitemaps, seedPages } from './seed-entries.js';
import { sitemapEntryDataOf } from './sitemap-scope.js';
import type { SitemapSkipReason } from './skip-reasons.js';

const SITEMAP_ACCEPT =
  'application/xml, text/xml;q=0.9, application/rss+xml;q=0.9, application/atom+xml;q=0.9, text/plain;q=0.8, */*;q=0.5';

export function createSitemapProcessor(
  options: ResolvedSitemapPluginOptions,
  declarations: CrossSubmissions,
): ResourceProcessor<SitemapSkipReason> {
  return {
    // The protocol's size limit, tolerated: a larger file is cut (and reported), not refused.
    bodyLimit: { maxBytes: options.maxBytesPerFile, atLimit: 'truncate' },
    accept: SITEMAP_ACCEPT,
    process: (context) => processSitemap(context, options, declarations),
  };
}

async function processSitemap(
  context: ResourceContext<SitemapSkipReason>,
  options: ResolvedSitemapPluginOptions,
  declarations: CrossSubmissions,
): Promise<void> {
  const { entry, response } = context;
  if (response === undefined) return;
  const sitemapUrl = entry.url;
  const data = sitemapEntryDataOf(entry.data);
  if (response.status < 200 || response.status > 299) {
    // A guessed /sitemap.xml that is not there is no error: nothing said it would be.
    if (data.guessed !== true)
      context.error(
        sitemapUrl,
        new PolitelyError('ERR_FETCH_FAILED', `sitemap ${sitemapUrl}: HTTP ${response.status}`),
      );
    return;
  }
  const read = await readSitemap(sitemapUrl, response.body, {
    maxBytes: options.maxBytesPerFile,
    truncated: response.truncated,
  });
  if (read.truncated) {
    const size = `${options.maxBytesPerFile} bytes${read.gzipped ? ' decompressed' : ''}`;
    context.skip(
      sitemapUrl,
      'sitemap-limit',
      `sitemap larger than maxBytesPerFile (${size}): only the entries complete before the cut were read`,
    );
  }
  if (read.partial !== undefined) {
    // Damaged as it arrived: what came before the damage is read, and the file reported.
    context.error(
      sitemapUrl,
      new PolitelyError(
        'ERR_INVALID_INPUT',
        `sitemap ${sitemapUrl} is partial: ${read.partial.reason}; the entries complete before byte ${read.partial.atByte} were read`,
      ),
    );
  }
  const { document } = read;
  if (document.kind === 'invalid') {
    if (!(data.guessed === true && document.notASitemap))
      context.error(sitemapUrl, new PolitelyError('ERR_INVALID_INPUT', `sitemap ${sitemapUrl}: ${document.message}`));
    return;
  }
  const file = {
    sitemapUrl,
    data,
    entries: document.entries,
    resolveRelative: document.format === 'rss' || document.format === 'atom',
  };
  try {
    if (document.kind === 'index') await seedChildSitemaps(context, file, options, declarations);
    else await seedPages(context, file, options, declarations);
  } catch (error) {
    // A slice of a well-formed file that still fails to parse: what came before it is queued.
    // Anything else (an abort, a throwing onUrl) goes to the crawler, which reports it.
    if (!(error instanceof PolitelyError && error.code === 'ERR_INVALID_INPUT')) throw error;
    context.error(sitemapUrl, error);
  }
}
