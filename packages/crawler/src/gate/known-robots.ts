// The enqueue-time robots pre-check: a URL that an origin's already-known robots.txt disallows
// is skipped before it waits for its host's turn. It runs for every discovered link, and the
// gate reads its cache store on each call (one Redis GET with a shared cache), so what the gate
// answers is remembered per origin for a short while. The gate's own check at fetch time stays
// the authority: a stale answer here can only delay a skip, never cause a disallowed fetch.

import type { RobotsAgents, RobotsGate, RobotsTxt } from '@politely/core';
import { LruMap } from '@politely/core/internal';
import { robotsSkip, type SkipDetail } from '../skip-reasons.js';
import { createOriginReader } from './origin-reader.js';

export interface KnownRobotsOptions {
  /** How long an origin's answer is reused. */
  readonly ttlMs: number;
  /** Origins remembered at most; the oldest is forgotten first. */
  readonly maxOrigins: number;
}

/**
 * The skip (and its deciding rule) when the known robots.txt disallows `url`, else undefined. The
 * answer is given at once, without a promise, when the origin's robots.txt is already in hand
 * (the common case: it runs for every link of every page); a promise while it is being read.
 */
export type KnownRobotsCheck = (url: URL) => SkipDetail | undefined | Promise<SkipDetail | undefined>;

interface KnownOrigin {
  readonly at: number;
  readonly robots: Promise<RobotsTxt | undefined>;
  /** The robots.txt once `robots` has resolved to one. */
  settled?: RobotsTxt;
}

export function createKnownRobotsCheck(
  gate: Pick<RobotsGate, 'robotsTxt'>,
  userAgent: RobotsAgents,
  options: KnownRobotsOptions = { ttlMs: 2000, maxOrigins: 1024 },
): KnownRobotsCheck {
  const memo = new LruMap<string, KnownOrigin>(options.maxOrigins);
  const originOf = createOriginReader();
  const knownOrigin = (url: URL): KnownOrigin => {
    const now = Date.now();
    const origin = originOf(url);
    const known = memo.get(origin);
    if (known !== undefined && now - known.at < options.ttlMs) return known;
    const robots = gate.robotsTxt(url).catch(() => undefined);
    const asked: KnownOrigin = { at: now, robots };
    memo.set(origin, asked);
    void robots.then((answer) => {
      if (answer !== undefined) asked.settled = answer;
      // Only a known robots.txt is remembered: an origin not fetched yet is asked again next time.
      else if (memo.get(origin) === asked) memo.delete(origin);
    });
    return asked;
  };
  const verdict = (robots: RobotsTxt | undefined, url: URL): SkipDetail | undefined => {
    // The cheap check first; the explanation (an object per call) only for a refusal.
    if (robots === undefined || robots.isAllowed(url, userAgent)) return undefined;
    const explanation = robots.explain(url, userAgent);
    if (explanation.allowed) return undefined;
    return robotsSkip(
      explanation.rule,
      'robots.txt',
      typeof userAgent === 'string' ? undefined : explanation.productToken,
    );
  };
  return (url) => {
    const known = knownOrigin(url);
    if (known.settled !== undefined) return verdict(known.settled, url);
    return known.robots.then((robots) => verdict(robots, url));
  };
}
