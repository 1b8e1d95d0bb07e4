// `politely sitemap list`: the URLs that sites' sitemaps list, read exactly as a crawl reads them
// (robots.txt obeyed, one request per host at a time with its delay), without fetching any page.

import { parseArgs } from 'node:util';
import { PolitelyError } from '@politely/core';
import { type Crawler, createCrawler, type SkipEvent, type SkipReason } from '@politely/crawler';
import { type SitemapUrlRecord, sitemaps } from '@politely/sitemap';
import { CliError } from '../cli-error.js';
import { network } from '../crawl/crawl-options.js';
import { EXIT_FAILURE, EXIT_OK, type ExitCode } from '../exit-codes.js';
import { parseHttpUrl } from '../input/http-url.js';
import { durationOption } from '../input/parse-number.js';
import { escapeControls, quoteInput, toSafeJson } from '../input/quote-input.js';
import { type Io, write } from '../io.js';
import { parseOptions } from '../parse-options.js';
import { SITEMAP_USAGE } from '../usage.js';

const OPTIONS = {
  ua: { type: 'string' },
  json: { type: 'boolean' },
  timeout: { type: 'string' },
  delay: { type: 'string' },
  'allow-net': { type: 'string', multiple: true },
  help: { type: 'boolean', short: 'h' },
} as const;

const HELP_FLAGS = new Set(['--help', '-h', 'help']);

/** Skips that leave a sitemap unread: the listing is incomplete, so the exit code is 1. */
const FAILED_SITEMAP: ReadonlySet<string> = new Set<SkipReason>([
  'robots',
  'robots-unreachable',
  'blocked-address',
  'invalid-url',
  'url-too-long',
  'too-large',
  'headers-too-large',
  'too-many-redirects',
  'unsupported-scheme',
]);

interface ListTargets {
  /** Sites (a URL whose path is `/`): their robots.txt says where their sitemaps are. */
  readonly origins: string[];
  /** Any other URL: a sitemap to read. */
  readonly sitemapUrls: string[];
}

/** `politely sitemap …`: dispatches the subcommand. */
export async function runSitemap(args: readonly string[], io: Io): Promise<ExitCode> {
  const [subcommand, ...rest] = args;
  if (subcommand === undefined) throw new CliError('sitemap: missing command (list)', { usage: SITEMAP_USAGE });
  if (HELP_FLAGS.has(subcommand)) {
    await write(io.stdout, SITEMAP_USAGE);
    return EXIT_OK;
  }
  if (subcommand !== 'list')
    throw new CliError(`sitemap: unknown command ${quoteInput(subcommand)}`, { usage: SITEMAP_USAGE });
  return runSitemapList(rest, io);
}

export async function runSitemapList(args: readonly string[], io: Io): Promise<ExitCode> {
  const { values, positionals } = parseOptions(
    args,
    {
      command: 'sitemap list',
      usage: SITEMAP_USAGE,
      options: OPTIONS,
      allowPositionals: true,
      numeric: ['timeout', 'delay'],
    },
    (checked) => parseArgs({ args: checked, options: OPTIONS, allowPositionals: true, strict: true }),
  );
  if (values.help === true) {
    await write(io.stdout, SITEMAP_USAGE);
    return EXIT_OK;
  }
  if (values.ua === undefined) throw new CliError('sitemap list: --ua UA is required (see politely sitemap --help)');
  if (positionals.length === 0)
    throw new CliError('sitemap list: give at least one site or sitemap URL (see politely sitemap --help)');
  const timeoutMs =
    values.timeout === undefined ? 10_000 : durationOption('sitemap list', '--timeout', values.timeout, 1);
  const delayMs = values.delay === undefined ? 250 : durationOption('sitemap list', '--delay', values.delay, 0);
  const allowNet = (values['allow-net'] ?? []).map((cidr) => network('sitemap list', '--allow-net', cidr));
  const targets = classify(positionals);
  const json = values.json === true;
  let failed = false;
  const crawler = createListCrawler(values.ua, timeoutMs, delayMs, allowNet, targets, {
    // Sitemaps are a stranger's text: what they say reaches the terminal with its controls escaped.
    onUrl: (record) =>
      write(io.stdout, json ? `${toSafeJson(recordToJson(record))}\n` : `${escapeControls(record.url)}\n`),
    onNoSitemap: (origin) =>
      void write(io.stderr, `politely: ${escapeControls(origin)}/robots.txt declares no sitemap\n`),
  });
  crawler.on('error', (event) => {
    if (event.willRetry) return;
    failed = true;
    void write(io.stderr, `politely: ${escapeControls(event.error.message)}\n`);
  });
  crawler.on('skip', (event) => {
    if (FAILED_SITEMAP.has(event.reason)) failed = true;
    void write(io.stderr, `politely: ${escapeControls(describeSkip(event, targets))}\n`);
  });
  await crawler.run();
  return failed ? EXIT_FAILURE : EXIT_OK;
}

function createListCrawler(
  userAgent: string,
  timeoutMs: number,
  delayMs: number,
  allowNet: readonly string[],
  targets: ListTargets,
  report: {
    readonly onUrl: (record: SitemapUrlRecord) => Promise<void> | undefined;
    readonly onNoSitemap: (origin: string) => void;
  },
): Crawler {
  try {
    return createCrawler({
      userAgent,
      seeds: [],
      minDelayMs: delayMs,
      allowNet,
      requestTimeoutMs: timeoutMs,
      // A listing tool gives up sooner than a crawl: one retry, one robots.txt attempt.
      maxRetries: 1,
      maxRobotsRetries: 0,
      plugins: [
        sitemaps({
          origins: targets.origins,
          sitemapUrls: targets.sitemapUrls,
          // Nothing but robots.txt and sitemap files is fetched: no page enters the frontier.
          enqueuePages: false,
          onUrl: report.onUrl,
          onDiscovery: (discovery) => {
            if (discovery.sitemaps.length === 0) report.onNoSitemap(discovery.origin);
          },
        }),
      ],
    });
  } catch (error) {
    if (error instanceof PolitelyError && error.code === 'ERR_INVALID_OPTION')
      throw new CliError(`sitemap list: ${escapeControls(error.message)}`);
    throw error;
  }
}

function describeSkip(event: SkipEvent, targets: ListTargets): string {
  const detail = event.detail === undefined ? '' : `: ${event.detail}`;
  // Discovery reads robots.txt in the turn of the site's `/`: when robots.txt disallows `/`
  // itself, the site's Sitemap: lines are not read.
  if (event.reason === 'robots' && targets.origins.some((origin) => `${origin}/` === event.url)) {
    return `skipped ${event.url} (robots)${detail}: robots.txt disallows the site's / for this user agent, so its sitemaps were not read`;
  }
  return `skipped ${event.url} (${event.reason})${detail}`;
}

function classify(urls: readonly string[]): ListTargets {
  const targets: ListTargets = { origins: [], sitemapUrls: [] };
  for (const text of urls) {
    const url = parseHttpUrl(text);
    if (url === null) throw new CliError(`sitemap list: invalid URL ${quoteInput(text)}: not an absolute http(s) URL`);
    if (url.pathname === '/' && url.search === '') targets.origins.push(url.origin);
    else targets.sitemapUrls.push(url.href);
  }
  return targets;
}

function recordToJson(record: SitemapUrlRecord): Record<string, string | number | null> {
  return {
    url: record.url,
    lastmod: record.lastmod ?? null,
    changefreq: record.changefreq ?? null,
    priority: record.priority ?? null,
    sitemap: record.sitemap,
  };
}
