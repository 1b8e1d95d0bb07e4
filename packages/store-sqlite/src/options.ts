// createSqliteFrontierStore's options: documented with their defaults, validated once.

import { describeValue, optionChecks } from '@politely/core/internal';
import type { HostPolicy } from '@politely/frontier';
import { resolveDefaultHostPolicy } from '@politely/frontier/internal';
import {
  type CrawlDatabaseOptions,
  type ResolvedCrawlDatabaseOptions,
  resolveCrawlDatabaseOptions,
} from './open-database.js';

/**
 * Options of `createSqliteFrontierStore`: the crawl file, a host's default policy, and whether
 * other processes share it.
 */
export interface SqliteFrontierStoreOptions extends CrawlDatabaseOptions {
  /** The crawl file, created if missing; open the same file again to resume the crawl. Required. */
  readonly path: string;
  /**
   * Politeness of a host the file does not know yet (a known host keeps what the file says).
   * @default { delayMs: 0, maxInFlight: 1 }
   */
  readonly defaultHostPolicy?: Partial<HostPolicy>;
  /**
   * When nothing can be claimed only because URLs are in flight (perhaps in another process, or
   * left by one that died), `claim` answers with the earliest lease expiry, but no later than
   * now + this: the caller looks again then, as the other process may have finished or added URLs.
   * @default 1000
   */
  readonly idlePollMs?: number;
  /**
   * Whether several stores (in several processes) may work on the file at once. By default a
   * store owns its file: it takes a lock that the OS lets go of when the process ends (a
   * second store is refused with `ERR_STORE_IN_USE`), and so, on opening, it knows that URLs
   * left in flight belong to no live process and hands them back to their queues at once (a
   * crawl resumed after a SIGKILL waits for no lease). With `shared: true`, several processes
   * share one frontier, and a dead process's URLs come back only when its leases expire.
   * @default false
   */
  readonly shared?: boolean;
}

export interface ResolvedSqliteFrontierStoreOptions extends ResolvedCrawlDatabaseOptions {
  readonly path: string;
  readonly defaultHostPolicy: HostPolicy;
  readonly idlePollMs: number;
  readonly shared: boolean;
}

/** Every option `createSqliteFrontierStore` knows: a key missing here, or one too many, is a type error. */
export const SQLITE_STORE_OPTION_KEYS: Record<keyof SqliteFrontierStoreOptions, true> = {
  path: true,
  defaultHostPolicy: true,
  idlePollMs: true,
  shared: true,
  busyTimeoutMs: true,
  cacheSizeKiB: true,
};

export function resolveSqliteFrontierStoreOptions(
  options: SqliteFrontierStoreOptions,
): ResolvedSqliteFrontierStoreOptions {
  const check = optionChecks('createSqliteFrontierStore');
  if (typeof options !== 'object' || options === null)
    check.fail(`options must be an object { path, … }, got ${describeValue(options)}`);
  check.knownKeys(options, SQLITE_STORE_OPTION_KEYS);
  if (typeof options.path !== 'string' || options.path === '') check.fail('path (the crawl file) is required');
  const database = {
    busyTimeoutMs: check.count('busyTimeoutMs', options.busyTimeoutMs, 5000, 0),
    cacheSizeKiB: check.count('cacheSizeKiB', options.cacheSizeKiB, 16_384, 64),
  };
  return {
    ...resolveCrawlDatabaseOptions(database),
    path: options.path,
    defaultHostPolicy: resolveDefaultHostPolicy(check, options.defaultHostPolicy),
    idlePollMs: check.timeoutMs('idlePollMs', options.idlePollMs, 1000),
    shared: check.flag('shared', options.shared, false),
  };
}
