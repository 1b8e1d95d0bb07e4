// What a host's robots.txt means for one user agent, decided by politely's own engine
// (`parseRobotsTxt`), with RFC 9309's rules for a robots.txt that is not there (4xx: allow all)
// or not reachable (5xx: disallow all).

import { parseRobotsTxt } from '@politely/core';

export interface RobotsFacts {
  readonly crawlDelaySeconds: number | undefined;
  readonly disallowedPrefixes: readonly string[];
  readonly sitemaps: readonly string[];
  /** Whether the user agent may fetch this absolute URL of the host. */
  isAllowed(url: string): boolean;
}

export function robotsFacts(robotsStatus: number, robotsTxt: string, userAgent: string): RobotsFacts {
  if (robotsStatus >= 500 || robotsStatus === 429) {
    return {
      crawlDelaySeconds: undefined,
      disallowedPrefixes: ['/'],
      sitemaps: [],
      isAllowed: isRobotsTxtUrl,
    };
  }
  if (robotsStatus >= 400) {
    return { crawlDelaySeconds: undefined, disallowedPrefixes: [], sitemaps: [], isAllowed: () => true };
  }
  const robots = parseRobotsTxt(robotsTxt);
  // The groups chosen for this agent, found by the line of their first user-agent line.
  const chosen = new Set(robots.explain('/', userAgent).groups.map((lines) => lines[0]?.line));
  const disallowedPrefixes = robots.groups
    .filter((group) => chosen.has(group.userAgents[0]?.line))
    .flatMap((group) => group.rules)
    .filter((rule) => rule.type === 'disallow' && rule.value !== '')
    .map((rule) => rule.value);
  return {
    crawlDelaySeconds: robots.crawlDelay(userAgent),
    disallowedPrefixes,
    sitemaps: robots.sitemaps,
    isAllowed: (url) => robots.isAllowed(url, userAgent),
  };
}

/** `/robots.txt` itself, the one path a host with an unreachable robots.txt may be asked for. */
function isRobotsTxtUrl(url: string): boolean {
  try {
    return new URL(url).pathname === '/robots.txt';
  } catch {
    return false;
  }
}
