// What a run does with a store an earlier run left, before it crawls: a seed given again that
// the earlier run refused is tried again, `retryFailed` puts every failure back, and a run with
// nothing to do says so in one line (a `warning` event). See docs/resume-retry-fresh.md.

import type { FrontierStore } from '@politely/frontier';
import type { CrawlerEmitter } from './events.js';
import { type CanonicalUrlOptions, canonicalizeUrl } from './frontier/canonical-url.js';
import type { Frontier, FrontierRequest } from './frontier/frontier.js';

export interface RunAgain {
  readonly store: FrontierStore;
  readonly frontier: Frontier;
  readonly emitter: CrawlerEmitter;
  readonly canonicalUrl: CanonicalUrlOptions;
  /** Wakes the claim loop: URLs were queued. */
  readonly notify: () => void;
}

/** A seed as `queueSeeds` takes it: the seed flags are its own to set. */
export type SeedToAdd = Omit<FrontierRequest, 'seed' | 'skipScope'>;

const plural = (n: number, word: string): string => `${n} ${word}${n === 1 ? '' : 's'}`;

/**
 * Adds seeds (the options' or `enqueue`'s). A seed the store holds as refused by an earlier run
 * (a blocked address, robots.txt, …) is put back: given again, it is tried under this run's
 * options. Resolves with how many were queued.
 */
export async function queueSeeds(run: RunAgain, seeds: readonly SeedToAdd[]): Promise<number> {
  const added = await run.frontier.add(seeds.map((seed) => ({ ...seed, skipScope: true, seed: true })));
  if (added === seeds.length) return added;
  const urls = seeds.map((seed) => canonicalizeUrl(seed.url, run.canonicalUrl)).flatMap((r) => (r.ok ? [r.url] : []));
  const requeued = urls.length === 0 ? 0 : await run.store.requeueFailed({ urls, kind: 'refused' });
  if (requeued > 0) {
    const message = `${plural(requeued, 'seed')} refused by an earlier run given again: tried again`;
    run.emitter.emit('warning', { kind: 'requeued-failed', message });
    run.notify();
  }
  return added + requeued;
}

/** `retryFailed`: every failed URL and refused seed goes back to its queue. */
export async function requeueFailed(run: RunAgain): Promise<void> {
  const requeued = await run.store.requeueFailed();
  if (requeued === 0) return;
  const message = `retryFailed: ${plural(requeued, 'failed URL')} put back to be tried again`;
  run.emitter.emit('warning', { kind: 'requeued-failed', message });
}

/**
 * A store that holds the crawl finished (nothing queued, something done) and no new seed: the
 * run will fetch nothing. Says why in one line, and how to try the failures again.
 */
export async function warnIfNothingToDo(run: RunAgain, retryFailed: boolean): Promise<void> {
  const counts = await run.store.counts();
  if (counts.queued + counts.inFlight > 0 || counts.done === 0) return;
  const hint = counts.failed > 0 && !retryFailed ? ' (retryFailed to try again)' : '';
  const message = `nothing to do: ${counts.done} done, ${counts.failed} failed${hint}`;
  run.emitter.emit('warning', { kind: 'nothing-to-do', message, counts: { done: counts.done, failed: counts.failed } });
}
