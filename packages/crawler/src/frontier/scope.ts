// Which URLs a crawl may follow (PURE). The check is built once from the scope option and the
// seeds, then called for every discovered link (and every redirect hop), so seed sets are
// precomputed and the public-suffix lookup runs only for hosts that could match.

import { PolitelyError } from '@politely/core';
import { compileGlob, statelessRegExp } from './canonical-url.js';
import { registrableDomainOf, withoutTrailingDot } from './registrable-domain.js';

/** Answers whether a URL is in scope. */
export type ScopePredicate = (url: URL) => boolean;

/** A glob over the full href (`*` matches any run of characters, all else literal) or a RegExp. */
export type ScopePattern = string | RegExp;

/** A seed-based scope: the seeds' origins, hosts or registrable domains, or any URL. */
export type ScopeMode = 'same-origin' | 'same-host' | 'same-domain' | 'any';

/** A scope by patterns over the URL: what is included and what is excluded. */
export interface ScopePatterns {
  /**
   * URLs in scope when their href matches any of these. Without `include`, the seeds'
   * registrable domains are in scope (as with `'same-domain'`): a polite crawler never wanders
   * the web because a list of exclusions was given. An empty array is an error.
   */
  readonly include?: readonly ScopePattern[];
  /** URLs out of scope when their href matches any of these; exclude wins over include. */
  readonly exclude?: readonly ScopePattern[];
}

/**
 * - `'same-origin'`: scheme, host and port of a seed.
 * - `'same-host'`: hostname of a seed, any scheme or port.
 * - `'same-domain'`: registrable domain of a seed (public-suffix aware, private suffixes
 *   included: `a.example.co.uk` ~ `b.example.co.uk`, but `a.github.io` ≁ `b.github.io`); IP
 *   addresses and single-label hosts such as `localhost` are their own domain.
 * - `'any'`: every http(s) URL.
 * - `{ include, exclude }`: glob or RegExp patterns over the href (see `ScopePatterns`).
 * - a predicate, called with the URL: the crawler trusts its answer.
 *
 * Built-in modes and patterns accept only http and https URLs.
 */
export type ScopeOption = ScopeMode | ScopePatterns | ScopePredicate;

/**
 * The default scope: the seeds' registrable domains. It is what "crawl this site" usually means
 * (`www.` and the apex, `blog.` and `docs.` subdomains) while a stray link to another site, or to
 * another tenant of a shared suffix such as `github.io`, never takes the crawl off it.
 */
export const DEFAULT_SCOPE: ScopeOption = 'same-domain';

// Bounds the memo of same-domain answers; cleared wholesale when full (cheap, and rare).
const MAX_REMEMBERED_HOSTS = 4096;

/**
 * Builds the scope check. Seeds are configuration: an invalid or non-http(s) seed, an unknown
 * mode or a bad pattern throws `ERR_INVALID_OPTION`. The seeds are read once: with none, the
 * seed-based modes put nothing in scope (seeds added later need a new check). Pass seeds and
 * URLs in the same canonical form (`canonicalizeUrl`), so that for example `stripWww` applies
 * to both.
 */
export function createScope(scope: ScopeOption, seeds: readonly (string | URL)[]): ScopePredicate {
  const seedUrls = parseSeeds(seeds);
  if (typeof scope === 'function') return (url) => scope(url) === true;
  if (scope instanceof RegExp || Array.isArray(scope)) {
    throw invalidOption('a pattern or list of patterns as the scope: write { include: [...] }');
  }
  if (typeof scope === 'object' && scope !== null) return patternScope(scope, seedUrls);
  switch (scope) {
    case 'any':
      return isWebUrl;
    case 'same-origin': {
      const origins = new Set(seedUrls.map((seed) => seed.origin));
      return (url) => isWebUrl(url) && origins.has(url.origin);
    }
    case 'same-host': {
      const hosts = new Set(seedUrls.map((seed) => seed.hostname));
      return (url) => isWebUrl(url) && hosts.has(url.hostname);
    }
    case 'same-domain':
      return sameDomainScope(seedUrls);
    default:
      throw invalidOption(
        `unknown scope ${JSON.stringify(scope)}: use 'same-origin', 'same-host', 'same-domain', 'any', { include, exclude } or a function`,
      );
  }
}

function sameDomainScope(seeds: readonly URL[]): ScopePredicate {
  const hosts = new Set(seeds.map((seed) => seed.hostname));
  const domainSet = new Set(seeds.map((seed) => domainOf(seed.hostname)));
  const domains = [...domainSet];
  // The answer depends on the hostname only, and links repeat hosts: remember recent answers.
  const decided = new Map<string, boolean>();
  const isInDomains = (hostname: string): boolean => {
    const host = withoutTrailingDot(hostname);
    if (domainSet.has(host)) return true;
    // A host inside a seed's domain ends with "." + that domain: a cheap test that rejects most
    // off-site links before the public-suffix lookup decides (`x.a.github.io` ends with
    // `.github.io` yet is not in it), against every seed domain at once.
    for (const domain of domains) {
      if (
        host.length > domain.length &&
        host.endsWith(domain) &&
        host.charCodeAt(host.length - domain.length - 1) === 0x2e
      ) {
        return domainSet.has(domainOf(host));
      }
    }
    return false;
  };
  return (url) => {
    if (!isWebUrl(url)) return false;
    const hostname = url.hostname;
    if (hosts.has(hostname)) return true;
    let answer = decided.get(hostname);
    if (answer === undefined) {
      answer = isInDomains(hostname);
      if (decided.size >= MAX_REMEMBERED_HOSTS) decided.clear();
      decided.set(hostname, answer);
    }
    return answer;
  };
}

/** The registrable domain; private suffixes (github.io, blogspot.com, …) count: their tenants are different sites. */
const domainOf = (hostname: string): string => registrableDomainOf(hostname, true);

function patternScope(patterns: ScopePatterns, seeds: readonly URL[]): ScopePredicate {
  const exclude = compilePatterns(patterns.exclude ?? [], 'exclude');
  if (patterns.include !== undefined && patterns.include.length === 0) {
    throw invalidOption("scope.include is empty, so nothing would be in scope: omit it to keep to the seeds' domains");
  }
  const include =
    patterns.include === undefined ? sameDomainScope(seeds) : compilePatterns(patterns.include, 'include');
  return (url) => isWebUrl(url) && include(url) && !exclude(url);
}

function compilePatterns(patterns: readonly ScopePattern[], field: string): ScopePredicate {
  const matchers = patterns.map((pattern): ((href: string) => boolean) => {
    if (typeof pattern === 'string') return compileGlob(pattern);
    if (pattern instanceof RegExp) {
      const re = statelessRegExp(pattern);
      return (href) => re.test(href);
    }
    throw invalidOption(`scope.${field} entries must be strings or RegExps, got ${typeof pattern}`);
  });
  return (url) => {
    const href = url.href;
    return matchers.some((matches) => matches(href));
  };
}

/** Every seed must be an absolute http(s) URL, whatever the mode: seeds are configuration. */
function parseSeeds(seeds: readonly (string | URL)[]): URL[] {
  return seeds.map((seed) => {
    let url: URL;
    try {
      url = typeof seed === 'string' ? new URL(seed) : seed;
    } catch (cause) {
      throw invalidOption(`seed ${JSON.stringify(seed)} is not a valid absolute URL`, cause);
    }
    if (!isWebUrl(url)) throw invalidOption(`seed ${JSON.stringify(url.href)} is not an http or https URL`);
    return url;
  });
}

/** Read off the serialised URL (its scheme lower-cased): `url.protocol` would be a new string per link. */
function isWebUrl(url: URL): boolean {
  const href = url.href;
  return href.startsWith('https:') || href.startsWith('http:');
}

function invalidOption(message: string, cause?: unknown): PolitelyError {
  return new PolitelyError(
    'ERR_INVALID_OPTION',
    `createScope: ${message}`,
    cause === undefined ? undefined : { cause },
  );
}
