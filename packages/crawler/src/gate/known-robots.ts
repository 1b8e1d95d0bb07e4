// The enqueue-time robots pre-check: a URL that an origin's already-known robots.txt disallows
// is skipped before it waits for its host's turn. It runs for every discovered link, and the
// gate reads its cache store on each call (one Redis GET with a shared cache), so what the gate
// answers is remembered per origin for a short while. The gate's own check at fetch time stays
// the authority: a stale answer here can only delay a skip, never cause a disallowed fetch.

import type { RobotsAgents, RobotsGate, RobotsTxt } from '@politely/core';
import { LruMap } from '@politely/core/internal';
import { robotsSkip, type SkipDetail } from '../skip-reasons.js';

export interface KnownRobotsOptions {
  /** How long an origin's answer is reused. */
  readonly ttlMs: number;
  /** Origins remembered at most; the oldest is forgotten first. */
  readonly maxOrigins: number;
}

/** Resolves with the skip (and its deciding rule) when the known robots.txt disallows `url`, else undefined. */
export type KnownRobotsCheck = (url: URL) => Promise<SkipDetail | undefined>;

export function createKnownRobotsCheck(
  gate: Pick<RobotsGate, 'robotsTxt'>,
  userAgent: RobotsAgents,
  options: KnownRobotsOptions = { ttlMs: 2000, maxOrigins: 1024 },
): KnownRobotsCheck {
  const memo = new LruMap<string, { readonly at: number; readonly robots: Promise<RobotsTxt | undefined> }>(
    options.maxOrigins,
  );
  const robotsOf = (url: URL): Promise<RobotsTxt | undefined> => {
    const now = Date.now();
    const known = memo.get(url.origin);
    if (known !== undefined && now - known.at < options.ttlMs) return known.robots;
    const robots = gate.robotsTxt(url).catch(() => undefined);
    memo.set(url.origin, { at: now, robots });
    // Only a known robots.txt is remembered: an origin not fetched yet is asked again next time.
    void robots.then((known) => {
      if (known === undefined && memo.get(url.origin)?.robots === robots) memo.delete(url.origin);
    });
    return robots;
  };
  return async (url) => {
    const robots = await robotsOf(url);
    if (robots === undefined) return undefined;
    const explanation = robots.explain(url, userAgent);
    if (explanation.allowed) return undefined;
    return robotsSkip(
      explanation.rule,
      'robots.txt',
      typeof userAgent === 'string' ? undefined : explanation.productToken,
    );
  };
}
