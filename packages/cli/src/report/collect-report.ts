// The crawl report's collector: listens to a crawler's events (and its robots gate's) while it
// runs, and builds the report's data when it ends. Events observe; nothing here changes what
// the crawler does.

import { createMemoryRobotsCache, parseRobotsTxt, type RobotsCacheRecord, type RobotsCacheStore } from '@politely/core';
import { ALL_USAGE_PURPOSES } from '@politely/core';
import { describeUsageSource, type CrawlStats, type Crawler, type RenderCounts } from '@politely/crawler';
import { HostTally } from './host-tally.js';
import type { CrawlReportData, HostReport, RenderReport, ReportError, ReportRequest, RevisitReport } from './report-data.js';

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

export function createCrawlReportCollector(options: CrawlReportCollectorOptions): CrawlReportCollector {
  const limits = { maxRequests: options.maxRequestsPerHost ?? 5000, maxExamples: options.maxExamples ?? 3 };
  const maxErrors = options.maxErrors ?? 200;
  const hosts = new Map<string, HostTally>();
  const pending = new Map<string, { host: HostTally; record: { status?: number | null; durationMs?: number } }>();
  const statuses: Record<string, number> = {};
  const errors: ReportError[] = [];
  const robotsRecords = new Map<string, RobotsCacheRecord>();

  /** Host name → its politeness key, as requests to it said (`politenessKey`: host, domain or ip). */
  const keyOfHost = new Map<string, string>();
  /** The tally of the politeness key `url` belongs to: `hostKey` when the event names it, else the key its host's requests had. */
  const hostOf = (url: string, hostKey?: string): HostTally | undefined => {
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      return undefined;
    }
    if (hostKey !== undefined && hostKey !== parsed.hostname) keyOfHost.set(parsed.hostname, hostKey);
    const key = hostKey ?? keyOfHost.get(parsed.hostname) ?? parsed.hostname;
    let tally = hosts.get(key);
    if (tally === undefined) hosts.set(key, (tally = new HostTally(key, limits)));
    if (parsed.protocol === 'http:' || parsed.protocol === 'https:') tally.origins.add(parsed.origin);
    return tally;
  };

  const onRequest = (event: ReportRequest & { hostKey?: string; robots?: { reason: string; line?: number; text?: string } }): void => {
    const host = hostOf(event.url, event.hostKey);
    if (host === undefined) return;
    const record = host.request(
      { at: event.at, kind: event.kind, url: event.url, ...(event.delayMs === undefined ? {} : { delayMs: event.delayMs }) },
      options.minDelayMs,
    );
    pending.set(event.url, { host, record });
    if (event.robots !== undefined) {
      const { reason, line, text } = event.robots;
      host.decision({ allowed: true, basis: reason, ...(line === undefined ? {} : { line }), ...(text === undefined ? {} : { text }) }, event.url);
    }
  };

  const answered = (url: string, status: number | null, durationMs: number): HostTally | undefined => {
    const waiting = pending.get(url);
    pending.delete(url);
    if (waiting !== undefined) {
      waiting.record.status = status;
      waiting.record.durationMs = Math.round(durationMs);
    }
    const host = waiting?.host ?? hostOf(url);
    host?.response(status, durationMs);
    return host;
  };

  return {
    robotsCache(base = createMemoryRobotsCache()) {
      const observing: RobotsCacheStore = {
        get: (origin) => base.get(origin),
        set: async (origin, record) => {
          robotsRecords.set(origin, record);
          await base.set(origin, record);
        },
        delete: (origin) => base.delete(origin),
      };
      const lock = base.acquireFetchLock?.bind(base);
      return lock === undefined ? observing : { ...observing, acquireFetchLock: lock };
    },

    attach(crawler) {
      const stops = [
        crawler.on('request', (event) => onRequest(event)),
        crawler.on('response', (event) => {
          answered(event.url, event.status, event.durationMs);
          statuses[event.status] = (statuses[event.status] ?? 0) + 1;
        }),
        crawler.gate.on('fetch', (event) => {
          const host = answered(event.url, event.status, event.durationMs);
          host?.robotsFetches.push({
            at: Date.now() - Math.round(event.durationMs),
            url: event.url,
            status: event.status,
            outcome: event.outcome,
            durationMs: Math.round(event.durationMs),
            ...(event.error === undefined ? {} : { error: event.error.message }),
          });
        }),
        crawler.on('skip', (event) => {
          const host = hostOf(event.url);
          if (host === undefined) return;
          host.skip(event.reason);
          if (event.reason === 'robots') {
            // The deciding rule travels as data; without one (robots.txt disallowed all for another
            // reason) the detail says why.
            const { rule, detail } = event;
            if (rule !== undefined) host.decision({ allowed: false, basis: 'rules', line: rule.line, text: rule.text }, event.url);
            else host.decision({ allowed: false, basis: 'rules', ...(detail === undefined ? {} : { detail }) }, event.url);
          } else if (event.reason === 'robots-unreachable') {
            host.decision({ allowed: false, basis: 'robots-unreachable', ...(event.detail === undefined ? {} : { detail: event.detail }) }, event.url);
          }
        }),
        crawler.on('usage', (event) => {
          const host = hostOf(event.url);
          if (host === undefined) return;
          for (const purpose of ALL_USAGE_PURPOSES) {
            const verdict = event.report.purposes[purpose];
            if (verdict.status !== 'reserved') continue;
            const skipped = event.reserved.includes(purpose);
            for (const source of verdict.sources) host.reservation(purpose, source.kind, describeUsageSource(source, true), event.url, skipped);
          }
        }),
        crawler.on('revisit', (event) => hostOf(event.url)?.revisit(event.change, event.savedBytes)),
        crawler.on('error', (event) => {
          if (event.stage === 'fetch' && pending.has(event.url)) answered(event.url, null, 0);
          if (!event.willRetry && errors.length < maxErrors) errors.push({ url: event.url, message: event.error.message, stage: event.stage });
        }),
      ];
      return () => stops.forEach((stop) => stop());
    },

    finish(stats) {
      for (const [origin, record] of robotsRecords) {
        const host = hostOf(origin);
        const copy = record.lastGood;
        if (host === undefined || copy === undefined) continue;
        const body = copy.bodyEncoding === 'base64' ? Buffer.from(copy.body, 'base64') : copy.body;
        const delay = parseRobotsTxt(body).crawlDelay(options.userAgent);
        if (delay !== undefined) host.crawlDelaySeconds = delay;
      }
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
          bytes: stats.bytes,
          errors: stats.errors,
          retries: stats.retries,
          queued: stats.queued,
          durationMs: stats.durationMs,
          pagesPerSecond: stats.pagesPerSecond,
          ...(stats.revisits.revisited === 0 ? {} : { revisits: revisitTotals(stats.revisits) }),
          ...(rendered(stats.rendering) ? { rendering: renderTotals(stats.rendering) } : {}),
        },
        statuses: { ...statuses },
        skips,
        hosts: [...hosts.values()]
          .filter((host) => host.requestCount > 0 || Object.keys(host.skips).some((reason) => reason !== 'duplicate' && reason !== 'scope'))
          .map((host) => withRendering(host.report(options.labels?.get(host.hostKey), options.minDelayMs), stats.rendering.byHost[host.hostKey]))
          .sort((a, b) => a.hostKey.localeCompare(b.hostKey, 'en', { numeric: true })),
        errors: [...errors],
      };
    },
  };
}

/** Whether rendering did anything worth a table. */
function rendered(counts: RenderCounts | undefined): counts is RenderCounts {
  return counts !== undefined && (counts.pageLoads > 0 || counts.subRequests > 0 || counts.fromCache > 0 || Object.keys(counts.refused).length > 0);
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
