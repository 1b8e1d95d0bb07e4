// What the report collector keeps about one host while a crawl runs: its requests (up to a cap),
// the gaps between them measured as they come, robots.txt fetches and decisions, statuses,
// skips and latencies. Plain bookkeeping, no I/O.

import type {
  GapEnd,
  GapSummary,
  HostReport,
  ReportRequest,
  RevisitReport,
  RobotsDecisionReport,
  RobotsFetchReport,
  TightestGap,
  UsageReservationReport,
} from './report-data.js';

type Mutable<T> = { -readonly [K in keyof T]: T[K] };

/** A decision group under construction. */
interface DecisionTally {
  readonly allowed: boolean;
  readonly basis: string;
  readonly line?: number;
  readonly text?: string;
  readonly detail?: string;
  count: number;
  readonly examples: string[];
}

export interface HostTallyLimits {
  /** Requests kept for the timeline; later ones are still measured. */
  readonly maxRequests: number;
  /** Example URLs kept per robots decision. */
  readonly maxExamples: number;
}

export class HostTally {
  readonly origins = new Set<string>();
  readonly requests: Mutable<ReportRequest>[] = [];
  requestCount = 0;
  /** Requests that reached a server (their head was written). */
  private sentCount = 0;
  /** The latest page delay seen (the host clock's gap), if any page was requested. */
  delayMs: number | undefined;
  crawlDelaySeconds: number | undefined;
  readonly robotsFetches: RobotsFetchReport[] = [];
  readonly statuses: Record<string, number> = {};
  readonly skips: Record<string, number> = {};
  private readonly decisions = new Map<string, DecisionTally>();
  private readonly reservations = new Map<string, Mutable<UsageReservationReport> & { examples: string[] }>();
  private revisits: RevisitReport | undefined;
  /** The latest request sent, and the delay the next sent one owes by the requests sent so far. */
  private lastSent: GapEnd | undefined;
  private sentDelayMs: number | undefined;
  private gapCount = 0;
  private gapSumMs = 0;
  private minGapMs: number | null = null;
  private delayAtMinMs: number | null = null;
  private minRatio: number | null = null;
  private tightest: TightestGap | undefined;
  private tooShort = 0;
  private latencyCount = 0;
  private latencySumMs = 0;
  private latencyMaxMs: number | null = null;

  constructor(
    readonly hostKey: string,
    private readonly limits: HostTallyLimits,
  ) {}

  /**
   * Counts a request as it starts. It is not measured yet: only a request that reaches a server
   * (`sent`) makes a gap. Returns the record (kept or not) so its send and answer can be filled in.
   */
  request(request: ReportRequest): Mutable<ReportRequest> {
    if (request.delayMs !== undefined) this.delayMs = request.delayMs;
    this.requestCount++;
    const record: Mutable<ReportRequest> = { ...request };
    if (this.requests.length < this.limits.maxRequests) this.requests.push(record);
    return record;
  }

  /**
   * `record`'s head was written at `at`: measures the gap since the previous request sent
   * against the delay that applies to it: its own `delayMs`, else the latest a sent request had,
   * else `fallbackDelayMs`.
   */
  sent(record: Mutable<ReportRequest>, at: number, fallbackDelayMs: number): void {
    if (record.sentAt !== undefined) return;
    record.sentAt = at;
    this.sentCount++;
    if (record.delayMs !== undefined) this.sentDelayMs = record.delayMs;
    const delay = record.delayMs ?? this.sentDelayMs ?? fallbackDelayMs;
    const end: GapEnd = { at, kind: record.kind, url: record.url };
    const last = this.lastSent;
    if (last === undefined || at >= last.at) {
      if (last !== undefined) this.gap(last, end, delay);
      this.lastSent = end;
    } else {
      // Told late (a client that reports a send only with its answer): the gap to the later one.
      this.gap(end, last, delay);
    }
  }

  private gap(before: GapEnd, after: GapEnd, delayMs: number): void {
    const gapMs = after.at - before.at;
    this.gapCount++;
    this.gapSumMs += gapMs;
    const ratio = delayMs > 0 ? gapMs / delayMs : Infinity;
    if (gapMs < delayMs) this.tooShort++;
    if (
      this.minRatio === null ||
      ratio < this.minRatio ||
      (ratio === this.minRatio && gapMs < (this.minGapMs ?? Infinity))
    ) {
      this.minRatio = ratio;
      this.minGapMs = gapMs;
      this.delayAtMinMs = delayMs;
      this.tightest = { before, after };
    }
  }

  response(status: number | null, durationMs: number): void {
    if (status !== null) this.statuses[status] = (this.statuses[status] ?? 0) + 1;
    this.latencyCount++;
    this.latencySumMs += durationMs;
    this.latencyMaxMs = Math.max(this.latencyMaxMs ?? 0, durationMs);
  }

  skip(reason: string): void {
    this.skips[reason] = (this.skips[reason] ?? 0) + 1;
  }

  /** A revisit's answer: `not-modified` (304), `unchanged`, `changed`; `savedBytes`: what a 304 did not send. */
  revisit(change: string, savedBytes: number): void {
    this.revisits = addRevisit(this.revisits ?? NO_REVISITS, {
      revisited: 1,
      notModified: Number(change === 'not-modified'),
      unchanged: Number(change === 'unchanged'),
      changed: Number(change === 'changed'),
      bytesSaved: savedBytes,
    });
  }

  decision(decision: Omit<DecisionTally, 'count' | 'examples'>, url: string): void {
    const key = JSON.stringify([decision.allowed, decision.basis, decision.line, decision.text, decision.detail]);
    let tally = this.decisions.get(key);
    if (tally === undefined) this.decisions.set(key, (tally = { ...decision, count: 0, examples: [] }));
    tally.count++;
    if (tally.examples.length < this.limits.maxExamples && !tally.examples.includes(url)) tally.examples.push(url);
  }

  /** A URL for which `source` reserves `purpose`; `skipped`: the crawl wanted it, so the URL was skipped. */
  reservation(purpose: string, kind: string, source: string, url: string, skipped: boolean): void {
    const key = JSON.stringify([purpose, source]);
    let tally = this.reservations.get(key);
    if (tally === undefined)
      this.reservations.set(key, (tally = { purpose, kind, source, count: 0, skipped: 0, examples: [] }));
    tally.count++;
    if (skipped) tally.skipped++;
    if (tally.examples.length < this.limits.maxExamples && !tally.examples.includes(url)) tally.examples.push(url);
  }

  report(label: string | undefined, fallbackDelayMs: number): HostReport {
    const gaps: GapSummary = {
      count: this.gapCount,
      minMs: this.minGapMs,
      delayAtMinMs: this.delayAtMinMs,
      minRatio: this.minRatio === Infinity ? null : this.minRatio,
      tooShort: this.tooShort,
      meanMs: this.gapCount === 0 ? null : this.gapSumMs / this.gapCount,
      ...(this.tightest === undefined ? {} : { tightest: this.tightest }),
    };
    const unsent = this.requestCount - this.sentCount;
    const decisions: RobotsDecisionReport[] = [...this.decisions.values()]
      .map((d) => ({ ...d, examples: [...d.examples] }))
      .sort((a, b) => Number(a.allowed) - Number(b.allowed) || b.count - a.count);
    return {
      hostKey: this.hostKey,
      ...(label === undefined ? {} : { label }),
      origins: [...this.origins].sort(),
      requests: this.requests.map((r) => ({ ...r })),
      requestCount: this.requestCount,
      ...(unsent === 0 ? {} : { unsent }),
      delayMs: this.delayMs ?? fallbackDelayMs,
      ...(this.crawlDelaySeconds === undefined ? {} : { crawlDelaySeconds: this.crawlDelaySeconds }),
      gaps,
      robotsFetches: [...this.robotsFetches],
      decisions,
      statuses: { ...this.statuses },
      skips: { ...this.skips },
      latency: {
        count: this.latencyCount,
        meanMs: this.latencyCount === 0 ? null : this.latencySumMs / this.latencyCount,
        maxMs: this.latencyMaxMs,
      },
      usage: sortReservations([...this.reservations.values()].map((r) => ({ ...r, examples: [...r.examples] }))),
      ...(this.revisits === undefined ? {} : { revisits: { ...this.revisits } }),
    };
  }
}

export const NO_REVISITS: RevisitReport = { revisited: 0, notModified: 0, unchanged: 0, changed: 0, bytesSaved: 0 };

/** Two revisit tallies added up (hosts of two runs, or a run's hosts). */
export function addRevisit(a: RevisitReport, b: RevisitReport): RevisitReport {
  return {
    revisited: a.revisited + b.revisited,
    notModified: a.notModified + b.notModified,
    unchanged: a.unchanged + b.unchanged,
    changed: a.changed + b.changed,
    bytesSaved: a.bytesSaved + b.bytesSaved,
  };
}

/** Reservations by purpose (in the vocabulary's order), then most URLs first. */
export function sortReservations(reservations: UsageReservationReport[]): UsageReservationReport[] {
  const order = ['search', 'tdm', 'ai-train', 'ai-input', 'ai-train-images'];
  const rank = (purpose: string): number => (order.includes(purpose) ? order.indexOf(purpose) : order.length);
  return reservations.sort(
    (a, b) => rank(a.purpose) - rank(b.purpose) || b.count - a.count || a.source.localeCompare(b.source),
  );
}
