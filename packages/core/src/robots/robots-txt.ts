// Matching: choose the groups for a crawler, compile their rules once, decide URLs.

import { CompiledPattern } from './pattern.js';
import type {
  RobotsAgents,
  RobotsDecisionBasis,
  RobotsExplanation,
  RobotsExtensionLine,
  RobotsGroup,
  RobotsRule,
  RobotsTxt,
  RobotsUserAgentLine,
} from './types.js';
import { matchPathOf } from './url-path.js';
import { productToken } from './user-agent.js';

interface MatchEntry {
  readonly pattern: CompiledPattern;
  readonly rule: RobotsRule;
}

/** The rules that apply to one product token, sorted so that the first match decides. */
interface RuleSet {
  readonly kind: 'specific' | 'global' | 'none';
  readonly groups: readonly RobotsGroup[];
  readonly entries: readonly MatchEntry[];
  readonly crawlDelay: number | undefined;
  /**
   * The entries that can match a path whose second character is a given one (rules are mostly
   * literal prefixes, so "/account/…" never needs to look at "/cart"): built lazily per character.
   */
  readonly bySecondChar: Map<number, readonly MatchEntry[]>;
  /** `groups` by their user-agent lines, as explanations give them: made once, frozen. */
  readonly groupAgents: readonly (readonly RobotsUserAgentLine[])[];
}

/** Entries whose pattern could match a path with `code` as its second character, in order. */
function candidatesFor(ruleSet: RuleSet, path: string): readonly MatchEntry[] {
  const code = path.charCodeAt(1); // NaN for "/" — its own bucket
  const key = Number.isNaN(code) ? -1 : code;
  let list = ruleSet.bySecondChar.get(key);
  if (list === undefined) {
    // Binary URLs could make up to 256 buckets of a 15,000-rule file: past a bound, just scan.
    if (ruleSet.bySecondChar.size >= MAX_BUCKETS) return ruleSet.entries;
    list = ruleSet.entries.filter((entry) => {
      const prefix = entry.pattern.prefix;
      return prefix.length < 2 || prefix.charCodeAt(1) === code;
    });
    ruleSet.bySecondChar.set(key, list);
  }
  return list;
}

const ROBOTS_TXT_PATH = '/robots.txt';
const MAX_BUCKETS = 96;
/** Rule sets are cached per product token; a crawler uses one or two, so this never fills. */
const MAX_CACHED_RULE_SETS = 64;

export interface RobotsTxtData {
  readonly groups: readonly RobotsGroup[];
  readonly sitemaps: readonly string[];
  readonly extensions: readonly RobotsExtensionLine[];
  readonly totalBytes: number;
  readonly parsedBytes: number;
}

export function createRobotsTxt(data: RobotsTxtData): RobotsTxt {
  return new ParsedRobotsTxt(data);
}

class ParsedRobotsTxt implements RobotsTxt {
  readonly groups: readonly RobotsGroup[];
  readonly sitemaps: readonly string[];
  readonly extensions: readonly RobotsExtensionLine[];
  readonly totalBytes: number;
  readonly parsedBytes: number;
  private readonly ruleSets = new Map<string, RuleSet>();
  private readonly compiledGroups = new Map<RobotsGroup, readonly MatchEntry[]>();
  private lastUserAgent: string | undefined;
  private lastRuleSet: RuleSet | undefined;
  /** `productToken(lastUserAgent)`, set with it. */
  private lastProductToken: string | undefined;

  constructor(data: RobotsTxtData) {
    this.groups = data.groups;
    this.sitemaps = data.sitemaps;
    this.extensions = data.extensions;
    this.totalBytes = data.totalBytes;
    this.parsedBytes = data.parsedBytes;
  }

  get truncated(): boolean {
    return this.parsedBytes < this.totalBytes;
  }

  isAllowed(url: string | URL, userAgent: RobotsAgents): boolean {
    if (typeof userAgent !== 'string') return this.isAllowedForAll(url, userAgent);
    const path = matchPathOf(url);
    if (path === ROBOTS_TXT_PATH) return true;
    const match = firstMatch(candidatesFor(this.ruleSetFor(userAgent), path), path);
    return match === null || match.rule.type === 'allow';
  }

  explain(url: string | URL, userAgent: RobotsAgents): RobotsExplanation {
    if (typeof userAgent !== 'string') return this.explainForAll(url, userAgent);
    const path = matchPathOf(url);
    const ruleSet = this.ruleSetFor(userAgent);
    // The product token ruleSetFor read off this user agent, without slicing it again.
    const token =
      userAgent === this.lastUserAgent && this.lastProductToken !== undefined
        ? this.lastProductToken
        : productToken(userAgent);
    if (path === ROBOTS_TXT_PATH) return explanation(userAgent, token, path, ruleSet, 'robots-txt', undefined);
    if (ruleSet.kind === 'none') return explanation(userAgent, token, path, ruleSet, 'no-matching-group', undefined);
    const match = firstMatch(candidatesFor(ruleSet, path), path);
    if (match === null) return explanation(userAgent, token, path, ruleSet, 'no-matching-rule', undefined);
    return explanation(userAgent, token, path, ruleSet, 'rule', match.rule);
  }

  crawlDelay(userAgent: RobotsAgents): number | undefined {
    if (typeof userAgent === 'string') return this.ruleSetFor(userAgent).crawlDelay;
    const delays = agentList(userAgent)
      .map((agent) => this.ruleSetFor(agent).crawlDelay)
      .filter((d) => d !== undefined);
    return delays.length > 0 ? Math.max(...delays) : undefined;
  }

  groupsFor(userAgent: string): readonly RobotsGroup[] {
    return this.ruleSetFor(userAgent).groups;
  }

  // Several product tokens: every token's groups apply; the most restrictive verdict wins.
  private isAllowedForAll(url: string | URL, agents: readonly string[]): boolean {
    return agentList(agents).every((agent) => this.isAllowed(url, agent));
  }

  private explainForAll(url: string | URL, agents: readonly string[]): RobotsExplanation {
    const tokens = agentList(agents).map((agent) => this.explain(url, agent));
    const decided = tokens.find((explanation) => !explanation.allowed) ?? tokens[0]!;
    return { ...decided, tokens };
  }

  private ruleSetFor(userAgent: string): RuleSet {
    // A crawler checks URL after URL with one user agent: answer that case without work.
    if (userAgent === this.lastUserAgent && this.lastRuleSet !== undefined) return this.lastRuleSet;
    const token = productToken(userAgent);
    const ruleSet = this.ruleSetForToken(token.toLowerCase());
    this.lastUserAgent = userAgent;
    this.lastProductToken = token;
    this.lastRuleSet = ruleSet;
    return ruleSet;
  }

  private ruleSetForToken(key: string): RuleSet {
    let ruleSet = this.ruleSets.get(key);
    if (ruleSet === undefined) {
      if (this.ruleSets.size >= MAX_CACHED_RULE_SETS) this.ruleSets.clear();
      ruleSet = this.buildRuleSet(key);
      this.ruleSets.set(key, ruleSet);
    }
    return ruleSet;
  }

  private buildRuleSet(token: string): RuleSet {
    // Every group naming the crawler applies (merged); only when none does, the `*` groups.
    // A group naming the crawler wins even with no rules at all (then everything is allowed).
    let kind: RuleSet['kind'] = 'specific';
    let groups = this.groups.filter((g) => g.userAgents.some((a) => !a.isGlobal && a.token.toLowerCase() === token));
    if (groups.length === 0) {
      kind = 'global';
      groups = this.groups.filter((g) => g.userAgents.some((a) => a.isGlobal));
    }
    if (groups.length === 0) kind = 'none';
    const entries = groups.flatMap((group) => this.compileGroup(group));
    entries.sort(byPrecedence);
    const delays = groups.map((g) => g.crawlDelay).filter((d): d is number => d !== undefined);
    return {
      kind,
      groups,
      entries,
      crawlDelay: delays.length > 0 ? Math.max(...delays) : undefined,
      bySecondChar: new Map(),
      groupAgents: Object.freeze(groups.map((group) => group.userAgents)),
    };
  }

  private compileGroup(group: RobotsGroup): readonly MatchEntry[] {
    let entries = this.compiledGroups.get(group);
    if (entries === undefined) {
      entries = group.rules.flatMap(compileRule);
      this.compiledGroups.set(group, entries);
    }
    return entries;
  }
}

/**
 * One explanation, built whole (with `rule` only when a rule decided): spreading a shared base
 * into each verdict's literal took V8's slow object copy, on every check.
 */
function explanation(
  userAgent: string,
  token: string,
  path: string,
  ruleSet: RuleSet,
  basis: RobotsDecisionBasis,
  rule: RobotsRule | undefined,
): RobotsExplanation {
  const { kind: groupKind, groupAgents: groups } = ruleSet;
  if (rule === undefined) return { userAgent, productToken: token, path, groupKind, groups, allowed: true, basis };
  const allowed = rule.type === 'allow';
  return { userAgent, productToken: token, path, groupKind, groups, allowed, basis, rule };
}

/** The tokens to evaluate: an empty list is read as the anonymous crawler (`*` groups only). */
function agentList(agents: readonly string[]): readonly string[] {
  return agents.length === 0 ? [''] : agents;
}

function compileRule(rule: RobotsRule): MatchEntry[] {
  // An empty pattern matches everything with priority 0, and priority 0 never decides.
  if (rule.pattern.length === 0) return [];
  const entries = [{ pattern: new CompiledPattern(rule.pattern), rule }];
  // Google: `allow: /dir/index.htm…` also allows the directory itself, `/dir/$`.
  const slash = rule.pattern.lastIndexOf('/');
  if (rule.type === 'allow' && slash !== -1 && rule.pattern.startsWith('/index.htm', slash)) {
    entries.push({ pattern: new CompiledPattern(rule.pattern.slice(0, slash + 1) + '$'), rule });
  }
  return entries;
}

/** Longest pattern first; on a tie allow before disallow; then file order. */
function byPrecedence(a: MatchEntry, b: MatchEntry): number {
  if (a.pattern.priority !== b.pattern.priority) return b.pattern.priority - a.pattern.priority;
  if (a.rule.type !== b.rule.type) return a.rule.type === 'allow' ? -1 : 1;
  return a.rule.line - b.rule.line;
}

function firstMatch(entries: readonly MatchEntry[], path: string): MatchEntry | null {
  for (const entry of entries) if (entry.pattern.matches(path)) return entry;
  return null;
}
