// The usage stage, after robots.txt allowed a page: what sites say the crawl's pages may be used
// for (AI training, AI input, search, text and data mining; see `usageOf` in @politely/core for the
// sources and the combining rule).
//
// Before a page is fetched, its verdict from robots.txt (`Content-Usage`, `Content-Signal` lines of
// the robots check that allowed it, no second parse) and from the origin's
// `/.well-known/tdmrep.json`: a URL reserved for one of the crawl's `purposes` is skipped as
// `usage-reserved` without a request. tdmrep.json is fetched at most once per origin per cache
// period, only when a wanted purpose is one TDMRep can decide, through the robots gate (a
// disallowed tdmrep.json is no file), the crawler's HTTP client and identity, and the host's clock:
// its request is the claim's turn at the host, exactly as a robots.txt fetch is (the URL is
// released as `tdmrep-turn` and the next claim goes on). A missing or broken file, or one that
// could not be fetched, states no preference until the period ends.
//
// After the fetch, the page's headers and meta tags complete the verdict (`page.usage`): the handle
// stage asks `usageAfterFetch`.

import {
  type HttpClient,
  PolitelyError,
  parseTdmrepJson,
  type RobotsCheck,
  type RobotsGate,
  type RobotsTxt,
  reservedPurposes,
  type TdmrepFile,
  type UsageMetaTag,
  type UsagePurpose,
  type UsageReport,
  usageBeforeFetch,
  usageOf,
} from '@politely/core';
import { LruMap, tdmrepCanDecide } from '@politely/core/internal';
import type { FrontierEntry } from '@politely/frontier';
import type { CrawlerEmitter } from '../../events.js';
import { outgoingHeaders, type RequestProfile } from '../../fetch/request-profile.js';
import type { ResolvedCrawlerOptions } from '../../options.js';
import { type ClockChange, clockAfterRobots, responseHeadAt, type SendTicket } from '../../politeness/index.js';
import type { SkipDetail } from '../../skip-reasons.js';
import type { StatsRecorder } from '../../stats.js';
import { describeUsageSource, TDMREP_PATH } from '../../usage-source-text.js';
import type { CrawlServices } from '../services.js';

export { describeUsageSource, TDMREP_PATH };

/** tdmrep.json bodies larger than this are broken files (no preference). */
const TDMREP_MAX_BYTES = 512 * 1024;
/** Origins whose tdmrep.json is remembered at most; the oldest is forgotten first. */
const TDMREP_MAX_ORIGINS = 10_000;

export interface UsageStageSettings extends RequestProfile {
  /** The crawl's `purposes`: a URL reserved for one of them is skipped. */
  readonly purposes: readonly UsagePurpose[];
  /** The crawl's robots tokens (the user agent's product token first). */
  readonly tokens: readonly string[];
  readonly gate: RobotsGate;
  readonly client: HttpClient;
  readonly requestTimeoutMs: number;
  /** How long an origin's tdmrep.json (or its absence) is kept. */
  readonly tdmrepCacheMs: number;
  /** The host's delay now (the tdmrep.json request paces the host like any request). */
  readonly delayMsOf: (hostKey: string) => number;
  /**
   * Waits for the host's turn to send a request (above per-host concurrency 1, as a page's
   * request does); undefined when a signal fires first. Omitted, the file is asked for at once.
   */
  readonly takeTurn?: (hostKey: string) => Promise<SendTicket | undefined>;
  readonly emitter: CrawlerEmitter;
  readonly stats: StatsRecorder;
  readonly signal: AbortSignal;
}

export function settingsFrom(options: ResolvedCrawlerOptions, services: CrawlServices): UsageStageSettings {
  return {
    purposes: options.purposes,
    tokens: options.robotsTokens,
    gate: services.gate,
    client: services.client,
    userAgent: options.userAgent,
    from: options.from,
    headers: options.headers,
    requestTimeoutMs: options.requestTimeoutMs,
    tdmrepCacheMs: options.tdmrepCacheMs,
    delayMsOf: (hostKey) => services.politeness.delayMs(hostKey),
    ...(options.perHostConcurrency > 1
      ? {
          takeTurn: (hostKey: string) =>
            services.settler.takeSendTurn(hostKey, () => services.politeness.delayMs(hostKey), [services.signal]),
        }
      : {}),
    emitter: services.emitter,
    stats: services.stats,
    signal: services.signal,
  };
}

/** What the stage says before the fetch. */
export type UsageBefore =
  /** Reserved for a wanted purpose by robots.txt or tdmrep.json: skip without a request. */
  | UsageReserved
  /** The origin's tdmrep.json is needed and not known: fetch it first (`fetchTdmrep`). */
  | { readonly kind: 'needs-tdmrep'; readonly origin: string }
  /** Go on; what is known so far, for the verdict after the fetch. */
  | { readonly kind: 'pass'; readonly known: UsageKnown };

/** A URL reserved for a wanted purpose before the fetch: the skip, and the verdict for the `usage` event. */
export interface UsageReserved {
  readonly kind: 'reserved';
  readonly skip: SkipDetail;
  readonly report: UsageReport;
  readonly reserved: readonly UsagePurpose[];
}

/** The sources known before the fetch. */
export interface UsageKnown {
  readonly robots: RobotsTxt | null;
  readonly tdmrep: TdmrepFile | null;
}

/** The tdmrep.json fetch made (or joined) for a claim: the claim's turn, or none when no request was made. */
export type TdmrepTurn = { readonly usedTurn: true; readonly clock: ClockChange } | { readonly usedTurn: false };

/** The full verdict of a fetched page. */
export interface UsageAfter {
  readonly report: UsageReport;
  /** The wanted purposes it reserves. */
  readonly reserved: readonly UsagePurpose[];
  /** Set when `reserved` is not empty: the page is dropped. */
  readonly skip?: SkipDetail;
}

interface KnownFile {
  readonly file: TdmrepFile | null;
  readonly expiresAt: number;
}

export class UsageStage {
  private readonly files = new LruMap<string, KnownFile>(TDMREP_MAX_ORIGINS);
  private readonly inflight = new Map<string, Promise<{ readonly respondedAt: number } | undefined>>();
  private readonly needsTdmrep: boolean;

  constructor(private readonly settings: UsageStageSettings) {
    this.needsTdmrep = tdmrepCanDecide(settings.purposes);
  }

  /**
   * The verdict before the fetch of a page the robots gate allowed (`check`). `tdmrep`: the
   * origin's file as just found, instead of the one kept (`null`: none).
   */
  before(entry: FrontierEntry, check: RobotsCheck, tdmrepFound?: TdmrepFile | null): UsageBefore {
    const robots = check.robots ?? null;
    const origin = new URL(entry.url).origin;
    let tdmrep: TdmrepFile | null = tdmrepFound ?? null;
    if (this.needsTdmrep && tdmrepFound === undefined) {
      const known = this.files.get(origin);
      if (known !== undefined && Date.now() < known.expiresAt) tdmrep = known.file;
      else {
        // robots.txt alone may already reserve the URL: then no tdmrep.json is needed for it.
        const early = this.reserved(entry.url, robots, null);
        return early ?? { kind: 'needs-tdmrep', origin };
      }
    }
    return this.reserved(entry.url, robots, tdmrep) ?? { kind: 'pass', known: { robots, tdmrep } };
  }

  private reserved(url: string, robots: RobotsTxt | null, tdmrep: TdmrepFile | null): UsageBefore | undefined {
    const { purposes, tokens } = this.settings;
    if (purposes.length === 0 || (robots === null && tdmrep === null)) return undefined;
    const report = usageBeforeFetch({ url, tokens, robots, tdmrep });
    const reserved = reservedPurposes(report, purposes);
    if (reserved.length === 0) return undefined;
    return { kind: 'reserved', skip: usageSkip(report, reserved, tokens.length > 1), report, reserved };
  }

  /**
   * Fetches the origin's tdmrep.json for a claim of `entry` (or joins this process's fetch in
   * flight for it). The file is asked of the robots gate first: disallowed, there is no file and
   * no request. Resolves with the host's clock when a request was made: that was the claim's turn.
   */
  async fetchTdmrep(entry: FrontierEntry, origin: string): Promise<TdmrepTurn> {
    let pending = this.inflight.get(origin);
    if (pending === undefined) {
      pending = this.fetchAndKeep(entry, origin).finally(() => {
        if (this.inflight.get(origin) === pending) this.inflight.delete(origin);
      });
      this.inflight.set(origin, pending);
    }
    const fetched = await pending;
    if (fetched === undefined) return { usedTurn: false };
    return { usedTurn: true, clock: clockAfterRobots(fetched, this.settings.delayMsOf(entry.hostKey), 0) };
  }

  private async fetchAndKeep(
    entry: FrontierEntry,
    origin: string,
  ): Promise<{ readonly respondedAt: number } | undefined> {
    const { settings } = this;
    const url = `${origin}${TDMREP_PATH}`;
    const keep = (file: TdmrepFile | null): void =>
      this.files.set(origin, { file, expiresAt: Date.now() + settings.tdmrepCacheMs });
    const check = await settings.gate.check(url, settings.userAgent, {
      signal: settings.signal,
      ...(settings.tokens.length > 1 ? { tokens: settings.tokens } : {}),
    });
    if (check.fetch !== undefined) {
      // The gate refetched robots.txt (its copy expired): that request was the turn. The file is
      // asked for on the next claim.
      return { respondedAt: check.fetch.respondedAt };
    }
    if (!check.allowed || check.addressBlocked === true || check.reason === 'unreachable') {
      keep(null);
      return undefined;
    }
    const ticket = await settings.takeTurn?.(entry.hostKey);
    if (settings.takeTurn !== undefined && ticket === undefined)
      throw new PolitelyError('ERR_ABORTED', `${url}: the crawl stopped`);
    const startedAt = Date.now();
    settings.stats.request('tdmrep');
    if (settings.emitter.listens('request')) {
      settings.emitter.emit('request', {
        url,
        hostKey: entry.hostKey,
        kind: 'tdmrep',
        at: startedAt,
        delayMs: settings.delayMsOf(entry.hostKey),
        robots:
          check.rule === undefined
            ? { reason: check.reason }
            : { reason: check.reason, line: check.rule.line, text: check.rule.text },
      });
    }
    try {
      const response = await settings.client.get({
        url,
        headers: outgoingHeaders(settings, { accept: 'application/json,*/*;q=0.5' }, undefined),
        signal: settings.signal,
        timeoutMs: settings.requestTimeoutMs,
        bodyLimit: { maxBytes: TDMREP_MAX_BYTES, atLimit: 'truncate' },
        ...(ticket === undefined ? {} : { onSent: ticket.sent }),
      });
      const respondedAt = responseHeadAt(Date.now(), response.timing);
      if (settings.emitter.listens('response')) {
        settings.emitter.emit('response', {
          url,
          status: response.status,
          durationMs: Date.now() - startedAt,
          bytes: response.body.length,
          contentType: response.header('content-type'),
        });
      }
      // Only a complete 2xx body is a file (redirects are not followed: a moved file is no file).
      const ok = response.status >= 200 && response.status < 300 && !response.truncated;
      keep(ok ? parseTdmrepJson(response.body) : null);
      return { respondedAt };
    } catch (error) {
      if (error instanceof PolitelyError && error.code === 'ERR_ABORTED') throw error;
      // Unreachable, refused, timed out: no preference for this period. The request still counts.
      keep(null);
      return { respondedAt: Date.now() };
    } finally {
      await ticket?.end(Date.now());
    }
  }
}

/** What a page's verdict after the fetch is judged for: the crawl's purposes, for its robots tokens. */
export interface UsageWants {
  readonly purposes: readonly UsagePurpose[];
  readonly tokens: readonly string[];
}

/**
 * The full verdict of a fetched page (the handle stage's): what was known before, its headers and
 * its meta tags.
 */
export function usageAfterFetch(
  wants: UsageWants,
  url: string,
  known: UsageKnown,
  headers: Readonly<Record<string, string>>,
  meta: readonly UsageMetaTag[] | undefined,
): UsageAfter {
  const { purposes, tokens } = wants;
  const { robots, tdmrep } = known;
  const report = usageOf({ url, tokens, robots, tdmrep, headers, ...(meta === undefined ? {} : { meta }) });
  const reserved = reservedPurposes(report, purposes);
  if (reserved.length === 0) return { report, reserved };
  return { report, reserved, skip: usageSkip(report, reserved, tokens.length > 1) };
}

/**
 * The skip for a URL reserved for `purposes`: each purpose and the (first) source that reserved it.
 * `withToken`: name the product token whose robots.txt group holds a line (with several tokens).
 */
export function usageSkip(report: UsageReport, purposes: readonly UsagePurpose[], withToken = false): SkipDetail {
  const parts = purposes.map((purpose) => {
    const source = report.purposes[purpose].sources[0];
    return `${purpose} reserved by ${source === undefined ? 'an unknown source' : describeUsageSource(source, withToken)}`;
  });
  return { reason: 'usage-reserved', detail: parts.join('; ') };
}
