// The lines printed when a crawl ends: what was fetched, what was skipped and why, where the
// results went, and after a stop (SIGINT, SIGTERM) what was kept.

import type { CrawlStats } from '@politely/crawler';
import { escapeControls } from '../input/quote-input.js';
import { bytes, duration } from '../report/html.js';
import type { OutputFile } from './output-files.js';
import type { OpenedStore } from './store-option.js';

export interface CrawlOutcome {
  readonly stats: CrawlStats;
  readonly interrupted: boolean;
  /** Why the crawl stopped before its end (an output or the store failed). */
  readonly failure?: string;
  /** The failure's code: `ERR_OUTPUT` (the store keeps what is not done) or `ERR_STORE` (the store itself failed). */
  readonly failureCode?: string;
  /** The crawl ran to its end and fetched nothing: every seed was refused or failed. */
  readonly nothingFetched?: boolean;
  readonly outputs: readonly OutputFile[];
  readonly reportFile: string | undefined;
  readonly store: Pick<OpenedStore, 'label' | 'durable' | 'resumeHint'>;
}

/** "12 pages written to out.jsonl; 40 URLs still queued in memory: lost on exit (…)". */
export function keptText(outcome: CrawlOutcome): string {
  const { stats, outputs, store } = outcome;
  const written =
    outputs.length === 0
      ? `${stats.pages} pages fetched (no --out file: their records were not kept)`
      : outputs.map((file) => `${file.records + file.earlier} pages written to ${file.path}`).join('; ');
  const queued =
    outcome.failureCode === 'ERR_STORE'
      ? `the crawl's state in ${store.label} failed or is gone, so it cannot be resumed as it was`
      : store.durable
        ? `${stats.queued} URLs still queued in ${store.label}: ${store.resumeHint}`
        : `${stats.queued} URLs still queued in memory: lost on exit (${store.resumeHint})`;
  return `${written}; ${queued}`;
}

function byCount(counts: Readonly<Record<string, number | undefined>>): string {
  const entries = Object.entries(counts)
    .filter((entry): entry is [string, number] => entry[1] !== undefined && entry[1] > 0)
    .sort((a, b) => b[1] - a[1]);
  return entries.length === 0 ? 'none' : entries.map(([key, n]) => `${key} ${n}`).join(', ');
}

/** Skips by reason, duplicates last and apart: every crawl meets the same links many times. */
function skippedText(skipped: CrawlStats['skipped']): string {
  const { duplicate, ...rest } = skipped;
  const text = byCount(rest);
  return duplicate === undefined || duplicate === 0 ? text : `${text} (and ${duplicate} links already known)`;
}

export function summaryText(outcome: CrawlOutcome): string {
  const { stats } = outcome;
  const head =
    outcome.failure !== undefined
      ? `Crawl stopped by an error after ${duration(stats.durationMs)}: ${outcome.failure}.`
      : outcome.interrupted
        ? `Crawl interrupted after ${duration(stats.durationMs)}.`
        : outcome.nothingFetched === true
          ? `Crawl ended after ${duration(stats.durationMs)} with nothing fetched.`
          : `Crawl finished in ${duration(stats.durationMs)}.`;
  const lines = [
    head,
    `  pages       ${stats.pages} (${stats.pagesPerSecond.toFixed(1)} pages/s, ${bytes(stats.bytes)})`,
    `  requests    ${stats.requests} (${stats.robotsRequests} robots.txt${stats.signedRequests > 0 ? `, ${stats.signedRequests} signed` : ''})`,
    `  statuses    ${byCount(stats.byStatus)}`,
    `  skipped     ${skippedText(stats.skipped)}`,
    `  errors      ${stats.errors}${stats.retries > 0 ? ` (${stats.retries} retries)` : ''}`,
    `  queued      ${stats.queued}`,
  ];
  if (stats.releasedAtStop > 0) {
    // A request the stop aborted may have reached its server: the next run fetches it again.
    lines.push(
      `  cut         ${stats.releasedAtStop} in flight when the crawl stopped at once (grace period over, second signal, error): aborted, queued again`,
    );
  }
  const r = stats.revisits;
  if (r.revisited > 0) {
    lines.push(
      `  revisited   ${r.revisited}: ${r.notModified} not modified (304), ${r.unchanged} unchanged, ${r.changed} changed; ${bytes(r.bytesSaved)} not downloaded again`,
    );
  }
  const rendering = stats.rendering;
  if (rendering.pageLoads > 0) {
    lines.push(
      `  rendered    ${rendering.pageLoads} pages; ${rendering.subRequests} sub-requests sent, ${rendering.fromCache} answered by the cache, not sent: ${byCount(rendering.refused)}`,
    );
  }
  for (const file of outcome.outputs) {
    const earlier = file.earlier > 0 ? `, ${file.earlier} more from earlier runs` : '';
    if (file.format === 'warc') {
      const cdx = file.cdx === undefined ? '' : `; index ${file.cdx}`;
      lines.push(
        `  archive     ${file.files.join(', ')} (${file.records} WARC records: ${file.responses} responses, ${file.revisits} revisits, their requests${earlier}${cdx})`,
      );
    } else {
      lines.push(
        `  results     ${file.path} (${file.records} ${file.format === 'csv' ? 'CSV rows' : 'JSON lines'}${earlier})`,
      );
    }
  }
  if (outcome.reportFile !== undefined) lines.push(`  report      ${outcome.reportFile}`);
  if (outcome.interrupted || outcome.failure !== undefined) lines.push(`Kept: ${keptText(outcome)}.`);
  return `${escapeControls(lines.join('\n'), { keepNewlines: true })}\n`;
}

/** The summary's fields, for the `summary` entry of `--log json`. */
export function summaryFields(outcome: CrawlOutcome): Record<string, unknown> {
  const { stats } = outcome;
  return {
    interrupted: outcome.interrupted,
    ...(outcome.failure === undefined ? {} : { failure: outcome.failure }),
    nothingFetched: outcome.nothingFetched === true,
    pages: stats.pages,
    requests: stats.requests,
    robotsRequests: stats.robotsRequests,
    signedRequests: stats.signedRequests,
    byStatus: stats.byStatus,
    skipped: stats.skipped,
    errors: stats.errors,
    retries: stats.retries,
    bytes: stats.bytes,
    queued: stats.queued,
    releasedAtStop: stats.releasedAtStop,
    durationMs: stats.durationMs,
    pagesPerSecond: Math.round(stats.pagesPerSecond * 100) / 100,
    ...(stats.rendering.pageLoads === 0
      ? {}
      : {
          rendering: {
            pageLoads: stats.rendering.pageLoads,
            subRequests: stats.rendering.subRequests,
            fromCache: stats.rendering.fromCache,
            refused: stats.rendering.refused,
          },
        }),
    outputs: outcome.outputs,
    report: outcome.reportFile ?? null,
    store: outcome.store.label,
    ...(outcome.interrupted || outcome.failure !== undefined ? { kept: keptText(outcome) } : {}),
  };
}
