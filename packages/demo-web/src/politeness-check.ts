// Server-side proof of politeness: which logged requests robots.txt forbade, and how close
// together the requests to one host came.

import { robotsFacts } from './robots-facts.js';
import type { LocalWeb, LoggedRequest } from './types.js';

/**
 * The logged requests that the robots.txt of their host disallows for `userAgent` (its product
 * token is what is matched), decided by `parseRobotsTxt` of `@politely/core`. A host whose
 * robots.txt answers 5xx allows nothing but `/robots.txt`; one answering 4xx allows everything.
 * An empty array is a polite crawl.
 */
export function violations(web: Pick<LocalWeb, 'hosts' | 'requestLog'>, userAgent: string): LoggedRequest[] {
  return web.hosts.flatMap((host) => {
    const facts = robotsFacts(host.robotsStatus, host.robotsTxt ?? '', userAgent);
    return web.requestLog(host.origin).filter((entry) => !facts.isAllowed(host.origin + entry.path));
  });
}

/**
 * The smallest gap (ms, by the server's `atMs`) between two consecutive requests to the same
 * origin in `log`; `Infinity` when no origin got two requests. Compare it with the crawl-delay.
 */
export function minGapMs(log: readonly LoggedRequest[]): number {
  let smallest = Infinity;
  for (const gap of minGapMsByOrigin(log).values()) smallest = Math.min(smallest, gap);
  return smallest;
}

/** The smallest gap (ms) between consecutive requests, origin by origin (origins with one request are left out). */
export function minGapMsByOrigin(log: readonly LoggedRequest[]): Map<string, number> {
  const times = new Map<string, number[]>();
  for (const entry of log) {
    const list = times.get(entry.origin);
    if (list === undefined) times.set(entry.origin, [entry.atMs]);
    else list.push(entry.atMs);
  }
  const gaps = new Map<string, number>();
  for (const [origin, list] of times) {
    if (list.length < 2) continue;
    list.sort((a, b) => a - b);
    let smallest = Infinity;
    for (let i = 1; i < list.length; i++) smallest = Math.min(smallest, (list[i] as number) - (list[i - 1] as number));
    gaps.set(origin, smallest);
  }
  return gaps;
}
