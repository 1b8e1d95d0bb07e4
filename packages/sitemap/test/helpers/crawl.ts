// Runs a real crawler with the sitemaps plugin and keeps everything it reported.

import {
  type CrawlerOptions,
  type CrawlStats,
  createCrawler,
  type ErrorEvent,
  type RequestEvent,
  type SkipEvent,
} from '@politely/crawler';
import { createMemoryFrontierStore, type FrontierEntry, type FrontierStore } from '@politely/frontier';
import { type SitemapPluginOptions, type SitemapUrlRecord, sitemaps } from '@politely/sitemap';

export const UA = 'SitemapTestBot/1.0 (+http://example.invalid/bot)';

export interface CrawlOutcome {
  readonly records: SitemapUrlRecord[];
  readonly urls: string[];
  readonly skips: SkipEvent[];
  readonly errors: ErrorEvent[];
  readonly requests: RequestEvent[];
  /** Every entry the frontier store accepted, in order. */
  readonly added: FrontierEntry[];
  /** `add <url>` (accepted by the store) and `request <url>` lines, in the order they happened. */
  readonly timeline: string[];
  readonly stats: CrawlStats;
}

export interface CrawlSetup {
  readonly seeds?: CrawlerOptions['seeds'];
  readonly plugin?: SitemapPluginOptions;
  readonly crawler?: Partial<Omit<CrawlerOptions, 'userAgent' | 'seeds' | 'plugins' | 'store'>>;
}

export async function crawlWithSitemaps(setup: CrawlSetup): Promise<CrawlOutcome> {
  const records: SitemapUrlRecord[] = [];
  const skips: SkipEvent[] = [];
  const errors: ErrorEvent[] = [];
  const requests: RequestEvent[] = [];
  const added: FrontierEntry[] = [];
  const timeline: string[] = [];
  const crawler = createCrawler({
    userAgent: UA,
    allowNet: ['127.0.0.0/8'], // the test servers are on loopback
    seeds: setup.seeds ?? [],
    minDelayMs: 0,
    maxRetries: 0,
    followLinks: false,
    store: recordingStore(createMemoryFrontierStore(), added, timeline),
    plugins: [sitemaps({ ...setup.plugin, onUrl: (record) => void records.push(record) })],
    ...setup.crawler,
  });
  crawler.on('skip', (event) => skips.push(event));
  crawler.on('error', (event) => errors.push(event));
  crawler.on('request', (event) => {
    requests.push(event);
    timeline.push(`request ${event.url}`);
  });
  const stats = await crawler.run();
  return { records, urls: records.map((r) => r.url), skips, errors, requests, added, timeline, stats };
}

/** A store that notes every entry it accepted. */
function recordingStore(store: FrontierStore, added: FrontierEntry[], timeline: string[]): FrontierStore {
  return {
    add: async (entries, options) => {
      const outcomes = await store.add(entries, options);
      outcomes.forEach((outcome, i) => {
        if (outcome !== 'added') return;
        added.push(entries[i]!);
        timeline.push(`add ${entries[i]!.url}`);
      });
      return outcomes;
    },
    claim: (request) => store.claim(request),
    complete: (id, options) => store.complete(id, options),
    release: (id, options) => store.release(id, options),
    retry: (id, options) => store.retry(id, options),
    reopenDue: (request) => store.reopenDue(request),
    requeueFailed: (filter) => store.requeueFailed(filter),
    failures: (limit) => store.failures(limit),
    clear: () => store.clear(),
    setHostPolicy: (hostKey, policy) => store.setHostPolicy(hostKey, policy),
    counts: () => store.counts(),
    hostCounts: (limit) => store.hostCounts(limit),
    close: () => store.close(),
  };
}
