// Every request a rendered page makes, answered by the crawler: a script, an API call, a frame
// is a request to a server like a page fetch, so it passes the same gates — the robots.txt of its
// origin (fetched through the gate first, in a turn of its own), the address guard (the client's),
// the host's clock and room in flight (a turn, politeness/host-turn.ts) — and leaves with the
// crawler's User-Agent, From, crawl-wide headers and cookies. Nothing the browser asks for
// reaches the network any other way.

import { isIP } from 'node:net';
import type { AddressPolicy, HttpClient, RobotsCheck, RobotsGate } from '@politely/core';
import type { FrontierEntry, FrontierStore } from '@politely/frontier';
import type { CookieSession } from '../cookies/cookie-session.js';
import type { CrawlerEmitter } from '../events.js';
import { fetchPage, type PageFetchOutcome } from '../fetch/fetch-page.js';
import type { KnownRobotsCheck } from '../gate/known-robots.js';
import type { BrowserAnswer, BrowserRequest } from '../page-renderer.js';
import {
  clockAfterResponse,
  clockAfterRobots,
  type HeldTurn,
  type HostPoliteness,
  HostTurns,
  type PolitenessKeys,
  responseHeadAt,
  retryAfterMs,
} from '../politeness/index.js';
import type { CrawlReporter } from '../reporter.js';
import { robotsSkip, type SkipDetail } from '../skip-reasons.js';
import type { RenderRefusal, StatsRecorder } from '../stats.js';
import { SubResourceCache } from './sub-resource-cache.js';

/** What the crawl's cache of sub-resources keeps at most (scripts, styles, API answers a server lets it keep). */
const SUB_RESOURCE_CACHE_BYTES = 32 * 1024 * 1024;

export interface SubRequestSettings {
  readonly gate: RobotsGate;
  readonly knownRobots: KnownRobotsCheck;
  readonly userAgent: string;
  readonly tokens: readonly string[];
  readonly client: HttpClient;
  readonly from: string | undefined;
  readonly headers: Readonly<Record<string, string>>;
  readonly cookies: CookieSession | undefined;
  readonly store: FrontierStore;
  readonly politeness: HostPoliteness;
  readonly keys: PolitenessKeys;
  /** The address guard (`blockPrivateNetworks`, `allowNet`), undefined when off: an address in a URL is judged before anything is sent to it. */
  readonly addressPolicy: AddressPolicy | undefined;
  readonly perHostConcurrency: number;
  readonly requestTimeoutMs: number;
  readonly maxBodyBytes: number;
  readonly backoffMaxMs: number;
  /** Resource types never requested (`renderBlockResourceTypes`). */
  readonly blockedTypes: ReadonlySet<string>;
  readonly stats: StatsRecorder;
  readonly reporter: CrawlReporter;
  readonly emitter: CrawlerEmitter;
  readonly signal: AbortSignal;
  /** A sub-request starts or was answered: no settle of this process may pace its host before `readyAt`. */
  readonly onPace: (hostKey: string, readyAt: number) => void;
  /** The latest pace this process noted for a host (see `onPace`), if still ahead. */
  readonly paceOf: (hostKey: string) => number | undefined;
}

/** The page whose requests are answered: its entry, and the latest pace its requests set at its own host. */
export interface RenderingPage {
  readonly entry: FrontierEntry;
  /** When the page's host may next be asked (its own last sub-request's pace): its settle must not go before it. */
  ownHostReadyAt: number | undefined;
  /** Fires when the page's render is over (closed, failed): its waiting requests give up. */
  readonly signal: AbortSignal;
  /** Answers in progress: the page settles only once each has ended its turn (`settled`). */
  readonly pending: Set<Promise<unknown>>;
}

/** Resolves once every answer of `page` in progress has ended (their turns set their hosts' clocks). */
export async function settled(page: RenderingPage): Promise<void> {
  while (page.pending.size > 0) await Promise.allSettled([...page.pending]);
}

const BLOCKED: BrowserAnswer = { kind: 'refused', as: 'blocked' };
const FAILED: BrowserAnswer = { kind: 'refused', as: 'failed' };
const ABORTED: BrowserAnswer = { kind: 'refused', as: 'aborted' };

/** Methods a sub-request may use: the crawler's client sends GET only (see README, rendering). */
const SENDABLE_METHODS = new Set(['GET', 'HEAD']);

export class SubRequests {
  /** The crawl's HTTP cache of what rendered pages asked for: intercepting requests turns the browser's off. */
  private readonly cache = new SubResourceCache(SUB_RESOURCE_CACHE_BYTES);
  private readonly turns: HostTurns;

  constructor(private readonly settings: SubRequestSettings) {
    this.turns = new HostTurns({
      store: settings.store,
      requestTimeoutMs: settings.requestTimeoutMs,
      signal: settings.signal,
      paceOf: settings.paceOf,
    });
  }

  /** Answers one request of `page`. Never rejects. */
  answer(page: RenderingPage, request: BrowserRequest): Promise<BrowserAnswer> {
    const answered = this.answerOrThrow(page, request).catch(() =>
      page.signal.aborted || this.settings.signal.aborted ? ABORTED : FAILED,
    );
    page.pending.add(answered);
    void answered.finally(() => page.pending.delete(answered));
    return answered;
  }

  /** A request the renderer refused by itself (a WebSocket, an unknown scheme). */
  refusedByRenderer(page: RenderingPage, url: string, why: 'websocket' | 'scheme'): void {
    this.refuse(page, url, why === 'websocket' ? 'websocket' : 'scheme', undefined);
  }

  private async answerOrThrow(page: RenderingPage, request: BrowserRequest): Promise<BrowserAnswer> {
    const { settings } = this;
    let url: URL;
    try {
      url = new URL(request.url);
    } catch {
      return this.refuse(page, request.url, 'scheme', undefined);
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:')
      return this.refuse(page, request.url, 'scheme', undefined);
    if (settings.blockedTypes.has(request.resourceType)) return this.refuse(page, url.href, 'resource-type', undefined);
    if (!SENDABLE_METHODS.has(request.method.toUpperCase())) return this.refuse(page, url.href, 'method', undefined);
    // An address the guard refuses gets nothing, not even a robots.txt request.
    const literal = url.hostname.replace(/^\[|\]$/g, '');
    if (settings.addressPolicy !== undefined && isIP(literal) !== 0 && !settings.addressPolicy.allows(literal))
      return this.refuse(page, url.href, 'blocked-address', undefined);
    // robots.txt already known to disallow it: refused without waiting for the host.
    const known = await settings.knownRobots(url);
    if (known !== undefined) return this.refuse(page, url.href, 'robots', { ...known, kind: 'sub-resource' });
    const keyed = await settings.keys.keyOf(url);
    if ('skip' in keyed) return this.refuse(page, url.href, 'blocked-address', undefined);
    const hostKey = keyed.key;
    const withinLease = hostKey === page.entry.hostKey;
    const accept = request.headers['accept'] ?? '*/*';
    const cached = this.cache.lookup(url.href, accept);
    if (cached.kind === 'fresh') {
      settings.stats.renderFromCache(hostKey);
      return { kind: 'response', status: cached.status, headers: cached.headers, body: cached.body };
    }

    // First turn: the origin's robots.txt, if the gate must fetch it, goes in it.
    const firstTurn = await this.turn(hostKey, withinLease, page);
    let check: RobotsCheck;
    try {
      check = await settings.gate.check(url, settings.userAgent, {
        signal: page.signal,
        ...(settings.tokens.length > 1 ? { tokens: settings.tokens } : {}),
      });
      if (settings.politeness.learnCrawlDelay(hostKey, url.origin, check.crawlDelay)) {
        await settings.store.setHostPolicy(hostKey, {
          delayMs: settings.politeness.delayMs(hostKey),
          maxInFlight: settings.perHostConcurrency,
        });
      }
    } catch (error) {
      // A turn always ends, or its host would wait for it until its busy time runs out.
      await this.endTurn(firstTurn, page, Date.now() + settings.politeness.delayMs(hostKey)).catch(() => {});
      throw error;
    }
    const refusal = refusalOf(check);
    if (check.fetch !== undefined) {
      // The turn went to robots.txt: paced from its answer; the request takes a turn of its own.
      await this.endTurn(
        firstTurn,
        page,
        clockAfterRobots(check.fetch, settings.politeness.delayMs(hostKey), 0).readyAt ?? Date.now(),
      );
    } else if (refusal !== undefined) {
      // No request was made in this turn: the host is ready again at once.
      await this.endTurn(firstTurn, page, Date.now());
    }
    if (refusal !== undefined) {
      return this.refuse(
        page,
        url.href,
        refusal,
        refusal === 'robots'
          ? { ...robotsSkip(check.rule, check.reason, check.token), kind: 'sub-resource' }
          : undefined,
      );
    }
    const turn = check.fetch === undefined ? firstTurn : await this.turn(hostKey, withinLease, page);
    return this.send(page, url, accept, cached.kind === 'stale' ? cached.conditional : undefined, turn, check.reason);
  }

  private async send(
    page: RenderingPage,
    url: URL,
    accept: string,
    conditional: Readonly<Record<string, string>> | undefined,
    turn: HeldTurn,
    robotsReason: string,
  ): Promise<BrowserAnswer> {
    const { settings } = this;
    const { politeness } = settings;
    const hostKey = turn.hostKey;
    const startedAt = Date.now();
    settings.onPace(hostKey, startedAt + politeness.delayMs(hostKey));
    settings.stats.request('sub-resource');
    settings.stats.renderSubRequest(hostKey);
    if (settings.emitter.listens('request')) {
      settings.emitter.emit('request', {
        url: url.href,
        hostKey,
        kind: 'sub-resource',
        at: startedAt,
        delayMs: politeness.delayMs(hostKey),
        robots: { reason: robotsReason },
        page: page.entry.url,
      });
    }
    let outcome: PageFetchOutcome;
    try {
      outcome = await fetchPage(
        url.href,
        {
          client: settings.client,
          userAgent: settings.userAgent,
          from: settings.from,
          headers: settings.headers,
          cookies: settings.cookies,
          bodyLimit: { maxBytes: settings.maxBodyBytes, atLimit: 'fail' },
          accept,
          timeoutMs: settings.requestTimeoutMs,
          ...(conditional === undefined ? {} : { conditional }),
          connectAddress: settings.keys.connectAddressOf(hostKey),
        },
        page.signal,
      );
    } catch (error) {
      await this.endTurn(turn, page, Date.now() + politeness.delayMs(hostKey));
      throw error;
    }
    const endedAt = Date.now();
    if (outcome.kind === 'skip' || outcome.kind === 'failure') {
      await this.endTurn(turn, page, endedAt + politeness.delayMs(hostKey));
      if (outcome.kind === 'skip' && outcome.reason === 'blocked-address')
        return this.refuse(page, url.href, 'blocked-address', undefined);
      settings.stats.renderRefused(hostKey, 'failed');
      return outcome.kind === 'skip' ? BLOCKED : FAILED;
    }
    const { response } = outcome;
    const headAt = responseHeadAt(endedAt, response.timing);
    if (settings.emitter.listens('response')) {
      settings.emitter.emit('response', {
        url: url.href,
        status: response.status,
        durationMs: endedAt - startedAt,
        bytes: response.body.length,
        contentType: response.header('content-type'),
      });
    }
    const clock = clockAfterResponse({
      headAt,
      delayMs: politeness.delayMs(hostKey),
      status: response.status,
      retryAfterMs: retryAfterMs(response.header('retry-after'), headAt),
      maxWaitMs: settings.backoffMaxMs,
    });
    await this.endTurn(turn, page, clock.readyAt ?? headAt + politeness.delayMs(hostKey));
    settings.stats.subResourceReceived(response.body.length);
    const headers: [string, string][] = [];
    for (const name of Object.keys(response.headers))
      for (const value of response.headerValues(name)) headers.push([name, value]);
    const body = Buffer.from(response.body.buffer, response.body.byteOffset, response.body.byteLength);
    // A 304 to a revalidation answers from the cache; a response the server lets a cache keep is kept.
    const fromCache = this.cache.received(url.href, accept, response, headers, body);
    if (fromCache?.kind === 'fresh')
      return { kind: 'response', status: fromCache.status, headers: fromCache.headers, body: fromCache.body };
    return { kind: 'response', status: response.status, headers, body };
  }

  private async turn(hostKey: string, withinLease: boolean, page: RenderingPage): Promise<HeldTurn> {
    const from = Date.now();
    const turn = await this.turns.take(hostKey, withinLease, page.signal);
    this.settings.stats.metrics.turnWaited(Date.now() - from, 'sub-resource');
    return turn;
  }

  /** Ends a turn; at the page's own host, the page's settle will not set the clock before it. */
  private async endTurn(turn: HeldTurn, page: RenderingPage, readyAt: number): Promise<void> {
    this.settings.onPace(turn.hostKey, readyAt);
    if (turn.hostKey === page.entry.hostKey) page.ownHostReadyAt = Math.max(page.ownHostReadyAt ?? 0, readyAt);
    await turn.end(readyAt);
  }

  private refuse(page: RenderingPage, url: string, why: RenderRefusal, skip: SkipDetail | undefined): BrowserAnswer {
    const { settings } = this;
    let hostKey: string;
    try {
      hostKey = settings.keys.knownKeyOf(new URL(url));
    } catch {
      hostKey = '(no host)';
    }
    settings.stats.renderRefused(hostKey, why);
    if (skip !== undefined) settings.reporter.skip(url, skip, page.entry.url);
    return BLOCKED;
  }
}

/** Why the gate's check refuses a sub-request, or undefined when it may be sent. */
function refusalOf(check: {
  readonly allowed: boolean;
  readonly addressBlocked?: true;
  readonly reason: string;
}): RenderRefusal | undefined {
  if (check.addressBlocked === true) return 'blocked-address';
  if (check.reason === 'unreachable') return 'robots-unreachable';
  return check.allowed ? undefined : 'robots';
}
