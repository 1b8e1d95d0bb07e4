// The robots gate: "may this user agent fetch this URL now?" One robots.txt per origin,
// fetched once (single-flight in the process; a fetch lock across processes when the store
// has one), interpreted by its HTTP outcome, cached, refreshed, shared.

import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { PolitelyError } from '../errors.js';
import { LruMap } from '../lru-map.js';
import { parseRobotsTxt } from '../robots/parse.js';
import type { RobotsTxt } from '../robots/types.js';
import { matchPathOf } from '../robots/url-path.js';
import { abortErrorOf, raceAbort } from './abort.js';
import { isRecordCurrent, nextRobotsCacheRecord, robotsCacheBasisOf } from './fetch-policy.js';
import { createUndiciRobotsFetch, type RobotsFetch } from './fetch-robots.js';
import { fetchRobotsTxt, type RobotsFetchEvent } from './fetch-robots-txt.js';
import { robotsOriginOf, robotsTxtUrlOfOrigin } from './origin.js';
import {
  createMemoryRobotsCache,
  decodeRobotsBody,
  type RobotsCacheCopy,
  type RobotsCacheRecord,
  type RobotsCacheStore,
} from './robots-cache.js';
import { type RobotsCheck, type RobotsCheckFetch, robotsCheckFactsOf } from './robots-check.js';
import {
  type ResolvedRobotsGateOptions,
  type RobotsGateOptions,
  resolveRobotsGateOptions,
} from './robots-gate-options.js';

/** Options of one `RobotsGate.check`: an abort signal, and the product tokens to match. */
export interface RobotsCheckOptions {
  /** Stops waiting: the check rejects with `ERR_ABORTED` (a shared fetch carries on for others). */
  readonly signal?: AbortSignal;
  /**
   * The product tokens robots.txt is evaluated for, instead of the product token of `userAgent`
   * (`['MyBot', 'MyBot-Training']`, the pattern of crawlers that split search and training
   * agents): every token's groups apply and the most restrictive verdict wins (see
   * `RobotsTxt.isAllowed` with several tokens); the check's `token` says which one decided, and
   * its `crawlDelay` is the largest of theirs. `userAgent` is still what robots.txt is fetched with.
   * @default [the product token of userAgent]
   */
  readonly tokens?: readonly string[];
}

/** Options of `RobotsGate.sitemaps`: those of a check, and the user agent of a fetch it starts. */
export interface RobotsSitemapsOptions extends RobotsCheckOptions {
  /** User-Agent for a fetch this call starts. @default the gate's `userAgent` */
  readonly userAgent?: string;
}

/** The gate's events. Listeners observe; they cannot change what the gate does. */
export interface RobotsGateEvents {
  /** Every robots.txt request, one per hop. */
  readonly fetch: RobotsFetchEvent;
}

/**
 * The robots gate: decides whether a URL may be fetched now from its origin's robots.txt, fetched
 * once per origin and cached, failing closed as RFC 9309 says. Made by `createRobotsGate`.
 */
export interface RobotsGate {
  /**
   * Whether `userAgent` may fetch `url` now, fetching the origin's robots.txt when it is not
   * cached or has expired. Concurrent checks for one origin share one fetch.
   * Every HTTP outcome is an answer, never an error; it rejects only for bad input, an abort,
   * or a failing store.
   * @throws PolitelyError `ERR_INVALID_URL` for a URL that is not absolute http(s), `ERR_ABORTED` when the signal fires.
   */
  check(url: string | URL, userAgent: string, options?: RobotsCheckOptions): Promise<RobotsCheck>;
  /** The parsed robots.txt in force for the origin of `originOrUrl`, if one is cached (never fetches). */
  robotsTxt(originOrUrl: string | URL): Promise<RobotsTxt | undefined>;
  /** The `Sitemap:` URLs of the origin's robots.txt (fetching it if needed); [] when there is none. */
  sitemaps(originOrUrl: string | URL, options?: RobotsSitemapsOptions): Promise<string[]>;
  /** Forgets the origin's robots.txt: the next check fetches it again. */
  invalidate(originOrUrl: string | URL): Promise<void>;
  /** Listens to an event; returns the function that stops listening. Listener errors are swallowed. */
  on<E extends keyof RobotsGateEvents>(event: E, listener: (event: RobotsGateEvents[E]) => void): () => void;
  /** Aborts fetches in flight and closes the default fetch's connections; later calls reject. Idempotent. */
  close(): Promise<void>;
}

/** Added to the fetch lock's lifetime beyond the longest fetch (every hop at its deadline). */
const FETCH_LOCK_MARGIN_MS = 1000;
/** How many lock lifetimes a gate waits for other processes' fetch before fetching anyway. */
const FETCH_LOCK_WAIT_ROUNDS = 2;
/** Polling of the store while another process fetches: from this pause, doubling… */
const FETCH_LOCK_POLL_MIN_MS = 25;
/** …up to this one. */
const FETCH_LOCK_POLL_MAX_MS = 1000;

/** Creates a robots gate; see `RobotsGateOptions` for its defaults. */
export function createRobotsGate(options?: RobotsGateOptions): RobotsGate {
  return new Gate(resolveRobotsGateOptions(options));
}

/** A record as a check found it, with the fetch this gate made for it, when it made one. */
interface Refreshed {
  readonly record: RobotsCacheRecord;
  readonly fetch?: RobotsCheckFetch;
}

/** A current record this gate read or stored, reused for `reuseRecordMs` (see its option). */
interface RecentRecord {
  readonly record: RobotsCacheRecord;
  /** Reused until then (and never past the record's own expiry). */
  readonly until: number;
}

interface ParsedCopy {
  readonly fetchedAt: number;
  readonly robots: RobotsTxt;
}

class Gate implements RobotsGate {
  private readonly options: ResolvedRobotsGateOptions;
  private readonly fetch: RobotsFetch;
  private readonly closeFetch: () => Promise<void>;
  private readonly store: RobotsCacheStore;
  private readonly parsed: LruMap<string, ParsedCopy>;
  private readonly recent: LruMap<string, RecentRecord>;
  /** Each origin's refresh in flight (single-flight): its record, and the fetch it made, if any. */
  private readonly inflight = new Map<string, Promise<Refreshed>>();
  private readonly listeners = new Set<(event: RobotsFetchEvent) => void>();
  private readonly closing = new AbortController();
  private closed: Promise<void> | undefined;

  constructor(options: ResolvedRobotsGateOptions) {
    this.options = options;
    if (options.fetch === undefined) {
      const fetch = createUndiciRobotsFetch({
        timeoutMs: options.timeoutMs,
        blockPrivateNetworks: options.blockPrivateNetworks,
        allowNet: options.allowNet,
      });
      this.fetch = fetch;
      this.closeFetch = () => fetch.close();
    } else {
      this.fetch = options.fetch;
      this.closeFetch = () => Promise.resolve();
    }
    this.store = options.cache ?? createMemoryRobotsCache();
    this.parsed = new LruMap(options.maxParsedOrigins);
    this.recent = new LruMap(options.maxParsedOrigins);
  }

  async check(url: string | URL, userAgent: string, options: RobotsCheckOptions = {}): Promise<RobotsCheck> {
    const origin = robotsOriginOf(url);
    // The origin is one already: parsing it again for its robots.txt URL would be a second parse a page.
    const robotsUrl = robotsTxtUrlOfOrigin(origin);
    if (matchPathOf(url) === '/robots.txt')
      return { allowed: true, reason: 'robots-txt', status: null, origin, robotsUrl };
    const { record, fetch } = await this.currentRecord(origin, userAgent, options.signal);
    const basis = robotsCacheBasisOf(record, this.options.now(), this.options.policy);
    const { reason, status } = basis;
    const facts = robotsCheckFactsOf(record, reason, fetch);
    if (!('copy' in basis)) return { allowed: basis.allowed, reason, status, ...facts, origin, robotsUrl };
    const robots = this.parse(origin, basis.copy);
    const agents = options.tokens !== undefined && options.tokens.length > 0 ? options.tokens : userAgent;
    const { allowed, rule, productToken } = robots.explain(url, agents);
    const crawlDelay = robots.crawlDelay(agents);
    return {
      allowed,
      reason,
      status,
      ...(crawlDelay !== undefined && { crawlDelay }),
      ...(rule !== undefined && { rule }),
      ...(typeof agents !== 'string' && { token: productToken }),
      ...facts,
      origin,
      robotsUrl,
      robots,
    };
  }

  async robotsTxt(originOrUrl: string | URL): Promise<RobotsTxt | undefined> {
    const origin = robotsOriginOf(originOrUrl);
    const record = await this.store.get(origin);
    return record === undefined ? undefined : this.copyInForce(record);
  }

  async sitemaps(originOrUrl: string | URL, options: RobotsSitemapsOptions = {}): Promise<string[]> {
    const origin = robotsOriginOf(originOrUrl);
    const { record } = await this.currentRecord(origin, options.userAgent ?? this.options.userAgent, options.signal);
    return [...(this.copyInForce(record)?.sitemaps ?? [])];
  }

  async invalidate(originOrUrl: string | URL): Promise<void> {
    const origin = robotsOriginOf(originOrUrl);
    this.parsed.delete(origin);
    this.recent.delete(origin);
    this.inflight.delete(origin);
    await this.store.delete(origin);
  }

  on<E extends keyof RobotsGateEvents>(event: E, listener: (event: RobotsGateEvents[E]) => void): () => void {
    if (event !== 'fetch') throw new PolitelyError('ERR_INVALID_INPUT', `unknown gate event ${JSON.stringify(event)}`);
    this.listeners.add(listener);
    return () => {
      this.listeners.delete(listener);
    };
  }

  close(): Promise<void> {
    if (this.closed === undefined) {
      this.closing.abort(new PolitelyError('ERR_ABORTED', 'the robots gate was closed'));
      this.closed = this.closeFetch();
    }
    return this.closed;
  }

  /** The record for `origin` as it stands now: from the store, or from a (shared) fetch, with that fetch's times. */
  private async currentRecord(origin: string, userAgent: string, signal: AbortSignal | undefined): Promise<Refreshed> {
    if (signal?.aborted === true) throw abortErrorOf(signal, `robots check for ${origin}`);
    if (this.closing.signal.aborted) throw new PolitelyError('ERR_ABORTED', 'the robots gate is closed');
    let pending = this.inflight.get(origin);
    if (pending === undefined) {
      const now = this.options.now();
      const recent = this.recent.get(origin);
      if (recent !== undefined && now < recent.until) return { record: recent.record };
      const record = await raceAbort(this.store.get(origin), signal, `robots check for ${origin}`);
      if (record !== undefined && isRecordCurrent(record, this.options.now())) {
        this.remember(origin, record);
        return { record };
      }
      // Checked again after the await: another check may have started the fetch meanwhile.
      pending = this.inflight.get(origin) ?? this.startRefresh(origin, record, userAgent);
    }
    return raceAbort(pending, signal, `robots check for ${origin}`);
  }

  private startRefresh(origin: string, previous: RobotsCacheRecord | undefined, userAgent: string): Promise<Refreshed> {
    const pending = this.refresh(origin, previous, userAgent).finally(() => {
      if (this.inflight.get(origin) === pending) this.inflight.delete(origin);
    });
    this.inflight.set(origin, pending);
    return pending;
  }

  /**
   * Fetches the origin's robots.txt and stores the record. With a store shared between processes
   * (one that has `acquireFetchLock`), only the process holding the origin's fetch lock fetches;
   * the others poll the store for its record, so all workers make one request per origin per
   * cache period. A holder that dies loses its lock when it expires, and a waiter takes over.
   * Only a fetch this gate made comes back with its times: a record another process stored does not.
   */
  private async refresh(
    origin: string,
    previous: RobotsCacheRecord | undefined,
    userAgent: string,
  ): Promise<Refreshed> {
    const acquireFetchLock = this.store.acquireFetchLock?.bind(this.store);
    if (acquireFetchLock === undefined) return this.fetchAndStore(origin, previous, userAgent);
    // Long enough for a whole fetch: every hop may take up to timeoutMs.
    const ttlMs = this.options.timeoutMs * (this.options.maxRedirects + 1) + FETCH_LOCK_MARGIN_MS;
    // Room for a holder that dies and a second holder's whole fetch; past it, fetch anyway:
    // one extra robots.txt request beats a crawl stalled by a stuck lock.
    const deadline = performance.now() + FETCH_LOCK_WAIT_ROUNDS * ttlMs;
    for (let pauseMs = FETCH_LOCK_POLL_MIN_MS; ; pauseMs = Math.min(pauseMs * 2, FETCH_LOCK_POLL_MAX_MS)) {
      const release = await acquireFetchLock(origin, ttlMs);
      if (release !== null) {
        try {
          // Another process may have stored a fresh record between our read and our lock.
          const latest = await this.store.get(origin);
          if (latest !== undefined && isRecordCurrent(latest, this.options.now())) return { record: latest };
          return await this.fetchAndStore(origin, latest ?? previous, userAgent);
        } finally {
          await release().catch(() => {});
        }
      }
      const left = deadline - performance.now();
      if (left <= 0) return this.fetchAndStore(origin, previous, userAgent);
      await sleep(Math.min(pauseMs, left), undefined, { signal: this.closing.signal }).catch(() => {
        throw new PolitelyError('ERR_ABORTED', 'the robots gate was closed');
      });
      const record = await this.store.get(origin);
      if (record !== undefined && isRecordCurrent(record, this.options.now())) return { record };
    }
  }

  private async fetchAndStore(
    origin: string,
    previous: RobotsCacheRecord | undefined,
    userAgent: string,
  ): Promise<Refreshed> {
    const { maxRedirects, maxBytes, timeoutMs, now, policy } = this.options;
    const { result, requestedAt, respondedAt } = await fetchRobotsTxt({
      origin,
      userAgent,
      fetch: this.fetch,
      maxRedirects,
      maxBytes,
      timeoutMs,
      signal: this.closing.signal,
      report: (event) => this.emit(event),
      now,
    });
    // The record's fetchedAt is when the response was in, so retryAt and respondedAt agree.
    const record = nextRobotsCacheRecord(origin, previous, result, respondedAt, policy);
    // The address guard's refusal is this gate's own policy (its allowNet), not the origin's
    // answer: a shared or durable cache must not hand it to a crawl with other options (a crawl
    // re-run with allowNet on the same store). It is kept in this process only.
    if (record.errorCode !== 'ERR_ADDRESS_BLOCKED') await this.store.set(origin, record);
    this.remember(origin, record);
    return { record, fetch: { requestedAt, respondedAt } };
  }

  /** Keeps a current record for reuse by this process's next checks of the origin. */
  private remember(origin: string, record: RobotsCacheRecord): void {
    const { reuseRecordMs } = this.options;
    if (reuseRecordMs > 0)
      this.recent.set(origin, { record, until: Math.min(record.expiresAt, this.options.now() + reuseRecordMs) });
  }

  private emit(event: RobotsFetchEvent): void {
    for (const listener of this.listeners) {
      try {
        listener(event);
      } catch {
        // Events report; a failing listener must not change what the gate does.
      }
    }
  }

  /** The parsed file a record's checks are decided by, if any (its current or cached copy). */
  private copyInForce(record: RobotsCacheRecord): RobotsTxt | undefined {
    const basis = robotsCacheBasisOf(record, this.options.now(), this.options.policy);
    return 'copy' in basis ? this.parse(record.origin, basis.copy) : undefined;
  }

  /** Parses a copy once; later checks reuse it until a newer copy replaces it. */
  private parse(origin: string, copy: RobotsCacheCopy): RobotsTxt {
    const cached = this.parsed.get(origin);
    if (cached !== undefined && cached.fetchedAt === copy.fetchedAt) return cached.robots;
    const robots = parseRobotsTxt(decodeRobotsBody(copy), { maxBytes: this.options.maxBytes });
    this.parsed.set(origin, { fetchedAt: copy.fetchedAt, robots });
    return robots;
  }
}
