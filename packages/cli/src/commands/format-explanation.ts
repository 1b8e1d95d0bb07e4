// How decisions read for people: used by `robots explain` and by `demo`.

import {
  ALL_USAGE_PURPOSES,
  productToken,
  type RobotsCheckReason,
  type RobotsExplanation,
  type RobotsRule,
  type RobotsUserAgentLine,
  type UsageEvidence,
  type UsageReport,
  usageBeforeFetch,
} from '@politely/core';
import type { RobotsDecision } from '../robots-source.js';

/** `ALLOWED` or `DISALLOWED`, the word a reader's eye looks for. */
export function verdictOf(explanation: RobotsExplanation): string {
  return explanation.allowed ? 'ALLOWED' : 'DISALLOWED';
}

/** What decided: the rule's line, or why no rule did. */
export function describeBasis(explanation: RobotsExplanation): string {
  switch (explanation.basis) {
    case 'rule':
      return explanation.rule === undefined ? 'a rule' : describeRule(explanation.rule);
    case 'no-matching-rule':
      return `no rule matches ${explanation.path} (no-matching-rule)`;
    case 'no-matching-group':
      return 'no group applies to this crawler (no-matching-group)';
    case 'robots-txt':
      return '/robots.txt is always allowed (robots-txt)';
  }
}

export function describeRule(rule: RobotsRule): string {
  return `line ${rule.line}: ${printable(rule.text.trim())}`;
}

/** One line per chosen group, or the reason none was chosen. */
export function describeGroups(explanation: RobotsExplanation): string[] {
  if (explanation.groupKind === 'none') {
    return [`none: no group names '${explanation.productToken}' and there is no '*' group`];
  }
  const why =
    explanation.groupKind === 'specific'
      ? `names '${explanation.productToken}'`
      : `'*': no group names '${explanation.productToken}'`;
  return explanation.groups.map((agents) => `${agents.map(describeAgentLine).join(', ')}  (${why})`);
}

function describeAgentLine(agent: RobotsUserAgentLine): string {
  return `line ${agent.line}: user-agent: ${printable(agent.value)}`;
}

// C0 controls but tab, DEL and C1 controls: robots.txt text is a stranger's, and this goes to a terminal.
const CONTROL_CHARS = /[\x00-\x08\x0a-\x1f\x7f-\x9f]/g;

/** `text` with control characters shown as `\xNN`. */
export function printable(text: string): string {
  return text.replace(CONTROL_CHARS, (c) => `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`);
}

/** The readable block `robots explain` prints for one URL. */
export function formatExplanation(url: string, explanation: RobotsExplanation): string {
  const groups = describeGroups(explanation);
  const rows = [
    `${verdictOf(explanation).padEnd(10)}  ${printable(url)}`,
    `  user agent:    ${printable(explanation.userAgent)} (product token '${explanation.productToken}')`,
    `  path:          ${explanation.path}`,
    ...groups.map(
      (group, i) =>
        `  ${i === 0 ? (groups.length > 1 ? 'groups:       ' : 'group:        ') : '              '} ${group}`,
    ),
    `  decided by:    ${describeBasis(explanation)}`,
  ];
  return `${rows.join('\n')}\n`;
}

/** The JSON object `robots explain --json` prints for one URL. */
export function explanationToJson(url: string, explanation: RobotsExplanation): Record<string, unknown> {
  const rule = explanation.rule;
  return {
    url,
    allowed: explanation.allowed,
    basis: explanation.basis,
    userAgent: explanation.userAgent,
    productToken: explanation.productToken,
    path: explanation.path,
    groupKind: explanation.groupKind,
    groups: explanation.groups.map((agents) =>
      agents.map(({ value, token, isGlobal, line }) => ({ value, token, isGlobal, line })),
    ),
    rule:
      rule === undefined
        ? null
        : { type: rule.type, value: rule.value, pattern: rule.pattern, line: rule.line, text: rule.text },
  };
}

/** What an HTTP outcome of robots.txt means, when it (not a rule) decided. */
const REASON_TEXT: Record<RobotsCheckReason, string> = {
  rules: 'decided by the rules',
  cached: 'robots.txt unreachable now: decided by the last good copy',
  unavailable: 'robots.txt unavailable (4xx, or a redirect chain that could not be followed): everything allowed',
  unreachable: 'robots.txt unreachable (5xx, 429 or network error): everything disallowed for now',
  'unreachable-too-long': 'robots.txt unreachable for over 30 days with no copy: everything allowed',
  'robots-txt': '/robots.txt itself is always allowed',
};

/** Why a robots.txt on a loopback or private address was not asked for, and how to allow it. */
const BLOCKED_TEXT =
  'its host is on a loopback, private or link-local address, which is refused unless allowed: pass --allow-net (e.g. --allow-net 127.0.0.0/8); nothing was requested';

/** The readable block for one URL's decision, from a file or a live robots.txt. */
export function formatDecision(url: string, userAgent: string, decision: RobotsDecision): string {
  const answer = decision.addressBlocked ? 'not requested: blocked address' : (decision.status ?? 'network error');
  const fetched =
    decision.robotsUrl === null ? [] : [`  robots.txt:    ${decision.robotsUrl} → ${answer} (${decision.reason})`];
  const usage = formatUsage(usageOfDecision(url, userAgent, decision));
  if (decision.explanation !== undefined) {
    const block = formatExplanation(url, { ...decision.explanation, allowed: decision.allowed })
      .trimEnd()
      .split('\n');
    if (decision.reason === 'cached') fetched.push(`  note:          ${REASON_TEXT.cached}`);
    return `${[block[0]!, ...fetched, ...tokensRows(decision.explanation), ...block.slice(1), ...usage].join('\n')}\n`;
  }
  const verdict = decision.allowed ? 'ALLOWED' : 'DISALLOWED';
  return `${[
    `${verdict.padEnd(10)}  ${printable(url)}`,
    `  user agent:    ${printable(userAgent)} (product token '${productToken(userAgent)}')`,
    ...fetched,
    `  decided by:    ${decision.addressBlocked ? BLOCKED_TEXT : REASON_TEXT[decision.reason]}`,
    ...usage,
  ].join('\n')}\n`;
}

/** With several product tokens: which were evaluated, and which one decided. */
function tokensRows(explanation: RobotsExplanation): string[] {
  if (explanation.tokens === undefined || explanation.tokens.length < 2) return [];
  const all = explanation.tokens.map((t) => `'${printable(t.productToken)}'`).join(', ');
  return [`  tokens:        ${all} (the most restrictive wins; '${printable(explanation.productToken)}' decided)`];
}

/**
 * The usage verdicts robots.txt gives the URL (`Content-Usage`, `Content-Signal` lines of every
 * token's groups); null when no robots.txt rules apply (4xx, 5xx, unreachable).
 */
export function usageOfDecision(url: string, userAgent: string, decision: RobotsDecision): UsageReport | null {
  if (decision.robots === undefined) return null;
  const tokens = decision.explanation?.tokens?.map((t) => t.productToken) ?? [userAgent];
  return usageBeforeFetch({ url, tokens, robots: decision.robots });
}

/** Where a usage statement is, for people (robots.txt lines here). */
export function describeUsageEvidence(source: Pick<UsageEvidence, 'kind' | 'text' | 'line' | 'token'>): string {
  return source.line === undefined ? printable(source.text) : `line ${source.line}: ${printable(source.text.trim())}`;
}

/** The `usage:` rows: each purpose's verdict and the lines that decided it. */
export function formatUsage(report: UsageReport | null): string[] {
  if (report === null) return ['  usage:         no robots.txt rules apply: no preference stated'];
  if (report.sources.length === 0)
    return ['  usage:         no Content-Usage or Content-Signal line applies: every purpose unknown'];
  return ALL_USAGE_PURPOSES.map((purpose, i) => {
    const verdict = report.purposes[purpose];
    const by = verdict.sources.map(describeUsageEvidence).join('; ');
    return `  ${i === 0 ? 'usage:        ' : '              '} ${purpose.padEnd(16)} ${verdict.status.padEnd(9)}${by === '' ? '' : ` ${by}`}`.trimEnd();
  });
}

/** The usage verdicts as JSON: purpose → { status, sources: [{ kind, line, text, token? }] }. */
export function usageToJson(report: UsageReport | null): Record<string, unknown> | null {
  if (report === null) return null;
  const out: Record<string, unknown> = {};
  for (const purpose of ALL_USAGE_PURPOSES) {
    const verdict = report.purposes[purpose];
    out[purpose] = {
      status: verdict.status,
      sources: verdict.sources.map((s) => ({
        kind: s.kind,
        ...(s.line === undefined ? {} : { line: s.line }),
        text: s.text,
        ...(s.token === undefined ? {} : { token: s.token }),
      })),
    };
  }
  return out;
}

/** The JSON object `robots explain --json` prints for one URL: at least allowed, reason, status. */
export function decisionToJson(url: string, userAgent: string, decision: RobotsDecision): Record<string, unknown> {
  const base = {
    url,
    allowed: decision.allowed,
    reason: decision.reason,
    status: decision.status,
    robotsUrl: decision.robotsUrl,
    ...(decision.addressBlocked ? { addressBlocked: true } : {}),
    usage: usageToJson(usageOfDecision(url, userAgent, decision)),
  };
  if (decision.explanation === undefined) {
    return {
      ...base,
      userAgent,
      productToken: productToken(userAgent),
      basis: decision.reason,
      groupKind: null,
      groups: [],
      rule: null,
    };
  }
  const tokens = decision.explanation.tokens;
  return {
    ...explanationToJson(url, decision.explanation),
    ...(tokens === undefined
      ? {}
      : { tokens: tokens.map((t) => ({ productToken: t.productToken, allowed: t.allowed })) }),
    ...base,
  };
}
