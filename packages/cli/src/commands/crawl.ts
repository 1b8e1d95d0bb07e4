// `politely crawl <seed…>`: a polite crawl from the command line, with page records to JSON
// lines or CSV, an HTML report, a live display, and a clean stop on Ctrl-C.

import { isIP } from 'node:net';
import { ChromiumRenderer } from '@politely/browser';
import { type HostResolver, maskUrl, systemResolver } from '@politely/core';
import type { CrawlerPlugin, OutputOptions } from '@politely/crawler';
import { type CliLog, createCliLog } from '../crawl/cli-log.js';
import { type CrawlCommandOptions, HELP, parseCrawlOptions } from '../crawl/crawl-options.js';
import type { CrawlSessionConfig } from '../crawl/crawl-session.js';
import { egressSettings } from '../crawl/egress-options.js';
import { lingerFor, serveMetrics } from '../crawl/metrics-option.js';
import type { MetricsServer } from '../crawl/metrics-server.js';
import { checkWritable, pageOutputs, warcOutput } from '../crawl/output-files.js';
import { type OpenedStore, openStore } from '../crawl/store-option.js';
import { EXIT_OK, type ExitCode } from '../exit-codes.js';
import { escapeControls } from '../input/quote-input.js';
import { type Io, write } from '../io.js';
import { CRAWL_USAGE } from '../usage.js';

export async function runCrawl(args: readonly string[], io: Io): Promise<ExitCode> {
  const options = parseCrawlOptions(args);
  if (options === HELP) {
    await write(io.stdout, CRAWL_USAGE);
    return EXIT_OK;
  }
  if (options.printConfig !== undefined) {
    await write(io.stdout, `${JSON.stringify(options.printConfig, null, 2)}\n`);
    return EXIT_OK;
  }
  if (options.reportFile !== undefined) checkWritable(options.reportFile, '--report');
  if (options.logFile !== undefined) checkWritable(options.logFile, '--log-file');
  const log = await createCliLog(io, options.log === 'json', options.logFile);
  try {
    return await crawlLogged(options, io, log);
  } finally {
    await log.close();
  }
}

async function crawlLogged(options: CrawlCommandOptions, io: Io, log: CliLog): Promise<ExitCode> {
  // The store's lines (a lost connection, a Redis that may lose the crawl) are notices too.
  const say = (line: string): void => {
    const text = line.replace(/^politely: /, '').trimEnd();
    void log.notice(text.startsWith('warning:') ? 'warn' : 'info', 'store', text);
  };
  // The key file open to others: said once, before anything is sent (never the file's content).
  for (const warning of options.signing?.warnings ?? [])
    await log.notice('warn', 'signing', `warning: ${escapeControls(warning)}`);
  const store = await openStore(options.store, { ...options, say });
  let outputs: OutputOptions[];
  let metrics: MetricsServer | undefined;
  try {
    for (const note of store.notes ?? []) await log.notice('info', 'store', escapeControls(note));
    // A fresh crawl's outputs start afresh (an existing file needs --overwrite), as a new crawl's.
    const resume = !options.fresh && (await resumes(store));
    outputs = pageOutputs(options.outFiles, { resume, overwrite: options.overwrite, content: options.content });
    if (options.warcFile !== undefined)
      outputs.push(
        warcOutput(options.warcFile, {
          resume,
          overwrite: options.overwrite,
          cdx: options.cdx,
          maxFileBytes: options.warcMaxBytes,
        }),
      );
    if (options.metrics !== undefined)
      metrics = await serveMetrics(options.metrics, store, (line) => void log.notice('warn', 'readyz', line));
  } catch (error) {
    await store.close();
    throw error;
  }
  try {
    if (metrics !== undefined)
      await log.notice('info', 'metrics', `metrics at ${metrics.url}/metrics (and /healthz, /readyz)`, {
        url: `${metrics.url}/metrics`,
      });
    const exitCode = await crawlWith(options, io, log, store, outputs, metrics);
    if (metrics !== undefined && options.metricsLingerMs > 0) {
      await log.notice(
        'info',
        'metrics-linger',
        `${metrics.url}/metrics stays up for ${options.metricsLingerMs} ms (--metrics-linger); SIGTERM or Ctrl-C ends it now`,
        { url: `${metrics.url}/metrics`, lingerMs: options.metricsLingerMs },
      );
      await lingerFor(options.metricsLingerMs);
    }
    return exitCode;
  } finally {
    await metrics?.close();
  }
}

async function crawlWith(
  options: CrawlCommandOptions,
  io: Io,
  log: CliLog,
  store: OpenedStore,
  outputs: OutputOptions[],
  metrics: MetricsServer | undefined,
): Promise<ExitCode> {
  // The crawler is loaded once the command line is known to be good: usage errors stay quick.
  const [{ runCrawlSession }, { sitemaps }] = await Promise.all([
    import('../crawl/crawl-session.js'),
    import('@politely/sitemap'),
  ]);
  const crawler = crawlerOptionsOf(options, options.sitemaps ? [sitemaps()] : []);
  const config: CrawlSessionConfig = {
    io,
    crawler: metrics === undefined ? crawler : { ...crawler, meterProvider: metrics.meterProvider },
    store,
    outputs,
    ...(options.content === undefined ? {} : { content: options.content }),
    reportFile: options.reportFile,
    report: { settings: settingsOf(options) },
    display: options.log ?? (options.logFile === undefined && isTerminal(io.stdout) ? 'progress' : 'plain'),
    log,
    statusIntervalMs: options.statusIntervalMs,
  };
  const result = await runCrawlSession(config);
  return result.exitCode;
}

/** Whether the crawl picks up one the store already holds (so its outputs are appended to). */
async function resumes(store: OpenedStore): Promise<boolean> {
  if (!store.durable || store.store === undefined) return false;
  const counts = await store.store.counts();
  return counts.queued + counts.inFlight + counts.done > 0;
}

function crawlerOptionsOf(
  options: CrawlCommandOptions,
  plugins: readonly CrawlerPlugin[],
): CrawlSessionConfig['crawler'] {
  return {
    userAgent: options.userAgent,
    seeds: options.seeds,
    scope: options.scope,
    minDelayMs: options.minDelayMs,
    concurrency: options.concurrency,
    adaptiveConcurrency: options.adaptiveConcurrency,
    perHostConcurrency: options.perHostConcurrency,
    requestTimeoutMs: options.requestTimeoutMs,
    stopGraceMs: options.stopGraceMs,
    allowNet: options.allowNet,
    plugins,
    headers: options.headers,
    cookies: options.cookies,
    ...(options.from === undefined ? {} : { from: options.from }),
    ...(options.proxy === undefined ? {} : { proxy: options.proxy }),
    ...(options.signing === undefined
      ? {}
      : {
          signing: {
            key: options.signing.key,
            signatureAgent: options.signing.signatureAgent,
            draft: options.signing.draft,
            sign: options.signing.sign,
          },
        }),
    ...(options.maxPages === undefined ? {} : { maxPages: options.maxPages }),
    ...(options.maxDepth === undefined ? {} : { maxDepth: options.maxDepth }),
    ...(options.maxPagesPerHost === undefined ? {} : { maxPagesPerHost: options.maxPagesPerHost }),
    ...(options.maxRedirects === undefined ? {} : { maxRedirects: options.maxRedirects }),
    ...(options.maxBodyBytes === undefined ? {} : { maxBodyBytes: options.maxBodyBytes }),
    ...(options.maxLinksPerPage === undefined ? {} : { maxLinksPerPage: options.maxLinksPerPage }),
    ...(options.maxRetries === undefined ? {} : { maxRetries: options.maxRetries }),
    ...(options.trapDetection ? {} : { trapDetection: false as const }),
    ...(options.purposes.length === 0 ? {} : { purposes: options.purposes }),
    ...(options.robotsTokens.length === 0 ? {} : { robotsTokens: options.robotsTokens }),
    ...(options.recrawl ? { recrawl: true } : {}),
    ...(options.retryFailed ? { retryFailed: true } : {}),
    ...(options.fresh ? { fresh: true } : {}),
    ...(options.politenessKey === 'host' ? {} : { politenessKey: options.politenessKey }),
    ...(options.resolve.size === 0 ? {} : { resolver: pinnedNames(options.resolve) }),
    ...(options.revisitMinMs === undefined ? {} : { revisitMinMs: options.revisitMinMs }),
    ...(options.revisitMaxMs === undefined ? {} : { revisitMaxMs: options.revisitMaxMs }),
    ...(options.render
      ? {
          render: true,
          renderer: new ChromiumRenderer(options.chromium === undefined ? {} : { executablePath: options.chromium }),
          renderWaitUntil: options.renderWaitUntil,
          ...(options.renderTimeoutMs === undefined ? {} : { renderTimeoutMs: options.renderTimeoutMs }),
        }
      : {}),
  };
}

/** The settings shown in the report (kept in the store between runs too): no secret in them. */
function settingsOf(options: CrawlCommandOptions): [string, string][] {
  const settings: [string, string][] = [
    ['--scope', options.scope],
    ['--delay', `${options.minDelayMs} ms (a longer Crawl-delay wins)`],
    [
      '--concurrency',
      `${options.concurrency}${options.adaptiveConcurrency ? ' at most (fewer while the CPU cannot keep up)' : ' (fixed)'}`,
    ],
    ['--per-host-concurrency', String(options.perHostConcurrency)],
    ['--sitemaps', options.sitemaps ? 'on' : 'off'],
    [
      '--store',
      options.store.kind === 'memory'
        ? 'memory'
        : options.store.kind === 'sqlite'
          ? `sqlite:${options.store.path}`
          : maskUrl(options.store.url),
    ],
  ];
  if (options.maxPages !== undefined) settings.push(['--max-pages', String(options.maxPages)]);
  if (options.maxDepth !== undefined) settings.push(['--max-depth', String(options.maxDepth)]);
  if (options.maxPagesPerHost !== undefined) settings.push(['--max-pages-per-host', String(options.maxPagesPerHost)]);
  const limits: [string, number | undefined][] = [
    ['--max-redirects', options.maxRedirects],
    ['--max-body', options.maxBodyBytes],
    ['--max-links', options.maxLinksPerPage],
    ['--retries', options.maxRetries],
  ];
  for (const [flag, value] of limits) if (value !== undefined) settings.push([flag, String(value)]);
  if (!options.trapDetection) settings.push(['--no-traps', 'trap heuristic off']);
  if (options.purposes.length > 0) settings.push(['--purpose', options.purposes.join(', ')]);
  if (options.robotsTokens.length > 0) settings.push(['--robots-token', options.robotsTokens.join(', ')]);
  if (options.recrawl) settings.push(['--recrawl', 'revisit due URLs with conditional requests']);
  if (options.retryFailed) settings.push(['--retry-failed', 'failed URLs and refused seeds tried again']);
  if (options.fresh) settings.push(['--fresh', 'the crawl in --store started over']);
  if (options.politenessKey !== 'host')
    settings.push([
      '--politeness-key',
      `${options.politenessKey} (one clock per ${options.politenessKey === 'ip' ? 'server address' : 'registrable domain'})`,
    ]);
  for (const [name, address] of options.resolve) settings.push(['--resolve', `${name} → ${address}`]);
  if (options.revisitMinMs !== undefined) settings.push(['--revisit-min', `${options.revisitMinMs} ms`]);
  if (options.revisitMaxMs !== undefined) settings.push(['--revisit-max', `${options.revisitMaxMs} ms`]);
  if (options.render) {
    settings.push([
      '--render',
      `in Chromium${options.chromium === undefined ? '' : ` (${options.chromium})`}, until ${options.renderWaitUntil}; every sub-request through robots.txt, the address guard and its host's clock`,
    ]);
  }
  settings.push(...egressSettings(options));
  return settings;
}

function isTerminal(stream: NodeJS.WritableStream): boolean {
  return (stream as { isTTY?: boolean }).isTTY === true;
}

/** `--resolve NAME:ADDRESS`: those names answer with their address (no TTL: the crawler's default); others go to the system's DNS. */
function pinnedNames(pins: ReadonlyMap<string, string>): HostResolver {
  return async (hostname) => {
    const address = pins.get(hostname.toLowerCase());
    if (address === undefined) return systemResolver(hostname);
    return [{ address, family: isIP(address) === 6 ? 6 : 4 }];
  };
}
