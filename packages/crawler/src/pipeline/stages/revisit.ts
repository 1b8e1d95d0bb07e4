// The revisit stage, after a fetch, before the page is rendered or handled: what the response says
// against the URL's last fetch (new, not modified, unchanged, changed), what to remember of it for
// the next visit, and the counts a recrawl is judged by (revisits, 304s, unchanged 200s, changes,
// bytes saved).

import type { HttpResponse } from '@politely/core';
import type { FrontierEntry, LastFetch, PageChange } from '@politely/frontier';
import type { CrawlerEmitter } from '../../events.js';
import { type Revalidation, revalidate, scheduleFactsOf } from '../../fetch/revalidation.js';
import { nextLastFetch, type RevisitBounds } from '../../frontier/revisit-schedule.js';
import type { ResolvedCrawlerOptions } from '../../options.js';
import type { StatsRecorder } from '../../stats.js';
import type { CrawlServices } from '../services.js';

export interface RevisitStageSettings {
  readonly bounds: RevisitBounds;
  /** The store keeps what a fetch left (`FrontierStore.remembersFetches`): else a first fetch needs no hash, policy or schedule. */
  readonly remembered: boolean;
  readonly stats: StatsRecorder;
  readonly emitter: CrawlerEmitter;
}

export function settingsFrom(options: ResolvedCrawlerOptions, services: CrawlServices): RevisitStageSettings {
  return {
    bounds: { minMs: options.revisitMinMs, maxMs: options.revisitMaxMs },
    remembered: services.store.remembersFetches !== false,
    stats: services.stats,
    emitter: services.emitter,
  };
}

/** What a fetch found, and how to remember it. */
export interface FetchReview {
  readonly change: PageChange;
  /** The URL's last fetch, on a revisit. */
  readonly previous: LastFetch | undefined;
  /** The URL's memory after this fetch (undefined when the store keeps none); `withheld`: why its handlers did not see it (usage). */
  remember(withheld?: string): LastFetch | undefined;
}

const FIRST_FETCH_FORGOTTEN: FetchReview = { change: 'new', previous: undefined, remember: () => undefined };

export function reviewFetch(
  entry: FrontierEntry,
  response: HttpResponse,
  fetchedAt: number,
  settings: RevisitStageSettings,
): FetchReview {
  const previous = entry.revisit;
  if (previous === undefined && !settings.remembered) return FIRST_FETCH_FORGOTTEN;
  const revalidation: Revalidation = revalidate(entry.url, previous, response);
  const { change } = revalidation;
  if (previous !== undefined) {
    const savedBytes = change === 'not-modified' ? previous.bytes : 0;
    settings.stats.revisit(entry.hostKey, change, savedBytes);
    if (settings.emitter.listens('revisit')) {
      settings.emitter.emit('revisit', {
        url: entry.url,
        hostKey: entry.hostKey,
        change: change === 'new' ? 'changed' : change,
        status: response.status,
        bytes: response.body.length,
        savedBytes,
        previous: { fetchedAt: previous.fetchedAt, status: previous.status },
      });
    }
  }
  const facts = {
    fetchedAt,
    status: response.status,
    bytes: response.body.length,
    change,
    contentHash: revalidation.contentHash,
    ...scheduleFactsOf(revalidation),
  };
  return {
    change,
    previous,
    remember: (withheld) =>
      nextLastFetch(previous, entry.hints ?? previous?.hints, { ...facts, withheld }, settings.bounds),
  };
}
