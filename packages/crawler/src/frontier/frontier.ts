// frontier.add: normalise → scope → depth → dedupe (in the store). Every refusal is a skip
// with a reason, reported through `onSkip`, never an exception. The one exception is the
// caller's own mistake: a label no route takes is thrown (ERR_INVALID_INPUT) before anything is added.

import { PolitelyError } from '@politely/core';
import type { AddOptions, AddOutcome, FrontierEntry, FrontierStore, RevisitHints } from '@politely/frontier';
import type { SkipDetail, SkipReason } from '../skip-reasons.js';
import {
  type CanonicalUrlFailureReason,
  type CanonicalUrlOptions,
  canonicalizeUrl,
  resolveCanonicalUrlOptions,
} from './canonical-url.js';
import type { ScopePredicate } from './scope.js';
import { detectTrap, type ResolvedTrapDetection } from './trap-detector.js';

/** A URL's politeness key, or why it can have none (its host resolves to an address the crawl may not reach). */
export type KeyVerdict = { readonly key: string } | { readonly skip: SkipDetail };

/** A URL offered to the frontier. */
export interface FrontierRequest {
  readonly url: string;
  /** `url` already parsed (`new URL(url)`, a fragment allowed), sparing the frontier a parse. */
  readonly parsed?: URL | undefined;
  readonly depth: number;
  /** @default 0 */
  readonly priority?: number;
  readonly referrer?: string;
  readonly redirectedFrom?: string;
  readonly redirectHops?: number;
  /** Bypass the scope check: seeds (the scope is derived from them) and plugin resources such as cross-host sitemaps. */
  readonly skipScope?: boolean;
  /** A seed (the options' seeds, `crawler.enqueue`): its refusal is also told to `onSeedRefused`. */
  readonly seed?: boolean;
  /** `page` (the default) or a plugin's resource kind. */
  readonly kind?: string;
  /** Plugin data carried with the entry (plain JSON). */
  readonly data?: Readonly<Record<string, unknown>>;
  /** The user's label (checked by `checkRequestData`). */
  readonly label?: string;
  /** The user's data (checked by `checkRequestData`). */
  readonly userData?: Readonly<Record<string, unknown>>;
  /** The request's own headers, already checked (see `FrontierEntry.headers`). */
  readonly headers?: Readonly<Record<string, string>>;
  /** A sitemap's `lastmod` / `changefreq` for the URL (see `FrontierEntry.hints`). */
  readonly hints?: RevisitHints;
}

export interface FrontierSettings {
  readonly store: FrontierStore;
  readonly inScope: ScopePredicate;
  readonly canonicalUrl: CanonicalUrlOptions;
  readonly maxDepth: number;
  readonly maxPagesPerHost: number;
  /** The trap heuristic, or null when it is off. Requests that skip the scope check skip it too. */
  readonly trapDetection?: ResolvedTrapDetection | null;
  /**
   * The politeness key of a URL: requests with one key share one host clock (politeness-key.ts);
   * or the skip of a URL that can have none (its host resolves to a refused address).
   */
  readonly hostKeyOf: (url: URL) => KeyVerdict | Promise<KeyVerdict>;
  readonly onSkip: (url: string, skip: SkipDetail, referrer: string | undefined) => void;
  /** A seed the frontier refused (an invalid URL, a blocked address, …), besides its `onSkip`. */
  readonly onSeedRefused?: (url: string, skip: SkipDetail) => void;
  /**
   * The `robots` skip (with its deciding rule) when the origin's robots.txt is already known
   * (cached) and disallows the URL; undefined otherwise. Never fetches: unknown origins are
   * decided at fetch time.
   */
  readonly disallowedByKnownRobots?: (url: URL) => SkipDetail | undefined | Promise<SkipDetail | undefined>;
  /** Called when the store took new URLs: a crawl waiting for work may claim them now. */
  readonly onAdded?: () => void;
  /** Why a label can have no route (routes.ts); a request with such a label is refused. @default every label goes */
  readonly checkLabel?: LabelCheck;
}

/** Why a request's label can be given no route (handle/routes.ts makes it from the handlers), or undefined when it can. */
export type LabelCheck = (label: string) => string | undefined;

const CANONICAL_FAILURE: Record<CanonicalUrlFailureReason, SkipReason> = {
  'invalid-url': 'invalid-url',
  'unsupported-scheme': 'unsupported-scheme',
  'too-long': 'url-too-long',
};

export interface Frontier {
  /**
   * Offers URLs; resolves with how many were newly queued, or took the request's label (a URL
   * queued without one: the store's `relabelled`).
   */
  add(requests: readonly FrontierRequest[]): Promise<number>;
  /**
   * The first half of `add`: the entries the store is to be offered (every refusal before the
   * store's dedupe reported). For a caller that stores them with something else in one step
   * (a page's links with its completion); it reports the store's answer with `stored`.
   */
  admit(requests: readonly FrontierRequest[]): Promise<FrontierEntry[]>;
  /** The second half of `add`: reports the entries the store refused; returns how many it added or relabelled. */
  stored(entries: readonly FrontierEntry[], outcomes: readonly AddOutcome[]): number;
  /** `add`'s options for the store. */
  readonly addOptions: AddOptions;
}

export function createFrontier(settings: FrontierSettings): Frontier {
  const canonicalOptions = resolveCanonicalUrlOptions(settings.canonicalUrl);
  const addOptions: AddOptions = { maxPerHost: settings.maxPagesPerHost };
  const frontier: Frontier = {
    addOptions,
    async add(requests) {
      const entries = await frontier.admit(requests);
      if (entries.length === 0) return 0;
      return frontier.stored(entries, await settings.store.add(entries, addOptions));
    },
    async admit(requests) {
      if (settings.checkLabel !== undefined) checkLabels(requests, settings.checkLabel);
      const entries: FrontierEntry[] = [];
      // Indexed, not for…of: across the awaits below, each step of an array iterator would
      // allocate its result object, once per link.
      for (let i = 0; i < requests.length; i++) {
        const request = requests[i]!;
        const admitted = admit(request);
        if (admitted === null) continue;
        const verdict = settings.hostKeyOf(admitted.url);
        const keyed = 'key' in verdict ? verdict : await verdict;
        if ('skip' in keyed) {
          refuse(request, admitted.entry.url, keyed.skip);
          continue;
        }
        const entry = admitted.entry;
        entry.hostKey = keyed.key;
        // A URL that robots.txt is already known to refuse never waits for its host's turn.
        // Answered at once when the origin's robots.txt is in hand: no promise per link then.
        const known = isPage(entry) ? settings.disallowedByKnownRobots?.(admitted.url) : undefined;
        const refusal = known instanceof Promise ? await known : known;
        if (refusal !== undefined) refuse(request, entry.url, refusal);
        else entries.push(entry);
      }
      return entries;
    },
    stored(entries, outcomes) {
      let added = 0;
      outcomes.forEach((outcome, i) => {
        const entry = entries[i]!;
        // A URL queued without a label (by a sitemap, say) that took this entry's label is queued
        // for the entry's route now: it counts as queued by this add, and is no duplicate.
        if (outcome === 'added' || outcome === 'relabelled') added++;
        else if (outcome === 'duplicate') settings.onSkip(entry.url, { reason: 'duplicate' }, entry.referrer);
        else
          settings.onSkip(
            entry.url,
            { reason: 'max-pages-per-host', detail: `more than ${settings.maxPagesPerHost} URLs on ${entry.hostKey}` },
            entry.referrer,
          );
      });
      if (added > 0) settings.onAdded?.();
      return added;
    },
  };
  return frontier;

  /** Reports a refused request (and a refused seed as such). */
  function refuse(request: FrontierRequest, url: string, skip: SkipDetail): void {
    settings.onSkip(url, skip, request.referrer);
    if (request.seed === true) settings.onSeedRefused?.(url, skip);
  }

  /** The entry for a request that passes every rule, its key still empty (set by the caller); with its parsed URL. */
  function admit(request: FrontierRequest): { readonly entry: Mutable<FrontierEntry>; readonly url: URL } | null {
    // Parsed once here: most URLs are canonical already, and their parse serves every rule below.
    const parsed = request.parsed ?? parseOrUndefined(request.url);
    const canonical = canonicalizeUrl(parsed ?? request.url, canonicalOptions);
    if (!canonical.ok) {
      refuse(request, request.url, { reason: CANONICAL_FAILURE[canonical.reason], detail: canonical.message });
      return null;
    }
    const url = parsed !== undefined && parsed.href === canonical.url ? parsed : new URL(canonical.url);
    if (request.skipScope !== true && !settings.inScope(url)) {
      refuse(request, canonical.url, { reason: 'scope' });
      return null;
    }
    // Seeds and sitemap-listed URLs are someone's deliberate choice; discovered links are not.
    const trap = request.skipScope === true || !settings.trapDetection ? null : detectTrap(url, settings.trapDetection);
    if (trap !== null) {
      refuse(request, canonical.url, { reason: 'trap', detail: trap });
      return null;
    }
    if (request.depth > settings.maxDepth) {
      refuse(request, canonical.url, {
        reason: 'depth',
        detail: `depth ${request.depth} > maxDepth ${settings.maxDepth}`,
      });
      return null;
    }
    // Fields set one by one: spreading `{}` or `{ field }` for each would allocate an object per
    // field per link, and a page has dozens of links.
    const entry: Mutable<FrontierEntry> = {
      url: canonical.url,
      hostKey: '',
      depth: request.depth,
      priority: request.priority ?? 0,
    };
    if (request.referrer !== undefined) entry.referrer = request.referrer;
    if (request.redirectedFrom !== undefined) entry.redirectedFrom = request.redirectedFrom;
    if (request.redirectHops !== undefined) entry.redirectHops = request.redirectHops;
    if (request.kind !== undefined && request.kind !== 'page') entry.kind = request.kind;
    if (request.data !== undefined) entry.data = request.data;
    if (request.label !== undefined) entry.label = request.label;
    if (request.userData !== undefined) entry.userData = request.userData;
    if (request.headers !== undefined) entry.headers = request.headers;
    if (request.hints !== undefined) entry.hints = request.hints;
    return { entry, url };
  }
}

function isPage(entry: FrontierEntry): boolean {
  return entry.kind === undefined || entry.kind === 'page';
}

/** Throws ERR_INVALID_INPUT for the first request whose label no route takes: nothing of the batch is added. */
function checkLabels(requests: readonly FrontierRequest[], checkLabel: LabelCheck): void {
  for (const { url, label } of requests) {
    if (label === undefined) continue;
    const problem = checkLabel(label);
    if (problem !== undefined) throw new PolitelyError('ERR_INVALID_INPUT', `request ${url}: ${problem}`);
  }
}

/** The URL parsed, or undefined when it is not one (canonicalizeUrl then says why). */
function parseOrUndefined(input: string): URL | undefined {
  try {
    return new URL(input);
  } catch {
    return undefined;
  }
}

/** An entry while it is built: set field by field, then handed on as a (readonly) FrontierEntry. */
type Mutable<T> = { -readonly [K in keyof T]: T[K] };
