// One report for a crawl that ran several times (stopped, killed, resumed): the report of the
// runs so far, kept in the crawl's store, joined with this run's. Pure.
//
// Counts add up; timelines and examples are joined and cut to the same caps as one run's;
// gap summaries join exactly (count, minimum, too-short and mean all compose); the gap between
// the last request of one run and the first of the next is not a gap the crawler kept, so it
// is not measured.

import { addRevisit, NO_REVISITS, sortReservations } from './host-tally.js';
import type {
  CrawlReportData,
  GapSummary,
  HostReport,
  RenderReport,
  RobotsDecisionReport,
  UsageReservationReport,
} from './report-data.js';

export interface MergeLimits {
  /** Requests kept per host for its timeline. */
  readonly maxRequestsPerHost: number;
  /** Example URLs kept per robots decision. */
  readonly maxExamples: number;
  /** Final errors kept. */
  readonly maxErrors: number;
}

export const DEFAULT_MERGE_LIMITS: MergeLimits = { maxRequestsPerHost: 5000, maxExamples: 3, maxErrors: 200 };

/** The report of the runs in `earlier` followed by `current`. */
export function mergeReports(
  earlier: CrawlReportData,
  current: CrawlReportData,
  limits: MergeLimits = DEFAULT_MERGE_LIMITS,
): CrawlReportData {
  const pages = earlier.totals.pages + current.totals.pages;
  const durationMs = earlier.totals.durationMs + current.totals.durationMs;
  const hosts = new Map<string, HostReport>(earlier.hosts.map((host) => [host.hostKey, host]));
  for (const host of current.hosts) {
    const before = hosts.get(host.hostKey);
    hosts.set(host.hostKey, before === undefined ? host : mergeHosts(before, host, limits));
  }
  return {
    ...current,
    startedAt: Math.min(earlier.startedAt, current.startedAt),
    runs: (earlier.runs ?? 1) + (current.runs ?? 1),
    totals: {
      pages,
      requests: earlier.totals.requests + current.totals.requests,
      robotsRequests: earlier.totals.robotsRequests + current.totals.robotsRequests,
      ...mergedSigned(earlier.totals.signedRequests, current.totals.signedRequests),
      bytes: earlier.totals.bytes + current.totals.bytes,
      errors: earlier.totals.errors + current.totals.errors,
      retries: earlier.totals.retries + current.totals.retries,
      queued: current.totals.queued,
      ...mergedReleases(earlier.totals.releasedAtStop, current.totals.releasedAtStop),
      durationMs,
      pagesPerSecond: durationMs > 0 ? pages / (durationMs / 1000) : 0,
      ...(earlier.totals.revisits === undefined && current.totals.revisits === undefined
        ? {}
        : { revisits: addRevisit(earlier.totals.revisits ?? NO_REVISITS, current.totals.revisits ?? NO_REVISITS) }),
      ...mergedRendering(earlier.totals.rendering, current.totals.rendering),
    },
    statuses: addCounts(earlier.statuses, current.statuses),
    skips: addCounts(earlier.skips, current.skips),
    hosts: [...hosts.values()].sort((a, b) => a.hostKey.localeCompare(b.hostKey, 'en', { numeric: true })),
    errors: [...earlier.errors, ...current.errors].slice(0, limits.maxErrors),
  };
}

/** URLs cut at a stop, over every run (absent when none was). */
function mergedReleases(earlier: number | undefined, current: number | undefined): { releasedAtStop?: number } {
  const released = (earlier ?? 0) + (current ?? 0);
  return released === 0 ? {} : { releasedAtStop: released };
}

function mergeHosts(earlier: HostReport, current: HostReport, limits: MergeLimits): HostReport {
  const latencyCount = earlier.latency.count + current.latency.count;
  const crawlDelaySeconds = current.crawlDelaySeconds ?? earlier.crawlDelaySeconds;
  return {
    ...current,
    origins: [...new Set([...earlier.origins, ...current.origins])].sort(),
    requests: [...earlier.requests, ...current.requests].slice(0, limits.maxRequestsPerHost),
    requestCount: earlier.requestCount + current.requestCount,
    ...mergedUnsent(earlier.unsent, current.unsent),
    ...(crawlDelaySeconds === undefined ? {} : { crawlDelaySeconds }),
    gaps: mergeGaps(earlier.gaps, current.gaps),
    robotsFetches: [...earlier.robotsFetches, ...current.robotsFetches],
    decisions: mergeDecisions(earlier.decisions, current.decisions, limits.maxExamples),
    statuses: addCounts(earlier.statuses, current.statuses),
    skips: addCounts(earlier.skips, current.skips),
    ...(earlier.usage === undefined && current.usage === undefined
      ? {}
      : { usage: mergeReservations(earlier.usage ?? [], current.usage ?? [], limits.maxExamples) }),
    ...(earlier.revisits === undefined && current.revisits === undefined
      ? {}
      : { revisits: addRevisit(earlier.revisits ?? NO_REVISITS, current.revisits ?? NO_REVISITS) }),
    ...mergedRendering(earlier.rendering, current.rendering),
    latency: {
      count: latencyCount,
      meanMs:
        latencyCount === 0
          ? null
          : (weighted(earlier.latency.meanMs, earlier.latency.count) +
              weighted(current.latency.meanMs, current.latency.count)) /
            latencyCount,
      maxMs: maxOf(earlier.latency.maxMs, current.latency.maxMs),
    },
  };
}

export function mergeGaps(a: GapSummary, b: GapSummary): GapSummary {
  const count = a.count + b.count;
  const smaller = b.minMs !== null && (a.minMs === null || b.minMs < a.minMs) ? b : a;
  const ratios = [a.minRatio, b.minRatio].filter((ratio): ratio is number => ratio !== null);
  return {
    count,
    minMs: smaller.minMs,
    delayAtMinMs: smaller.delayAtMinMs,
    minRatio: ratios.length === 0 ? null : Math.min(...ratios),
    tooShort: a.tooShort + b.tooShort,
    meanMs: count === 0 ? null : (weighted(a.meanMs, a.count) + weighted(b.meanMs, b.count)) / count,
    // The pair behind the minimum shown.
    ...(smaller.tightest === undefined ? {} : { tightest: smaller.tightest }),
  };
}

function mergeDecisions(
  a: readonly RobotsDecisionReport[],
  b: readonly RobotsDecisionReport[],
  maxExamples: number,
): RobotsDecisionReport[] {
  const byKey = new Map<string, RobotsDecisionReport>();
  for (const decision of [...a, ...b]) {
    const key = JSON.stringify([decision.allowed, decision.basis, decision.line, decision.text, decision.detail]);
    const before = byKey.get(key);
    byKey.set(
      key,
      before === undefined
        ? decision
        : {
            ...before,
            count: before.count + decision.count,
            examples: [...new Set([...before.examples, ...decision.examples])].slice(0, maxExamples),
          },
    );
  }
  return [...byKey.values()].sort((x, y) => Number(x.allowed) - Number(y.allowed) || y.count - x.count);
}

function mergeReservations(
  a: readonly UsageReservationReport[],
  b: readonly UsageReservationReport[],
  maxExamples: number,
): UsageReservationReport[] {
  const byKey = new Map<string, UsageReservationReport>();
  for (const reservation of [...a, ...b]) {
    const key = JSON.stringify([reservation.purpose, reservation.source]);
    const before = byKey.get(key);
    byKey.set(
      key,
      before === undefined
        ? reservation
        : {
            ...before,
            count: before.count + reservation.count,
            skipped: before.skipped + reservation.skipped,
            examples: [...new Set([...before.examples, ...reservation.examples])].slice(0, maxExamples),
          },
    );
  }
  return sortReservations([...byKey.values()]);
}

function addCounts(a: Readonly<Record<string, number>>, b: Readonly<Record<string, number>>): Record<string, number> {
  const sum: Record<string, number> = { ...a };
  for (const [key, count] of Object.entries(b)) sum[key] = (sum[key] ?? 0) + count;
  return sum;
}

const weighted = (mean: number | null, count: number): number => (mean === null ? 0 : mean * count);
const maxOf = (a: number | null, b: number | null): number | null => (a === null ? b : b === null ? a : Math.max(a, b));

/** Two runs' render counts added up; nothing when neither rendered. */
function mergedRendering(
  earlier: RenderReport | undefined,
  current: RenderReport | undefined,
): { rendering?: RenderReport } {
  if (earlier === undefined) return current === undefined ? {} : { rendering: current };
  if (current === undefined) return { rendering: earlier };
  return {
    rendering: {
      pageLoads: earlier.pageLoads + current.pageLoads,
      subRequests: earlier.subRequests + current.subRequests,
      fromCache: earlier.fromCache + current.fromCache,
      refused: addCounts(earlier.refused, current.refused),
    },
  };
}

/** Attempts of both runs that never reached a server (absent when none did). */
function mergedUnsent(earlier: number | undefined, current: number | undefined): { unsent?: number } {
  const unsent = (earlier ?? 0) + (current ?? 0);
  return unsent === 0 ? {} : { unsent };
}

/** Signed requests of both runs, absent when neither signed any. */
function mergedSigned(earlier: number | undefined, current: number | undefined): { signedRequests?: number } {
  return earlier === undefined && current === undefined ? {} : { signedRequests: (earlier ?? 0) + (current ?? 0) };
}
