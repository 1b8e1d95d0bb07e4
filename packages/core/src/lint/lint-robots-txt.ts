// A line-level report on a robots.txt for the people who write it: what the parser accepted
// only by being lenient (typos, missing colons, odd user agents), what it ignored (rules
// outside a group, unknown keys, bytes past the size cap) and what is plainly broken
// (a sitemap that is not a URL). It reads the file with the very pipeline `parseRobotsTxt`
// uses — tokenizeLines, readLine, classifyKey — so a diagnostic never disagrees with a decision.
// Pure: no I/O, no clock.

import { byteStringToText, isValidUtf8, toByteString } from '../robots/byte-string.js';
import { DIRECTIVE_SPELLINGS, type Directive, readLine } from '../robots/directives.js';
import { type ParseRobotsTxtOptions, parseCrawlDelay, resolveParseRobotsTxtOptions } from '../robots/parse.js';
import { MAX_LINE_BYTES, type RawLine, tokenizeLines } from '../robots/tokenize.js';
import { isGlobalAgentValue, productToken } from '../robots/user-agent.js';
import { nearestName } from '../text/nearest-name.js';
import { isRobotsUsageLine, parseRobotsUsageLine } from '../usage/robots-usage.js';
import type { UsageIssue } from '../usage/statement.js';

/** How bad a finding is. */
export type RobotsDiagnosticSeverity =
  /** The line does not do what it says (a sitemap that is not a URL). */
  | 'error'
  /** The line is ignored, or read only thanks to leniency other crawlers may not share. */
  | 'warning'
  /** Worth knowing; the line works as intended. */
  | 'info';

/** Stable identifiers of lint findings, one per kind of problem. */
export type RobotsDiagnosticCode =
  /** A key no crawler knows (`unicorns: /x`); the line is ignored. */
  | 'unknown-directive'
  /** A non-standard key politely and Google ignore (`host`, `noindex`, `clean-param`, …). */
  | 'ignored-directive'
  /** A misspelt or over-long key that is still read (`dissallow` as `disallow`, `allowed` as `allow`). */
  | 'accepted-typo'
  /** Whitespace stands in for the colon (`disallow /x`). */
  | 'missing-colon'
  /** Text that is neither a directive nor a comment; ignored. */
  | 'unparsable-line'
  /** `allow`/`disallow` before the first `user-agent` line; ignored. */
  | 'rule-outside-group'
  /** A rule value that does not start with `/` or `*`, so it matches no URL. */
  | 'rule-not-a-path'
  /** A `sitemap` value that is not an absolute http(s) URL. */
  | 'invalid-sitemap-url'
  /** The file is larger than the parse limit; the rest is ignored. */
  | 'size-limit-exceeded'
  /** The line is not valid UTF-8 (RFC 9309 2.3 asks for UTF-8); its bytes are kept as they are. */
  | 'invalid-utf8'
  /** The line is longer than the line cap; the rest of it is ignored. */
  | 'line-too-long'
  /** The line holds a NUL byte; everything from it to the end of the line is ignored. */
  | 'nul-byte'
  /** A UTF-8 byte-order mark that is not at the very start; the line is not understood. */
  | 'bom-in-middle'
  /** A `crawl-delay` value that is not a non-negative number of seconds; ignored. */
  | 'invalid-crawl-delay'
  /** `crawl-delay` before the first `user-agent` line; ignored. */
  | 'crawl-delay-outside-group'
  /** A second `crawl-delay` in one group; only the first counts. */
  | 'duplicate-crawl-delay'
  /** `user-agent:` with no value; the group applies to no crawler. */
  | 'empty-user-agent'
  /** A user-agent value that is not a bare product token (`Googlebot/2.1` is matched as `Googlebot`). */
  | 'user-agent-not-a-token'
  /** `Content-Usage` or `Content-Signal` before the first `user-agent` line: it belongs to no group and is ignored. */
  | 'usage-outside-group'
  /** A `Content-Usage` / `Content-Signal` value that does not parse (or all or part of it states nothing). */
  | 'invalid-usage-preference'
  /** A usage category the vocabulary does not define (`train_ai`, `ai-training`); ignored. */
  | 'unknown-usage-category'
  /** A known usage category with a value other than `y`/`n` (`Content-Usage`) or `yes`/`no` (`Content-Signal`). */
  | 'invalid-usage-value';

/** One finding of `lintRobotsTxt`. Plain data. */
export interface RobotsDiagnostic {
  /** 1-based line number, counted as the parser counts lines. */
  readonly line: number;
  readonly severity: RobotsDiagnosticSeverity;
  readonly code: RobotsDiagnosticCode;
  /** One line of text for people, naming the key or value concerned. */
  readonly message: string;
}

// Keys that other crawlers or old conventions use and that politely (like Google) ignores.
const IGNORED_KEYS = new Set([
  'host',
  'clean-param',
  'noindex',
  'nofollow',
  'noarchive',
  'nosnippet',
  'request-rate',
  'visit-time',
  'cache-delay',
  'indexpage',
]);
const MAX_QUOTED_CHARS = 80;
const BOM = '\xef\xbb\xbf';
// C0 controls but tab, DEL and C1 controls.
const CONTROL_CHARS = /[\x00-\x08\x0a-\x1f\x7f-\x9f]/g;

interface LintState {
  readonly out: RobotsDiagnostic[];
  /** A `user-agent` line has been seen: rules now belong to a group. */
  inGroup: boolean;
  /** The current group has had a rule (the next `user-agent` line starts a new group). */
  sawRuleInGroup: boolean;
  /** The current group already has a `crawl-delay`. */
  groupHasCrawlDelay: boolean;
}

/**
 * Checks a robots.txt body line by line and reports what a site owner should know: ignored
 * lines, accepted typos, invalid values, encoding and size problems. It reads the file exactly
 * as `parseRobotsTxt` does (same line numbers, same size limit), so each finding describes what
 * the parser really did with the line. Never throws on content.
 *
 * @param input The body, as text or as the exact bytes served.
 * @param options The same options as `parseRobotsTxt` (`maxBytes` sets where the file is cut).
 * @returns The diagnostics sorted by line (findings on one line keep the order they were found in).
 * @throws PolitelyError `ERR_INVALID_OPTION` if `options.maxBytes` is invalid.
 */
export function lintRobotsTxt(input: string | Uint8Array, options?: ParseRobotsTxtOptions): RobotsDiagnostic[] {
  const { maxBytes } = resolveParseRobotsTxtOptions(options);
  const { bytes, totalBytes } = toByteString(input, maxBytes);
  const state: LintState = { out: [], inGroup: false, sawRuleInGroup: false, groupHasCrawlDelay: false };
  const lines = tokenizeLines(bytes);
  for (const raw of lines) lintLine(state, raw);
  const last = lines[lines.length - 1];
  if (totalBytes > bytes.length && last !== undefined) {
    const ignored = totalBytes - bytes.length;
    report(
      state,
      last.number,
      'warning',
      'size-limit-exceeded',
      `the file is ${totalBytes} bytes; only the first ${bytes.length} are parsed and the last ${ignored} bytes are ignored (the parse stops in this line)`,
    );
  }
  // Array.prototype.sort is stable: findings on one line keep their order.
  return state.out.sort((a, b) => a.line - b.line);
}

function report(
  state: LintState,
  line: number,
  severity: RobotsDiagnosticSeverity,
  code: RobotsDiagnosticCode,
  message: string,
): void {
  state.out.push({ line, severity, code, message });
}

function lintLine(state: LintState, raw: RawLine): void {
  const line = raw.number;
  if (raw.tooLong) {
    report(
      state,
      line,
      'warning',
      'line-too-long',
      `line is longer than ${MAX_LINE_BYTES} bytes; the rest of it is ignored`,
    );
  }
  if (!isValidUtf8(raw.bytes)) {
    report(
      state,
      line,
      'warning',
      'invalid-utf8',
      'line is not valid UTF-8 (RFC 9309 asks for UTF-8); its non-ASCII bytes are matched as they are',
    );
  }
  const shape = readLine(raw.bytes);
  if (shape.hasNul)
    report(state, line, 'warning', 'nul-byte', 'line holds a NUL byte; the rest of the line after it is ignored');
  if (shape.isBlank) return;
  const directive = shape.directive;
  const startsWithBom = directive?.key.startsWith(BOM) === true;
  if (startsWithBom) {
    report(
      state,
      line,
      'warning',
      'bom-in-middle',
      'a byte-order mark is only skipped at the very start of the file; here it is part of the key, so the line is not understood',
    );
  }
  if (directive === null) {
    const what = shape.hasNul ? 'text before the NUL byte' : 'line';
    report(
      state,
      line,
      'warning',
      'unparsable-line',
      `${what} is not a directive (expected \`key: value\`) and is ignored: ${quote(raw.bytes)}`,
    );
    return;
  }
  lintKey(state, line, directive, startsWithBom);
  lintDirective(state, line, directive);
}

function lintKey(state: LintState, line: number, directive: Directive, startsWithBom: boolean): void {
  const key = quote(directive.key);
  const lower = directive.key.toLowerCase();
  if (directive.name === 'unknown') {
    if (startsWithBom) return; // already reported as bom-in-middle
    if (isUsageKey(lower)) return; // checked by lintUsage
    if (IGNORED_KEYS.has(lower)) {
      report(state, line, 'info', 'ignored-directive', `${key} is not part of RFC 9309 and is ignored`);
    } else {
      const hint = closestSpelling(lower);
      report(
        state,
        line,
        'warning',
        'unknown-directive',
        `unknown directive ${key} is ignored${hint === null ? '' : ` (did you mean \`${hint}\`?)`}`,
      );
    }
    return;
  }
  const canonical = canonicalSpelling(directive.name);
  if (lower !== canonical) {
    const why = directive.typo ? 'an accepted misspelling' : 'keys are matched by prefix';
    report(
      state,
      line,
      'warning',
      'accepted-typo',
      `${key} read as \`${canonical}\` (${why}; other crawlers may ignore this line)`,
    );
  }
  if (directive.missingColon) {
    report(
      state,
      line,
      'info',
      'missing-colon',
      `missing colon: read as \`${canonical}: ${quote(directive.value, false)}\``,
    );
  }
}

function lintDirective(state: LintState, line: number, directive: Directive): void {
  switch (directive.name) {
    case 'user-agent':
      if (!state.inGroup || state.sawRuleInGroup) state.groupHasCrawlDelay = false;
      state.inGroup = true;
      state.sawRuleInGroup = false;
      lintUserAgent(state, line, directive.value);
      break;
    case 'allow':
    case 'disallow':
      if (!state.inGroup) {
        report(
          state,
          line,
          'warning',
          'rule-outside-group',
          `\`${directive.name}\` before any user-agent line belongs to no group and is ignored`,
        );
        break;
      }
      state.sawRuleInGroup = true;
      lintRuleValue(state, line, directive);
      break;
    case 'sitemap':
      lintSitemap(state, line, directive.value);
      break;
    case 'crawl-delay':
      lintCrawlDelay(state, line, directive.value);
      break;
    case 'unknown':
      if (isUsageKey(directive.key.toLowerCase())) lintUsage(state, line, directive);
      break;
  }
}

function isUsageKey(lower: string): boolean {
  return isRobotsUsageLine({ name: lower, key: lower, value: '', line: 0, text: '' });
}

const USAGE_ISSUE_CODES: Readonly<Record<UsageIssue['kind'], RobotsDiagnosticCode>> = {
  syntax: 'invalid-usage-preference',
  'unknown-category': 'unknown-usage-category',
  'invalid-value': 'invalid-usage-value',
};

/** `Content-Usage` (draft-ietf-aipref-attach-05 §3) and `Content-Signal` lines: placement and syntax. */
function lintUsage(state: LintState, line: number, directive: Directive): void {
  const key = quote(directive.key);
  if (!state.inGroup) {
    report(
      state,
      line,
      'warning',
      'usage-outside-group',
      `${key} before any user-agent line belongs to no group and is ignored`,
    );
    return;
  }
  const value = byteStringToText(directive.value);
  const name = byteStringToText(directive.key).toLowerCase();
  const rule = parseRobotsUsageLine({ name, key: directive.key, value, line, text: value });
  for (const issue of rule?.statement.issues ?? []) {
    report(
      state,
      line,
      'warning',
      USAGE_ISSUE_CODES[issue.kind],
      `${key}: ${issue.message.replace(CONTROL_CHARS, (c) => `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`)}`,
    );
  }
}

function lintUserAgent(state: LintState, line: number, value: string): void {
  if (value.length === 0) {
    report(state, line, 'warning', 'empty-user-agent', 'user-agent has no value; this line names no crawler');
    return;
  }
  if (isGlobalAgentValue(value)) return;
  const token = productToken(value);
  if (token === value) return;
  if (token.length === 0) {
    report(
      state,
      line,
      'warning',
      'user-agent-not-a-token',
      `user-agent ${quote(value)} does not start with a product token ([A-Za-z_-]); this line names no crawler`,
    );
  } else {
    report(state, line, 'info', 'user-agent-not-a-token', `user-agent ${quote(value)} is matched as \`${token}\``);
  }
}

function lintRuleValue(state: LintState, line: number, directive: Directive): void {
  const value = directive.value;
  if (value.length === 0 || value.startsWith('/') || value.startsWith('*')) return;
  report(
    state,
    line,
    'warning',
    'rule-not-a-path',
    `${directive.name} value ${quote(value)} does not start with \`/\` or \`*\`, so it matches no URL path`,
  );
}

function lintSitemap(state: LintState, line: number, value: string): void {
  const text = byteStringToText(value);
  let protocol: string | null = null;
  try {
    protocol = new URL(text).protocol;
  } catch {
    // not an absolute URL
  }
  if (protocol === 'http:' || protocol === 'https:') return;
  const why = value.length === 0 ? 'sitemap has no value' : `sitemap ${quote(value)} is not an absolute http(s) URL`;
  report(state, line, 'error', 'invalid-sitemap-url', why);
}

function lintCrawlDelay(state: LintState, line: number, value: string): void {
  if (parseCrawlDelay(value) === undefined) {
    report(
      state,
      line,
      'warning',
      'invalid-crawl-delay',
      `crawl-delay ${quote(value)} is not a non-negative number of seconds; ignored`,
    );
    return;
  }
  if (!state.inGroup) {
    report(
      state,
      line,
      'warning',
      'crawl-delay-outside-group',
      'crawl-delay before any user-agent line belongs to no group and is ignored',
    );
  } else if (state.groupHasCrawlDelay) {
    report(
      state,
      line,
      'info',
      'duplicate-crawl-delay',
      'the group already has a crawl-delay; only the first one counts',
    );
  } else {
    state.groupHasCrawlDelay = true;
  }
}

/** The standard spelling of every directive, to suggest for an unknown key. */
const CANONICAL_SPELLINGS = DIRECTIVE_SPELLINGS.map((spelling) => spelling.canonical);

function canonicalSpelling(name: Directive['name']): string {
  return DIRECTIVE_SPELLINGS.find((spelling) => spelling.name === name)?.canonical ?? name;
}

/** The standard key within edit distance 2 of `key`, to suggest for an unknown key. */
function closestSpelling(key: string): string | null {
  return nearestName(key, CANONICAL_SPELLINGS, 2) ?? null;
}

/**
 * A byte-string value as display text in backticks, shortened when long. Control characters
 * are shown as `\xNN`: the file is a stranger's, and its text may end up on a terminal.
 */
function quote(bytes: string, backticks = true): string {
  let text = byteStringToText(bytes);
  if (text.length > MAX_QUOTED_CHARS) text = `${text.slice(0, MAX_QUOTED_CHARS)}…`;
  text = text.replace(CONTROL_CHARS, (c) => `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`);
  return backticks ? `\`${text}\`` : text;
}
