// A crawl whose every seed was refused fetched nothing, and would end as if it had finished. The
// seeds a run offers and those refused (by the frontier, or when claimed) are tallied here; at
// the end, a run that fetched no page and had every seed refused rejects with a SeedsRefusedError
// naming each seed, its reason and what would fix it.

import { isIP } from 'node:net';
import { PolitelyError } from '@politely/core';
import { type CanonicalUrlOptions, canonicalizeUrl } from './frontier/canonical-url.js';
import type { SkipDetail } from './skip-reasons.js';

/** A seed the crawl did not fetch, and why. */
export interface RefusedSeed {
  /** The seed, as given (or in its canonical form when it was refused after it was queued). */
  readonly url: string;
  /** The skip reason (`blocked-address`, `invalid-url`, `robots`, …) or `fetch` for a request that failed. */
  readonly reason: string;
  /** What was found: the skip's detail or the error's message. */
  readonly detail: string;
  /** What would fix it, when known: the option to set, the URL to write. */
  readonly fix?: string;
}

/** Every seed of a crawl was refused, so it fetched nothing: `seeds` says why for each. */
export class SeedsRefusedError extends PolitelyError {
  readonly seeds: readonly RefusedSeed[];

  constructor(seeds: readonly RefusedSeed[]) {
    const lines = seeds.map(
      (seed) => `  ${seed.url}: ${seed.reason} (${seed.detail})${seed.fix ? `; ${seed.fix}` : ''}`,
    );
    super('ERR_SEEDS_REFUSED', `the crawl fetched nothing: every seed was refused\n${lines.join('\n')}`);
    this.name = 'SeedsRefusedError';
    this.seeds = seeds;
  }

  /** A PolitelyError of this code (PolitelyError's own check would take every PolitelyError). */
  static override [Symbol.hasInstance](value: unknown): boolean {
    return PolitelyError[Symbol.hasInstance](value) && (value as PolitelyError).code === 'ERR_SEEDS_REFUSED';
  }
}

/** The network to name in `allowNet` for a refused address: its well-known block, else the address alone. */
function networkOf(url: string): string {
  let host: string;
  try {
    host = new URL(url).hostname.replace(/^\[|\]$/g, '');
  } catch {
    return '127.0.0.0/8';
  }
  const blocks: [RegExp, string][] = [
    [/^127\./, '127.0.0.0/8'],
    [/^10\./, '10.0.0.0/8'],
    [/^192\.168\./, '192.168.0.0/16'],
    [/^172\.(1[6-9]|2\d|3[01])\./, '172.16.0.0/12'],
    [/^169\.254\./, '169.254.0.0/16'],
    [/^::1$/, '::1/128'],
  ];
  for (const [pattern, network] of blocks) if (pattern.test(host)) return network;
  if (isIP(host) === 4) return `${host}/32`;
  if (isIP(host) === 6) return `${host}/128`;
  // A name: the address it resolves to is in the skip's detail.
  return '127.0.0.0/8';
}

/** What to do about a refused seed, by its reason: the option, and the CLI flag, that would fix it. */
export function fixFor(url: string, reason: string): string | undefined {
  switch (reason) {
    case 'blocked-address': {
      const network = networkOf(url);
      return `its address is loopback, private or link-local, which the crawl refuses unless allowed: allowNet: ["${network}"] (CLI: --allow-net ${network})`;
    }
    case 'invalid-url':
      return /^[a-z][a-z0-9+.-]*:/i.test(url)
        ? 'it is not a URL'
        : `a seed needs its scheme: write https://${url.replace(/^\/+/, '')}`;
    case 'unsupported-scheme':
      return 'only http: and https: URLs are crawled';
    case 'url-too-long':
      return 'it is longer than URLs the crawler keeps';
    case 'robots':
      return "the site's robots.txt disallows it for this crawler's user agent";
    case 'robots-unreachable':
      return "the site's robots.txt could not be read: the server is down or refuses the crawler";
    case 'usage-reserved':
      return "the site reserves it for one of the crawl's purposes";
    case 'fetch':
      return 'the request failed on every attempt: is the server up?';
    default:
      return undefined;
  }
}

/** The seeds one run offered, and those refused. */
export class SeedRefusals {
  private readonly offered = new Set<string>();
  private readonly refused = new Map<string, RefusedSeed>();

  constructor(private readonly canonicalUrl: CanonicalUrlOptions) {}

  offer(urls: readonly string[]): void {
    for (const url of urls) this.offered.add(this.keyOf(url));
  }

  /** A seed refused by a skip (the frontier's, or its walk's). */
  refuse(url: string, skip: SkipDetail): void {
    this.note(url, skip.reason, skip.detail ?? skip.reason);
  }

  /** A seed whose request failed for good. */
  fail(url: string, error: Error): void {
    this.note(url, 'fetch', error.message);
  }

  /** The error to end the run with: every seed offered was refused, and no page was fetched. */
  errorIfAllRefused(pagesFetched: number): SeedsRefusedError | undefined {
    if (pagesFetched > 0 || this.offered.size === 0) return undefined;
    for (const key of this.offered) if (!this.refused.has(key)) return undefined;
    return new SeedsRefusedError([...this.refused.values()]);
  }

  private note(url: string, reason: string, detail: string): void {
    const key = this.keyOf(url);
    if (!this.offered.has(key) || this.refused.has(key)) return;
    const fix = fixFor(url, reason);
    this.refused.set(key, { url, reason, detail, ...(fix === undefined ? {} : { fix }) });
  }

  /** Seeds are matched in their canonical form (a refusal after queueing names that one). */
  private keyOf(url: string): string {
    const canonical = canonicalizeUrl(url, this.canonicalUrl);
    return canonical.ok ? canonical.url : url;
  }
}
