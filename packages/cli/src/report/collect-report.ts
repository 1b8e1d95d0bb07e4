// The crawl report's collector: listens to a crawler's events (and its robots gate's) while it
// runs, and builds the report's data when it ends. Events observe; nothing here changes what
// the crawler does.

import {
  ALL_USAGE_PURPOSES,
  createMemoryRobotsCache,
  parseRobotsTxt,
  type RobotsCacheRecord,
  type RobotsCacheStore,
  type RobotsFetchEvent,
} from '@politely/core';
import type { Crawler, CrawlStats, RenderCounts, RequestEvent, SkipEvent, UsageEvent } from '@politely/crawler';
import { describeUsageSource } from '@politely/crawler/internal';
import { HostTally, type HostTallyLimits } from './host-tally.js';
import type { CrawlReportData, HostReport, RenderReport, ReportError, RevisitReport } from './report-data.js';

/** Options of `createCrawlReportCollector`: the crawl's user agent, seeds and delay, and bounds on what it keeps. */
export interface CrawlReportCollectorOptions {
  /** The crawler's user agent (its robots.txt `Crawl-delay` is read for it). */
  readonly userAgent: string;
  readonly seeds: readonly string[];
  /** The crawl's minimum delay: the gap expected at a host before any page told a longer one. */
  readonly minDelayMs: number;
  /** The report's title. @default 'politely crawl report' */
  readonly title?: string;
  /** Friendly names of hosts, by host name (the demo web's `shop`, `news`, …). @default none */
  readonly labels?: ReadonlyMap<string, string>;
  /** Settings shown in the report, as name/value pairs. @default [] */
  readonly settings?: readonly (readonly [string, string])[];
  /** Requests kept per host for its timeline (all are measured). @default 5000 */
  readonly maxRequestsPerHost?: number;
  /** Example URLs kept per robots decision. @default 3 */
  readonly maxExamples?: number;
  /** Final errors kept. @default 200 */
  readonly maxErrors?: number;
}

/**
 * Collects what the HTML report shows while a crawl runs: wraps the robots.txt cache, listens to
 * the crawler's events, and gives the report's data at the end.
 */
export interface CrawlReportCollector {
  /**
   * Wraps the robots.txt cache the crawler's gate will use (pass the result as `robotsCache`),
   * so the report can show each host's `Crawl-delay`. Optional: without it the report shows
   * the delays the crawler kept, not the robots.txt values.
   */
  robotsCache(base?: RobotsCacheStore): RobotsCacheStore;
  /** Listens to the crawler and its gate; returns the function that stops listening. */
  attach(crawler: Crawler): () => void;
  /** The report's data, from what was seen and the crawl's final stats. */
  finish(stats: CrawlStats): CrawlReportData;
}

/**
 * Starts collecting a crawl's report: attach it to the crawler before `run()`, then pass
 * `finish(stats)` to `renderCrawlReport`.
 */
export function createCrawlReportCollector(options: CrawlReportCollectorOptions): CrawlReportCollector {
  const seen = startSeeing(options);
  return {
    robotsCache: (base = createMemoryRobotsCache()) => observingRobotsCache(base, seen.robotsRecords),
    attach: (crawler) => listen(crawler, seen),
    finish: (stats) => reportData(seen, stats),
  };
}

/** A request started and not answered yet: its host, and its record, for its send and answer to fill in. */
interface PendingRequest {
  readonly host: HostTally;
  readonly record: ReturnType<HostTally['request']>;
}

/** What the collector has seen of the crawl so far. */
interface Seen {
  readonly options: CrawlReportCollectorOptions;
  readonly limits: HostTallyLimits;
  readonly maxErrors: number;
  /** Each politeness key's tally. */
  readonly hosts: Map<string, HostTally>;
  /** By URL, oldest first (one URL may be in flight twice: two pages' sub-requests, two crawlers). */
  readonly pending: Map<string, PendingRequest[]>;
  /** Responses by status. */
  readonly statuses: Record<string, number>;
  /** Final errors, up to `maxErrors`. */
  readonly errors: ReportError[];
  /** The robots.txt records the gate stored, by origin: their `Crawl-delay` is read at the end. */
  readonly robotsRecords: Map<string, RobotsCacheRecord>;
  /** Host name → its politeness key, as requests to it said (`politenessKey`: host, domain or ip). */
  readonly keyOfHost: Map<string, string>;
}

function startSeeing(options: CrawlReportCollectorOptions): Seen {
  return {
    options,
    limits: { maxRequests: options.maxRequestsPerHost ?? 5000, maxExamples: options.maxExamples ?? 3 },
    maxErrors: options.maxErrors ?? 200,
    hosts: new Map(),
    pending: new Map(),
    statuses: {},
    errors: [],
    robotsRecords: new Map(),
    keyOfHost: new Map(),
  };
}

/** `base`, with every record the gate stores also kept in `records`. */
function observingRobotsCache(base: RobotsCacheStore, records: Map<string, RobotsCacheRecord>): RobotsCacheStore {
  const observing: RobotsCacheStore = {
    get: (origin) => base.get(origin),
    set: async (origin, record) => {
      records.set(origin, record);
      await base.set(origin, record);
    },
    delete: (origin) => base.delete(origin),
  };
  const lock = base.acquireFetchLock?.bind(base);
  return lock === undefined ? observing : { ...observing, acquireFetchLock: lock };
}

/** Listens to the crawler and its gate; returns the function that stops listening. */
function listen(crawler: Crawler, seen: Seen): () => void {
  const stops = [
    crawler.on('request', (event) => onRequest(seen, event)),
    // Gaps are measured between requests that reached a server, from when each was written.
    crawler.on('sent', (event) => {
      const waiting = seen.pending.get(event.url)?.find((request) => request.record.sentAt === undefined);
      waiting?.host.sent(waiting.record, event.at, seen.options.minDelayMs);
    }),
    crawler.on('response', (event) => {
      answered(seen, event.url, event.status, event.durationMs);
      seen.statuses[event.status] = (seen.statuses[event.status] ?? 0) + 1;
    }),
    crawler.gate.on('fetch', (event) => onRobotsFetch(seen, event)),
    crawler.on('skip', (event) => onSkip(seen, event)),
    crawler.on('usage', (event) => onUsage(seen, event)),
    crawler.on('revisit', (event) => hostOf(seen, event.url)?.revisit(event.change, event.savedBytes)),
    crawler.on('error', (event) => {
      if (event.stage === 'fetch' && seen.pending.has(event.url)) answered(seen, event.url, null, 0);
      if (!event.willRetry && seen.errors.length < seen.maxErrors) {
        seen.errors.push({ url: event.url, message: event.error.message, stage: event.stage });
      }
    }),
  ];
  return () => {
    for (const stop of stops) stop();
  };
}

/**
 * The tally of the politeness key `url` belongs to: `hostKey` when the event names it, else the
 * key its host's requests had.
 */
function hostOf(seen: Seen, url: string, hostKey?: string): HostTally | undefined {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return undefined;
  }
  if (hostKey !== undefined && hostKey !== parsed.hostname) seen.keyOfHost.set(parsed.hostname, hostKey);
  const key = hostKey ?? seen.keyOfHost.get(parsed.hostname) ?? parsed.hostname;
  let tally = seen.hosts.get(key);
  if (tally === undefined) seen.hosts.set(key, (tally = new HostTally(key, seen.limits)));
  if (parsed.protocol === 'http:' || parsed.protocol === 'https:') tally.origins.add(parsed.origin);
  return tally;
}

function onRequest(seen: Seen, event: RequestEvent): void {
  const host = hostOf(seen, event.url, event.hostKey);
  if (host === undefined) return;
  const { at, kind, url, delayMs } = event;
  const record = host.request({ at, kind, url, ...(delayMs === undefined ? {} : { delayMs }) });
  const queue = seen.pending.get(event.url);
  if (queue === undefined) seen.pending.set(event.url, [{ host, record }]);
  else queue.push({ host, record });
  if (event.robots !== undefined) {
    const { reason, line, text } = event.robots;
    const where = { ...(line === undefined ? {} : { line }), ...(text === undefined ? {} : { text }) };
    host.decision({ allowed: true, basis: reason, ...where }, event.url);
  }
}

/**
 * The oldest request to `url` still waiting for its answer: with `reached`, the oldest that was
 * sent, if any (a response comes only to a request that reached the server).
 */
function takePending(seen: Seen, url: string, reached: boolean): PendingRequest | undefined {
  const queue = seen.pending.get(url);
  if (queue === undefined) return undefined;
  const sent = reached ? queue.findIndex((request) => request.record.sentAt !== undefined) : -1;
  const [taken] = queue.splice(Math.max(sent, 0), 1);
  if (queue.length === 0) seen.pending.delete(url);
  return taken;
}

/** A request to `url` was answered (`status` null: it failed); returns its host. */
function answered(seen: Seen, url: string, status: number | null, durationMs: number): HostTally | undefined {
  const waiting = takePending(seen, url, status !== null);
  if (waiting !== undefined) {
    waiting.record.status = status;
    waiting.record.durationMs = Math.round(durationMs);
  }
  const host = waiting?.host ?? hostOf(seen, url);
  host?.response(status, durationMs);
  return host;
}

function onRobotsFetch(seen: Seen, event: RobotsFetchEvent): void {
  const host = answered(seen, event.url, event.status, event.durationMs);
  host?.robotsFetches.push({
    at: Date.now() - Math.round(event.durationMs),
    url: event.url,
    status: event.status,
    outcome: event.outcome,
    durationMs: Math.round(event.durationMs),
    ...(event.error === undefined ? {} : { error: event.error.message }),
  });
}

function onSkip(seen: Seen, event: SkipEvent): void {
  const host = hostOf(seen, event.url);
  if (host === undefined) return;
  host.skip(event.reason);
  if (event.reason === 'robots') {
    // The deciding rule travels as data; without one (robots.txt disallowed all for another
    // reason) the detail says why.
    const { rule, detail } = event;
    const why = rule !== undefined ? { line: rule.line, text: rule.text } : detail === undefined ? {} : { detail };
    host.decision({ allowed: false, basis: 'rules', ...why }, event.url);
  } else if (event.reason === 'robots-unreachable') {
    const why = event.detail === undefined ? {} : { detail: event.detail };
    host.decision({ allowed: false, basis: 'robots-unreachable', ...why }, event.url);
  }
}

/** Each purpose the page is reserved for, by each source that says so. */
function onUsage(seen: Seen, event: UsageEvent): void {
  const host = hostOf(seen, event.url);
  if (host === undefined) return;
  for (const purpose of ALL_USAGE_PURPOSES) {
    const verdict = event.report.purposes[purpose];
    if (verdict.status !== 'reserved') continue;
    const skipped = event.reserved.includes(purpose);
    for (const source of verdict.sources) {
      host.reservation(purpose, source.kind, describeUsageSource(source, true), event.url, skipped);
    }
  }
}

/** The report's data, from what was seen and the crawl's final stats. */
function reportData(seen: Seen, stats: CrawlStats): CrawlReportData {
  const { options } = seen;
  readCrawlDelays(seen);
  const skips: Record<string, number> = {};
  for (const [reason, count] of Object.entries(stats.skipped)) if (count !== undefined) skips[reason] = count;
  return {
    title: options.title ?? 'politely crawl report',
    userAgent: options.userAgent,
    seeds: [...options.seeds],
    startedAt: stats.startedAt,
    finishedAt: stats.finishedAt,
    aborted: stats.aborted,
    settings: [...(options.settings ?? [])],
    totals: {
      pages: stats.pages,
      requests: stats.requests,
      robotsRequests: stats.robotsRequests,
      ...(stats.signedRequests === 0 ? {} : { signedRequests: stats.signedRequests }),
      bytes: stats.bytes,
      errors: stats.errors,
      retries: stats.retries,
      queued: stats.queued,
      ...(stats.releasedAtStop === 0 ? {} : { releasedAtStop: stats.releasedAtStop }),
      durationMs: stats.durationMs,
      pagesPerSecond: stats.pagesPerSecond,
      ...(stats.revisits.revisited === 0 ? {} : { revisits: revisitTotals(stats.revisits) }),
      ...(rendered(stats.rendering) ? { rendering: renderTotals(stats.rendering) } : {}),
    },
    statuses: { ...seen.statuses },
    skips,
    hosts: hostReports(seen, stats),
    errors: [...seen.errors],
  };
}

/** Each host's `Crawl-delay` for our user agent, from the last good robots.txt the gate stored. */
function readCrawlDelays(seen: Seen): void {
  for (const [origin, record] of seen.robotsRecords) {
    const host = hostOf(seen, origin);
    const copy = record.lastGood;
    if (host === undefined || copy === undefined) continue;
    const body = copy.bodyEncoding === 'base64' ? Buffer.from(copy.body, 'base64') : copy.body;
    const delay = parseRobotsTxt(body).crawlDelay(seen.options.userAgent);
    if (delay !== undefined) host.crawlDelaySeconds = delay;
  }
}

/** The hosts worth a section (requested, or skipped for more than duplicates and scope), by key. */
function hostReports(seen: Seen, stats: CrawlStats): HostReport[] {
  const { labels, minDelayMs } = seen.options;
  const worthReporting = (host: HostTally): boolean =>
    host.requestCount > 0 || Object.keys(host.skips).some((reason) => reason !== 'duplicate' && reason !== 'scope');
  return [...seen.hosts.values()]
    .filter(worthReporting)
    .map((host) =>
      withRendering(host.report(labels?.get(host.hostKey), minDelayMs), stats.rendering.byHost[host.hostKey]),
    )
    .sort((a, b) => a.hostKey.localeCompare(b.hostKey, 'en', { numeric: true }));
}

/** Whether rendering did anything worth a table. */
function rendered(counts: RenderCounts | undefined): counts is RenderCounts {
  return (
    counts !== undefined &&
    (counts.pageLoads > 0 || counts.subRequests > 0 || counts.fromCache > 0 || Object.keys(counts.refused).length > 0)
  );
}

/** The crawl's render counts, without the per-host split. */
function renderTotals({ pageLoads, subRequests, fromCache, refused }: RenderCounts): RenderReport {
  return { pageLoads, subRequests, fromCache, refused: { ...refused } };
}

function withRendering(host: HostReport, counts: RenderCounts | undefined): HostReport {
  return rendered(counts) ? { ...host, rendering: renderTotals(counts) } : host;
}

/** The crawl's revisit counts, without the per-host split (the hosts carry their own). */
function revisitTotals({ revisited, notModified, unchanged, changed, bytesSaved }: RevisitReport): RevisitReport {
  return { revisited, notModified, unchanged, changed, bytesSaved };
}
