// One crawl as the command line runs it (for `politely crawl` and `politely demo`): the crawler
// with a handler that writes page records, a display (progress bars or log lines), the report
// collector, and the stop signals. The first SIGINT (Ctrl-C) or SIGTERM stops the crawler
// gently (`crawler.stop()`): nothing new starts, requests in flight get the grace period to end,
// then are aborted (their URLs go back to the store); the outputs are flushed, the report is
// written and the summary says what was kept. A second signal aborts what is in flight at once;
// a third quits.

import { rename, rm, writeFile } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { PolitelyError } from '@politely/core';
import {
  type Crawler,
  type CrawlerOptions,
  type CrawlStats,
  createCrawler,
  isFatalCrawlError,
  type OutputOptions,
  SeedsRefusedError,
  type WarningEvent,
} from '@politely/crawler';
import { CliError } from '../cli-error.js';
import {
  EXIT_FAILURE,
  EXIT_INTERRUPTED,
  EXIT_IO,
  EXIT_OK,
  EXIT_TERMINATED,
  EXIT_UNAVAILABLE,
  type ExitCode,
} from '../exit-codes.js';
import { escapeControls, quoteInput } from '../input/quote-input.js';
import { type Io, write } from '../io.js';
import { type CrawlReportCollector, createCrawlReportCollector } from '../report/collect-report.js';
import { mergeReports } from '../report/merge-reports.js';
import { renderCrawlReport } from '../report/render-report.js';
import type { CrawlReportData } from '../report/report-data.js';
import { type CliLog, createCliLog } from './cli-log.js';
import { watchControl } from './crawl-control.js';
import type { ContentFormat, LogFormat } from './crawl-options.js';
import { type CrawlOutcome, summaryFields, summaryText } from './crawl-summary.js';
import { createLogDisplay } from './log-display.js';
import { outputError } from './output-error.js';
import type { OutputFile } from './output-files.js';
import { type CrawlDisplay, createProgressDisplay } from './progress-display.js';
import { pageRecordOf, pageRecordWithContent } from './record-page.js';
import { onStopSignals, type StopSignal } from './stop-signals.js';
import type { OpenedStore } from './store-option.js';

/** The crawler's options the session does not set itself. */
export type SessionCrawlerOptions = Omit<CrawlerOptions, 'handler' | 'signal' | 'store' | 'robotsCache' | 'outputs'> & {
  readonly minDelayMs: number;
};

export interface CrawlSessionConfig {
  readonly io: Io;
  readonly crawler: SessionCrawlerOptions;
  readonly store: OpenedStore;
  /** The `--out` files (checked: output-files.ts): a page record each page, through the crawler's dataset. */
  readonly outputs: readonly OutputOptions[];
  /** What each page record carries of the page's content (`--content`). @default none */
  readonly content?: ContentFormat;
  /** Where the HTML report goes; none when undefined. */
  readonly reportFile: string | undefined;
  readonly report?: {
    readonly title?: string;
    readonly labels?: ReadonlyMap<string, string>;
    readonly settings?: readonly (readonly [string, string])[];
  };
  /** Progress bars (a terminal), log lines, or nothing. */
  readonly display: 'progress' | LogFormat | 'none';
  /** Where log lines and notices go. @default stdout and stderr; JSON through pino when `display` is `json` */
  readonly log?: CliLog;
  readonly statusIntervalMs: number;
}

export interface CrawlSessionResult {
  readonly exitCode: ExitCode;
  readonly stats: CrawlStats;
  readonly interrupted: boolean;
  readonly report: CrawlReportData | undefined;
  /** What became of each output (records and the WARC archive). */
  readonly outputs: readonly OutputFile[];
}

export async function runCrawlSession(config: CrawlSessionConfig): Promise<CrawlSessionResult> {
  const { io } = config;
  const log = config.log ?? (await createCliLog(io, config.display === 'json', undefined));
  const collector = config.reportFile === undefined ? undefined : createCollector(config);
  const crawler = buildCrawler(config, collector, log);
  const detach = collector?.attach(crawler);
  const display = createDisplay(config, crawler, log);
  const signals = onStopSignals(io, log, crawler, config.crawler.stopGraceMs, config.display === 'progress');
  display?.start();
  const earlierReport =
    collector === undefined ? undefined : await config.store.reportState?.load().catch(() => undefined);
  const reportOf = (stats: CrawlStats): CrawlReportData | undefined => {
    const current = collector?.finish(stats);
    return current === undefined || earlierReport === undefined ? current : mergeReports(earlierReport, current);
  };
  // A durable crawl keeps its report as it goes, so that a run that is killed still counts.
  const stopSaving = saveReportEvery(REPORT_SAVE_INTERVAL_MS, config.store.reportState, () =>
    reportOf(crawler.stats()),
  );
  let stats: CrawlStats | undefined;
  let failure: PolitelyError | undefined;
  let refused: SeedsRefusedError | undefined;
  let queued: number | undefined;
  // `politely control` from another process: pause, resume, stop (which ends the run as SIGTERM does).
  let stoppedByControl = false;
  const stopControl =
    config.store.store === undefined
      ? () => {}
      : watchControl(config.store.store, crawler, (command) => {
          if (command === 'stop') stoppedByControl = true;
          void log.notice('warn', 'control', `${command} (politely control)`, { command });
        });
  // Nothing to do, failures put back: one line each on stderr, as they happen (in JSON, the
  // crawler's logger writes them).
  const stopWarnings = crawler.on('warning', (warning) => {
    if (log.logger === undefined) void write(io.stderr, `politely: crawl: ${escapeControls(cliWarning(warning))}\n`);
  });
  try {
    // The crawler writes the --out files and closes them before run() ends, however it ends.
    stats = await crawler.run();
  } catch (error) {
    // Every seed refused: the crawl ran, and says below which seed was refused and why.
    // An output or the store failed: the crawl stopped, what is not done is in the store.
    // Anything else is a bug, for main to report.
    if (error instanceof SeedsRefusedError) refused = error;
    else if (!isFatalCrawlError(error)) throw error;
    else failure = error;
  } finally {
    stopWarnings();
    stopControl();
    signals.off();
    stopSaving();
    await display?.stop();
    detach?.();
    if (failure !== undefined)
      queued = await crawler.store.counts().then(
        (counts) => counts.queued + counts.inFlight,
        () => undefined,
      );
  }
  const outputs = crawler.outputs();
  for (const output of outputs) {
    if (output.cutBytes > 0)
      await log.notice(
        'warn',
        'output-cut',
        escapeControls(
          `${quoteInput(output.path)}: cut ${output.cutBytes} bytes of a record left half-written by an interrupted run (or of pages it had not finished)`,
        ),
        { path: output.path, cutBytes: output.cutBytes },
      );
  }
  if (failure !== undefined)
    await log.notice('error', 'failure', escapeControls(failure.message), { code: failure.code });
  const finalStats = { ...(stats ?? crawler.stats()), ...(queued === undefined ? {} : { queued }) };
  const stoppedBy = signals.first() ?? (stoppedByControl ? 'SIGTERM' : undefined);
  const interrupted = failure === undefined && stoppedBy !== undefined;
  const report = reportOf(finalStats);
  if (report !== undefined) await config.store.reportState?.save(report).catch(() => {});
  await config.store.close().catch(() => {});
  const reportFailure =
    report !== undefined && config.reportFile !== undefined
      ? await writeReport(config.reportFile, renderCrawlReport(report))
      : undefined;
  if (reportFailure !== undefined)
    await log.notice('error', 'report-failure', escapeControls(reportFailure.message), { code: reportFailure.code });
  const outcome: CrawlOutcome = {
    stats: finalStats,
    interrupted,
    ...(failure === undefined ? {} : { failure: failure.message, failureCode: failure.code }),
    nothingFetched: refused !== undefined || nothingFetched(finalStats, interrupted || failure !== undefined),
    outputs,
    reportFile: reportFailure === undefined ? config.reportFile : undefined,
    store: config.store,
  };
  if (log.logger === undefined) await write(io.stdout, summaryText(outcome));
  else log.logger.info({ event: 'summary', ...summaryFields(outcome) });
  if (outcome.nothingFetched)
    await log.notice('error', 'nothing-fetched', `crawl: nothing was fetched: ${refusalText(finalStats, refused)}`);
  const exitCode = exitCodeOf(outcome, failure ?? reportFailure, stoppedBy);
  return { exitCode, stats: finalStats, interrupted, report, outputs };
}

const REPORT_SAVE_INTERVAL_MS = 10_000;

/** A crawler warning as the CLI says it: with its flags for the crawler's options. */
function cliWarning(warning: WarningEvent): string {
  if (warning.kind === 'nothing-to-do' && warning.counts !== undefined) {
    const { done, failed } = warning.counts;
    const hint = failed > 0 ? ' (--retry-failed to try them again, --fresh to start over)' : ' (--fresh to start over)';
    return `nothing to do: ${done} done, ${failed} failed${hint}`;
  }
  return warning.message
    .replace(/^retryFailed: /, '--retry-failed: ')
    .replace(/^signing\.signatureAgent /, '--signature-agent ');
}

/** Saves the report every `intervalMs` while the crawl runs; returns the function that stops. */
function saveReportEvery(
  intervalMs: number,
  state: OpenedStore['reportState'],
  current: () => CrawlReportData | undefined,
): () => void {
  if (state === undefined) return () => {};
  const timer = setInterval(() => {
    const report = current();
    if (report !== undefined) void state.save(report).catch(() => {});
  }, intervalMs);
  timer.unref();
  return () => clearInterval(timer);
}

/** A crawl that ran to its end and fetched no page, because every seed was refused or failed. */
function nothingFetched(stats: CrawlStats, stoppedEarly: boolean): boolean {
  if (stoppedEarly || stats.pages > 0) return false;
  const refused = Object.entries(stats.skipped).some(([reason, count]) => reason !== 'duplicate' && (count ?? 0) > 0);
  return refused || stats.errors > 0;
}

/**
 * Why nothing was fetched: each refused seed on a line of its own with its reason and fix, or the
 * counts by reason. Seeds and details are input: each line has its controls escaped.
 */
function refusalText(stats: CrawlStats, refused: SeedsRefusedError | undefined): string {
  if (refused !== undefined) {
    const seeds = refused.seeds.map((seed) => {
      const fix = seed.fix === undefined ? '' : `; ${seed.fix}`;
      return `\n  ${escapeControls(`${seed.url}: ${seed.reason} (${seed.detail})${fix}`)}`;
    });
    return `every seed was refused${seeds.join('')}`;
  }
  const reasons = Object.entries(stats.skipped)
    .filter(([reason, count]) => reason !== 'duplicate' && (count ?? 0) > 0)
    .map(([reason, count]) => `${reason} ${count}`);
  if (stats.errors > 0) reasons.push(`errors ${stats.errors}`);
  return `every seed was refused or failed (${reasons.join(', ')})`;
}

function exitCodeOf(
  outcome: CrawlOutcome,
  failure: PolitelyError | undefined,
  stoppedBy: StopSignal | undefined,
): ExitCode {
  if (failure?.code === 'ERR_OUTPUT') return EXIT_IO;
  if (failure !== undefined) return EXIT_UNAVAILABLE;
  if (outcome.interrupted) return stoppedBy === 'SIGTERM' ? EXIT_TERMINATED : EXIT_INTERRUPTED;
  return outcome.nothingFetched ? EXIT_FAILURE : EXIT_OK;
}

/**
 * Writes the report whole or not at all: into a file beside it, then renamed over it, so a full
 * disk leaves the previous report (or none), never half of one. Resolves with the error, if any.
 */
async function writeReport(path: string, html: string): Promise<PolitelyError | undefined> {
  const partial = join(dirname(path), `.${basename(path)}.${process.pid}.partial`);
  try {
    await writeFile(partial, html, { flush: true });
    await rename(partial, path);
    return undefined;
  } catch (error) {
    await rm(partial, { force: true }).catch(() => {});
    return outputError(path, error);
  }
}

function createCollector(config: CrawlSessionConfig): CrawlReportCollector {
  const seeds = (config.crawler.seeds ?? []).map((seed) => (typeof seed === 'string' ? seed : seed.url));
  return createCrawlReportCollector({
    userAgent: config.crawler.userAgent,
    seeds,
    minDelayMs: config.crawler.minDelayMs,
    ...(config.report?.title === undefined ? {} : { title: config.report.title }),
    ...(config.report?.labels === undefined ? {} : { labels: config.report.labels }),
    ...(config.report?.settings === undefined ? {} : { settings: config.report.settings }),
  });
}

function buildCrawler(config: CrawlSessionConfig, collector: CrawlReportCollector | undefined, log: CliLog): Crawler {
  const { store, robotsCache } = config.store;
  const cache = collector === undefined ? robotsCache : collector.robotsCache(robotsCache);
  try {
    return createCrawler({
      ...config.crawler,
      ...(store === undefined ? {} : { store }),
      ...(cache === undefined ? {} : { robotsCache: cache }),
      ...(log.logger === undefined ? {} : { logger: log.logger }),
      outputs: config.outputs,
      handler: async (page) =>
        page.push(
          config.content === undefined ? pageRecordOf(page) : await pageRecordWithContent(page, config.content),
        ),
    });
  } catch (error) {
    if (error instanceof PolitelyError && error.code === 'ERR_INVALID_OPTION')
      throw new CliError(error.message.replace(/^createCrawler: /, 'crawl: '));
    throw error;
  }
}

function createDisplay(config: CrawlSessionConfig, crawler: Crawler, log: CliLog): CrawlDisplay | undefined {
  if (config.display === 'none') return undefined;
  if (config.display === 'progress') {
    const maxPages = config.crawler.maxPages;
    return createProgressDisplay(
      crawler,
      config.io.stdout,
      maxPages === undefined || maxPages === Infinity ? undefined : maxPages,
    );
  }
  return createLogDisplay(crawler, log, config.statusIntervalMs);
}
