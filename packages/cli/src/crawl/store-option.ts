// `--store`: where the frontier and the robots.txt cache live. Memory is lost on exit; a SQLite
// file keeps the crawl (run the same command again to resume it); Redis shares it between
// workers under `--crawl-id`. The store packages are loaded only when asked for.

import type { RobotsCacheStore } from '@politely/core';
import type { FrontierStore } from '@politely/frontier';
import { CliError } from '../cli-error.js';
import { escapeControls, quoteInput } from '../input/quote-input.js';
import type { CrawlReportData } from '../report/report-data.js';
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
  /** Where a durable crawl keeps its report between runs, so that the report covers them all. */
  readonly reportState?: {
    load(): Promise<CrawlReportData | undefined>;
    save(report: CrawlReportData): Promise<void>;
  };
  close(): Promise<void>;
}

/** The crawl file's metadata key of the report of the runs so far. */
const REPORT_KEY = 'cli-report';

export interface StoreSettings {
  /** Where the store's warnings go (a lost connection, a Redis that may lose the crawl). @default stderr */
  readonly say?: (line: string) => void;
  readonly minDelayMs: number;
  readonly perHostConcurrency: number;
  readonly crawlId: string | undefined;
  /**
   * Opens a SQLite file shared (`shared: true`): for a process that adds to a crawl another
   * process runs (`politely seeds add`), taking no lease, so the crawl may own the file. @default false
   */
  readonly shared?: boolean;
}

export async function openStore(spec: StoreSpec, settings: StoreSettings): Promise<OpenedStore> {
  const defaultHostPolicy = { delayMs: settings.minDelayMs, maxInFlight: settings.perHostConcurrency };
  if (spec.kind === 'memory') {
    return {
      store: undefined,
      robotsCache: undefined,
      label: 'memory',
      durable: false,
      resumeHint: 'use --store sqlite:FILE to keep them',
      close: async () => {},
    };
  }
  if (spec.kind === 'sqlite') {
    const sqlite = await import('@politely/store-sqlite').catch((error: unknown) => {
      throw new CliError(`crawl: --store sqlite: is not available: ${(error as Error).message}`);
    });
    let store: Awaited<ReturnType<typeof sqlite.createSqliteFrontierStore>>;
    try {
      store = sqlite.createSqliteFrontierStore({
        path: spec.path,
        defaultHostPolicy,
        shared: settings.shared ?? false,
      });
    } catch (error) {
      throw new CliError(`crawl: --store sqlite:${quoteInput(spec.path)}: ${(error as Error).message}`);
    }
    const robotsCache = sqlite.createSqliteRobotsCache(store);
    const reclaimed = store.reclaimedLeases;
    return {
      store,
      robotsCache,
      label: spec.path,
      durable: true,
      resumeHint: 'run the same command again to resume',
      notes:
        reclaimed === 0
          ? []
          : [`${reclaimed} URLs in flight when the last run of ${spec.path} stopped went back to the queue`],
      reportState: {
        load: () => store.loadMetadata<CrawlReportData>(REPORT_KEY),
        save: (report) => store.saveMetadata(REPORT_KEY, report),
      },
      close: async () => {
        await robotsCache.close();
        await store.close();
      },
    };
  }
  return openRedisStore(spec.url, settings);
}

/**
 * The Redis store: every worker started with the same URL and --crawl-id joins one crawl. The
 * frontier and the robots.txt cache share one connection, so an outage is said once. Checked
 * before the crawl starts: the URL (exit 2), that Redis answers within its connect timeout and
 * has the database (exit 2); then whether Redis keeps the crawl through a restart (a warning).
 * Mid-crawl, a lost connection is a warning and a line when it is back (commands wait for it).
 */
async function openRedisStore(url: string, settings: StoreSettings): Promise<OpenedStore> {
  const redis = await import('@politely/store-redis').catch((error: unknown) => {
    throw new CliError(`crawl: --store redis:// is not available: ${(error as Error).message}`);
  });
  const crawlId = settings.crawlId ?? '';
  const defaultHostPolicy = { delayMs: settings.minDelayMs, maxInFlight: settings.perHostConcurrency };
  const say = (line: string): void => {
    const text = `politely: ${escapeControls(line)}\n`;
    if (settings.say === undefined) process.stderr.write(text);
    else settings.say(text);
  };
  let link: ReturnType<typeof redis.createRedisLink>;
  let store: ReturnType<typeof redis.createRedisFrontierStore>;
  let robotsCache: ReturnType<typeof redis.createRedisRobotsCache>;
  try {
    link = redis.createRedisLink(url, { onWarning: (message) => say(`warning: ${message}`), onNotice: say });
    store = redis.createRedisFrontierStore({ redis: link, crawlId, defaultHostPolicy });
    robotsCache = redis.createRedisRobotsCache({ redis: link, crawlId });
  } catch (error) {
    throw new CliError(`crawl: --store ${(error as Error).message.replace(/^createRedis\w+: /, '')}`);
  }
  const closeAll = async (): Promise<void> => {
    await robotsCache.close().catch(() => {});
    await store.close();
    await link.close();
  };
  try {
    await store.ready();
  } catch (error) {
    await closeAll();
    throw new CliError(`crawl: --store: ${(error as Error).message}`);
  }
  await warnIfNotDurable(redis, link, say);
  return {
    store,
    robotsCache,
    label: `${link.display} (crawl ${crawlId})`,
    durable: true,
    resumeHint: 'run the same command (same --store and --crawl-id) to go on',
    close: closeAll,
  };
}

/** One line on stderr when Redis would lose the crawl on a restart or evict it, or when that cannot be checked. */
async function warnIfNotDurable(
  redis: typeof import('@politely/store-redis'),
  link: ReturnType<typeof redis.createRedisLink>,
  say: (line: string) => void,
): Promise<void> {
  const durability = await redis
    .checkRedisDurability(link)
    .catch((error: unknown) => ({ checked: false as const, reason: (error as Error).message }));
  if (!durability.checked) {
    say(
      `warning: could not check whether ${link.display} keeps the crawl through a restart (CONFIG GET: ${durability.reason}); a durable crawl needs appendonly yes and maxmemory-policy noeviction`,
    );
  } else if (durability.problems.length > 0) {
    say(`warning: ${link.display} may lose this crawl: ${durability.problems.join('; ')}`);
  }
}
