// What the crawler reports. Events observe; they never change what the crawler does.

import type { UsagePurpose, UsageReport } from '@politely/core';
import type { PageChange } from '@politely/frontier';
import type { DatasetRecord } from './dataset/record-text.js';
import type { SkipDetail } from './skip-reasons.js';
import type { CrawlStats } from './stats.js';

/** The `request` event: a request is about to be made, with its host key, kind and the delay it waited. */
export interface RequestEvent {
  readonly url: string;
  readonly hostKey: string;
  /**
   * `robots` for a robots.txt request, which counts against the host like any other; `tdmrep` for
   * an origin's /.well-known/tdmrep.json (see `purposes`); `sub-resource` for a request a
   * rendered page made (a script, an API call: see `render`); a plugin's kind (`sitemap`) for its resources.
   */
  readonly kind: string;
  /** For a `sub-resource`: the page whose render asked for it. */
  readonly page?: string;
  /**
   * When the request started (ms since the epoch), before any connection: it may never reach a
   * server (a name that does not resolve, a refused connection). The `sent` event with the same
   * `url` says when it did.
   */
  readonly at: number;
  /** The gap this host's clock keeps between requests (crawl-delay, minimum, backoff aside). */
  readonly delayMs?: number;
  /** Why robots.txt allowed it: the gate's reason and, when a rule decided, its line. */
  readonly robots?: { readonly reason: string; readonly line?: number; readonly text?: string };
  /** A recrawl's revisit: the conditional headers sent (`if-none-match`, `if-modified-since`; empty under `no-store`). */
  readonly revisit?: { readonly conditional: Readonly<Record<string, string>> };
}

/**
 * A request's head was written to its socket: the request reached a server (or the proxy that
 * forwards it). It follows the `request` event with the same `url`. A request that failed before
 * (the name did not resolve, the connection was refused or timed out, the SSRF guard refused the
 * address, TLS failed) has no `sent` event. With an `httpClient` that does not call
 * `HttpRequest.onSent`, a request counts as sent when its response arrives, at its start.
 */
export interface SentEvent {
  readonly url: string;
  /** When the head was written (ms since the epoch). */
  readonly at: number;
}

/** The `response` event: a response arrived, with its status, duration, size and content type. */
export interface ResponseEvent {
  readonly url: string;
  readonly status: number;
  readonly durationMs: number;
  readonly bytes: number;
  readonly contentType: string | undefined;
}

/**
 * The `skip` event: a URL was not fetched or not followed, with the reason (robots.txt, scope,
 * duplicate, usage, …).
 */
export interface SkipEvent extends SkipDetail {
  readonly url: string;
  /** The page the URL was found on. */
  readonly referrer?: string;
  /** The plugin that reported the skip (its `name`); absent when the crawler did. */
  readonly plugin?: string;
}

/** The `error` event: a fetch, handler or processor failed for a URL, and whether it will be retried. */
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

/** A record pushed to the dataset, once it is written to every output (at once with none). */
export interface RecordEvent {
  /** The record as pushed. */
  readonly record: DatasetRecord;
  /** The final URL of the page whose handler pushed it; undefined for `crawler.push` outside a handler. */
  readonly url: string | undefined;
}

/**
 * The usage verdicts of a URL (see `usageOf` of @politely/core): for every fetched page, from all
 * its sources (`after-fetch`), and for a URL skipped without a request because robots.txt or
 * tdmrep.json reserve it for a wanted purpose (`before-fetch`: those sources only).
 */
export interface UsageEvent {
  /** The page's URL (after redirects). */
  readonly url: string;
  readonly stage: 'before-fetch' | 'after-fetch';
  /** The verdict per purpose and the sources that decided. */
  readonly report: UsageReport;
  /** The crawl's `purposes` the report finds reserved: non-empty means the URL was skipped as `usage-reserved`. */
  readonly reserved: readonly UsagePurpose[];
}

/** What a recrawl's revisit of a URL found (`recrawl`): emitted once its response is in. */
export interface RevisitEvent {
  readonly url: string;
  readonly hostKey: string;
  /** `not-modified` (304), `unchanged` (same body), `changed`. */
  readonly change: Exclude<PageChange, 'new'>;
  readonly status: number;
  /** Body bytes received this time (decoded; 0 for a 304). */
  readonly bytes: number;
  /** Body bytes a 304 did not send: the size of the body it stood for. */
  readonly savedBytes: number;
  /** The last fetch's time and status. */
  readonly previous: { readonly fetchedAt: number; readonly status: number };
}

/** Something the crawl's author should know, that is no URL's error: the crawl goes on (or ends normally). */
export interface WarningEvent {
  /**
   * `nothing-to-do`: the store held the crawl finished (nothing queued, and no new seed), so this
   * run fetches nothing. `requeued-failed`: `retryFailed` (or a seed given again) put failed URLs back.
   * `signing`: something in `signing` may keep verifiers from accepting the signatures (a
   * `signatureAgent` with a path under `draft: 'ietf-01'`); said once, as the run starts.
   */
  readonly kind: 'nothing-to-do' | 'requeued-failed' | 'signing';
  /** One line, for a person: "nothing to do: 42 done, 1 failed (retryFailed to try again)". */
  readonly message: string;
  /** With `nothing-to-do`: the store's done URLs, and the failed ones among them. */
  readonly counts?: { readonly done: number; readonly failed: number };
}

/**
 * Every event a crawler emits, by name, with its payload. Events report what happened; they never
 * change what the crawl does.
 */
export interface CrawlerEvents {
  readonly request: RequestEvent;
  readonly sent: SentEvent;
  readonly response: ResponseEvent;
  readonly skip: SkipEvent;
  readonly error: ErrorEvent;
  readonly record: RecordEvent;
  readonly usage: UsageEvent;
  readonly revisit: RevisitEvent;
  readonly warning: WarningEvent;
  readonly done: CrawlStats;
}

/** The name of a crawler event (`request`, `response`, `skip`, `error`, …), for `crawler.on`. */
export type CrawlerEventName = keyof CrawlerEvents;
/** A listener of one crawler event. */
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

  /**
   * Whether anyone listens to `event`: a payload nobody reads is not built (a crawl of real pages
   * reports a scope skip for most links it finds).
   */
  listens(event: CrawlerEventName): boolean {
    return (this.listeners.get(event)?.size ?? 0) > 0;
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
