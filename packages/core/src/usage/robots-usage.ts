// Usage preferences in robots.txt: `Content-Usage` rules (draft-ietf-aipref-attach-05 §3) and
// `Content-Signal` lines (Content Signals), kept by the parser as group extension lines.
//
// attach-05 §3 (ABNF): content-usage = *WS "content-usage" *WS ":" *WS [ path-pattern 1*WS ] usage-pref EOL
// §3.2: the rule value runs to the first CR, LF or "#"; if it starts with "/", the path runs to the
// first SP or HTAB and the rest is the statement; otherwise the path is absent and the whole value
// is the statement. §3.1: rules are matched like Allow/Disallow, the longest matching path (in bytes
// of the encoded path) decides; rules with identical paths all apply, combined as the vocabulary
// combines statements (a reservation wins); rules apply only to paths that may be crawled.
// Content-Signal lines are read the same way: their usual form has no path, and a value starting
// with "/" cannot be a signal, so reading a leading path is harmless (politely's extension).

import { toByteString } from '../robots/byte-string.js';
import { CompiledPattern, encodeRulePattern } from '../robots/pattern.js';
import type { RobotsAgents, RobotsExtensionLine, RobotsGroup, RobotsTxt } from '../robots/types.js';
import { matchPathOf } from '../robots/url-path.js';
import { productToken } from '../robots/user-agent.js';
import { parseAiprefStatement } from './aipref.js';
import { parseContentSignal } from './content-signal.js';
import { sourceOf, type UsageSource } from './source.js';
import { emptyStatement, type UsageStatement } from './statement.js';
import { AIPREF_VOCABULARY, CONTENT_SIGNAL_VOCABULARY } from './vocabulary.js';

/** The robots.txt extension keys that carry usage preferences (lower case), and their source kinds. */
export const ROBOTS_USAGE_KEYS = {
  'content-usage': 'robots-content-usage',
  'content-signal': 'robots-content-signal',
} as const;

/** A `Content-Usage` or `Content-Signal` line of robots.txt, read. */
export interface RobotsUsageRule {
  readonly kind: 'robots-content-usage' | 'robots-content-signal';
  /** The line as kept by the parser. */
  readonly extension: RobotsExtensionLine;
  /** The path pattern as written, or undefined when the line has none (it then applies to every path). */
  readonly path: string | undefined;
  /** The statement after the path. */
  readonly statement: UsageStatement;
}

/** Whether an extension line is one politely reads as a usage preference. */
export function isRobotsUsageLine(extension: RobotsExtensionLine): boolean {
  return Object.hasOwn(ROBOTS_USAGE_KEYS, extension.name);
}

/**
 * Reads a `Content-Usage` or `Content-Signal` extension line; null for any other line.
 * Never throws: a malformed value gives a rule whose statement states nothing (see its issues).
 */
export function parseRobotsUsageLine(extension: RobotsExtensionLine): RobotsUsageRule | null {
  if (!isRobotsUsageLine(extension)) return null;
  const kind = ROBOTS_USAGE_KEYS[extension.name as keyof typeof ROBOTS_USAGE_KEYS];
  const { path, statement: text } = splitPath(extension.value);
  let statement: UsageStatement;
  if (path !== undefined && text.length === 0) {
    statement = emptyStatement([
      { kind: 'syntax', message: `path \`${path}\` is not followed by a preference; the line states nothing` },
    ]);
  } else {
    statement = kind === 'robots-content-usage' ? parseAiprefStatement(text) : parseContentSignal(text);
  }
  return { kind, extension, path, statement };
}

/** attach-05 §3.2: a leading "/" starts a path that ends at the first SP or HTAB. */
function splitPath(value: string): { path: string | undefined; statement: string } {
  if (!value.startsWith('/')) return { path: undefined, statement: value };
  const blank = value.search(/[ \t]/);
  if (blank === -1) return { path: value, statement: '' };
  return { path: value.slice(0, blank), statement: value.slice(blank).replace(/^[ \t]+/, '') };
}

interface CompiledUsageRule {
  readonly rule: RobotsUsageRule;
  /** Null for a rule without a path: it matches every path with priority 0. */
  readonly pattern: CompiledPattern | null;
}

// Groups are immutable and URL after URL asks about the same ones: read their lines once.
const compiledGroups = new WeakMap<RobotsGroup, readonly CompiledUsageRule[]>();

function usageRulesOf(group: RobotsGroup): readonly CompiledUsageRule[] {
  let rules = compiledGroups.get(group);
  if (rules === undefined) {
    const list: CompiledUsageRule[] = [];
    for (const extension of group.extensions) {
      const rule = parseRobotsUsageLine(extension);
      if (rule === null) continue;
      const pattern =
        rule.path === undefined
          ? null
          : new CompiledPattern(encodeRulePattern(toByteString(rule.path, Infinity).bytes));
      list.push({ rule, pattern });
    }
    rules = list;
    compiledGroups.set(group, rules);
  }
  return rules;
}

/** The `Content-Usage` and `Content-Signal` rules of the groups that apply to `userAgent`, read. */
export function robotsUsageRules(robots: RobotsTxt, userAgent: string): RobotsUsageRule[] {
  return robots.groupsFor(userAgent).flatMap((group) => usageRulesOf(group).map((compiled) => compiled.rule));
}

/**
 * The robots.txt statements that apply to `url` for the crawler's product tokens: for each token,
 * its groups' `Content-Usage` rules with the longest matching path (all of them when several
 * share that length), and likewise its `Content-Signal` lines. A token that may not crawl `url` gets
 * no preferences (attach-05 §3.1). Statements found through several tokens are cited once.
 *
 * @param tokens The crawler's product tokens (or user agents); none means the `*` groups only.
 */
export function robotsUsageSources(robots: RobotsTxt, url: string | URL, tokens: RobotsAgents = []): UsageSource[] {
  const path = matchPathOf(url);
  const agents = typeof tokens === 'string' ? [tokens] : tokens.length === 0 ? [''] : tokens;
  const out: UsageSource[] = [];
  const seen = new Set<RobotsExtensionLine>();
  for (const agent of agents) {
    if (!robots.isAllowed(url, agent)) continue;
    const rules = robots.groupsFor(agent).flatMap(usageRulesOf);
    for (const kind of ['robots-content-usage', 'robots-content-signal'] as const) {
      for (const { rule } of longestMatches(
        rules.filter((r) => r.rule.kind === kind),
        path,
      )) {
        if (seen.has(rule.extension)) continue;
        seen.add(rule.extension);
        const token = productToken(agent);
        out.push(
          sourceOf(
            {
              kind,
              text: rule.extension.text,
              line: rule.extension.line,
              ...(token.length > 0 ? { token } : {}),
              ...(rule.path !== undefined ? { path: rule.path } : {}),
              revision:
                kind === 'robots-content-usage'
                  ? `draft-ietf-aipref-attach-05, ${AIPREF_VOCABULARY.revision}`
                  : CONTENT_SIGNAL_VOCABULARY.revision,
            },
            rule.statement,
          ),
        );
      }
    }
  }
  return out;
}

/** The matching rules with the longest pattern (priority = encoded length in bytes; no path = 0). */
function longestMatches(rules: readonly CompiledUsageRule[], path: string): CompiledUsageRule[] {
  let best = -1;
  let matches: CompiledUsageRule[] = [];
  for (const compiled of rules) {
    if (compiled.pattern !== null && !compiled.pattern.matches(path)) continue;
    const priority = compiled.pattern?.priority ?? 0;
    if (priority > best) {
      best = priority;
      matches = [compiled];
    } else if (priority === best) {
      matches.push(compiled);
    }
  }
  return matches;
}
