// One claimed URL through the stages: robots gate → politeness → fetch → extract → handler →
// frontier. Every path ends the lease exactly once: complete, release or retry.

import { PolitelyError, type HttpClient, type HttpResponse, type RobotsCheck, type RobotsGate } from '@politely/core';
import type { CrawlerEmitter, SkipReason } from './events.js';
import { createLazyDocument } from './extract/document.js';
import { isHtmlContentType } from './extract/content-type.js';
import { extractFromDocument, type ExtractedPage } from './extract/extract-links.js';
import { decodeText } from './fetch/decode-text.js';
import { fetchPage } from './fetch/fetch-page.js';
import type { Frontier } from './frontier/frontier.js';
import type { FrontierLease, FrontierStore, SettleOptions } from './frontier/frontier-store.js';
import type { ResolvedCrawlerOptions } from './options.js';
import type { EnqueueOptions, PageContext } from './page-context.js';
import { retryAfterMs } from './politeness/delay.js';
import { HostHolds } from './politeness/host-clock.js';
import type { HostPoliteness } from './politeness/host-politeness.js';
import type { PluginContext, ResourceProcessor } from './plugin.js';
import type { StatsRecorder } from './stats.js';
import { isFatalCrawlError } from './fatal-error.js';

export interface ProcessorDeps {
  readonly options: ResolvedCrawlerOptions;
  readonly store: FrontierStore;
  readonly frontier: Frontier;
  readonly gate: RobotsGate;
  readonly client: HttpClient;
  readonly politeness: HostPoliteness;
  readonly emitter: CrawlerEmitter;
  readonly stats: StatsRecorder;
  /** When each host's robots.txt was last requested (to know a claim's slot was used by it). */
  readonly robotsRequestedAt: ReadonlyMap<string, number>;
  /** Hosts whose address the SSRF guard refused (found when their robots.txt was requested). */
  readonly blockedHosts: ReadonlySet<string>;
  readonly signal: AbortSignal;
  /** Page fetches started so far, and the budget (`maxPages`). */
  readonly pageBudget: { started: number; readonly max: number };
  /** Processors of plugin resource kinds (anything but `page`). */
  readonly processors: ReadonlyMap<string, ResourceProcessor>;
  /** What processors may do (enqueue, skip, report). */
  readonly pluginContext: PluginContext;
  /**
   * Called with an error that ends the crawl (a fatal handler error, a store that failed): the
   * lease was handed back first, so the URL stays in the store.
   */
  readonly onFatal: (error: unknown) => void;
}

const PAGE_ACCEPT = 'text/html,application/xhtml+xml,*/*;q=0.8';

const NO_PAGE_ROBOTS = { noindex: false, nofollow: false, sources: [] } as const;

export class UrlProcessor {
  /**
   * Per host, the latest Retry-After or backoff this process has met, known the moment the
   * response is in. Every settle of this process tells the store (which keeps the holds of every
   * worker): so it learns a hold from whichever request to the host settles first.
   */
  private readonly holds = new HostHolds();

  constructor(private readonly deps: ProcessorDeps) {}

  async process(lease: FrontierLease): Promise<void> {
    const claimedAt = Date.now();
    try {
      await this.run(lease, claimedAt);
    } catch (error) {
      // Aborted, a fatal handler error, or a store failure: the URL goes back to the queue (if
      // the store still answers), nothing is lost. Only an abort is expected here: anything else
      // escaped every stage's own handling, so the crawl cannot go on as if it had not happened.
      await this.release(lease, { hostReadyAt: lease.previousHostReadyAt }).catch(() => {});
      if (!(error instanceof PolitelyError && error.code === 'ERR_ABORTED')) this.deps.onFatal(error);
    }
  }

  private async run(lease: FrontierLease, claimedAt: number): Promise<void> {
    const { store, gate, politeness, options } = this.deps;
    const { entry } = lease;
    // A hold this process knows and the store may not yet (the request that met it has not
    // settled: its handler runs): no request, the URL goes back and the host's clock with the hold.
    if (this.holds.current(entry.hostKey, claimedAt) !== undefined) return this.release(lease, { hostReadyAt: lease.previousHostReadyAt });
    const check = await gate.check(entry.url, options.userAgent, { signal: this.deps.signal });
    const robotsAt = this.deps.robotsRequestedAt.get(entry.hostKey);
    const robotsUsedSlot = robotsAt !== undefined && robotsAt >= claimedAt;

    if (this.deps.blockedHosts.has(entry.hostKey)) {
      this.skip(entry.url, 'blocked-address', `${entry.hostKey} resolves to a non-public address (allow it with allowNet / --allow-net)`, entry.referrer);
      return this.complete(lease);
    }
    if (check.reason === 'unreachable') return this.robotsUnreachable(lease, check, robotsUsedSlot);
    politeness.robotsRecovered(entry.hostKey);
    if (politeness.learnCrawlDelay(entry.hostKey, check.crawlDelay)) {
      await store.setHostPolicy(entry.hostKey, { delayMs: politeness.delayMs(entry.hostKey), maxInFlight: options.perHostConcurrency });
    }
    // The clock counts from when the robots.txt response was in (the request had surely reached
    // the server by then), so server-side gaps are never shorter than the delay.
    // (+1: Date.now() truncates to whole milliseconds; the server's clock does not.)
    const afterRobots = robotsUsedSlot ? Date.now() + 1 + politeness.delayMs(entry.hostKey) : lease.previousHostReadyAt;
    if (!check.allowed) {
      const detail = check.rule === undefined ? check.reason : `line ${check.rule.line}: ${check.rule.text}`;
      this.skip(entry.url, 'robots', detail, entry.referrer);
      return this.complete(lease, { hostReadyAt: afterRobots });
    }
    const processor = this.processorFor(lease);
    if (processor === null) return this.complete(lease, { hostReadyAt: afterRobots });
    if (processor?.fetch === false) {
      await this.runProcessor(lease, processor, undefined);
      return this.complete(lease, { hostReadyAt: afterRobots });
    }
    // The robots.txt request used this host's turn: the URL waits for the next one.
    const overBudget = processor === undefined && this.deps.pageBudget.started >= this.deps.pageBudget.max;
    // A lease past its expiry may already be another worker's: the store assumes no request after it.
    const leaseExpired = Date.now() >= lease.leaseExpiresAt;
    if (robotsUsedSlot || overBudget || leaseExpired) return this.release(lease, { hostReadyAt: afterRobots });
    return this.fetchAndHandle(lease, processor, check);
  }

  /** undefined for a page; the processor for a plugin kind; null (reported) for an unknown kind. */
  private processorFor(lease: FrontierLease): ResourceProcessor | undefined | null {
    const kind = lease.entry.kind;
    if (kind === undefined || kind === 'page') return undefined;
    const processor = this.deps.processors.get(kind);
    if (processor === undefined) {
      this.reportError(lease, new PolitelyError('ERR_INVALID_INPUT', `no plugin processes resources of kind '${kind}' (${lease.entry.url})`), 'processor', false);
      return null;
    }
    return processor;
  }

  private async runProcessor(lease: FrontierLease, processor: ResourceProcessor, response: HttpResponse | undefined): Promise<void> {
    try {
      await processor.process({ ...this.deps.pluginContext, entry: lease.entry, response });
    } catch (error) {
      if ((error instanceof PolitelyError && error.code === 'ERR_ABORTED') || isFatalCrawlError(error)) throw error;
      this.reportError(lease, error, 'processor', false);
    }
  }

  private async robotsUnreachable(lease: FrontierLease, check: RobotsCheck, fetchedNow: boolean): Promise<void> {
    const { store, politeness, options } = this.deps;
    const { entry } = lease;
    const { failures, retryInMs } = fetchedNow ? politeness.robotsFailed(entry.hostKey) : politeness.robotsRetryWait(entry.hostKey);
    if (failures > options.maxRobotsRetries) {
      this.skip(entry.url, 'robots-unreachable', `robots.txt ${check.status ?? 'network error'} after ${failures} attempts`, entry.referrer);
      return this.complete(lease);
    }
    // Nothing but robots.txt retries for this host until it recovers: a backoff, held like one.
    const until = Date.now() + retryInMs;
    return this.release(lease, { hostReadyAt: until }, until);
  }

  private async fetchAndHandle(lease: FrontierLease, processor: ResourceProcessor | undefined, check: RobotsCheck): Promise<void> {
    const { store, politeness, options, emitter, stats } = this.deps;
    const { entry } = lease;
    const startedAt = Date.now();
    if (processor === undefined) this.deps.pageBudget.started++;
    stats.requests++;
    emitter.emit('request', {
      url: entry.url,
      hostKey: entry.hostKey,
      kind: entry.kind ?? 'page',
      at: startedAt,
      delayMs: politeness.delayMs(entry.hostKey),
      robots: check.rule === undefined ? { reason: check.reason } : { reason: check.reason, line: check.rule.line, text: check.rule.text },
    });
    const outcome = await fetchPage(
      entry.url,
      {
        client: this.deps.client,
        userAgent: options.userAgent,
        bodyLimit: processor?.bodyLimit ?? { maxBytes: options.maxBodyBytes, atLimit: 'fail' },
        accept: processor === undefined ? PAGE_ACCEPT : (processor.accept ?? '*/*'),
        timeoutMs: options.requestTimeoutMs,
      },
      this.deps.signal,
    );
    const endedAt = Date.now();
    const latencyMs = endedAt - startedAt;
    if (outcome.kind === 'failure' && !outcome.retryable) {
      // A server that does not speak HTTP at this URL will not start to on a retry; nor is it a
      // sign of overload, so the host keeps its pace.
      this.reportError(lease, outcome.error, 'fetch', false);
      return this.complete(lease, { hostReadyAt: endedAt + politeness.delayMs(entry.hostKey) });
    }
    if (outcome.kind === 'failure') return this.failAttempt(lease, outcome.error, endedAt + politeness.failed(entry.hostKey, latencyMs, null));
    if (outcome.kind === 'skip') {
      this.skip(entry.url, outcome.reason, outcome.error.message, entry.referrer);
      return this.complete(lease, { hostReadyAt: endedAt + politeness.delayMs(entry.hostKey) });
    }
    const { response } = outcome;
    // The host's clock runs from the response head: by then the request had reached the server,
    // so the gaps the server sees between our requests are never shorter than the delay. It is
    // read back from now, less the body's time (one clock, one duration): `startedAt` plus
    // `headersMs` would mix a reading taken before the emit and the client's own start, and a
    // process descheduled in between (a busy machine) would start the next request early.
    const anchor = Date.now() + 1 - (response.timing.totalMs - response.timing.headersMs);
    emitter.emit('response', { url: entry.url, status: response.status, durationMs: latencyMs, bytes: response.body.length, contentType: response.header('content-type') });
    // Read against the anchor: an HTTP-date is a moment (anchor + (date − anchor) = date), and
    // delay-seconds count from no earlier than when the server sent the response.
    const asked = retryAfterMs(response.header('retry-after'), anchor);
    if (isRetryableStatus(response.status) && (entry.retries ?? 0) < options.maxRetries) {
      const backoff = politeness.failed(entry.hostKey, latencyMs, response.status);
      const wait = Math.min(options.backoffMaxMs, Math.max(backoff, asked ?? 0));
      return this.failAttempt(lease, new PolitelyError('ERR_FETCH_FAILED', `GET ${entry.url}: HTTP ${response.status}`), anchor + wait);
    }
    // The URL's last attempt: it is not retried, but the host was still asked to wait.
    if ((response.status === 429 || response.status === 503) && asked !== undefined) {
      this.hold(entry.hostKey, anchor + Math.min(options.backoffMaxMs, asked));
    }
    politeness.succeeded(entry.hostKey, latencyMs, response.status);
    const paced = { hostReadyAt: anchor + politeness.delayMs(entry.hostKey) };
    if (outcome.kind === 'redirect') {
      await this.followRedirect(lease, outcome.location);
      return this.complete(lease, paced);
    }
    if (processor !== undefined) await this.runProcessor(lease, processor, response);
    else {
      stats.response(response.status, response.body.length);
      await this.handlePage(lease, response);
    }
    return this.complete(lease, paced);
  }

  /** A failed attempt: `notBefore` (backoff or Retry-After) holds the host, whoever settles next. */
  private async failAttempt(lease: FrontierLease, error: PolitelyError, notBefore: number): Promise<void> {
    const attempt = (lease.entry.retries ?? 0) + 1;
    const willRetry = attempt <= this.deps.options.maxRetries;
    this.reportError(lease, error, 'fetch', willRetry);
    const settle = this.settleOptions(lease, { hostReadyAt: notBefore }, notBefore);
    if (willRetry) {
      this.deps.stats.retries++;
      return this.deps.store.retry(lease.id, settle);
    }
    return this.deps.store.complete(lease.id, settle);
  }

  // Every lease ends through these or `failAttempt`. `hostReadyAt` paces the host after this
  // request (or hands the claim's clock back); `hostNotBefore` holds it (a Retry-After, a
  // backoff). The store keeps each host's latest hold and never sets its clock before it, whoever
  // settles next: another request of this process, or of another worker sharing the store
  // (frontier-store.ts, SettleOptions). So a pace never undoes a hold, here or elsewhere.

  /** No request to the host may start before `until` (a Retry-After, a backoff). */
  private hold(hostKey: string, until: number): void {
    this.holds.hold(hostKey, until, Date.now());
  }

  /**
   * What a settle tells the store: the pace asked for, and the host's hold in this process (raised
   * to `hold` first, if given). The pace is raised to the hold here too, for a store that keeps
   * no holds of its own (one written before `hostNotBefore`).
   */
  private settleOptions(lease: FrontierLease, { hostReadyAt }: SettleOptions, hold?: number): SettleOptions {
    const { hostKey } = lease.entry;
    const now = Date.now();
    if (hold !== undefined) this.holds.hold(hostKey, hold, now);
    const hostNotBefore = this.holds.current(hostKey, now);
    const readyAt = this.holds.readyAt(hostKey, hostReadyAt, now);
    return { ...(readyAt === undefined ? {} : { hostReadyAt: readyAt }), ...(hostNotBefore === undefined ? {} : { hostNotBefore }) };
  }

  private complete(lease: FrontierLease, pace: SettleOptions = {}): Promise<void> {
    return this.deps.store.complete(lease.id, this.settleOptions(lease, pace));
  }

  private release(lease: FrontierLease, pace: SettleOptions, hold?: number): Promise<void> {
    return this.deps.store.release(lease.id, this.settleOptions(lease, pace, hold));
  }

  private async followRedirect(lease: FrontierLease, location: string): Promise<void> {
    const { entry } = lease;
    const hops = (entry.redirectHops ?? 0) + 1;
    if (hops > this.deps.options.maxRedirects) {
      this.skip(entry.url, 'too-many-redirects', `more than ${this.deps.options.maxRedirects} redirects`, entry.referrer);
      return;
    }
    let target: string;
    try {
      target = new URL(location, entry.url).href;
    } catch {
      this.skip(location, 'invalid-url', `redirect from ${entry.url} to an invalid URL`, entry.url);
      return;
    }
    // The target goes through the frontier like any URL: scope, dedupe, its own robots.txt and host clock.
    await this.deps.frontier.add([
      {
        url: target,
        depth: entry.depth,
        priority: entry.priority,
        redirectedFrom: entry.redirectedFrom ?? entry.url,
        redirectHops: hops,
        // A plugin resource keeps its kind and data, and (like a cross-host sitemap) its scope exemption.
        ...(entry.kind === undefined ? {} : { kind: entry.kind, skipScope: true }),
        ...(entry.data === undefined ? {} : { data: entry.data }),
        ...(entry.referrer === undefined ? {} : { referrer: entry.referrer }),
      },
    ]);
  }

  private async handlePage(lease: FrontierLease, response: HttpResponse): Promise<void> {
    const { entry } = lease;
    const { options } = this.deps;
    const contentType = response.header('content-type');
    const text = decodeText(response.body, contentType);
    const document = createLazyDocument(text);
    const isHtml = isHtmlContentType(contentType);
    let extracted: ExtractedPage | null = null;
    if (isHtml && response.status >= 200 && response.status < 300) {
      extracted = extractFromDocument(document(), entry.url, {
        productToken: options.productToken,
        honorNofollow: options.honorNofollow,
        xRobotsTag: response.header('x-robots-tag'),
        maxLinks: Math.min(options.maxLinksPerPage, Number.MAX_SAFE_INTEGER),
      });
      for (const url of extracted.nofollowLinks) this.skip(url, 'nofollow', extracted.nofollowReason ?? undefined, entry.url);
      const dropped = extracted.skippedLinks.overLimit;
      if (dropped > 0) this.skip(entry.url, 'too-many-links', `${dropped} more distinct links past maxLinksPerPage (${options.maxLinksPerPage}) were not followed`, entry.referrer);
    }
    const links = extracted?.links ?? [];
    const enqueue = (urls: string | readonly string[], enqueueOptions: EnqueueOptions = {}): Promise<number> =>
      this.deps.frontier.add(
        (typeof urls === 'string' ? [urls] : urls).map((url) => ({
          url,
          depth: enqueueOptions.depth ?? entry.depth + 1,
          priority: enqueueOptions.priority ?? 0,
          referrer: entry.url,
        })),
      );
    if (options.handler !== undefined) {
      const page: PageContext = {
        url: entry.redirectedFrom ?? entry.url,
        finalUrl: entry.url,
        status: response.status,
        headers: response.headers,
        body: response.body,
        text,
        get $() {
          return document();
        },
        links,
        depth: entry.depth,
        robots: extracted?.robots ?? NO_PAGE_ROBOTS,
        canonicalUrl: extracted?.canonicalUrl ?? null,
        contentType,
        enqueue,
        signal: this.deps.signal,
      };
      try {
        await options.handler(page);
      } catch (error) {
        if (isFatalCrawlError(error)) throw error;
        this.reportError(lease, error, 'handler', false);
      }
    }
    if (options.followLinks && links.length > 0) await enqueue(links);
  }

  private skip(url: string, reason: SkipReason, detail: string | undefined, referrer: string | undefined): void {
    this.deps.stats.skip(reason);
    this.deps.emitter.emit('skip', {
      url,
      reason,
      ...(detail === undefined ? {} : { detail }),
      ...(referrer === undefined ? {} : { referrer }),
    });
  }

  private reportError(lease: FrontierLease, error: unknown, stage: 'fetch' | 'handler' | 'processor', willRetry: boolean): void {
    if (!willRetry) this.deps.stats.errors++;
    const wrapped = error instanceof Error ? error : new Error(String(error));
    this.deps.emitter.emit('error', { url: lease.entry.url, error: wrapped, attempt: (lease.entry.retries ?? 0) + 1, willRetry, stage });
  }
}

function isRetryableStatus(status: number): boolean {
  return status === 429 || status >= 500;
}
