// `addSeeds`: seeds added to a crawl from a process that runs none of its workers (`politely
// seeds add`). The seeds' origins join the crawl's scope seeds in the store's metadata first;
// the running workers read that list twice a second and widen their scope; then, once they
// have had the time to, the seeds are queued as a crawler queues its own (depth 0, in scope).

import { PolitelyError } from '@politely/core';
import type { FrontierStore } from '@politely/frontier';
import { type CanonicalUrlOptions, canonicalizeUrl, resolveCanonicalUrlOptions } from './frontier/canonical-url.js';
import { createFrontier } from './frontier/frontier.js';
import { recordScopeRoots, SCOPE_SEEDS_POLL_MS, scopeRootsOf } from './frontier/scope-seeds.js';
import { createPolitenessKeys } from './politeness/index.js';

/** Options of `addSeeds`: the crawl's store, the seeds, and the canonicalisation and politeness key the crawl uses. */
export interface AddSeedsOptions {
  /**
   * The crawl's store, with metadata (`saveMetadata`/`loadMetadata`): Redis opened with the
   * crawl's `crawlId`, or the crawl's SQLite file opened with `shared: true` (this process takes
   * no lease, so the crawl itself may own the file).
   */
  readonly store: FrontierStore;
  /** Absolute http(s) URLs. One that is not is named in the error, and the others are still added. */
  readonly seeds: readonly string[];
  /** The crawl's `canonicalUrl` option: a seed is queued, and found already queued, in the crawl's canonical form. @default {} */
  readonly canonicalUrl?: CanonicalUrlOptions;
  /**
   * The crawl's `politenessKey`, which decides the host clock a seed waits on. `'ip'` is refused
   * (resolving names is the workers' job): add such seeds with `crawler.enqueue` in a worker.
   * @default 'host'
   */
  readonly politenessKey?: 'host' | 'domain';
  /** The seeds' priority (higher is claimed first). @default 0 */
  readonly priority?: number;
  /**
   * How long to wait between recording the seeds' origins and queueing the seeds, so that every
   * running worker has widened its scope before one of them fetches a new seed and follows its
   * links. Two of the workers' polls. @default 1000
   */
  readonly settleMs?: number;
}

/**
 * What `addSeeds` did: how many seeds were added, the seeds as canonicalised, and the crawl's
 * scope origins after it.
 */
export interface AddSeedsResult {
  /** How many seeds were newly queued (one the crawl already holds is not queued again). */
  readonly added: number;
  /** The seeds in their canonical form, as recorded and queued. */
  readonly seeds: readonly string[];
  /** The origins the crawl's scope seeds hold now (this call's and every earlier one's). */
  readonly scope: readonly string[];
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Adds seeds to a crawl, running or not, from any process: their origins join the crawl's scope
 * seeds in the store (every running worker widens its scope within a second, and a run that
 * resumes the crawl keeps them), then they are queued at depth 0, skipping the scope check as
 * seeds do. Resolves once they are queued.
 * @throws PolitelyError `ERR_INVALID_OPTION` for a store without metadata or a bad option;
 *   `ERR_INVALID_URL` when a seed is not an absolute http(s) URL, naming each such seed, after
 *   the valid ones have been added.
 */
export async function addSeeds(options: AddSeedsOptions): Promise<AddSeedsResult> {
  const { store } = options;
  if (store?.saveMetadata === undefined || store.loadMetadata === undefined)
    throw invalidOption('the store keeps no metadata: give the crawl’s Redis or SQLite store');
  const politenessKey = options.politenessKey ?? 'host';
  if (politenessKey !== 'host' && politenessKey !== 'domain')
    throw invalidOption(`politenessKey must be 'host' or 'domain', got ${JSON.stringify(politenessKey)}`);
  const settleMs = options.settleMs ?? SCOPE_SEEDS_POLL_MS * 2;
  if (!Number.isSafeInteger(settleMs) || settleMs < 0)
    throw invalidOption(`settleMs must be a whole number of milliseconds, got ${String(settleMs)}`);
  const priority = options.priority ?? 0;
  if (!Number.isSafeInteger(priority)) throw invalidOption(`priority must be an integer, got ${String(priority)}`);
  if (!Array.isArray(options.seeds)) throw invalidOption('seeds must be an array of URLs');
  const canonicalUrl = resolveCanonicalUrlOptions(options.canonicalUrl);

  const seeds: string[] = [];
  const invalid: string[] = [];
  for (const seed of options.seeds) {
    const canonical = typeof seed === 'string' ? canonicalizeUrl(seed, canonicalUrl) : undefined;
    if (canonical?.ok === true) seeds.push(canonical.url);
    else invalid.push(`${JSON.stringify(seed)} (${canonical?.ok === false ? canonical.message : 'not a string'})`);
  }
  let scope: string[] = [];
  let added = 0;
  if (seeds.length > 0) {
    scope = await recordScopeRoots(store, scopeRootsOf(seeds));
    if (settleMs > 0) await sleep(settleMs);
    const keys = createPolitenessKeys(politenessKey, undefined);
    const frontier = createFrontier({
      store,
      // Seeds skip the scope check: the scope is derived from them.
      inScope: () => true,
      canonicalUrl,
      maxDepth: Number.POSITIVE_INFINITY,
      maxPagesPerHost: Number.POSITIVE_INFINITY,
      hostKeyOf: (url) => keys.keyOf(url),
      // A seed the crawl holds already is a duplicate, and counts as not added.
      onSkip: () => {},
    });
    added = await frontier.add(seeds.map((url) => ({ url, depth: 0, priority, seed: true, skipScope: true })));
  }
  if (invalid.length > 0) {
    const others =
      seeds.length === 0
        ? 'no seed was added'
        : seeds.length === 1
          ? 'the other was added'
          : `the ${seeds.length} others were added`;
    throw new PolitelyError(
      'ERR_INVALID_URL',
      `addSeeds: ${invalid.length} seed${invalid.length === 1 ? '' : 's'} not added, not an absolute http(s) URL: ${invalid.join(', ')}; ${others}`,
    );
  }
  return { added, seeds, scope };
}

function invalidOption(message: string): PolitelyError {
  return new PolitelyError('ERR_INVALID_OPTION', `addSeeds: ${message}`);
}
