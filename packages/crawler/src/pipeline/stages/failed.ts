// After the last attempt: a page that failed for good goes to the user's `onFailed`, with a way
// to push records, before its URL is stored as failed (settle.ts). Runs only for pages: a
// plugin's resource (a sitemap) that fails is its plugin's to report.

import type { FrontierEntry } from '@politely/frontier';
import type { Dataset } from '../../dataset/dataset.js';
import { isFatalCrawlError } from '../../fatal-error.js';
import type { FailedRequestHandler } from '../../handle/failed-request.js';
import { requestOf } from '../../handle/page-context-of.js';
import type { ResolvedCrawlerOptions } from '../../options.js';
import type { CrawlReporter } from '../../reporter.js';
import type { UrlOutcome } from '../outcome.js';
import type { CrawlServices } from '../services.js';

export interface FailedStageSettings {
  readonly onFailed: FailedRequestHandler | undefined;
  readonly dataset: Dataset;
  readonly reporter: CrawlReporter;
  readonly signal: AbortSignal;
}

export function settingsFrom(options: ResolvedCrawlerOptions, services: CrawlServices): FailedStageSettings {
  return {
    onFailed: options.onFailed,
    dataset: services.dataset,
    reporter: services.reporter,
    signal: services.signal,
  };
}

/**
 * Hands a page that failed for good to `onFailed`; its records are committed to the outputs
 * before this resolves. An error of `onFailed` is reported; one that ends the crawl is thrown on.
 */
export async function failedStage(
  entry: FrontierEntry,
  outcome: UrlOutcome,
  settings: FailedStageSettings,
): Promise<void> {
  const { onFailed } = settings;
  if (onFailed === undefined || outcome.kind !== 'failed') return;
  if (entry.kind !== undefined && entry.kind !== 'page') return;
  const attempts = (entry.retries ?? 0) + 1;
  // One ledger key per URL: a crawl resumed after these records were written does not write them again.
  const records = settings.dataset.page(`${entry.url} failed`, entry.url);
  const failed = {
    request: requestOf(entry),
    url: entry.url,
    error: outcome.error,
    stage: outcome.stage,
    attempts,
    push: (pushed: Parameters<typeof records.push>[0]) => records.push(pushed),
    signal: settings.signal,
  };
  try {
    await settings.dataset.runInPage(records, () => onFailed(failed));
  } catch (error) {
    await records.rollback();
    if (isFatalCrawlError(error)) throw error;
    settings.reporter.error(entry.url, error, 'handler', attempts, false);
    return;
  }
  await records.commit();
}
