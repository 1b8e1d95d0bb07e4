// The demo web's manifest, computed by crawling the served resources in memory, as a complete
// and polite crawler would: from the entry URL, following redirects and followable links, never
// entering a disallowed path, and stopping at crawler traps.

import { extractLinks, resolveHttpUrl } from './extract-links.js';
import { type HostSpec, resourceAt } from './host-spec.js';
import type { BuiltHosts, HostPaths } from './local-web.js';
import type { RobotsFacts } from './robots-facts.js';

// A bound on the walk: the demo has a few hundred resources; only a bug could need more.
const MAX_VISITS = 20_000;

interface HostSets {
  readonly expected: Set<string>;
  readonly disallowed: Set<string>;
  readonly nofollow: Set<string>;
  readonly sitemapOnly: Set<string>;
}

export function crawlManifest(
  built: BuiltHosts,
  origins: readonly string[],
  facts: readonly RobotsFacts[],
): HostPaths[] {
  const sets: HostSets[] = origins.map(() => ({
    expected: new Set(),
    disallowed: new Set(),
    nofollow: new Set(),
    sitemapOnly: new Set(),
  }));
  const indexOf = new Map(origins.map((origin, i) => [origin, i]));
  const locate = (url: string): { index: number; path: string } | undefined => {
    const parsed = new URL(url);
    const index = indexOf.get(parsed.origin);
    return index === undefined ? undefined : { index, path: parsed.pathname + parsed.search };
  };
  const nofollowCandidates = walk(built, facts, sets, locate);
  for (const url of nofollowCandidates) classifyExtra(url, 'nofollow', facts, sets, locate);
  for (const spec of built.specs) {
    for (const url of spec.sitemapLocs ?? []) classifyExtra(url, 'sitemapOnly', facts, sets, locate);
    for (const url of spec.sitemapFiles ?? []) classifyExtra(url, 'none', facts, sets, locate);
  }
  for (const fact of facts) for (const url of fact.sitemaps) classifyExtra(url, 'none', facts, sets, locate);
  return sets.map((set) => ({
    expectedAllowedPaths: [...set.expected].sort(),
    disallowedKnownPaths: [...set.disallowed].sort(),
    nofollowPaths: [...set.nofollow].sort(),
    sitemapOnlyPaths: [...set.sitemapOnly].sort(),
  }));
}

type Locate = (url: string) => { index: number; path: string } | undefined;

/** Breadth-first over followed links and redirects; returns the nofollow links it saw. */
function walk(built: BuiltHosts, facts: readonly RobotsFacts[], sets: HostSets[], locate: Locate): string[] {
  const queue = [built.entryUrl];
  const seen = new Set(queue);
  const nofollow: string[] = [];
  const push = (url: string | null): void => {
    if (url !== null && !seen.has(url)) {
      seen.add(url);
      queue.push(url);
    }
  };
  for (let head = 0; head < queue.length && head < MAX_VISITS; head++) {
    const url = queue[head] as string;
    const where = locate(url);
    const spec = where === undefined ? undefined : built.specs[where.index];
    if (where === undefined || spec === undefined) continue;
    const set = sets[where.index] as HostSets;
    if (!(facts[where.index]?.isAllowed(url) ?? false)) {
      set.disallowed.add(where.path);
      continue;
    }
    if (isTrap(spec, where.path)) continue;
    set.expected.add(where.path);
    const resource = resourceAt(spec, where.path);
    const location = resource.headers['location'];
    if (resource.status >= 300 && resource.status < 400 && location !== undefined) {
      push(resolveHttpUrl(location, url));
    } else if (resource.headers['content-type']?.startsWith('text/html') === true) {
      const links = extractLinks(resource.body.toString('utf8'), url);
      links.followed.forEach(push);
      nofollow.push(...links.nofollow);
    }
  }
  return nofollow;
}

function isTrap(spec: HostSpec, path: string): boolean {
  return (spec.trapPrefixes ?? []).some((prefix) => path.startsWith(prefix));
}

/** A URL known from somewhere else than a followed link: disallowed, or extra if not expected. */
function classifyExtra(
  url: string,
  kind: 'nofollow' | 'sitemapOnly' | 'none',
  facts: readonly RobotsFacts[],
  sets: HostSets[],
  locate: Locate,
): void {
  const where = locate(url);
  if (where === undefined) return;
  const set = sets[where.index] as HostSets;
  if (!(facts[where.index]?.isAllowed(url) ?? false)) set.disallowed.add(where.path);
  else if (kind !== 'none' && !set.expected.has(where.path)) set[kind].add(where.path);
}
