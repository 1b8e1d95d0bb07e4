// One statement of preference (one header, one robots.txt line, one meta tag, one tdmrep.json
// entry) as politely reads it: explicit preferences per category, then per politely purpose with
// inheritance resolved inside the statement. Combining statements is verdict.ts's job.

import {
  ALL_USAGE_PURPOSES,
  purposeAncestors,
  type UsageCategory,
  type UsagePurpose,
  type UsageVocabulary,
} from './vocabulary.js';

/** A stated preference: the use is allowed, or it is reserved (opted out of). */
export type UsagePreference = 'allowed' | 'reserved';

/** A verdict: a preference, or `unknown` when no source states one. */
export type UsageStatus = UsagePreference | 'unknown';

/** What a statement says about one purpose. */
export interface UsagePurposePreference {
  readonly preference: UsagePreference;
  /** The category label or directive that said it, as written (`train-ai`, `ai-train`, `tdm-reservation`, `noai`). */
  readonly label: string;
  /** Set when the statement said nothing about this purpose and the preference comes from this broader purpose. */
  readonly inheritedFrom?: UsagePurpose;
}

/** Preferences of one statement per politely purpose (purposes it says nothing about are absent). */
export type UsagePurposePreferences = Readonly<Partial<Record<UsagePurpose, UsagePurposePreference>>>;

/** Why part of a statement was not understood. Never an error: that part just states no preference. */
export interface UsageIssue {
  readonly kind: /** The value is not in the expected syntax (not an RFC 9651 dictionary, `key` without `=`, a path without a preference). */
    | 'syntax'
    /** A key that the vocabulary does not define; ignored. */
    | 'unknown-category'
    /** A known key with a value other than the allow/reserve values; no preference for it. */
    | 'invalid-value';
  /** The key concerned, when there is one. */
  readonly label?: string;
  /** One line for people. */
  readonly message: string;
}

/** One statement of preference as read: explicit preferences by category and by purpose. */
export interface UsageStatement {
  /** Explicit preferences by category label, as the statement's vocabulary names them. */
  readonly categories: Readonly<Record<string, UsagePreference>>;
  /** Preferences per politely purpose, inheritance within the statement resolved. */
  readonly purposes: UsagePurposePreferences;
  /** What was not understood (for lint); empty for a clean statement. */
  readonly issues: readonly UsageIssue[];
}

/** A statement that states nothing, with the issues that made it so. */
export function emptyStatement(issues: readonly UsageIssue[] = []): UsageStatement {
  return { categories: {}, purposes: {}, issues };
}

/**
 * From explicit preferences per category to preferences per purpose:
 * 1. an unstated category takes the preference of its broader category in the same vocabulary,
 *    when the vocabulary nests categories (`parent`);
 * 2. each category's preference is a preference for the purposes it maps to; two categories that
 *    map to one purpose and disagree give `reserved`;
 * 3. an unstated purpose takes the preference of its nearest broader purpose that is stated.
 */
export function statementFromCategories(
  vocabulary: UsageVocabulary,
  explicit: ReadonlyMap<string, UsagePreference>,
  issues: readonly UsageIssue[],
): UsageStatement {
  const byLabel = new Map(vocabulary.categories.map((category) => [category.label, category]));
  const direct = new Map<UsagePurpose, UsagePurposePreference>();
  for (const category of vocabulary.categories) {
    const stated = categoryPreference(category, explicit, byLabel);
    if (stated === undefined) continue;
    for (const purpose of category.purposes) {
      const previous = direct.get(purpose);
      if (previous === undefined || (previous.preference === 'allowed' && stated.preference === 'reserved')) {
        direct.set(purpose, { preference: stated.preference, label: stated.label });
      }
    }
  }
  return { categories: Object.fromEntries(explicit), purposes: inheritPurposes(direct), issues };
}

function categoryPreference(
  category: UsageCategory,
  explicit: ReadonlyMap<string, UsagePreference>,
  byLabel: ReadonlyMap<string, UsageCategory>,
): { preference: UsagePreference; label: string } | undefined {
  const seen = new Set<string>();
  let current: UsageCategory | undefined = category;
  while (current !== undefined && !seen.has(current.label)) {
    seen.add(current.label);
    const preference = explicit.get(current.label);
    if (preference !== undefined) return { preference, label: current.label };
    current = current.parent === undefined ? undefined : byLabel.get(current.parent);
  }
  return undefined;
}

/** Fills in each purpose the statement does not state from its nearest stated broader purpose. */
export function inheritPurposes(direct: ReadonlyMap<UsagePurpose, UsagePurposePreference>): UsagePurposePreferences {
  const out: Partial<Record<UsagePurpose, UsagePurposePreference>> = {};
  for (const purpose of ALL_USAGE_PURPOSES) {
    const own = direct.get(purpose);
    if (own !== undefined) {
      out[purpose] = own;
      continue;
    }
    for (const ancestor of purposeAncestors(purpose)) {
      const inherited = direct.get(ancestor);
      if (inherited !== undefined) {
        out[purpose] = { preference: inherited.preference, label: inherited.label, inheritedFrom: ancestor };
        break;
      }
    }
  }
  return out;
}

/** A statement about fixed purposes (TDMRep, robots meta directives): no categories to resolve. */
export function statementForPurposes(
  purposes: readonly UsagePurpose[],
  preference: UsagePreference,
  label: string,
): UsageStatement {
  const direct = new Map<UsagePurpose, UsagePurposePreference>();
  for (const purpose of purposes) direct.set(purpose, { preference, label });
  return { categories: { [label]: preference }, purposes: inheritPurposes(direct), issues: [] };
}
