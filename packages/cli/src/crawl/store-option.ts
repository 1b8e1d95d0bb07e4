// `--store`: where the frontier and the robots.txt cache live. Memory is lost on exit; a SQLite
// file keeps the crawl (run the same command again to resume it); Redis shares it between
// workers under `--crawl-id`. The store packages are loaded only when asked for.

import type { RobotsCacheStore } from '@politely/core';
import type { FrontierStore } from '@politely/crawler';
import { CliError } from '../cli-error.js';
import type { StoreSpec } from './crawl-options.js';

export interface OpenedStore {
  /** undefined: the crawler's own memory store. */
  readonly store: FrontierStore | undefined;
  readonly robotsCache: RobotsCacheStore | undefined;
  /** Where queued URLs are kept, for people: `memory`, `crawl.db`, `redis://…/0 (crawl NAME)`. */
  readonly label: string;
  /** Whether queued URLs outlive the process. */
  readonly durable: boolean;
  /** What to run to pick the crawl up again, said when it is interrupted. */
  readonly resumeHint: string;
  /** Lines to tell the user when the crawl starts (URLs handed back from a run that died, …). */
  readonly notes?: readonly string[];
  close(): Promise<void>;
}

export interface StoreSettings {
  readonly minDelayMs: number;
  readonly perHostConcurrency: number;
  readonly crawlId: string | undefined;
}

export async function openStore(spec: StoreSpec, settings: StoreSettings): Promise<OpenedStore> {
  const defaultHostPolicy = { delayMs: settings.minDelayMs, maxInFlight: settings.perHostConcurrency };
  if (spec.kind === 'memory') {
    return { store: undefined, robotsCache: undefined, label: 'memory', durable: false, resumeHint: 'use --store sqlite:FILE to keep them', close: async () => {} };
  }
  if (spec.kind === 'sqlite') {
    const sqlite = await import('@politely/store-sqlite').catch((error: unknown) => {
      throw new CliError(`crawl: --store sqlite: is not available: ${(error as Error).message}`);
    });
    let store: Awaited<ReturnType<typeof sqlite.createSqliteFrontierStore>>;
    try {
      store = sqlite.createSqliteFrontierStore({ path: spec.path, defaultHostPolicy });
    } catch (error) {
      throw new CliError(`crawl: --store sqlite:${spec.path}: ${(error as Error).message}`);
    }
    const robotsCache = sqlite.createSqliteRobotsCache(store);
    const reclaimed = store.reclaimedLeases;
    return {
      store,
      robotsCache,
      label: spec.path,
      durable: true,
      resumeHint: 'run the same command again to resume',
      notes: reclaimed === 0 ? [] : [`${reclaimed} URLs in flight when the last run of ${spec.path} stopped went back to the queue`],
      close: async () => {
        await robotsCache.close();
        await store.close();
      },
    };
  }
  return openRedisStore(spec.url, settings);
}

/** The Redis store: every worker started with the same URL and --crawl-id joins one crawl. */
async function openRedisStore(url: string, settings: StoreSettings): Promise<OpenedStore> {
  const redis = await import('@politely/store-redis').catch((error: unknown) => {
    throw new CliError(`crawl: --store redis:// is not available: ${(error as Error).message}`);
  });
  const crawlId = settings.crawlId ?? '';
  const defaultHostPolicy = { delayMs: settings.minDelayMs, maxInFlight: settings.perHostConcurrency };
  let store: ReturnType<typeof redis.createRedisFrontierStore>;
  let robotsCache: ReturnType<typeof redis.createRedisRobotsCache>;
  try {
    store = redis.createRedisFrontierStore({ redis: url, crawlId, defaultHostPolicy });
    robotsCache = redis.createRedisRobotsCache({ redis: url, crawlId });
  } catch (error) {
    throw new CliError(`crawl: --store ${url}: ${(error as Error).message}`);
  }
  return {
    store,
    robotsCache,
    label: `${url} (crawl ${crawlId})`,
    durable: true,
    resumeHint: 'run the same command (same --store and --crawl-id) to go on',
    close: async () => {
      await robotsCache.close();
      await store.close();
    },
  };
}
