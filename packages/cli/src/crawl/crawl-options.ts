// `politely crawl`'s command line: parsed with node:util parseArgs, every value checked once,
// every mistake a one-line usage error that names the option and the value.

import { isIP } from 'node:net';
import { parseArgs } from 'node:util';
import {
  ALL_USAGE_PURPOSES,
  isUsagePurpose,
  maskUrl,
  parseCidr,
  productToken,
  type UsagePurpose,
} from '@politely/core';
import { POLITENESS_KEY_MODES, type PolitenessKeyMode, type RenderWaitUntil, type ScopeMode } from '@politely/crawler';
import { CliError } from '../cli-error.js';
import { crawlIdOption } from '../input/crawl-id.js';
import { parseHttpUrl } from '../input/http-url.js';
import { type ListenAddress, parseListenAddress } from '../input/listen-address.js';
import { durationOption, wholeNumberOption } from '../input/parse-number.js';
import { quoteInput } from '../input/quote-input.js';
import { parseOptions } from '../parse-options.js';
import { CRAWL_USAGE } from '../usage.js';
import { attributeToFile, expandConfigFile } from './config-file.js';
import { type EgressOptions, parseEgressOptions } from './egress-options.js';
import { effectiveConfig } from './print-config.js';

export const SCOPES: readonly ScopeMode[] = ['same-origin', 'same-host', 'same-domain', 'any'];
export const LOG_FORMATS = ['plain', 'json'] as const;
export type LogFormat = (typeof LOG_FORMATS)[number];
/** What `--content` adds to each page record: the main content as Markdown or as plain text. */
export const CONTENT_FORMATS = ['markdown', 'text'] as const;
export type ContentFormat = (typeof CONTENT_FORMATS)[number];

/** Where the frontier lives: memory (lost on exit), a SQLite file, or a Redis database. */
export type StoreSpec =
  | { readonly kind: 'memory' }
  | { readonly kind: 'sqlite'; readonly path: string }
  | { readonly kind: 'redis'; readonly url: string };

export interface CrawlCommandOptions extends EgressOptions {
  readonly userAgent: string;
  readonly seeds: readonly string[];
  readonly maxPages: number | undefined;
  readonly maxDepth: number | undefined;
  readonly maxPagesPerHost: number | undefined;
  readonly maxRedirects: number | undefined;
  readonly maxBodyBytes: number | undefined;
  readonly maxLinksPerPage: number | undefined;
  readonly maxRetries: number | undefined;
  /** `--no-traps`: the trap heuristic off. */
  readonly trapDetection: boolean;
  readonly scope: ScopeMode;
  readonly minDelayMs: number;
  readonly concurrency: number;
  /** Off with `--fixed-concurrency`: `--concurrency` in flight whenever URLs are ready. */
  readonly adaptiveConcurrency: boolean;
  readonly perHostConcurrency: number;
  readonly requestTimeoutMs: number;
  readonly sitemaps: boolean;
  readonly store: StoreSpec;
  readonly crawlId: string | undefined;
  /** `--out` files: CSV when the name ends in `.csv`, else JSON lines. */
  readonly outFiles: readonly string[];
  /** `--content markdown|text`: each `--out` record carries the page's main content; undefined: none. */
  readonly content: ContentFormat | undefined;
  /** `--overwrite`: a fresh crawl may replace `--out` files (and a `--warc` archive) that hold records (else it refuses). */
  readonly overwrite: boolean;
  /** `--warc FILE`: archive every exchange as WARC (`.warc.gz`: compressed record by record). */
  readonly warcFile: string | undefined;
  /** `--cdx`: a CDXJ index beside the archive. */
  readonly cdx: boolean;
  /** `--warc-max-size BYTES`: one file's size limit; undefined: the crawler's default (1 GiB). */
  readonly warcMaxBytes: number | undefined;
  readonly reportFile: string | undefined;
  /** Log lines instead of the progress display; `undefined`: progress on a terminal, plain lines otherwise. */
  readonly log: LogFormat | undefined;
  /** `--log-file PATH`: log lines go there (appended to) instead of stdout. */
  readonly logFile: string | undefined;
  /** Seconds between status lines in log mode. */
  readonly statusIntervalMs: number;
  /** `--stop-grace DURATION`: how long requests in flight may finish after SIGTERM or SIGINT (ms). */
  readonly stopGraceMs: number;
  /** `--metrics [HOST:]PORT`: serve /metrics, /healthz and /readyz there; undefined: no server. */
  readonly metrics: ListenAddress | undefined;
  /** `--metrics-linger DURATION`: how long /metrics stays up after the crawl ends (ms), for a last scrape. */
  readonly metricsLingerMs: number;
  /** Networks the SSRF guard lets through (`--allow-net CIDR`, repeatable). */
  readonly allowNet: readonly string[];
  /** `--purpose NAME` (repeatable): what the pages are for; reserved URLs are skipped. */
  readonly purposes: readonly UsagePurpose[];
  /** `--robots-token TOKEN` (repeatable): product tokens robots.txt is evaluated for besides the --ua's. */
  readonly robotsTokens: readonly string[];
  /** `--recrawl`: revisit the store's fetched URLs that are due, with conditional requests. */
  readonly recrawl: boolean;
  /** `--retry-failed`: put the store's failed URLs and refused seeds back before crawling. */
  readonly retryFailed: boolean;
  /** `--fresh`: start the crawl in --store over (its outputs too: files need --overwrite). */
  readonly fresh: boolean;
  /** `--revisit-min`, `--revisit-max`: the revisit interval's bounds (ms); undefined: the crawler's defaults. */
  readonly revisitMinMs: number | undefined;
  readonly revisitMaxMs: number | undefined;
  /** `--politeness-key host|domain|ip`: which requests share one politeness clock. */
  readonly politenessKey: PolitenessKeyMode;
  /** `--resolve NAME:ADDRESS` (repeatable): host names answered without DNS, as curl's --resolve. */
  readonly resolve: ReadonlyMap<string, string>;
  /** `--render`: render pages in Chromium, every request the browser makes going through the crawler. */
  readonly render: boolean;
  /** `--render-wait load|domcontentloaded|networkidle`: when a rendered page counts as loaded. */
  readonly renderWaitUntil: RenderWaitUntil;
  /** `--render-timeout DURATION`: how long one page's render may take (ms); undefined: the crawler's default. */
  readonly renderTimeoutMs: number | undefined;
  /** `--chromium PATH`: the Chromium to render with; undefined: found on the PATH. */
  readonly chromium: string | undefined;
  /** `--print-config`: the effective settings to print instead of crawling (see print-config.ts). */
  readonly printConfig?: Record<string, unknown>;
}

export const RENDER_WAITS: readonly RenderWaitUntil[] = ['load', 'domcontentloaded', 'networkidle'];

/** The longest revisit bound the command line takes: ten years. */
const MAX_REVISIT_MS = 10 * 365 * 86_400_000;

/** Every flag of `crawl`: what the parser knows, and the keys a `--config` file may hold. */
export const OPTIONS = {
  ua: { type: 'string' },
  'max-pages': { type: 'string' },
  'max-depth': { type: 'string' },
  'max-pages-per-host': { type: 'string' },
  'max-redirects': { type: 'string' },
  'max-body': { type: 'string' },
  'max-links': { type: 'string' },
  retries: { type: 'string' },
  'no-traps': { type: 'boolean' },
  scope: { type: 'string' },
  delay: { type: 'string' },
  concurrency: { type: 'string' },
  'fixed-concurrency': { type: 'boolean' },
  'per-host-concurrency': { type: 'string' },
  timeout: { type: 'string' },
  sitemaps: { type: 'boolean' },
  store: { type: 'string' },
  'crawl-id': { type: 'string' },
  out: { type: 'string', multiple: true },
  content: { type: 'string' },
  overwrite: { type: 'boolean' },
  warc: { type: 'string' },
  cdx: { type: 'boolean' },
  'warc-max-size': { type: 'string' },
  report: { type: 'string' },
  log: { type: 'string' },
  'log-file': { type: 'string' },
  'status-interval': { type: 'string' },
  'stop-grace': { type: 'string' },
  metrics: { type: 'string' },
  'metrics-linger': { type: 'string' },
  'allow-net': { type: 'string', multiple: true },
  header: { type: 'string', multiple: true },
  from: { type: 'string' },
  cookies: { type: 'boolean' },
  proxy: { type: 'string' },
  'signing-key': { type: 'string' },
  'signature-agent': { type: 'string' },
  'signature-draft': { type: 'string' },
  sign: { type: 'string' },
  purpose: { type: 'string', multiple: true },
  'robots-token': { type: 'string', multiple: true },
  recrawl: { type: 'boolean' },
  'retry-failed': { type: 'boolean' },
  fresh: { type: 'boolean' },
  'revisit-min': { type: 'string' },
  'revisit-max': { type: 'string' },
  'politeness-key': { type: 'string' },
  resolve: { type: 'string', multiple: true },
  render: { type: 'boolean' },
  'render-wait': { type: 'string' },
  'render-timeout': { type: 'string' },
  chromium: { type: 'string' },
  config: { type: 'string' },
  'print-config': { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const;

/** The options that take numbers (see input/parse-number.ts). */
export const NUMERIC = [
  'max-pages',
  'max-depth',
  'max-pages-per-host',
  'max-redirects',
  'max-body',
  'max-links',
  'retries',
  'delay',
  'concurrency',
  'per-host-concurrency',
  'timeout',
  'status-interval',
  'stop-grace',
  'metrics-linger',
  'revisit-min',
  'revisit-max',
  'render-timeout',
  'warc-max-size',
];

/** The flags that name a file (or, for --chromium, an executable): an empty name is refused. */
const FILE_FLAGS = ['out', 'warc', 'report', 'log-file', 'chromium', 'signing-key'] as const;

/** `crawl --help` was asked for. */
export const HELP = Symbol('help');

/**
 * `crawl`'s command line, with its `--config` file's settings put in first (flags override the
 * file); an error about a flag the file gave names the file.
 */
export function parseCrawlOptions(args: readonly string[]): CrawlCommandOptions | typeof HELP {
  const expanded = expandConfigFile('crawl', args, OPTIONS);
  try {
    return parseCommandLine(expanded.args);
  } catch (error) {
    throw attributeToFile(error, 'crawl', expanded);
  }
}

function parseCommandLine(args: readonly string[]): CrawlCommandOptions | typeof HELP {
  const { values, positionals } = parseOptions(
    args,
    { command: 'crawl', usage: CRAWL_USAGE, options: OPTIONS, allowPositionals: true, numeric: NUMERIC },
    (checked) => parseArgs({ args: checked, options: OPTIONS, allowPositionals: true, strict: true }),
  );
  if (values.help === true) return HELP;
  if (values.ua === undefined || values.ua.trim() === '') {
    throw new CliError(
      "crawl: --ua is required: name your crawler and how to reach you, e.g. --ua 'MyBot/1.0 (+https://example.com/bot)'",
    );
  }
  if (productToken(values.ua) === '') {
    throw new CliError(
      `crawl: --ua must start with a product token (letters, '_' or '-'), which robots.txt groups are matched against, e.g. 'MyBot/1.0 (+https://example.com/bot)', got ${quoteInput(values.ua)}`,
    );
  }
  if (positionals.length === 0) throw new CliError('crawl: give at least one seed URL (see politely crawl --help)');
  const store = parseStore(values.store);
  const crawlId = values['crawl-id'];
  if (crawlId !== undefined && store.kind !== 'redis') {
    throw new CliError(
      `crawl: --crawl-id names a crawl in a redis:// store (a SQLite file is one crawl), got --store ${values.store === undefined ? 'memory' : quoteInput(maskUrl(values.store))}`,
    );
  }
  if (store.kind === 'redis') crawlIdOption('crawl', crawlId);
  const recrawl = values.recrawl === true;
  if (recrawl && store.kind === 'memory') {
    throw new CliError(
      'crawl: --recrawl revisits what an earlier crawl fetched: give its --store sqlite:FILE or --store redis://… --crawl-id NAME',
    );
  }
  const retryFailed = values['retry-failed'] === true;
  const fresh = values.fresh === true;
  for (const [flag, on, what] of [
    ['--retry-failed', retryFailed, 'tries again what an earlier crawl failed'],
    ['--fresh', fresh, 'starts an earlier crawl over'],
  ] as const) {
    if (on && store.kind === 'memory')
      throw new CliError(`crawl: ${flag} ${what}: give its --store sqlite:FILE or --store redis://… --crawl-id NAME`);
  }
  if (retryFailed && fresh)
    throw new CliError('crawl: --fresh forgets what failed, so --retry-failed has nothing to retry: give one of them');
  const revisitMinMs = optional(values['revisit-min'], (v) =>
    durationOption('crawl', '--revisit-min', v, 0, MAX_REVISIT_MS),
  );
  const revisitMaxMs = optional(values['revisit-max'], (v) =>
    durationOption('crawl', '--revisit-max', v, 0, MAX_REVISIT_MS),
  );
  if (revisitMinMs !== undefined && revisitMaxMs !== undefined && revisitMaxMs < revisitMinMs) {
    throw new CliError(
      `crawl: --revisit-max (${values['revisit-max']}) must be at least --revisit-min (${values['revisit-min']})`,
    );
  }
  const warcFile = values.warc;
  if (warcFile !== undefined && !/\.warc(\.gz)?$/i.test(warcFile))
    throw new CliError(
      `crawl: --warc: the archive's name ends in .warc, or .warc.gz to compress it record by record, got ${quoteInput(warcFile)}`,
    );
  for (const flag of ['cdx', 'warc-max-size'] as const) {
    if (values[flag] !== undefined && warcFile === undefined)
      throw new CliError(`crawl: --${flag} is about the WARC archive: give --warc FILE too`);
  }
  if (values.content !== undefined && values.out === undefined)
    throw new CliError("crawl: --content adds each page's content to its --out record: give --out FILE too");
  if (values['metrics-linger'] !== undefined && values.metrics === undefined)
    throw new CliError('crawl: --metrics-linger keeps the metrics server up: give --metrics [HOST:]PORT too');
  for (const flag of FILE_FLAGS) {
    const given = values[flag];
    for (const value of Array.isArray(given) ? given : given === undefined ? [] : [given])
      if (value.trim() === '') throw new CliError(`crawl: --${flag}: expected a file name, got ${quoteInput(value)}`);
  }
  if (values.proxy !== undefined) {
    for (const [flag, given] of [
      ['--resolve', values.resolve !== undefined],
      ['--politeness-key ip', values['politeness-key'] === 'ip'],
    ] as const) {
      if (given) throw new CliError(`crawl: ${flag} cannot be used with --proxy: the proxy resolves host names itself`);
    }
  }
  const render = values.render === true;
  for (const flag of ['render-wait', 'render-timeout', 'chromium'] as const) {
    if (values[flag] !== undefined && !render)
      throw new CliError(`crawl: --${flag} sets how pages are rendered: give --render too`);
  }
  return {
    userAgent: values.ua,
    render,
    renderWaitUntil: oneOf('--render-wait', values['render-wait'] ?? 'networkidle', RENDER_WAITS),
    renderTimeoutMs: optional(values['render-timeout'], (v) => durationOption('crawl', '--render-timeout', v, 1)),
    chromium: values.chromium,
    politenessKey: oneOf('--politeness-key', values['politeness-key'] ?? 'host', POLITENESS_KEY_MODES),
    resolve: resolveOption(values.resolve ?? []),
    recrawl,
    retryFailed,
    fresh,
    revisitMinMs,
    revisitMaxMs,
    seeds: positionals.map(seedUrl),
    maxPages: optional(values['max-pages'], (v) => count('--max-pages', v, 1)),
    maxDepth: optional(values['max-depth'], (v) => count('--max-depth', v, 0)),
    maxPagesPerHost: optional(values['max-pages-per-host'], (v) => count('--max-pages-per-host', v, 1)),
    maxRedirects: optional(values['max-redirects'], (v) => count('--max-redirects', v, 0)),
    maxBodyBytes: optional(values['max-body'], (v) => count('--max-body', v, 1)),
    maxLinksPerPage: optional(values['max-links'], (v) => count('--max-links', v, 0)),
    maxRetries: optional(values.retries, (v) => count('--retries', v, 0)),
    trapDetection: values['no-traps'] !== true,
    scope: oneOf('--scope', values.scope ?? 'same-domain', SCOPES),
    minDelayMs: optional(values.delay, (v) => durationOption('crawl', '--delay', v, 0)) ?? 250,
    concurrency: optional(values.concurrency, (v) => count('--concurrency', v, 1)) ?? 16,
    adaptiveConcurrency: values['fixed-concurrency'] !== true,
    perHostConcurrency: optional(values['per-host-concurrency'], (v) => count('--per-host-concurrency', v, 1)) ?? 1,
    requestTimeoutMs: optional(values.timeout, (v) => durationOption('crawl', '--timeout', v, 1)) ?? 30_000,
    sitemaps: values.sitemaps === true,
    store,
    crawlId,
    outFiles: values.out ?? [],
    content: optional(values.content, (v) => oneOf('--content', v, CONTENT_FORMATS)),
    overwrite: values.overwrite === true,
    warcFile,
    cdx: values.cdx === true,
    warcMaxBytes: optional(values['warc-max-size'], (v) => count('--warc-max-size', v, 65_536)),
    reportFile: values.report,
    log: values.log === undefined ? undefined : oneOf('--log', values.log, LOG_FORMATS),
    logFile: values['log-file'],
    statusIntervalMs:
      optional(values['status-interval'], (v) => durationOption('crawl', '--status-interval', v, 1)) ?? 2000,
    stopGraceMs: optional(values['stop-grace'], (v) => durationOption('crawl', '--stop-grace', v, 0)) ?? 10_000,
    metrics: optional(values.metrics, (v) => parseListenAddress('crawl', '--metrics', v)),
    metricsLingerMs: optional(values['metrics-linger'], (v) => durationOption('crawl', '--metrics-linger', v, 0)) ?? 0,
    allowNet: (values['allow-net'] ?? []).map((cidr) => network('crawl', '--allow-net', cidr)),
    purposes: [...new Set((values.purpose ?? []).map((name) => purposeOption('crawl', name)))],
    robotsTokens: (values['robots-token'] ?? []).map((token) => robotsTokenOption('crawl', token)),
    ...parseEgressOptions(values),
    ...(values['print-config'] === true ? { printConfig: effectiveConfig(values, positionals, OPTIONS) } : {}),
  };
}

function optional<T>(value: string | undefined, parse: (value: string) => T): T | undefined {
  return value === undefined ? undefined : parse(value);
}

function count(flag: string, value: string, min: number): number {
  return wholeNumberOption('crawl', flag, value, min);
}

function oneOf<T extends string>(flag: string, value: string, allowed: readonly T[]): T {
  if (!(allowed as readonly string[]).includes(value))
    throw new CliError(`crawl: ${flag}: expected one of ${allowed.join(', ')}, got ${quoteInput(value)}`);
  return value as T;
}

/** A purpose name (`--purpose`), checked now. */
export function purposeOption(command: string, value: string): UsagePurpose {
  if (!isUsagePurpose(value))
    throw new CliError(
      `${command}: --purpose: expected one of ${ALL_USAGE_PURPOSES.join(', ')}, got ${quoteInput(value)}`,
    );
  return value;
}

/** A product token (`--robots-token`), checked now: letters, '_' and '-' only. */
export function robotsTokenOption(command: string, value: string): string {
  if (value === '' || productToken(value) !== value) {
    throw new CliError(
      `${command}: --robots-token: expected a product token (letters, '_' and '-' only, e.g. MyBot-Training), got ${quoteInput(value)}`,
    );
  }
  return value;
}

/** A CIDR or single address, checked now so a typo is a usage error, not a refused crawl. */
export function network(command: string, flag: string, value: string): string {
  try {
    parseCidr(value);
  } catch {
    throw new CliError(
      `${command}: ${flag}: expected a network like 127.0.0.0/8 or an address, got ${quoteInput(value)}`,
    );
  }
  return value;
}

function seedUrl(text: string): string {
  const url = parseHttpUrl(text);
  if (url === null) throw new CliError(`crawl: invalid seed ${quoteInput(text)}: not an absolute http(s) URL`);
  return url.href;
}

/** `memory`, `sqlite:FILE`, `redis://HOST:PORT/DB` (or `rediss://`), `redis-cluster://HOST:PORT,…` (or `rediss-cluster://`). */
export function parseStore(value: string | undefined): StoreSpec {
  if (value === undefined || value === 'memory') return { kind: 'memory' };
  if (value.startsWith('sqlite:')) {
    const path = value.slice('sqlite:'.length);
    if (path === '')
      throw new CliError(`crawl: --store: sqlite:FILE needs a file name, got ${quoteInput(maskUrl(value))}`);
    return { kind: 'sqlite', path };
  }
  if (/^rediss?(-cluster)?:\/\//i.test(value)) return { kind: 'redis', url: value };
  throw new CliError(
    `crawl: --store: expected memory, sqlite:FILE, redis://HOST:PORT/DB or redis-cluster://HOST:PORT,HOST:PORT, got ${quoteInput(maskUrl(value))}`,
  );
}

/** `--resolve NAME:ADDRESS`, repeatable: each name once, each address an IP address. */
function resolveOption(values: readonly string[]): ReadonlyMap<string, string> {
  const pins = new Map<string, string>();
  for (const value of values) {
    const colon = value.indexOf(':');
    const name = colon < 0 ? '' : value.slice(0, colon).trim().toLowerCase();
    const address =
      colon < 0
        ? ''
        : value
            .slice(colon + 1)
            .trim()
            .replace(/^\[|\]$/g, '');
    if (name === '' || isIP(address) === 0 || isIP(name) !== 0) {
      throw new CliError(
        `crawl: --resolve: expected NAME:ADDRESS, a host name and the IP address to use for it (e.g. shop.test:127.0.0.5), got ${quoteInput(value)}`,
      );
    }
    if (pins.has(name) && pins.get(name) !== address)
      throw new CliError(`crawl: --resolve: ${quoteInput(name)} is given two addresses`);
    pins.set(name, address);
  }
  return pins;
}
