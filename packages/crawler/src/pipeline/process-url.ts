// One claimed URL, walked through the stages in the order it meets them (stages/):
//
//   robots.ts   may it be fetched, by its origin's robots.txt?
//   usage.ts    do the site's usage preferences reserve it for one of the crawl's purposes?
//   turn.ts     what the robots check did to the host's clock; may the claim still make its request?
//   fetch.ts    the request (or render.ts: the page rendered in a browser from that response)
//   revisit.ts  what the response says against the URL's last fetch
//   handle.ts   extract and handle the page; its links go back to the frontier
//   failed.ts   a page that failed for good goes to `onFailed` before it is stored as failed
//
// A handler that throws fails the attempt like a failed fetch: the URL goes back to its queue
// (fetched again at the host's pace: the store keeps it, so a crash between attempts loses
// nothing and no response waits in memory) until `maxRetries` is spent.
//
// Each stage returns a value; the URL's outcome (outcome.ts) is reported and its lease settled in
// one place (`process`, through settle.ts), from that value alone. A plugin's resource (a sitemap)
// takes the same path, with its plugin's processor in place of the page's stages.

import { PolitelyError, type RobotsCheck } from '@politely/core';
import type { FrontierEntry, FrontierLease } from '@politely/frontier';
import { followRedirect } from '../frontier/follow-redirect.js';
import { tooSoonToRevisit } from '../frontier/revisit-schedule.js';
import { type PluginResourceKind, runProcessor } from '../handle/run-processor.js';
import type { ResolvedCrawlerOptions } from '../options.js';
import { type ClockChange, pacedAfter } from '../politeness/index.js';
import { robotsSkip } from '../skip-reasons.js';
import { attemptFailed, done, handBack, isSeed, released, skipped, type UrlOutcome } from './outcome.js';
import type { CrawlServices } from './services.js';
import * as failed from './stages/failed.js';
import * as fetch from './stages/fetch.js';
import * as handle from './stages/handle.js';
import * as render from './stages/render.js';
import * as revisit from './stages/revisit.js';
import * as robots from './stages/robots.js';
import * as turn from './stages/turn.js';
import * as usage from './stages/usage.js';

/** How far a walk has come, for the host's clock if it ends by an exception. */
interface WalkProgress {
  /** The clock to settle with: handed back until a request is made, then that request's. */
  clock: ClockChange;
  /** A request has gone out and its answer (and so its clock) is not in yet. */
  requesting: boolean;
}

/** The claim may make its request; `known`: what robots.txt and tdmrep.json said of the page's usage. */
interface Cleared {
  readonly kind: 'cleared';
  readonly known: usage.UsageKnown | undefined;
}

export class UrlProcessor {
  private readonly robots: robots.RobotsStageSettings;
  private readonly usage: usage.UsageStage;
  private readonly turn: turn.TurnStageSettings;
  private readonly fetch: fetch.FetchStageSettings;
  private readonly render: render.RenderStageSettings | undefined;
  private readonly revisits: revisit.RevisitStageSettings;
  private readonly handle: handle.HandlePageSettings;
  private readonly failed: failed.FailedStageSettings;

  constructor(
    options: ResolvedCrawlerOptions,
    private readonly services: CrawlServices,
  ) {
    this.robots = robots.settingsFrom(options, services);
    this.usage = new usage.UsageStage(usage.settingsFrom(options, services));
    this.turn = turn.settingsFrom(options, services);
    this.fetch = fetch.settingsFrom(options, services);
    this.render = render.settingsFrom(options, services);
    this.revisits = revisit.settingsFrom(options, services);
    this.handle = handle.settingsFrom(options, services);
    this.failed = failed.settingsFrom(options, services);
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
      const delayMs = this.services.politeness.delayMs(lease.entry.hostKey);
      const clock = progress.requesting ? pacedAfter(Date.now(), delayMs) : progress.clock;
      this.measure(lease.entry, released('stopping', clock));
      await this.services.settler.settle(lease, released('stopping', clock)).catch(() => {});
      // Cut short by a stop: the next run fetches it again, and the stats say how many.
      if (this.services.signal.aborted) this.services.stats.releasedAtStop++;
      // Once the crawl's signal has fired (an abort, its timeout, a fatal error met elsewhere),
      // what a walk throws is that stop. Anything else escaped every stage's own handling, so the
      // crawl cannot go on as if it had not happened.
      if (!this.services.signal.aborted) this.services.onFatal(error);
      return;
    }
    this.report(lease.entry, outcome);
    this.measure(lease.entry, outcome);
    try {
      await failed.failedStage(lease.entry, outcome, this.failed);
      const stored = await this.services.settler.settle(lease, outcome);
      const links = outcome.kind === 'done' || outcome.kind === 'failed' ? outcome.links : undefined;
      if (links !== undefined) this.services.frontier.stored(links, stored);
    } catch (error) {
      this.services.onFatal(error);
    }
  }

  private async walk(lease: FrontierLease, progress: WalkProgress, claimedAt: number): Promise<UrlOutcome> {
    const { entry } = lease;
    const attempt = (entry.retries ?? 0) + 1;
    // A hold this process knows and the store may not yet (the request that met it has not
    // settled: its handler runs): no request; the URL goes back, and the host's clock with it.
    const held = this.services.settler.heldUntil(entry.hostKey, claimedAt);
    if (held !== undefined) return released('host-held', handBack(lease));
    // Claimed as `stop()` came: no request at all (robots.txt's neither); the URL waits in the store.
    if (this.services.stopping.aborted) return released('stopping', handBack(lease));
    // Reopened, but `revisitMinMs` (raised since its due time was set) says not yet: kept, no request.
    const tooSoon = tooSoonToRevisit(entry.revisit, this.revisits.bounds.minMs, claimedAt);
    if (tooSoon !== undefined) return done(handBack(lease), [], tooSoon);

    const verdict = await robots.robotsStage(entry, this.robots);
    if (verdict.kind !== 'verdict') return verdict;
    const { check } = verdict;
    const afterRobots = await turn.paceAfterRobots(entry, check, lease.previousHostReadyAt, this.turn);
    progress.clock = afterRobots;
    // A robots.txt fetch was a request to the host: this process's other claims there wait for its pace.
    this.services.settler.notePace(entry.hostKey, afterRobots.readyAt, Date.now());
    if (!check.allowed) return skipped(robotsSkip(check.rule, check.reason, check.token), afterRobots);

    const kind = this.resourceKindOf(entry);
    if (kind instanceof Error) return { kind: 'failed', error: kind, stage: 'processor', clock: afterRobots };
    if (kind?.processor.fetch === false) {
      await runProcessor(entry, kind, undefined, attempt, this.services.reporter);
      return done(afterRobots);
    }
    const cleared = await this.clearTurn(lease, check, kind === undefined, afterRobots, progress);
    if (cleared.kind !== 'cleared') return cleared;
    const fetched = await this.request(entry, kind, check, progress);
    if (fetched.kind !== 'fetched') return fetched;
    return this.afterFetch(entry, kind, fetched, cleared.known, attempt);
  }

  /**
   * The usage verdict before the fetch (pages only), then the turn: whether the claim may make
   * its request now. Cleared, it carries what robots.txt and tdmrep.json said of the page's usage.
   */
  private async clearTurn(
    lease: FrontierLease,
    check: RobotsCheck,
    isPage: boolean,
    afterRobots: ClockChange,
    progress: WalkProgress,
  ): Promise<Cleared | UrlOutcome> {
    const { entry } = lease;
    const { pageBudget } = this.services;
    // Usage preferences apply to pages (content); a plugin's resources (sitemaps) are not content.
    let before = isPage ? this.usage.before(entry, check) : undefined;
    if (before?.kind === 'reserved') return this.usageReserved(entry, before, afterRobots);
    const denied = turn.deniedTurn({
      robotsUsedTurn: check.fetch !== undefined,
      overBudget: isPage && pageBudget.started >= pageBudget.max,
      leaseExpiresAt: lease.leaseExpiresAt,
      now: Date.now(),
    });
    if (denied !== undefined) return released(denied, afterRobots);
    if (before?.kind === 'needs-tdmrep') {
      // The origin's tdmrep.json takes this claim's turn at the host, as robots.txt would.
      progress.requesting = true;
      const tdmrep = await this.usage.fetchTdmrep(entry, before.origin);
      progress.requesting = false;
      if (tdmrep.usedTurn) {
        this.services.settler.notePace(entry.hostKey, tdmrep.clock.readyAt, Date.now());
        return released('tdmrep-turn', tdmrep.clock);
      }
      // No request was made (robots.txt disallows the file): no file, and the claim goes on.
      before = this.usage.before(entry, check, null);
      if (before.kind === 'reserved') return this.usageReserved(entry, before, afterRobots);
    }
    return { kind: 'cleared', known: before?.kind === 'pass' ? before.known : undefined };
  }

  /** The fetch stage, once the host's pace as this process knows it has come. */
  private async request(
    entry: FrontierEntry,
    kind: PluginResourceKind | undefined,
    check: RobotsCheck,
    progress: WalkProgress,
  ): Promise<fetch.FetchedResponse | UrlOutcome> {
    const { settler, signal, stopping, politeness, pageBudget } = this.services;
    // A claim is paced from when the store granted it, but the request it follows may have gone
    // out later (several in flight at the host: perHostConcurrency > 1, a rendered page's
    // sub-requests): it waits for that request's pace, as this process knows it, and requests to
    // one host go out one at a time (politeness/send-turns.ts).
    const waitFrom = Date.now();
    const delayMs = (): number => politeness.delayMs(entry.hostKey);
    const ticket = await settler.takeSendTurn(entry.hostKey, delayMs, [signal, stopping]);
    this.services.stats.metrics.turnWaited(Date.now() - waitFrom, entry.kind ?? 'page');
    // Undefined: a signal fired. A stop lets requests in flight finish, but starts none: the URL
    // waits in the store.
    if (ticket === undefined) {
      if (signal.aborted) throw new PolitelyError('ERR_ABORTED', `${entry.url}: the crawl stopped`);
      return released('stopping', progress.clock);
    }
    if (kind === undefined) pageBudget.started++;
    progress.requesting = true;
    // Only overlapping requests need the moment the head is written; one at a time, the next
    // waits for this one's answer anyway, and the pace runs from its start until then.
    const overlapping = this.turn.perHostConcurrency > 1;
    if (!overlapping) ticket.sent(Date.now());
    let fetched: fetch.FetchedResponse | UrlOutcome;
    try {
      fetched = await fetch.fetchStage(
        entry,
        kind?.processor,
        check,
        this.fetch,
        overlapping ? ticket.sent : undefined,
      );
    } finally {
      await ticket.end(Date.now());
    }
    progress.requesting = false;
    // The signed retry of a challenged page is the same page: it takes no second place in `maxPages`.
    if (fetched.kind === 'released' && fetched.reason === 'signature-challenge' && kind === undefined)
      pageBudget.started--;
    if (fetched.kind !== 'fetched') return fetched;
    progress.clock = fetched.clock;
    // The host is held from the moment the response is in, not only once this URL settles.
    settler.noteHold(entry.hostKey, fetched.clock, Date.now());
    settler.notePace(entry.hostKey, fetched.clock.readyAt, Date.now());
    return fetched;
  }

  /**
   * After the response: the revisit review, then a redirect followed through the frontier, a
   * page handled (rendered first when the crawl renders it), or a plugin's resource processed.
   */
  private async afterFetch(
    entry: FrontierEntry,
    kind: PluginResourceKind | undefined,
    fetched: fetch.FetchedResponse,
    known: usage.UsageKnown | undefined,
    attempt: number,
  ): Promise<UrlOutcome> {
    const { response, clock } = fetched;
    const { reporter } = this.services;
    const review = revisit.reviewFetch(entry, response, Date.now(), this.revisits);
    if (fetched.location !== undefined) {
      const unfollowed = await followRedirect(entry, fetched.location, this.fetch.maxRedirects, this.services.frontier);
      if (unfollowed !== undefined) reporter.skip(unfollowed.url, unfollowed.skip, unfollowed.referrer);
      return done(clock, [], review.remember());
    }
    if (kind === undefined) {
      this.services.stats.response(response.status, response.body.length);
      const page: handle.PageInput = { entry, response, attempt, known, revisit: review };
      if (render.rendersPage(entry, response, this.render)) return this.renderAndHandle(page, review, clock);
      const handled = await handle.handlePage(page, this.handle);
      return await this.handledOutcome(entry, handled, clock, review);
    }
    // A resource (a sitemap) the server says is as it was has nothing new to process.
    const asBefore = review.change === 'not-modified' || review.change === 'unchanged';
    if (!asBefore) await runProcessor(entry, kind, response, attempt, reporter);
    return done(clock, [], review.remember());
  }

  /** The render stage, then extraction and the handler over the rendered DOM, with the live page open. */
  private async renderAndHandle(
    page: handle.PageInput,
    review: revisit.FetchReview,
    clock: ClockChange,
  ): Promise<UrlOutcome> {
    const rendered = await render.renderStage(page.entry, page.response, clock, this.render!);
    if (rendered.kind !== 'rendered') return rendered;
    let handled: handle.HandledPage;
    try {
      const renderedPage = { ...page, response: rendered.response, browserPage: rendered.page };
      handled = await handle.handlePage(renderedPage, this.handle);
    } finally {
      // Closed before the URL settles: the host's clock then knows every request the page made.
      clock = await rendered.close();
    }
    return this.handledOutcome(page.entry, handled, clock, review);
  }

  /**
   * A handled page is done; one whose handler threw is retried (fetched again), or failed for
   * good with its links still followed.
   */
  private async handledOutcome(
    entry: FrontierEntry,
    handled: handle.HandledPage,
    clock: ClockChange,
    review: revisit.FetchReview,
  ): Promise<UrlOutcome> {
    if (handled.handlerError === undefined) return done(clock, handled.links, review.remember(handled.withheld));
    const outcome = attemptFailed(entry, handled.handlerError, 'handler', clock, this.fetch.maxRetries);
    if (outcome.kind !== 'failed' || handled.admitLinks === undefined) return outcome;
    const links = await handled.admitLinks();
    return links.length === 0 ? outcome : { ...outcome, links };
  }

  /** A URL robots.txt lines or tdmrep.json reserve for a wanted purpose: skipped, no request. */
  private usageReserved(entry: FrontierEntry, verdict: usage.UsageReserved, clock: ClockChange): UrlOutcome {
    const { emitter } = this.services;
    if (emitter.listens('usage')) {
      const { report, reserved } = verdict;
      emitter.emit('usage', { url: entry.url, stage: 'before-fetch', report, reserved });
    }
    return skipped(verdict.skip, clock);
  }

  /** undefined for a page; the plugin's processor for its kind; an error for a kind no plugin processes. */
  private resourceKindOf(entry: FrontierEntry): PluginResourceKind | undefined | Error {
    if (entry.kind === undefined || entry.kind === 'page') return undefined;
    const kind = this.services.resourceKinds.get(entry.kind);
    if (kind !== undefined) return kind;
    const why = `no plugin processes resources of kind '${entry.kind}' (${entry.url})`;
    return new PolitelyError('ERR_INVALID_INPUT', why);
  }

  /** The outcome as metrics: the URL's outcome, and the hold it put on its host, if any. */
  private measure(entry: FrontierEntry, outcome: UrlOutcome): void {
    const { metrics } = this.services.stats;
    const kind = entry.kind ?? 'page';
    if (outcome.kind === 'released') metrics.page('released', kind, outcome.reason);
    else metrics.page(outcome.kind === 'retry' ? 'retried' : outcome.kind, kind);
    if (outcome.clock.notBefore === undefined) return;
    if (outcome.kind === 'released') {
      if (outcome.reason === 'robots-retry') metrics.hold('robots-unreachable');
    } else metrics.hold(outcome.kind === 'done' ? 'retry-after' : 'failed-attempt');
  }

  /** The outcome's own event: a skip, an error (retried or not). Stages report what else they dropped. */
  private report(entry: FrontierEntry, outcome: UrlOutcome): void {
    const attempt = (entry.retries ?? 0) + 1;
    const { reporter, seeds } = this.services;
    if (outcome.kind === 'skipped' && isSeed(entry)) seeds.refuse(entry.url, outcome.skip);
    if (outcome.kind === 'failed' && isSeed(entry)) seeds.fail(entry.url, outcome.error);
    if (outcome.kind === 'skipped') reporter.skip(entry.url, outcome.skip, entry.referrer);
    else if (outcome.kind === 'failed') reporter.error(entry.url, outcome.error, outcome.stage, attempt, false);
    else if (outcome.kind === 'retry') reporter.error(entry.url, outcome.error, outcome.stage, attempt, true);
  }
}
