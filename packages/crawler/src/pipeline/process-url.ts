// One claimed URL through the stages: robots gate → politeness → fetch → extract and handler →
// frontier. Each stage returns a value; the URL's outcome is reported and its lease settled in
// one place (`process`), from that value alone.

import { createAddressPolicy, PolitelyError, type HttpClient, type HttpResponse, type RobotsGate, type UsagePurpose, type UsageReport } from '@politely/core';
import { robotsSkip, type SkipDetail } from '../skip-reasons.js';
import type { Dataset } from '../dataset/dataset.js';
import type { CrawlerEmitter } from '../events.js';
import { fetchStage, type FetchStageSettings } from './stages/fetch.js';
import { followRedirect } from '../frontier/follow-redirect.js';
import type { Frontier } from '../frontier/frontier.js';
import type { FrontierEntry, FrontierLease, FrontierStore } from '../frontier/frontier-store.js';
import { robotsStage, type RobotsStageSettings } from './stages/robots.js';
import { UsageStage, type UsageKnown } from './stages/usage.js';
import { handlePage, type HandlePageSettings } from './stages/handle.js';
import { reviewFetch, type RevisitStageSettings } from './stages/revisit.js';
import { tooSoonToRevisit } from '../frontier/revisit-schedule.js';
import { createRouter } from '../handle/routes.js';
import { runProcessor, type PluginResourceKind } from '../handle/run-processor.js';
import type { ResolvedCrawlerOptions } from '../options.js';
import { pacedAfter, sleepUntil, type ClockChange, type HostPoliteness, type PolitenessKeys } from '../politeness/index.js';
import { deniedTurn, paceAfterRobots, type RobotsPaceSettings } from './stages/turn.js';
import type { StatsRecorder } from '../stats.js';
import { done, handBack, released, skipped, type UrlOutcome } from './outcome.js';
import type { CrawlReporter } from '../reporter.js';
import { LeaseSettler } from './settle.js';
import type { KnownRobotsCheck } from '../gate/known-robots.js';
import type { RenderSession } from '../page-renderer.js';
import { isRenderable, renderStage, type RenderStageSettings } from './stages/render.js';
import { SubRequests } from '../render/sub-requests.js';
import type { CookieSession } from '../cookies/cookie-session.js';

export interface ProcessorDeps {
  readonly options: ResolvedCrawlerOptions;
  readonly store: FrontierStore;
  readonly frontier: Frontier;
  readonly gate: RobotsGate;
  readonly client: HttpClient;
  readonly politeness: HostPoliteness;
  readonly emitter: CrawlerEmitter;
  readonly stats: StatsRecorder;
  readonly reporter: CrawlReporter;
  readonly signal: AbortSignal;
  /** Page fetches started so far, and the budget (`maxPages`). */
  readonly pageBudget: { started: number; readonly max: number };
  /** Plugin resource kinds (anything but `page`): each kind's processor and its plugin's context. */
  readonly resourceKinds: ReadonlyMap<string, PluginResourceKind>;
  /** The crawl's cookies, when on. */
  readonly cookies?: CookieSession | undefined;
  /**
   * Called with an error that ends the crawl (a fatal handler error, a store that failed): the
   * lease was handed back first, so the URL stays in the store.
   */
  readonly onFatal: (error: unknown) => void;
  /** The crawl's dataset, for `page.push`. */
  readonly dataset: Dataset;
  /** Which requests share a politeness clock (`politenessKey`), and the address a key connects to. */
  readonly keys: PolitenessKeys;
  /** robots.txt already known to disallow a URL: a rendered page's sub-request is refused without a turn. */
  readonly knownRobots: KnownRobotsCheck;
  /** The crawl's render session (`render`), started by `run()`. */
  readonly renderSession: () => Promise<RenderSession>;
}

/** How far a walk has come, for the host's clock if it ends by an exception. */
interface WalkProgress {
  /** The clock to settle with: handed back until a request is made, then that request's. */
  clock: ClockChange;
  /** A request has gone out and its answer (and so its clock) is not in yet. */
  requesting: boolean;
}

export class UrlProcessor {
  private readonly settler: LeaseSettler;
  private readonly robots: RobotsStageSettings;
  private readonly pace: RobotsPaceSettings;
  private readonly fetch: FetchStageSettings;
  private readonly handle: HandlePageSettings;
  private readonly usage: UsageStage;
  private readonly revisits: RevisitStageSettings;
  private readonly render: RenderStageSettings | undefined;

  constructor(private readonly deps: ProcessorDeps) {
    const { options, signal } = deps;
    this.settler = new LeaseSettler(deps.store, options.perHostConcurrency, deps.frontier.addOptions);
    this.robots = {
      gate: deps.gate,
      userAgent: options.userAgent,
      tokens: options.robotsTokens,
      maxRobotsRetries: options.maxRobotsRetries,
      delayMsOf: (hostKey) => deps.politeness.delayMs(hostKey),
      signal,
    };
    this.pace = { politeness: deps.politeness, store: deps.store, perHostConcurrency: options.perHostConcurrency };
    this.fetch = {
      client: deps.client,
      userAgent: options.userAgent,
      from: options.from,
      headers: options.headers,
      cookies: deps.cookies,
      maxBodyBytes: options.maxBodyBytes,
      requestTimeoutMs: options.requestTimeoutMs,
      maxRetries: options.maxRetries,
      backoffMaxMs: options.backoffMaxMs,
      politeness: deps.politeness,
      connectAddressOf: (hostKey) => deps.keys.connectAddressOf(hostKey),
      emitter: deps.emitter,
      stats: deps.stats,
      signal,
    };
    this.usage = new UsageStage({
      purposes: options.purposes,
      tokens: options.robotsTokens,
      gate: deps.gate,
      client: deps.client,
      userAgent: options.userAgent,
      from: options.from,
      headers: options.headers,
      requestTimeoutMs: options.requestTimeoutMs,
      tdmrepCacheMs: options.tdmrepCacheMs,
      delayMsOf: (hostKey) => deps.politeness.delayMs(hostKey),
      emitter: deps.emitter,
      stats: deps.stats,
      signal,
    });
    this.revisits = {
      bounds: { minMs: options.revisitMinMs, maxMs: options.revisitMaxMs },
      remembered: deps.store.remembersFetches !== false,
      stats: deps.stats,
      emitter: deps.emitter,
    };
    this.render = options.render === undefined ? undefined : {
      session: deps.renderSession,
      subRequests: new SubRequests({
        gate: deps.gate,
        knownRobots: deps.knownRobots,
        userAgent: options.userAgent,
        tokens: options.robotsTokens,
        client: deps.client,
        from: options.from,
        headers: options.headers,
        cookies: deps.cookies,
        store: deps.store,
        politeness: deps.politeness,
        keys: deps.keys,
        addressPolicy: options.blockPrivateNetworks ? createAddressPolicy(options.allowNet) : undefined,
        perHostConcurrency: options.perHostConcurrency,
        requestTimeoutMs: options.requestTimeoutMs,
        maxBodyBytes: options.maxBodyBytes,
        backoffMaxMs: options.backoffMaxMs,
        blockedTypes: options.renderBlockResourceTypes,
        stats: deps.stats,
        reporter: deps.reporter,
        emitter: deps.emitter,
        signal,
        onPace: (hostKey, readyAt) => this.settler.notePace(hostKey, readyAt, Date.now()),
        paceOf: (hostKey) => this.settler.paceOf(hostKey, Date.now()),
      }),
      waitUntil: options.renderWaitUntil,
      timeoutMs: options.renderTimeoutMs,
      maxBodyBytes: options.maxBodyBytes,
      maxRetries: options.maxRetries,
      stats: deps.stats,
      signal,
    };
    this.handle = {
      options,
      route: createRouter(options.handler, options.handlers),
      frontier: deps.frontier,
      reporter: deps.reporter,
      signal,
      dataset: deps.dataset,
      usage: this.usage,
      emitter: deps.emitter,
    };
  }

  /** Walks the URL through the stages, reports its outcome and settles its lease: exactly once. */
  async process(lease: FrontierLease): Promise<void> {
    let outcome: UrlOutcome;
    const progress: WalkProgress = { clock: handBack(lease), requesting: false };
    try {
      outcome = await this.walk(lease, progress, Date.now());
    } catch (error) {
      // Aborted, a fatal handler error, or a store failure: the URL goes back to the queue (if
      // the store still answers), nothing is lost. The host's clock keeps any request made: a
      // worker sharing the store, or a resumed crawl, must not go at once.
      const clock = progress.requesting ? pacedAfter(Date.now(), this.deps.politeness.delayMs(lease.entry.hostKey)) : progress.clock;
      await this.settler.settle(lease, released('stopping', clock)).catch(() => {});
      // Once the crawl's signal has fired (an abort, its timeout, a fatal error met elsewhere),
      // what a walk throws is that stop. Anything else escaped every stage's own handling, so the
      // crawl cannot go on as if it had not happened.
      if (!this.deps.signal.aborted) this.deps.onFatal(error);
      return;
    }
    this.report(lease.entry, outcome);
    try {
      const stored = await this.settler.settle(lease, outcome);
      if (outcome.kind === 'done' && outcome.links !== undefined) this.deps.frontier.stored(outcome.links, stored);
    } catch (error) {
      this.deps.onFatal(error);
    }
  }

  private async walk(lease: FrontierLease, progress: WalkProgress, claimedAt: number): Promise<UrlOutcome> {
    const { entry } = lease;
    const { options, pageBudget, reporter } = this.deps;
    const attempt = (entry.retries ?? 0) + 1;
    // A hold this process knows and the store may not yet (the request that met it has not
    // settled: its handler runs): no request; the URL goes back, and the host's clock with it.
    if (this.settler.heldUntil(entry.hostKey, claimedAt) !== undefined) return released('host-held', handBack(lease));
    // Reopened, but `revisitMinMs` (raised since its due time was set) says not yet: kept, no request.
    const tooSoon = tooSoonToRevisit(entry.revisit, options.revisitMinMs, claimedAt);
    if (tooSoon !== undefined) return done(handBack(lease), [], tooSoon);

    const verdict = await robotsStage(entry, this.robots);
    if (verdict.kind !== 'verdict') return verdict;
    const { check } = verdict;
    const afterRobots = await paceAfterRobots(entry, check, lease.previousHostReadyAt, this.pace);
    progress.clock = afterRobots;
    if (!check.allowed) return skipped(robotsSkip(check.rule, check.reason, check.token), afterRobots);

    const kind = this.resourceKindOf(entry);
    if (kind instanceof Error) return { kind: 'failed', error: kind, stage: 'processor', clock: afterRobots };
    if (kind?.processor.fetch === false) {
      await runProcessor(entry, kind, undefined, attempt, reporter);
      return done(afterRobots);
    }
    const isPage = kind === undefined;
    // Usage preferences apply to pages (content); a plugin's resources (sitemaps) are not content.
    let usage = isPage ? this.usage.before(entry, check) : undefined;
    if (usage?.kind === 'reserved') return this.usageReserved(entry, usage.skip, usage, afterRobots);
    const denied = deniedTurn({
      robotsUsedTurn: check.fetch !== undefined,
      overBudget: isPage && pageBudget.started >= pageBudget.max,
      leaseExpiresAt: lease.leaseExpiresAt,
      now: Date.now(),
    });
    if (denied !== undefined) return released(denied, afterRobots);
    if (usage?.kind === 'needs-tdmrep') {
      // The origin's tdmrep.json takes this claim's turn at the host, as robots.txt would.
      progress.requesting = true;
      const turn = await this.usage.fetchTdmrep(entry, usage.origin);
      progress.requesting = false;
      if (turn.usedTurn) return released('tdmrep-turn', turn.clock);
      // No request was made (robots.txt disallows the file): no file, and the claim goes on.
      usage = this.usage.before(entry, check, null);
      if (usage.kind === 'reserved') return this.usageReserved(entry, usage.skip, usage, afterRobots);
    }
    const known: UsageKnown | undefined = usage?.kind === 'pass' ? usage.known : undefined;

    // With several requests in flight at the host (perHostConcurrency > 1, a rendered page's
    // sub-requests), a claim is paced from when the store granted it, but the request it follows
    // may have started later: it waits for that request's pace, as this process knows it.
    const pace = this.settler.paceOf(entry.hostKey, Date.now());
    if (pace !== undefined) await sleepUntil(pace, [this.deps.signal]);
    if (this.deps.signal.aborted) throw new PolitelyError('ERR_ABORTED', `${entry.url}: the crawl stopped`);
    if (isPage) pageBudget.started++;
    progress.requesting = true;
    this.settler.notePace(entry.hostKey, Date.now() + this.deps.politeness.delayMs(entry.hostKey), Date.now());
    const fetched = await fetchStage(entry, kind?.processor, check, this.fetch);
    progress.requesting = false;
    if (fetched.kind !== 'fetched') return fetched;
    progress.clock = fetched.clock;
    // The host is held from the moment the response is in, not only once this URL settles.
    this.settler.noteHold(entry.hostKey, fetched.clock, Date.now());
    this.settler.notePace(entry.hostKey, fetched.clock.readyAt, Date.now());
    const review = reviewFetch(entry, fetched.response, Date.now(), this.revisits);
    if (fetched.location !== undefined) {
      const unfollowed = await followRedirect(entry, fetched.location, options.maxRedirects, this.deps.frontier);
      if (unfollowed !== undefined) reporter.skip(unfollowed.url, unfollowed.skip, unfollowed.referrer);
      return done(fetched.clock, [], review.remember());
    }
    if (isPage) {
      this.deps.stats.response(fetched.response.status, fetched.response.body.length);
      if (this.rendersPage(entry, fetched.response)) return this.renderAndHandle(entry, fetched.response, fetched.clock, attempt, known, review);
      const handled = await handlePage(entry, fetched.response, attempt, this.handle, known, review);
      return done(fetched.clock, handled.links, review.remember(handled.withheld));
    }
    // A resource (a sitemap) the server says is as it was has nothing new to process.
    if (review.change !== 'not-modified' && review.change !== 'unchanged') await runProcessor(entry, kind, fetched.response, attempt, reporter);
    return done(fetched.clock, [], review.remember());
  }

  /** Whether the crawl renders this fetched page (`render`): a 2xx HTML page its choice picks. */
  private rendersPage(entry: FrontierEntry, response: HttpResponse): boolean {
    const { render } = this.deps.options;
    if (render === undefined || !isRenderable(response)) return false;
    return render.choose({ url: entry.url, label: entry.label, userData: entry.userData ?? {}, depth: entry.depth });
  }

  /** The render stage, then extraction and the handler over the rendered DOM, with the live page open. */
  private async renderAndHandle(entry: FrontierEntry, response: HttpResponse, clock: ClockChange, attempt: number, known: UsageKnown | undefined, review: ReturnType<typeof reviewFetch>): Promise<UrlOutcome> {
    const rendered = await renderStage(entry, response, clock, this.render!);
    if (rendered.kind !== 'rendered') return rendered;
    let handled;
    try {
      handled = await handlePage(entry, rendered.response, attempt, this.handle, known, review, rendered.page);
    } finally {
      // Closed before the URL settles: the host's clock then knows every request the page made.
      clock = await rendered.close();
    }
    return done(clock, handled.links, review.remember(handled.withheld));
  }

  /** A URL robots.txt lines or tdmrep.json reserve for a wanted purpose: skipped, no request. */
  private usageReserved(entry: FrontierEntry, skip: SkipDetail, usage: { readonly report: UsageReport; readonly reserved: readonly UsagePurpose[] }, clock: ClockChange): UrlOutcome {
    const { emitter } = this.deps;
    if (emitter.listens('usage')) emitter.emit('usage', { url: entry.url, stage: 'before-fetch', report: usage.report, reserved: usage.reserved });
    return skipped(skip, clock);
  }

  /** undefined for a page; the plugin's processor for its kind; an error for a kind no plugin processes. */
  private resourceKindOf(entry: FrontierEntry): PluginResourceKind | undefined | Error {
    if (entry.kind === undefined || entry.kind === 'page') return undefined;
    return this.deps.resourceKinds.get(entry.kind) ?? new PolitelyError('ERR_INVALID_INPUT', `no plugin processes resources of kind '${entry.kind}' (${entry.url})`);
  }

  /** The outcome's own event: a skip, an error (retried or not). Stages report what else they dropped. */
  private report(entry: FrontierEntry, outcome: UrlOutcome): void {
    const attempt = (entry.retries ?? 0) + 1;
    const { reporter } = this.deps;
    if (outcome.kind === 'skipped') reporter.skip(entry.url, outcome.skip, entry.referrer);
    else if (outcome.kind === 'failed') reporter.error(entry.url, outcome.error, outcome.stage, attempt, false);
    else if (outcome.kind === 'retry') reporter.error(entry.url, outcome.error, 'fetch', attempt, true);
  }
}
