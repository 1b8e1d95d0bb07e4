// The crawl's shared, long-lived things, built once by the crawler (crawler.ts) and handed to the
// pipeline. Each stage takes what it needs from them and from the resolved options
// (`settingsFrom(options, services)` in stages/): a new option touches only the stage that uses it.

import type { HttpClient, HttpResponse, RobotsGate } from '@politely/core';
import type { FrontierStore } from '@politely/frontier';
import type { CookieSession } from '../cookies/cookie-session.js';
import type { Dataset } from '../dataset/dataset.js';
import type { CrawlerEmitter } from '../events.js';
import type { Frontier } from '../frontier/frontier.js';
import type { KnownRobotsCheck } from '../gate/known-robots.js';
import type { PluginResourceKind } from '../handle/run-processor.js';
import type { RenderSession } from '../page-renderer.js';
import type { HostPoliteness, PolitenessKeys } from '../politeness/index.js';
import type { CrawlReporter } from '../reporter.js';
import type { SeedRefusals } from '../seed-refusals.js';
import type { StatsRecorder } from '../stats.js';
import type { LeaseSettler } from './settle.js';

export interface CrawlServices {
  readonly store: FrontierStore;
  readonly frontier: Frontier;
  readonly gate: RobotsGate;
  /** Every request of the crawl goes through it (the archive's, when there is one). */
  readonly client: HttpClient;
  /**
   * True for a response that challenged a request sent unsigned (`signing.sign: 'on-challenge'`):
   * the request is retried once, signed, at the host's pace. Always false otherwise.
   */
  readonly isSignatureChallenge: (response: HttpResponse) => boolean;
  /** What the crawl has learned of each host's pace: crawl-delay, failures, adaptive delay. */
  readonly politeness: HostPoliteness;
  /**
   * The one place a lease ends and a host's clock moves, and this process's record of the
   * hosts' paces and holds (a rendered page's sub-requests note theirs there too).
   */
  readonly settler: LeaseSettler;
  /** Which requests share a politeness clock (`politenessKey`), and the address a key connects to. */
  readonly keys: PolitenessKeys;
  readonly emitter: CrawlerEmitter;
  readonly stats: StatsRecorder;
  readonly reporter: CrawlReporter;
  /** This run's seeds and those refused: a run that fetched nothing because of them is an error. */
  readonly seeds: SeedRefusals;
  /** Fires when the crawl stops at once: an abort, the end of `stop()`'s grace period, a fatal error. */
  readonly signal: AbortSignal;
  /** Fires when `stop()` is called: no new request starts; those in flight may finish. */
  readonly stopping: AbortSignal;
  /** Page fetches started so far, and the budget (`maxPages`). */
  readonly pageBudget: { started: number; readonly max: number };
  /** Plugin resource kinds (anything but `page`): each kind's processor and its plugin's context. */
  readonly resourceKinds: ReadonlyMap<string, PluginResourceKind>;
  /** The crawl's cookies, when on. */
  readonly cookies?: CookieSession | undefined;
  /** The crawl's dataset, for `page.push`. */
  readonly dataset: Dataset;
  /** robots.txt already known to disallow a URL: a rendered page's sub-request is refused without a turn. */
  readonly knownRobots: KnownRobotsCheck;
  /** The crawl's render session (`render`), started by `run()`. */
  readonly renderSession: () => Promise<RenderSession>;
  /**
   * Called with an error that ends the crawl (a fatal handler error, a store that failed): the
   * lease was handed back first, so the URL stays in the store.
   */
  readonly onFatal: (error: unknown) => void;
}
