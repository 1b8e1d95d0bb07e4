// How decisions read for people: used by `robots explain` and by `demo`.

import { productToken, type RobotsCheckReason, type RobotsExplanation, type RobotsRule, type RobotsUserAgentLine } from '@politely/core';
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
  const why = explanation.groupKind === 'specific' ? `names '${explanation.productToken}'` : `'*': no group names '${explanation.productToken}'`;
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
    ...groups.map((group, i) => `  ${i === 0 ? (groups.length > 1 ? 'groups:       ' : 'group:        ') : '              '} ${group}`),
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
    rule: rule === undefined ? null : { type: rule.type, value: rule.value, pattern: rule.pattern, line: rule.line, text: rule.text },
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

/** The readable block for one URL's decision, from a file or a live robots.txt. */
export function formatDecision(url: string, userAgent: string, decision: RobotsDecision): string {
  const fetched = decision.robotsUrl === null ? [] : [`  robots.txt:    ${decision.robotsUrl} → ${decision.status ?? 'network error'} (${decision.reason})`];
  if (decision.explanation !== undefined) {
    const block = formatExplanation(url, { ...decision.explanation, allowed: decision.allowed }).trimEnd().split('\n');
    if (decision.reason === 'cached') fetched.push(`  note:          ${REASON_TEXT.cached}`);
    return `${[block[0]!, ...fetched, ...block.slice(1)].join('\n')}\n`;
  }
  const verdict = decision.allowed ? 'ALLOWED' : 'DISALLOWED';
  return `${[
    `${verdict.padEnd(10)}  ${printable(url)}`,
    `  user agent:    ${printable(userAgent)} (product token '${productToken(userAgent)}')`,
    ...fetched,
    `  decided by:    ${REASON_TEXT[decision.reason]}`,
  ].join('\n')}\n`;
}

/** The JSON object `robots explain --json` prints for one URL: at least allowed, reason, status. */
export function decisionToJson(url: string, userAgent: string, decision: RobotsDecision): Record<string, unknown> {
  const base = { url, allowed: decision.allowed, reason: decision.reason, status: decision.status, robotsUrl: decision.robotsUrl };
  if (decision.explanation === undefined) {
    return { ...base, userAgent, productToken: productToken(userAgent), basis: decision.reason, groupKind: null, groups: [], rule: null };
  }
  return { ...explanationToJson(url, decision.explanation), ...base };
}
