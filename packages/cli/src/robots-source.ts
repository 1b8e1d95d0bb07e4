// Where `robots explain` gets its decisions: one robots.txt file given with --robots, or the
// live robots.txt of each URL's origin, fetched and interpreted by the robots gate.

import { createRobotsGate, parseRobotsTxt, type RobotsCheckReason, type RobotsExplanation } from '@politely/core';
import { readRobotsFile } from './read-robots-file.js';

/** One URL's decision: the gate's verdict and reason, and the rules' explanation when rules decided. */
export interface RobotsDecision {
  readonly allowed: boolean;
  /** `rules` for a --robots file; otherwise the gate's reason. */
  readonly reason: RobotsCheckReason;
  /** HTTP status of the robots.txt response (null for a file or a network error). */
  readonly status: number | null;
  /** The robots.txt URL consulted (null for a file). */
  readonly robotsUrl: string | null;
  /** Group and deciding rule; absent when the HTTP outcome decided (4xx, 5xx, unreachable). */
  readonly explanation?: RobotsExplanation;
}

export interface RobotsSource {
  decide(url: URL, userAgent: string): Promise<RobotsDecision>;
  close(): Promise<void>;
}

/** A source that answers every URL with one file, read and parsed once, up front. */
export async function createFileRobotsSource(path: string): Promise<RobotsSource> {
  const robots = parseRobotsTxt(await readRobotsFile(path));
  return {
    decide: async (url, userAgent) => {
      const explanation = robots.explain(url, userAgent);
      return { allowed: explanation.allowed, reason: 'rules', status: null, robotsUrl: null, explanation };
    },
    close: () => Promise.resolve(),
  };
}

/**
 * A source that fetches each origin's robots.txt through the robots gate (cached per origin),
 * with its SSRF guard: private addresses only through `allowNet`.
 */
export function createLiveRobotsSource(options: { readonly timeoutMs: number; readonly userAgent: string; readonly allowNet: readonly string[] }): RobotsSource {
  const gate = createRobotsGate({ timeoutMs: options.timeoutMs, userAgent: options.userAgent, allowNet: options.allowNet });
  return {
    decide: async (url, userAgent) => {
      const check = await gate.check(url, userAgent);
      const decision = { allowed: check.allowed, reason: check.reason, status: check.status, robotsUrl: check.robotsUrl };
      if (check.reason !== 'rules' && check.reason !== 'cached') return decision;
      const robots = await gate.robotsTxt(url);
      return robots === undefined ? decision : { ...decision, explanation: robots.explain(url, userAgent) };
    },
    close: () => gate.close(),
  };
}
