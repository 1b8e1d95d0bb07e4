// Where `robots explain` gets its decisions: one robots.txt file given with --robots, or the
// live robots.txt of each URL's origin, fetched and interpreted by the robots gate.

import {
  createRobotsGate,
  parseRobotsTxt,
  productToken,
  type RobotsCheckReason,
  type RobotsExplanation,
  type RobotsTxt,
} from '@politely/core';
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
  /** The parsed robots.txt that decided (for its usage lines); absent with the explanation. */
  readonly robots?: RobotsTxt;
  /** robots.txt was not requested: its host is on a network the SSRF guard refuses (see --allow-net). */
  readonly addressBlocked?: true;
}

export interface RobotsSource {
  /**
   * The decision for `url`. `tokens`: product tokens evaluated besides the user agent's (every
   * group applies, the most restrictive verdict wins; the explanation is the deciding token's).
   */
  decide(url: URL, userAgent: string, tokens?: readonly string[]): Promise<RobotsDecision>;
  close(): Promise<void>;
}

/** A source that answers every URL with one file, read and parsed once, up front. */
export async function createFileRobotsSource(path: string): Promise<RobotsSource> {
  const robots = parseRobotsTxt(await readRobotsFile(path));
  return {
    decide: async (url, userAgent, tokens = []) => {
      const explanation = robots.explain(url, agentsOf(userAgent, tokens));
      return { allowed: explanation.allowed, reason: 'rules', status: null, robotsUrl: null, explanation, robots };
    },
    close: () => Promise.resolve(),
  };
}

/**
 * A source that fetches each origin's robots.txt through the robots gate (cached per origin),
 * with its SSRF guard: private addresses only through `allowNet`.
 */
export function createLiveRobotsSource(options: {
  readonly timeoutMs: number;
  readonly userAgent: string;
  readonly allowNet: readonly string[];
}): RobotsSource {
  const gate = createRobotsGate({
    timeoutMs: options.timeoutMs,
    userAgent: options.userAgent,
    allowNet: options.allowNet,
  });
  return {
    decide: async (url, userAgent, tokens = []) => {
      const agents = agentsOf(userAgent, tokens);
      const check = await gate.check(url, userAgent, typeof agents === 'string' ? {} : { tokens: agents });
      const decision = {
        allowed: check.allowed,
        reason: check.reason,
        status: check.status,
        robotsUrl: check.robotsUrl,
        ...(check.addressBlocked === true ? { addressBlocked: true as const } : {}),
      };
      if (check.reason !== 'rules' && check.reason !== 'cached') return decision;
      const robots = check.robots;
      return robots === undefined ? decision : { ...decision, explanation: robots.explain(url, agents), robots };
    },
    close: () => gate.close(),
  };
}

/** The user agent alone, or its product token and the other tokens (distinct). */
export function agentsOf(userAgent: string, tokens: readonly string[]): string | readonly string[] {
  if (tokens.length === 0) return userAgent;
  const own = productToken(userAgent);
  const out = own === '' ? [] : [own];
  for (const token of tokens) if (!out.some((t) => t.toLowerCase() === token.toLowerCase())) out.push(token);
  return out.length === 1 && out[0] === own ? userAgent : out;
}
