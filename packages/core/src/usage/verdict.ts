// One verdict per purpose for a URL, from every source that states a preference.
//
// The combining rule (conservative; draft-ietf-aipref-vocab-08 §5.1 "Combining Preferences"):
// 1. Each source is read on its own, and inheritance is resolved inside it: a source that says
//    nothing about a purpose but states a preference for a broader purpose (`tdm` for `ai-train`,
//    `ai-train` for `ai-train-images`) states that preference for it too.
// 2. Then, for each purpose: if any source reserves it, it is `reserved` (a stated reservation
//    from any source wins over a permission elsewhere); otherwise, if any source allows it, it is
//    `allowed`; otherwise it is `unknown`.
// Sources that no vocabulary understands state nothing. TDMRep's own "processing priority" (a
// header or meta value supersedes tdmrep.json) is deliberately not applied: with rule 2 a later
// permission cannot lift an earlier reservation.

import type { RobotsAgents, RobotsTxt } from '../robots/types.js';
import { headerUsageSources, type UsageHeaders } from './headers.js';
import { metaUsageSources, type UsageMetaTag } from './meta.js';
import { robotsUsageSources } from './robots-usage.js';
import type { UsageEvidence, UsageSource } from './source.js';
import type { UsageStatus } from './statement.js';
import { type TdmrepFile, tdmrepUsageSources } from './tdmrep.js';
import { ALL_USAGE_PURPOSES, type UsagePurpose } from './vocabulary.js';

/** What the crawler knows about a URL. Everything but `url` is optional; absent means not known. */
export interface UsageInput {
  /** The URL whose content the verdict is about. */
  readonly url: string | URL;
  /**
   * The crawler's product tokens (or user agents), as for `RobotsTxt.isAllowed`: which robots.txt
   * groups apply, and which crawler-scoped meta tags and X-Robots-Tag directives address it.
   * Default: none (the `*` groups only).
   */
  readonly tokens?: RobotsAgents;
  /** The parsed robots.txt of the URL's origin. */
  readonly robots?: RobotsTxt | null;
  /** The parsed /.well-known/tdmrep.json of the URL's origin. */
  readonly tdmrep?: TdmrepFile | null;
  /** The response's header fields. */
  readonly headers?: UsageHeaders | null;
  /** The page's `<meta name content>` pairs. */
  readonly meta?: readonly UsageMetaTag[] | null;
}

/** The verdict for one purpose and the sources that decided it. */
export interface UsageVerdict {
  readonly status: UsageStatus;
  /**
   * The deciding sources: those that reserve the purpose when it is `reserved`, those that allow it
   * when it is `allowed`, none when it is `unknown`. Each says where it is and what it states.
   */
  readonly sources: readonly UsageEvidence[];
}

/** Verdicts for every purpose, and every source found (deciding or not). */
export interface UsageReport {
  readonly purposes: Readonly<Record<UsagePurpose, UsageVerdict>>;
  /** Every source that states something about some purpose, in the order read (robots.txt, tdmrep.json, headers, meta). */
  readonly sources: readonly UsageSource[];
}

/** Every source of usage preferences in `input`, in the order robots.txt, tdmrep.json, headers, meta. */
export function usageSources(input: UsageInput): UsageSource[] {
  const tokens = input.tokens ?? [];
  return [
    ...(input.robots ? robotsUsageSources(input.robots, input.url, tokens) : []),
    ...(input.tdmrep ? tdmrepUsageSources(input.tdmrep, input.url) : []),
    ...(input.headers ? headerUsageSources(input.headers, tokens) : []),
    ...(input.meta ? metaUsageSources(input.meta, tokens) : []),
  ];
}

/** Combines sources into one verdict per purpose, by the conservative rule above. */
export function combineUsage(sources: readonly UsageSource[]): UsageReport {
  const purposes = {} as Record<UsagePurpose, UsageVerdict>;
  for (const purpose of ALL_USAGE_PURPOSES) {
    const reserving: UsageEvidence[] = [];
    const allowing: UsageEvidence[] = [];
    for (const source of sources) {
      const stated = source.purposes[purpose];
      if (stated === undefined) continue;
      const { purposes: _all, ...location } = source;
      (stated.preference === 'reserved' ? reserving : allowing).push({ ...location, ...stated });
    }
    purposes[purpose] =
      reserving.length > 0
        ? { status: 'reserved', sources: reserving }
        : allowing.length > 0
          ? { status: 'allowed', sources: allowing }
          : { status: 'unknown', sources: [] };
  }
  return { purposes, sources: sources.filter((source) => Object.keys(source.purposes).length > 0) };
}

/**
 * The usage verdicts for a URL: for each purpose `allowed`, `reserved` or `unknown`, with the sources
 * that decided. Pure; never throws on content (malformed statements state nothing).
 */
export function usageOf(input: UsageInput): UsageReport {
  return combineUsage(usageSources(input));
}

/**
 * The verdicts that can be known before the URL is fetched: from robots.txt lines and tdmrep.json
 * only. A `reserved` verdict here is final (later sources can add reservations, never lift one), so
 * a crawler can skip the URL without a request; `allowed` and `unknown` may still turn `reserved`
 * by the page's own headers or meta tags.
 */
export function usageBeforeFetch(input: Omit<UsageInput, 'headers' | 'meta'>): UsageReport {
  return combineUsage(usageSources({ url: input.url, ...pick(input) }));
}

function pick(input: Omit<UsageInput, 'headers' | 'meta'>): Omit<UsageInput, 'url' | 'headers' | 'meta'> {
  return {
    ...(input.tokens !== undefined ? { tokens: input.tokens } : {}),
    ...(input.robots !== undefined ? { robots: input.robots } : {}),
    ...(input.tdmrep !== undefined ? { tdmrep: input.tdmrep } : {}),
  };
}

/** The purposes among `wanted` that the report finds reserved (the reasons to skip a URL or drop a page). */
export function reservedPurposes(report: UsageReport, wanted: readonly UsagePurpose[]): UsagePurpose[] {
  return wanted.filter((purpose) => report.purposes[purpose].status === 'reserved');
}
