// What the demo webs' servers saw of the demo crawl: requests to paths robots.txt disallows
// (there must be none), the tightest gap between two requests to one host against its delay,
// and how many of the pages a complete polite crawl finds were fetched.

import { type LocalWeb, type LoggedRequest, minGapMsByOrigin, violations } from '@politely/demo-web';

export interface ServerChecks {
  /** Requests the servers logged. */
  readonly requests: number;
  readonly violations: readonly LoggedRequest[];
  /** Hosts where two requests arrived closer together than the host's delay. */
  readonly tooClose: readonly string[];
  /** `shop: 201 ms ≥ 200 ms`, the host with the smallest gap ÷ delay. */
  readonly tightest: string;
  /** Pages (paths) of the manifest a complete polite crawl requests, and how many were requested. */
  readonly expected: number;
  readonly found: number;
}

export function serverChecks(webs: readonly LocalWeb[], userAgent: string, minDelayMs: number): ServerChecks {
  const log = webs.flatMap((web) => web.requestLog());
  const hosts = webs.flatMap((web) => web.hosts);
  const gaps = minGapMsByOrigin(log);
  const tooClose: string[] = [];
  let tightest = { ratio: Infinity, text: 'no host got two requests' };
  for (const host of hosts) {
    const gap = gaps.get(host.origin);
    if (gap === undefined) continue;
    const delay = Math.max(minDelayMs, (host.crawlDelaySeconds ?? 0) * 1000);
    if (gap < delay) tooClose.push(`${host.name} (${gap.toFixed(0)} ms < ${delay} ms)`);
    const ratio = delay > 0 ? gap / delay : Infinity;
    if (ratio < tightest.ratio)
      tightest = { ratio, text: `${host.name} ${gap.toFixed(0)} ms ${gap >= delay ? '≥' : '<'} ${delay} ms` };
  }
  let expected = 0;
  let found = 0;
  for (const host of hosts) {
    const requested = new Set(log.filter((entry) => entry.origin === host.origin).map((entry) => entry.path));
    expected += host.expectedAllowedPaths.length;
    found += host.expectedAllowedPaths.filter((path) => requested.has(path)).length;
  }
  return {
    requests: log.length,
    violations: webs.flatMap((web) => violations(web, userAgent)),
    tooClose,
    tightest: tightest.text,
    expected,
    found,
  };
}
