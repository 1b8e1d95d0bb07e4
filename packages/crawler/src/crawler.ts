// createCrawler wires the crawl's services and the pipeline's stages together. `run()` opens what
// the crawl writes to, seeds the frontier and runs the claim loop (claim-loop.ts): claim the next
// URL of a ready host, walk it through the pipeline (pipeline/process-url.ts).
//
// Per-host pacing is NOT bottleneck's: a limiter per host would hold every waiting URL in a
// pending promise, and one slow host would fill the queue. The frontier's own host clock (readyAt
// per host, in the store) decides which host is next, so waiting URLs stay in the store, and a
// store shared by several workers (Redis) shares the clocks too.

import { setMaxListeners } from 'node:events';
import {
  type AddressBook,
  createAddressBook,
  createAddressPolicy,
  createRobotsGate,
  type HttpClient,
  type HttpResponse,
  PolitelyError,
  type RobotsGate,
  signingClient,
  systemResolver,
} from '@politely/core';
import { createMemoryFrontierStore, type FrontierStore } from '@politely/frontier';
import { archivingClient } from './archive/archiving-client.js';
import { WarcArchive, type WarcOutputStatus } from './archive/warc-archive.js';
import { ClaimLoop } from './claim-loop.js';
import { ConcurrencyGovernor, type ConcurrencyLimit, fixedConcurrency } from './concurrency-governor.js';
import { type CrawlCookies, createCrawlCookies } from './cookies/crawl-cookies.js';
import { attachLogger } from './crawl-logger.js';
import { Dataset } from './dataset/dataset.js';
import type { OutputStatus } from './dataset/output-writer.js';
import type { DatasetRecord } from './dataset/record-text.js';
import { CrawlerEmitter, type CrawlerEventName, type CrawlerListener } from './events.js';
import { ownHttpClient } from './fetch/own-http-client.js';
import { createCrawlerRobotsFetch } from './fetch/robots-fetch.js';
import { sentReportingClient } from './fetch/sent-reporting-client.js';
import { canonicalizeUrl } from './frontier/canonical-url.js';
import { createFrontier, type Frontier } from './frontier/frontier.js';
import { checkRequestData } from './frontier/request-data.js';
import type { ScopePredicate } from './frontier/scope.js';
import { createScope } from './frontier/scope.js';
import { recordScopeRoots, scopeRootsOf, watchScopeRoots } from './frontier/scope-seeds.js';
import { createKnownRobotsCheck, type KnownRobotsCheck } from './gate/known-robots.js';
import { labelCheckOf } from './handle/routes.js';
import type { PluginResourceKind } from './handle/run-processor.js';
import { CrawlMetrics, type RobotsFetchOutcome } from './metrics/crawl-metrics.js';
import { type CrawlerOptions, type ResolvedCrawlerOptions, resolveCrawlerOptions } from './options.js';
import type { RequestOptions, RouteMap } from './page-context.js';
import type { RenderSession } from './page-renderer.js';
import { UrlProcessor } from './pipeline/process-url.js';
import type { CrawlServices } from './pipeline/services.js';
import { LeaseSettler } from './pipeline/settle.js';
import { type CrawlContext, pluginContexts } from './plugin-context.js';
import { createPolitenessKeys, HostPoliteness, type PolitenessKeys } from './politeness/index.js';
import { CrawlReporter } from './reporter.js';
import { queueSeeds, type RunAgain, requeueFailed, warnIfNothingToDo } from './run-again.js';
import { SeedRefusals } from './seed-refusals.js';
import { type CrawlStats, StatsRecorder } from './stats.js';

/** A crawler (`createCrawler`); `Routes`: its routes type, when it has one (see `RouteMap`). */
export interface Crawler<Routes = object> {
  /**
   * Crawls until the frontier is empty, `maxPages` is reached, `stop()` is called or the signal
   * fires. Rejects, once requests in flight have ended, with an error that ended the crawl early
   * (an output or a store that failed: see `isFatalCrawlError`); the URLs not done stay in the store.
   * A crawler runs once (its HTTP client and gate are closed at the end): a second call throws
   * `ERR_INVALID_INPUT`; create a new crawler with the same store to crawl on. Stats count from
   * the call.
   */
  run(): Promise<CrawlStats>;
  /** Listens to an event; returns the function that stops listening. */
  on<E extends CrawlerEventName>(event: E, listener: CrawlerListener<E>): () => void;
  /**
   * Adds URLs (seeds: in scope, depth 0) before or during a run, with their own priority, label
   * and userData; resolves with how many were new (a URL queued without a label takes this one,
   * as with `page.enqueue`). A bad label or userData throws ERR_INVALID_INPUT. The seeds widen
   * the scope; a store with metadata (SQLite, Redis) records them, so every worker of the crawl,
   * and every run that resumes it, widens its scope too (within a second). From a process that
   * runs no crawler, use `addSeeds`.
   */
  enqueue(urls: string | readonly string[], options?: RequestOptions<Routes>): Promise<number>;
  /**
   * Appends a record (a plain JSON-serialisable object), or an array of them, to the crawl's
   * `outputs` from code outside a handler, and emits a `record` event for each; resolves once
   * they are written (rejects with `ERR_OUTPUT` when they cannot be, which stops the crawl).
   * Before `run()` it opens the outputs; after `run()` has ended it rejects. Called while a
   * handler runs (from its async context), it is that page's `page.push`.
   */
  push(records: DatasetRecord | readonly DatasetRecord[]): Promise<void>;
  /** Each output's path, format and records written (this run, and earlier runs it resumed); the WARC archive's last. */
  outputs(): readonly (OutputStatus | WarcOutputStatus)[];
  /** Counts so far. */
  stats(): CrawlStats;
  /**
   * Stops the crawl gently: nothing new is claimed and no new request starts; the requests in
   * flight get `stopGraceMs` to finish (their pages handled and written as usual), then those
   * left are aborted and their URLs released back to the store (`CrawlStats.releasedAtStop`).
   * The outputs are then flushed and closed, and `run()` resolves with `aborted: true`. A second
   * call (or an abort of the `signal` option) aborts what is in flight at once. Does nothing once
   * `run()` has ended.
   */
  stop(): void;
  /**
   * Pauses the crawl: nothing new is claimed (so no new request starts) until `resume()`; the
   * requests in flight finish as usual. `stop()` still stops a paused crawl. Does nothing when
   * already paused.
   */
  pause(): void;
  /** Resumes a paused crawl: claiming starts again at once. Does nothing when not paused. */
  resume(): void;
  /** Whether the crawl is paused (`pause()` without a `resume()` since). */
  readonly paused: boolean;
  /**
   * Requests the crawl may have in flight now: `concurrency`, or fewer while
   * `adaptiveConcurrency` holds back a process that cannot keep up.
   */
  readonly concurrencyLimit: number;
  /** The frontier store (queued URLs outlive the crawl in a durable store). */
  readonly store: FrontierStore;
  /** The robots gate in use. */
  readonly gate: RobotsGate;
}

/** URLs `reopenDue` moves back to the queues per store call. */
const REOPEN_BATCH = 1000;

const notRunning = (): Error => new PolitelyError('ERR_RENDER_FAILED', 'no render session: the crawl is not running');

/**
 * Makes a crawler (`run()` crawls). Routes are untyped: a label is any string and userData any
 * plain JSON object (the other signature, `createCrawler<Routes>(…)`, types them).
 * @throws PolitelyError `ERR_INVALID_OPTION` for an invalid or unknown option.
 */
export function createCrawler(options: CrawlerOptions): Crawler;
/**
 * Makes a crawler with typed routes: `createCrawler<Routes>(…)`, where `Routes` maps each label
 * to its userData type (see `RouteMap`), types the handlers, the seeds and `enqueue`.
 * @throws PolitelyError `ERR_INVALID_OPTION` for an invalid or unknown option.
 */
export function createCrawler<Routes extends object>(
  options: CrawlerOptions<NoInfer<Routes>> & RoutesCheck<NoInfer<Routes>>,
): Crawler<Routes>;
export function createCrawler(options: CrawlerOptions): Crawler {
  // Types only: at run time every label and userData is checked as it is given.
  return new PoliteCrawler(options);
}

/**
 * Nothing when `Routes` maps each label to an object type (`RouteMap`); else a property that names
 * the labels that do not, so that `createCrawler<{ A: string }>(…)` is a type error naming `A`.
 * (A constraint `Routes extends RouteMap<Routes>` would do the same, but would make
 * `ReturnType<typeof createCrawler>` a crawler of routes of its own instead of `Crawler`.)
 */
export type RoutesCheck<Routes> =
  Routes extends RouteMap<Routes>
    ? unknown
    : {
        readonly 'each label of Routes must map to an object type (its userData)': {
          [Label in keyof Routes]: Routes[Label] extends object ? never : Label;
        }[keyof Routes];
      };

/**
 * One address per host name for the crawl (with a resolver, or keys by address): the key and the
 * connection come from the same resolution. Undefined when neither needs one.
 */
function addressBookOf(options: ResolvedCrawlerOptions): AddressBook | undefined {
  if (options.resolver === undefined && options.politenessKey !== 'ip') return undefined;
  const policy = options.blockPrivateNetworks ? { policy: createAddressPolicy(options.allowNet) } : {};
  return createAddressBook({ resolve: options.resolver ?? systemResolver, ...policy });
}

function ownStore(options: ResolvedCrawlerOptions): FrontierStore {
  const defaultHostPolicy = { delayMs: options.minDelayMs, maxInFlight: options.perHostConcurrency };
  return createMemoryFrontierStore({ defaultHostPolicy, rememberFetches: false });
}

/** The plugins' resource kinds (anything but `page`): each kind's processor and its plugin's context. */
function resourceKindsOf(plugins: ReturnType<typeof pluginContexts>): Map<string, PluginResourceKind> {
  const kinds = new Map<string, PluginResourceKind>();
  for (const { plugin, context } of plugins) {
    for (const [kind, processor] of Object.entries(plugin.processors ?? {})) kinds.set(kind, { processor, context });
  }
  return kinds;
}

class PoliteCrawler implements Crawler {
  readonly store: FrontierStore;
  readonly gate: RobotsGate;
  private readonly options: ResolvedCrawlerOptions;
  private readonly emitter = new CrawlerEmitter();
  private readonly recorder = new StatsRecorder();
  private readonly reporter = new CrawlReporter(this.emitter, this.recorder);
  private readonly frontier: Frontier;
  /** Claims URLs of ready hosts and hands each to the pipeline (`run()`). */
  private readonly claims: ClaimLoop;
  private readonly ownedClose: (() => Promise<void>)[] = [];
  /** Aborts the crawl at once (`fail`, a second `stop()`, the end of the grace period). */
  private readonly halt = new AbortController();
  /** `stop()` was called: no new claim, no new request. */
  private readonly stopping = new AbortController();
  /** Ends `stop()`'s grace period; cleared when `run()` ends first. */
  private graceTimer: ReturnType<typeof setTimeout> | undefined;
  private running = false;
  private ran = false;
  /** The first error that ended the crawl (see isFatalCrawlError): `run()` rejects with it. */
  private fatal: { readonly error: unknown } | undefined;
  private readonly dataset: Dataset;
  /** The crawl's WARC archive (a `warc` output). */
  private readonly archive: WarcArchive | undefined;
  /** Which requests share a politeness clock (`politenessKey`). */
  private readonly keys: PolitenessKeys;
  /** What the crawl has learned of each host's pace (the pipeline's, and robots.txt's signed retry's). */
  private readonly politeness: HostPoliteness;
  /** Whether a response challenged an unsigned request (`signing.sign: 'on-challenge'`). */
  private isSignatureChallenge: (response: HttpResponse) => boolean = () => false;
  /** The outputs being opened (by `run()`, or a `push` before it). */
  private datasetOpened: Promise<void> | undefined;
  /** URLs `enqueue` added before `run()`: the store holding only these is not a resumed crawl. */
  private addedBeforeRun = 0;
  /** The store made ready for this crawl (emptied first with `fresh`), before anything is added to it. */
  private storeReady: Promise<void> | undefined;
  /** This run's seeds and those refused (a run whose every seed was refused rejects). */
  private readonly seeds: SeedRefusals;
  /** Ends leases and orders each host's requests (made with the pipeline's services, before any fetch). */
  private settler: LeaseSettler | undefined;

  constructor(raw: CrawlerOptions) {
    const options = resolveCrawlerOptions(raw);
    this.options = options;
    this.seeds = new SeedRefusals(options.canonicalUrl);
    this.pageBudget = { started: 0, max: options.maxPages };
    this.signal = this.crawlSignal(raw.signal);
    // Every request waiting for its turn at a host listens to `stopping` too: by design, not a leak.
    setMaxListeners(0, this.stopping.signal);
    const addresses = addressBookOf(options);
    this.recorder.metrics = new CrawlMetrics(raw.meterProvider);
    this.keys = createPolitenessKeys(options.politenessKey, addresses);
    this.politeness = new HostPoliteness({
      minDelayMs: options.minDelayMs,
      maxCrawlDelayMs: options.maxCrawlDelayMs,
      backoffBaseMs: options.backoffBaseMs,
      backoffMaxMs: options.backoffMaxMs,
      adaptive: options.adaptiveDelay,
    });
    const { client, archive } = this.clientAndArchive(raw, addresses);
    this.archive = archive;
    // A store of its own lives as long as this one crawl: nothing to remember for a recrawl.
    this.store = this.recorder.metrics.store(raw.store ?? ownStore(options));
    this.cookies = createCrawlCookies(options.cookies, this.store, (error) => this.fail(error));
    this.gate = this.robotsGate(raw, client);
    if (raw.logger !== undefined) attachLogger(this, raw.logger);
    this.dataset = new Dataset(options.outputs.records, {
      onRecord: (record, url) => this.emitter.emit('record', { record, url }),
      listens: () => this.emitter.listens('record'),
      onFailure: (error) => this.fail(error),
      onWritten: (bytes, format) => this.recorder.metrics.written(bytes, format),
    });
    this.seedUrls = options.seeds.map((seed) => seed.url);
    this.inScope = this.buildScope();
    const robotsAgent = options.robotsTokens.length > 1 ? options.robotsTokens : options.userAgent;
    const knownRobots = createKnownRobotsCheck(this.gate, robotsAgent);
    this.frontier = this.buildFrontier(knownRobots);
    this.plugins = pluginContexts(options.plugins, this.crawlContext(), this.reporter);
    const processor = new UrlProcessor(options, this.services(client, knownRobots));
    this.concurrency = this.recorder.metrics.concurrency(
      options.adaptiveConcurrency
        ? new ConcurrencyGovernor(options.concurrency)
        : fixedConcurrency(options.concurrency),
    );
    this.claims = new ClaimLoop({
      store: this.store,
      process: (lease) => processor.process(lease),
      limit: this.concurrency,
      leaseMs: options.leaseMs,
      pageBudget: this.pageBudget,
      reopenDue: () => this.reopenDue(),
      signal: this.signal,
      stopping: this.stopping.signal,
      paused: () => this.isPaused,
    });
    // A completion may claim for the slot it frees, in its own round trip (a Redis store).
    if (this.settler !== undefined) this.settler.successor = this.claims;
  }

  /** `pause()` without a `resume()` since. */
  private isPaused = false;

  private readonly concurrency: ConcurrencyLimit;

  get concurrencyLimit(): number {
    return this.concurrency.current;
  }

  get paused(): boolean {
    return this.isPaused;
  }

  pause(): void {
    this.isPaused = true;
  }

  resume(): void {
    if (!this.isPaused) return;
    this.isPaused = false;
    this.notify();
  }

  private readonly signal: AbortSignal;
  private readonly pageBudget: { started: number; readonly max: number };
  private readonly cookies: CrawlCookies;
  private readonly plugins: ReturnType<typeof pluginContexts>;
  /** Seeds so far: the scope is derived from them, and grows with `enqueue`. */
  private readonly seedUrls: string[];
  /** The origins of the crawl's scope seeds the store holds (every worker's, `addSeeds`'): the scope derives from them too. */
  private readonly scopeRoots = new Set<string>();
  /** Stops reading the store's scope seeds (set by `run()`). */
  private stopScopeWatch: () => void = () => {};
  private inScope: ScopePredicate;
  /** The browser of the crawl (`render`), started by `run()` and closed when it ends. */
  private renderSession: Promise<RenderSession> | undefined;
  /** Reopens what is due (`recrawl`), set by `run()`. */
  private reopenDue: () => Promise<number> = async () => 0;

  /** The crawl's signal: the caller's, and `halt`'s (`fail`, `stop()`). */
  private crawlSignal(given: AbortSignal | undefined): AbortSignal {
    const signal = given === undefined ? this.halt.signal : AbortSignal.any([given, this.halt.signal]);
    // Every request in flight listens to this one signal: that is by design, not a leak.
    setMaxListeners(0, signal);
    signal.addEventListener('abort', () => this.notify(), { once: true });
    return signal;
  }

  /**
   * The crawl's HTTP client (the caller's, or one of its own that the crawl closes) and the WARC
   * archive (a `warc` output): every request then goes through one client that captures its exchange.
   */
  private clientAndArchive(
    raw: CrawlerOptions,
    addresses: AddressBook | undefined,
  ): { client: HttpClient; archive: WarcArchive | undefined } {
    const { options } = this;
    const ownClient = sentReportingClient(
      this.recorder.metrics.client(raw.httpClient ?? ownHttpClient(options, addresses)),
      this.emitter,
    );
    if (raw.httpClient === undefined) this.ownedClose.push(() => ownClient.close());
    // Signing inside archiving: the archive holds the signature headers as sent.
    const { signing } = options;
    const onSigned = (): void => this.recorder.signed();
    const signed =
      signing === undefined ? undefined : signingClient(ownClient, signing.signer, { sign: signing.sign, onSigned });
    if (signed !== undefined) this.isSignatureChallenge = (response) => signed.isChallenge(response);
    const sent = signed ?? ownClient;
    const warc = options.outputs.warc;
    if (warc === undefined) return { client: sent, archive: undefined };
    const { userAgent, from, robotsTokens, purposes } = options;
    const onFailure = (error: unknown): void => this.fail(error);
    const onWritten = (bytes: number): void => this.recorder.metrics.written(bytes, 'warc');
    const archive = new WarcArchive(warc, { userAgent, from, robotsTokens, purposes }, { onFailure, onWritten });
    return { client: archivingClient(sent, archive), archive };
  }

  /** The robots gate: the caller's, or one of its own (closed first when the crawl ends) fetching through `client`. */
  private robotsGate(raw: CrawlerOptions, client: HttpClient): RobotsGate {
    if (raw.gate !== undefined) return raw.gate;
    const { options } = this;
    const onRequest = (url: URL, startedAt: number): void => {
      const hostKey = this.keys.knownKeyOf(url);
      this.recorder.request('robots');
      this.emitter.emit('request', { url: url.href, hostKey, kind: 'robots', at: startedAt });
    };
    const onOutcome = (outcome: RobotsFetchOutcome): void => this.recorder.metrics.robotsFetched(outcome);
    const profile = { from: options.from, headers: options.headers };
    // Above per-host concurrency 1, robots.txt waits for the host's send turn like a page does.
    const takeTurn =
      options.perHostConcurrency > 1
        ? (url: URL, signal: AbortSignal) => {
            const hostKey = this.keys.knownKeyOf(url);
            const delayMs = (): number => this.politeness.delayMs(hostKey);
            return this.settler?.takeSendTurn(hostKey, delayMs, [signal, this.signal]) ?? Promise.resolve(undefined);
          }
        : undefined;
    const gate = createRobotsGate({
      userAgent: options.userAgent,
      ...(raw.robotsCache === undefined ? {} : { cache: raw.robotsCache }),
      minBackoffMs: Math.max(1, options.backoffBaseMs),
      maxBackoffMs: Math.max(1, options.backoffMaxMs),
      fetch: createCrawlerRobotsFetch(
        client,
        Math.min(options.requestTimeoutMs, 10_000),
        { onRequest, onOutcome, ...(takeTurn === undefined ? {} : { takeTurn }) },
        profile,
        {
          isChallenge: this.isSignatureChallenge,
          delayMsOf: (url) => this.politeness.delayMs(this.keys.knownKeyOf(url)),
          // Within the gate's own 10-second deadline for one robots.txt fetch.
          maxWaitMs: Math.min(options.backoffMaxMs, 5_000),
        },
      ),
    });
    this.ownedClose.unshift(() => gate.close());
    return gate;
  }

  private buildFrontier(knownRobots: KnownRobotsCheck): Frontier {
    const { options } = this;
    return createFrontier({
      store: this.store,
      inScope: (url) => this.inScope(url),
      canonicalUrl: options.canonicalUrl,
      maxDepth: options.maxDepth,
      maxPagesPerHost: options.maxPagesPerHost,
      trapDetection: options.trapDetection,
      hostKeyOf: (url) => this.keys.keyOf(url),
      onSkip: (url, skip, referrer) => this.reporter.skip(url, skip, referrer),
      disallowedByKnownRobots: knownRobots,
      // A handler's page.enqueue: the loop may be waiting for the page to settle; it need not.
      onAdded: () => this.notify(),
      onSeedRefused: (url, skip) => this.seeds.refuse(url, skip),
      checkLabel: labelCheckOf(options.handlers),
    });
  }

  /** What every plugin's context shares: the crawl's enqueue, error report, gate and identity. */
  private crawlContext(): CrawlContext {
    return {
      enqueue: (requests) => this.frontier.add(requests),
      error: (url, error) => this.reporter.error(url, error, 'processor', 1, false),
      gate: this.gate,
      userAgent: this.options.userAgent,
      signal: this.signal,
    };
  }

  /** The crawl's shared things the pipeline's stages take their settings from. */
  private services(client: HttpClient, knownRobots: KnownRobotsCheck): CrawlServices {
    const { options } = this;
    this.settler = new LeaseSettler(this.store, options.perHostConcurrency, this.frontier.addOptions, {
      // A request is written within its timeout, or never (the turn is then ended at once).
      busyForMs: options.requestTimeoutMs + 1000,
      onError: (error) => this.fail(error),
    });
    return {
      store: this.store,
      frontier: this.frontier,
      gate: this.gate,
      client,
      politeness: this.politeness,
      isSignatureChallenge: this.isSignatureChallenge,
      settler: this.settler,
      keys: this.keys,
      emitter: this.emitter,
      stats: this.recorder,
      reporter: this.reporter,
      seeds: this.seeds,
      signal: this.signal,
      stopping: this.stopping.signal,
      pageBudget: this.pageBudget,
      resourceKinds: resourceKindsOf(this.plugins),
      cookies: this.cookies.session,
      dataset: this.dataset,
      knownRobots,
      renderSession: () => this.renderSession ?? Promise.reject(notRunning()),
      onFatal: (error) => this.fail(error),
    };
  }

  on<E extends CrawlerEventName>(event: E, listener: CrawlerListener<E>): () => void {
    return this.emitter.on(event, listener);
  }

  async enqueue(urls: string | readonly string[], options: RequestOptions = {}): Promise<number> {
    const list = typeof urls === 'string' ? [urls] : urls;
    const data = list.length === 0 ? {} : checkRequestData(list[0]!, options);
    await this.prepareStore();
    this.seedUrls.push(...list);
    this.inScope = this.buildScope();
    // Recorded before they are queued: a worker that claims one has its origin in scope.
    await this.shareScope(list);
    this.seeds.offer(list);
    const seeds = list.map((url) => ({ url, depth: 0, priority: options.priority ?? 0, ...data }));
    const added = await queueSeeds(this.runAgain(), seeds);
    if (!this.ran) this.addedBeforeRun += added;
    return added;
  }

  async push(records: DatasetRecord | readonly DatasetRecord[]): Promise<void> {
    // Before run() and while it runs (it may still be opening them): the outputs open once.
    if (!this.ran || this.running) await this.openDataset();
    return this.dataset.push(records);
  }

  outputs(): readonly (OutputStatus | WarcOutputStatus)[] {
    const records = this.dataset.status();
    return this.archive === undefined ? records : [...records, this.archive.status()];
  }

  /** Empties the store first with `fresh` (once, before anything is added to it or read from it). */
  private prepareStore(): Promise<void> {
    this.storeReady ??= this.options.fresh ? this.store.clear() : Promise.resolve();
    return this.storeReady;
  }

  /** What `run-again.ts` works with. */
  private runAgain(): RunAgain {
    const { store, frontier, emitter } = this;
    return { store, frontier, emitter, canonicalUrl: this.options.canonicalUrl, notify: () => this.notify() };
  }

  /**
   * Opens the outputs once; a crawl whose store held URLs before this crawler added any resumes
   * into them. With `fresh` they start afresh, opened before the store is emptied: an output that
   * refuses (a file with records, and no `overwrite`) leaves the store as it was.
   */
  private openDataset(): Promise<void> {
    this.datasetOpened ??= (async () => {
      let resume = false;
      if (!this.options.fresh && (this.dataset.hasOutputs || this.archive !== undefined)) {
        const counts = await this.store.counts();
        resume = counts.queued + counts.inFlight + counts.done > this.addedBeforeRun;
      }
      await this.dataset.open(resume);
      await this.archive?.open(resume);
      await this.prepareStore();
    })();
    return this.datasetOpened;
  }

  stats(): CrawlStats {
    return this.recorder.snapshot(0, this.stopped);
  }

  stop(): void {
    if (this.ran && !this.running) return;
    if (this.stopping.signal.aborted) {
      this.halt.abort(new PolitelyError('ERR_ABORTED', 'crawler.stop(): stopped at once'));
      return;
    }
    this.stopping.abort();
    this.notify();
    // Before run() nothing is in flight: run() will claim nothing, and no grace is needed.
    if (!this.running) return;
    const graceMs = this.options.stopGraceMs;
    const reason = new PolitelyError('ERR_ABORTED', `crawler.stop(): requests still in flight after ${graceMs} ms`);
    this.graceTimer = setTimeout(() => this.halt.abort(reason), graceMs);
    // Requests in flight keep the process alive, not this timer: a stop as run() ends adds no wait.
    this.graceTimer.unref();
  }

  /** The crawl was stopped (`stop()`, the signal, a fatal error) rather than run to its end. */
  private get stopped(): boolean {
    return this.signal.aborted || this.stopping.signal.aborted;
  }

  async run(): Promise<CrawlStats> {
    if (this.running) throw new PolitelyError('ERR_INVALID_INPUT', 'crawler.run(): this crawler is already running');
    // run() closes the HTTP client and gate it made: one crawler, one run. The store outlives it.
    if (this.ran)
      throw new PolitelyError(
        'ERR_INVALID_INPUT',
        'crawler.run(): this crawler has run already; create a new crawler with the same store to crawl again',
      );
    this.running = true;
    this.ran = true;
    this.recorder.start();
    for (const message of this.options.signing?.signer.warnings ?? [])
      this.emitter.emit('warning', { kind: 'signing', message });
    try {
      await this.openDataset();
      await this.cookies.restore();
      await this.startRenderer();
      this.seeds.offer(this.options.seeds.map((seed) => seed.url));
      // This run's seeds join the store's list; the list's other origins (other workers', a
      // resumed run's, `addSeeds`') widen this run's scope, now and while it runs.
      await this.shareScope(this.seedUrls, true);
      this.stopScopeWatch = watchScopeRoots(this.store, (roots) => this.widenScope(roots));
      await queueSeeds(
        this.runAgain(),
        this.options.seeds.map((seed) => ({ ...seed, depth: 0, priority: seed.priority ?? 0 })),
      );
      if (this.options.retryFailed) await requeueFailed(this.runAgain());
      const startedAt = Date.now();
      // A recrawl: what is due now goes back to the queues. A URL this crawl fetches is due
      // after `startedAt`, so each is revisited once, and the crawl ends.
      this.reopenDue = this.options.recrawl
        ? () => this.reopenDueBefore(startedAt, startedAt - this.options.revisitMaxMs)
        : async () => 0;
      await this.reopenDue();
      for (const { plugin, context } of this.plugins) await plugin.start?.({ ...context, seeds: [...this.seedUrls] });
      await warnIfNothingToDo(this.runAgain(), this.options.retryFailed);
      await this.claims.run();
      for (const { plugin, context } of this.plugins) await plugin.end?.(context);
    } catch (error) {
      // A store that failed while seeding or claiming: in-flight work has ended (loop waits for it).
      this.fail(error);
    } finally {
      this.stopScopeWatch();
      // Nothing is in flight any more: the grace period has nothing left to cut.
      clearTimeout(this.graceTimer);
      // The session a resumed crawl goes on with.
      await this.cookies.flush().catch((error: unknown) => this.fail(error));
      // Every page has committed (the loop waited for them); pushes from outside are written.
      await this.dataset.close().catch((error: unknown) => this.fail(error));
      this.recorder.finish();
      await this.closeRenderer();
      // After the browser: a rendered page's last sub-requests are archived too.
      await this.archive?.close().catch((error: unknown) => this.fail(error));
      for (const close of this.ownedClose) await close().catch(() => {});
      this.running = false;
    }
    if (this.fatal !== undefined) throw this.fatal.error;
    if (!this.stopped) {
      const refused = this.seeds.errorIfAllRefused(this.recorder.pages);
      if (refused !== undefined) throw refused;
    }
    const counts = await this.store.counts();
    const stats = this.recorder.snapshot(counts.queued + counts.inFlight, this.stopped);
    this.emitter.emit('done', stats);
    return stats;
  }

  /** Starts the browser (`render`): a renderer that cannot start fails the crawl before any request. */
  private async startRenderer(): Promise<void> {
    const { render } = this.options;
    if (render === undefined) return;
    this.renderSession = render.renderer.start({
      userAgent: this.options.userAgent,
      maxOpenPages: this.options.concurrency,
      signal: this.signal,
    });
    await this.renderSession;
  }

  private async closeRenderer(): Promise<void> {
    const session = this.renderSession;
    if (session === undefined) return;
    await session.then((started) => started.close()).catch(() => {});
  }

  /**
   * Reopens the store's URLs due before `dueBefore`, or fetched before `fetchedBefore` (the
   * longest wait as `revisitMaxMs` is now), all of them, in batches; resolves with how many.
   */
  private async reopenDueBefore(dueBefore: number, fetchedBefore: number): Promise<number> {
    let reopened = 0;
    for (;;) {
      const batch = await this.store.reopenDue({ dueBefore, fetchedBefore, limit: REOPEN_BATCH });
      reopened += batch;
      if (batch < REOPEN_BATCH || this.signal.aborted) return reopened;
    }
  }

  /**
   * Ends the crawl for an error no URL can recover from: nothing new starts, requests in flight
   * are aborted (their URLs go back to the store), and `run()` rejects with the first such error.
   */
  private fail(error: unknown): void {
    this.fatal ??= { error };
    this.halt.abort(error);
    this.notify();
  }

  /** The scope from the seeds in their canonical form (so URL options such as stripWww apply alike), and the store's scope seeds. */
  private buildScope(): ScopePredicate {
    const seeds = this.canonical(this.seedUrls);
    for (const root of this.scopeRoots) seeds.push(`${root}/`);
    return createScope(this.options.scope, seeds);
  }

  /** The canonical form of the URLs that have one. */
  private canonical(urls: readonly string[]): string[] {
    return urls.map((url) => canonicalizeUrl(url, this.options.canonicalUrl)).flatMap((r) => (r.ok ? [r.url] : []));
  }

  /**
   * Records the seeds' origins in the store's scope seeds (once each), and widens the scope with
   * the whole list; with `always`, reads the list even when there is nothing to record.
   */
  private async shareScope(seeds: readonly string[], always = false): Promise<void> {
    const roots = scopeRootsOf(this.canonical(seeds)).filter((root) => !this.scopeRoots.has(root));
    if (roots.length === 0 && !always) return;
    this.widenScope(await recordScopeRoots(this.store, roots));
  }

  /** Takes the origins not known yet into the scope. */
  private widenScope(roots: readonly string[]): void {
    const before = this.scopeRoots.size;
    for (const root of roots) this.scopeRoots.add(root);
    if (this.scopeRoots.size !== before) this.inScope = this.buildScope();
  }

  /** Wakes the claim loop: a URL settled, URLs arrived, or the crawl stops. */
  private notify(): void {
    this.claims?.notify();
  }
}
