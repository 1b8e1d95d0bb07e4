// /.well-known/tdmrep.json (W3C TDMRep Community Group Final Report, "TDM File on the Origin
// Server"): a JSON array of rules `{ "location", "tdm-reservation", "tdm-policy"? }`.
// `location` is a path pattern with robots.txt's `*` and `$`; the first rule that matches a URL's
// path applies ("the most specific match is the first in sequence"); no match means unset.

import { toByteString } from '../robots/byte-string.js';
import { CompiledPattern, encodeRulePattern } from '../robots/pattern.js';
import { matchPathOf } from '../robots/url-path.js';
import { sourceOf, type UsageSource } from './source.js';
import { statementForPurposes, type UsagePreference } from './statement.js';
import { tdmReservationOf } from './tdm.js';
import { TDMREP_VOCABULARY } from './vocabulary.js';

/** One valid rule of tdmrep.json. */
export interface TdmrepRule {
  /** 0-based index in the file's array. */
  readonly index: number;
  /** The `location` pattern as written. */
  readonly location: string;
  /** `tdm-reservation`: 1 → `reserved`, 0 → `allowed`. */
  readonly reservation: UsagePreference;
  /** `tdm-policy`, when given as a string. */
  readonly policy?: string;
  /** The rule as JSON text, for people. */
  readonly text: string;
}

/** A parsed tdmrep.json: its valid rules in file order, and what was wrong with the rest. */
export interface TdmrepFile {
  readonly rules: readonly TdmrepRule[];
  /** Why the file or some rules were ignored (not JSON, not an array, a rule without location, …). */
  readonly issues: readonly string[];
}

const compiled = new WeakMap<TdmrepRule, CompiledPattern>();

/**
 * Parses /.well-known/tdmrep.json. Accepts the body as text or bytes (UTF-8, a BOM is skipped) or
 * an already parsed JSON value. Never throws: a body that is not a JSON array gives no rules; a rule
 * without a string `location` starting with `/` or `*`, or whose `tdm-reservation` is neither 1 nor
 * 0, is left out (the spec makes both mandatory; other values are protocol errors). Unknown
 * properties are ignored.
 */
export function parseTdmrepJson(input: string | Uint8Array | unknown): TdmrepFile {
  let value: unknown = input;
  if (typeof input === 'string' || input instanceof Uint8Array) {
    const text = typeof input === 'string' ? input : new TextDecoder('utf-8').decode(input);
    try {
      value = JSON.parse(text.replace(/^\uFEFF/, ''));
    } catch {
      return { rules: [], issues: ['not JSON: no rules'] };
    }
  }
  if (!Array.isArray(value)) return { rules: [], issues: ['not a JSON array of rules: no rules'] };
  const rules: TdmrepRule[] = [];
  const issues: string[] = [];
  value.forEach((item: unknown, index) => {
    if (typeof item !== 'object' || item === null || Array.isArray(item)) {
      issues.push(`rule ${index} is not an object; ignored`);
      return;
    }
    const record = item as Record<string, unknown>;
    const location = record['location'];
    if (typeof location !== 'string' || !(location.startsWith('/') || location.startsWith('*'))) {
      issues.push(`rule ${index} has no \`location\` path pattern; ignored`);
      return;
    }
    const reservation = tdmReservationOf(record['tdm-reservation']);
    if (reservation === undefined) {
      issues.push(`rule ${index} has no \`tdm-reservation\` of 1 or 0; ignored`);
      return;
    }
    const policy = record['tdm-policy'];
    rules.push({
      index,
      location,
      reservation,
      ...(typeof policy === 'string' && policy.length > 0 ? { policy } : {}),
      text: JSON.stringify(item),
    });
  });
  return { rules, issues };
}

/** The rule of tdmrep.json that applies to `url`: the first whose `location` matches its path, or null. */
export function matchTdmrep(file: TdmrepFile, url: string | URL): TdmrepRule | null {
  const path = matchPathOf(url);
  for (const rule of file.rules) {
    let pattern = compiled.get(rule);
    if (pattern === undefined) {
      pattern = new CompiledPattern(encodeRulePattern(toByteString(rule.location, Infinity).bytes));
      compiled.set(rule, pattern);
    }
    if (pattern.matches(path)) return rule;
  }
  return null;
}

/** The tdmrep.json source for `url`, if a rule applies. */
export function tdmrepUsageSources(file: TdmrepFile, url: string | URL): UsageSource[] {
  const rule = matchTdmrep(file, url);
  if (rule === null) return [];
  return [
    sourceOf(
      {
        kind: 'tdmrep-json',
        text: rule.text,
        path: rule.location,
        entry: rule.index,
        ...(rule.reservation === 'reserved' && rule.policy !== undefined ? { policy: rule.policy } : {}),
        revision: TDMREP_VOCABULARY.revision,
      },
      statementForPurposes(TDMREP_VOCABULARY.purposes, rule.reservation, 'tdm-reservation'),
    ),
  ];
}
