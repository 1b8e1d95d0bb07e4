// `politely crawl`'s command line: parsed with node:util parseArgs, every value checked once,
// every mistake a one-line usage error that names the option and the value.

import { parseArgs } from 'node:util';
import { parseCidr, productToken } from '@politely/core';
import type { ScopeMode } from '@politely/crawler';
import { CliError } from '../cli-error.js';
import { parseOptions } from '../parse-options.js';
import { CRAWL_USAGE } from '../usage.js';

export const SCOPES: readonly ScopeMode[] = ['same-origin', 'same-host', 'same-domain', 'any'];
export const LOG_FORMATS = ['plain', 'json'] as const;
export type LogFormat = (typeof LOG_FORMATS)[number];

/** Where the frontier lives: memory (lost on exit), a SQLite file, or a Redis database. */
export type StoreSpec = { readonly kind: 'memory' } | { readonly kind: 'sqlite'; readonly path: string } | { readonly kind: 'redis'; readonly url: string };

export interface CrawlCommandOptions {
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
  readonly perHostConcurrency: number;
  readonly requestTimeoutMs: number;
  readonly sitemaps: boolean;
  readonly store: StoreSpec;
  readonly crawlId: string | undefined;
  /** `--out` files: CSV when the name ends in `.csv`, else JSON lines. */
  readonly outFiles: readonly string[];
  readonly reportFile: string | undefined;
  /** Log lines instead of the progress display; `undefined`: progress on a terminal, plain lines otherwise. */
  readonly log: LogFormat | undefined;
  /** Seconds between status lines in log mode. */
  readonly statusIntervalMs: number;
  /** Networks the SSRF guard lets through (`--allow-net CIDR`, repeatable). */
  readonly allowNet: readonly string[];
}

const OPTIONS = {
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
  'per-host-concurrency': { type: 'string' },
  timeout: { type: 'string' },
  sitemaps: { type: 'boolean' },
  store: { type: 'string' },
  'crawl-id': { type: 'string' },
  out: { type: 'string', multiple: true },
  report: { type: 'string' },
  log: { type: 'string' },
  'status-interval': { type: 'string' },
  'allow-net': { type: 'string', multiple: true },
  help: { type: 'boolean', short: 'h' },
} as const;

/** `crawl --help` was asked for. */
export const HELP = Symbol('help');

export function parseCrawlOptions(args: readonly string[]): CrawlCommandOptions | typeof HELP {
  const { values, positionals } = parseOptions(() => parseArgs({ args: [...args], options: OPTIONS, allowPositionals: true, strict: true }), CRAWL_USAGE);
  if (values.help === true) return HELP;
  if (values.ua === undefined || values.ua.trim() === '') {
    throw new CliError("crawl: --ua is required: name your crawler and how to reach you, e.g. --ua 'MyBot/1.0 (+https://example.com/bot)'");
  }
  if (productToken(values.ua) === '') {
    throw new CliError(`crawl: --ua must start with a product token (letters, '_' or '-'), which robots.txt groups are matched against, e.g. 'MyBot/1.0 (+https://example.com/bot)', got '${values.ua}'`);
  }
  if (positionals.length === 0) throw new CliError('crawl: give at least one seed URL (see politely crawl --help)');
  const store = parseStore(values.store);
  const crawlId = values['crawl-id'];
  if (crawlId !== undefined && store.kind !== 'redis') {
    throw new CliError(`crawl: --crawl-id names a crawl in a redis:// store (a SQLite file is one crawl), got --store ${values.store ?? 'memory'}`);
  }
  if (store.kind === 'redis' && (crawlId === undefined || !/^[\w.:-]{1,100}$/.test(crawlId))) {
    throw new CliError(`crawl: --store redis://… needs --crawl-id NAME (letters, digits, '.', ':', '_', '-'), got ${crawlId === undefined ? 'none' : `'${crawlId}'`}`);
  }
  return {
    userAgent: values.ua,
    seeds: positionals.map(seedUrl),
    maxPages: optional(values['max-pages'], (v) => integer('--max-pages', v, 1)),
    maxDepth: optional(values['max-depth'], (v) => integer('--max-depth', v, 0)),
    maxPagesPerHost: optional(values['max-pages-per-host'], (v) => integer('--max-pages-per-host', v, 1)),
    maxRedirects: optional(values['max-redirects'], (v) => integer('--max-redirects', v, 0)),
    maxBodyBytes: optional(values['max-body'], (v) => integer('--max-body', v, 1)),
    maxLinksPerPage: optional(values['max-links'], (v) => integer('--max-links', v, 0)),
    maxRetries: optional(values.retries, (v) => integer('--retries', v, 0)),
    trapDetection: values['no-traps'] !== true,
    scope: oneOf('--scope', values.scope ?? 'same-domain', SCOPES),
    minDelayMs: optional(values.delay, (v) => milliseconds('--delay', v, true)) ?? 250,
    concurrency: optional(values.concurrency, (v) => integer('--concurrency', v, 1)) ?? 16,
    perHostConcurrency: optional(values['per-host-concurrency'], (v) => integer('--per-host-concurrency', v, 1)) ?? 1,
    requestTimeoutMs: optional(values.timeout, (v) => milliseconds('--timeout', v, false)) ?? 30_000,
    sitemaps: values.sitemaps === true,
    store,
    crawlId,
    outFiles: values.out ?? [],
    reportFile: values.report,
    log: values.log === undefined ? undefined : oneOf('--log', values.log, LOG_FORMATS),
    statusIntervalMs: optional(values['status-interval'], (v) => milliseconds('--status-interval', v, false)) ?? 2000,
    allowNet: (values['allow-net'] ?? []).map((cidr) => network('crawl', '--allow-net', cidr)),
  };
}

function optional<T>(value: string | undefined, parse: (value: string) => T): T | undefined {
  return value === undefined ? undefined : parse(value);
}

/** A whole number ≥ `min` (no units, no fractions, no exponent tricks). */
export function integer(flag: string, value: string, min: number): number {
  const n = Number(value);
  if (!/^\s*\d+\s*$/.test(value) || !Number.isSafeInteger(n) || n < min) {
    throw new CliError(`crawl: ${flag} must be a whole number ≥ ${min}, got '${value}'`);
  }
  return n;
}

/** A number of milliseconds, ≥ 0 (or > 0). */
export function milliseconds(flag: string, value: string, zeroAllowed: boolean): number {
  const n = Number(value);
  if (value.trim() === '' || !Number.isFinite(n) || n < 0 || (n === 0 && !zeroAllowed) || n > 2_147_483_647) {
    throw new CliError(`crawl: ${flag} must be a ${zeroAllowed ? 'number of ms ≥ 0' : 'number of ms > 0'}, got '${value}'`);
  }
  return n;
}

function oneOf<T extends string>(flag: string, value: string, allowed: readonly T[]): T {
  if (!(allowed as readonly string[]).includes(value)) throw new CliError(`crawl: ${flag} must be one of ${allowed.join(', ')}, got '${value}'`);
  return value as T;
}

/** A CIDR or single address, checked now so a typo is a usage error, not a refused crawl. */
export function network(command: string, flag: string, value: string): string {
  try {
    parseCidr(value);
  } catch {
    throw new CliError(`${command}: ${flag} must be a network like 127.0.0.0/8 or an address, got '${value}'`);
  }
  return value;
}

function seedUrl(text: string): string {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new CliError(`crawl: invalid seed '${text}': not an absolute http(s) URL`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new CliError(`crawl: invalid seed '${text}': not an absolute http(s) URL`);
  return url.href;
}

/** `memory`, `sqlite:FILE`, `redis://HOST:PORT/DB` (or `rediss://`). */
export function parseStore(value: string | undefined): StoreSpec {
  if (value === undefined || value === 'memory') return { kind: 'memory' };
  if (value.startsWith('sqlite:')) {
    const path = value.slice('sqlite:'.length);
    if (path === '') throw new CliError(`crawl: --store sqlite:FILE needs a file name, got '${value}'`);
    return { kind: 'sqlite', path };
  }
  if (/^rediss?:\/\//.test(value)) return { kind: 'redis', url: value };
  throw new CliError(`crawl: --store must be memory, sqlite:FILE or redis://HOST:PORT/DB, got '${value}'`);
}
