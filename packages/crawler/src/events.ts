// What the crawler reports. Events observe; they never change what the crawler does.

import type { CrawlStats } from './stats.js';

/**
 * The crawler's own reasons for not fetching (or not following) a URL, as data: the type below
 * is derived from it, and a plugin may not declare a reason of the same name.
 */
export const CRAWLER_SKIP_REASONS = [
  /** robots.txt disallows it for our user agent (the skip carries the deciding `rule`). */
  'robots',
  /** The host's robots.txt stayed unreachable (5xx, 429, network error) after every retry. */
  'robots-unreachable',
  /** Outside the crawl's scope. */
  'scope',
  /** Already queued or fetched. */
  'duplicate',
  /** Deeper than `maxDepth`. */
  'depth',
  /** Looks like an endless URL space (repeated path segments, a growing query, a far-off calendar date); see `trapDetection`. */
  'trap',
  /** Reported once for a page with more links than `maxLinksPerPage`: the detail says how many were dropped. */
  'too-many-links',
  /** Linked with `rel=nofollow`, or from a page that says nofollow. */
  'nofollow',
  /** The body went past `maxBodyBytes`. */
  'too-large',
  /** The response head went past the header limit. */
  'headers-too-large',
  /** Not a URL. */
  'invalid-url',
  /** Not http or https. */
  'unsupported-scheme',
  /** Longer than the URL length cap. */
  'url-too-long',
  /** The host already has `maxPagesPerHost` URLs. */
  'max-pages-per-host',
  /** More redirect hops than `maxRedirects`. */
  'too-many-redirects',
  /** The host resolves to a loopback, private or link-local address (the SSRF guard; see `allowNet`). */
  'blocked-address',
] as const;

/** Why the crawler did not fetch (or follow) a URL. A skip is an outcome, never an exception. */
export type SkipReason = (typeof CRAWLER_SKIP_REASONS)[number];

/**
 * A reason a plugin declared in its `skipReasons` (the sitemap plugin's `sitemap-scope`, say);
 * the skip event's `plugin` names the plugin. Any string as a type: which ones exist depends on
 * the plugins a crawler runs.
 */
export type PluginSkipReason = string & {};

/** The robots.txt rule that decided: its line number and the line as written. */
export interface RobotsRuleRef {
  readonly line: number;
  readonly text: string;
}

/** What a skip says, apart from where it happened. */
export interface SkipDetail {
  readonly reason: SkipReason | PluginSkipReason;
  /** A human-readable detail: the limit exceeded, the deciding robots.txt line, … */
  readonly detail?: string;
  /** For a `robots` skip decided by a rule: that rule (absent when robots.txt disallowed all for another reason). */
  readonly rule?: RobotsRuleRef;
}

export interface RequestEvent {
  readonly url: string;
  readonly hostKey: string;
  /** `robots` for a robots.txt request, which counts against the host like any other; a plugin's kind (`sitemap`) for its resources. */
  readonly kind: string;
  /** When the request started (ms since the epoch). */
  readonly at: number;
  /** The gap this host's clock keeps between requests (crawl-delay, minimum, backoff aside). */
  readonly delayMs?: number;
  /** Why robots.txt allowed it: the gate's reason and, when a rule decided, its line. */
  readonly robots?: { readonly reason: string; readonly line?: number; readonly text?: string };
}

export interface ResponseEvent {
  readonly url: string;
  readonly status: number;
  readonly durationMs: number;
  readonly bytes: number;
  readonly contentType: string | undefined;
}

export interface SkipEvent extends SkipDetail {
  readonly url: string;
  /** The page the URL was found on. */
  readonly referrer?: string;
  /** The plugin that reported the skip (its `name`); absent when the crawler did. */
  readonly plugin?: string;
}

export interface ErrorEvent {
  readonly url: string;
  readonly error: Error;
  /** Attempts made so far, this one included. */
  readonly attempt: number;
  /** The URL goes back to the frontier for another attempt. */
  readonly willRetry: boolean;
  /** Where the error came from: the request, the user's handler, or a plugin's processor. */
  readonly stage: 'fetch' | 'handler' | 'processor';
}

export interface CrawlerEvents {
  readonly request: RequestEvent;
  readonly response: ResponseEvent;
  readonly skip: SkipEvent;
  readonly error: ErrorEvent;
  readonly done: CrawlStats;
}

export type CrawlerEventName = keyof CrawlerEvents;
export type CrawlerListener<E extends CrawlerEventName> = (event: CrawlerEvents[E]) => void;

/** A tiny typed emitter. A throwing listener is ignored: reporting must not break crawling. */
export class CrawlerEmitter {
  private readonly listeners = new Map<CrawlerEventName, Set<(event: never) => void>>();

  on<E extends CrawlerEventName>(event: E, listener: CrawlerListener<E>): () => void {
    let set = this.listeners.get(event);
    if (set === undefined) this.listeners.set(event, (set = new Set()));
    set.add(listener);
    return () => set.delete(listener);
  }

  emit<E extends CrawlerEventName>(event: E, payload: CrawlerEvents[E]): void {
    const set = this.listeners.get(event) as Set<CrawlerListener<E>> | undefined;
    if (set === undefined) return;
    for (const listener of set) {
      try {
        listener(payload);
      } catch {
        // Listeners observe; their failures are theirs.
      }
    }
  }
}
