// Statements in the IETF AI Preferences format (draft-ietf-aipref-vocab-08 §6): an RFC 9651
// Dictionary whose keys are category labels and whose values are the Tokens `y` or `n`.
// Used by the `Content-Usage` header field and robots.txt rule (draft-ietf-aipref-attach-05).

import { parseDictionary, Token } from 'structured-headers';
import {
  emptyStatement,
  statementFromCategories,
  type UsageIssue,
  type UsagePreference,
  type UsageStatement,
} from './statement.js';
import { AIPREF_VOCABULARY, type UsageVocabulary } from './vocabulary.js';

/**
 * Reads an AI Preferences statement (`train-ai=n, search=y`), following the processing algorithm
 * of draft-ietf-aipref-vocab-08 §6.5: the bytes are parsed as an RFC 9651 Dictionary; for each
 * category of the vocabulary, a Token `y` allows and a Token `n` reserves; anything else (absent
 * key, another type, another token, an inner list) states no preference; unknown keys and all
 * parameters are ignored; if the same key appears twice the last value counts (RFC 9651).
 * If the Dictionary does not parse (an uppercase key, a stray character), the statement states
 * nothing. Never throws.
 *
 * @param value The statement as text (ASCII; anything else fails to parse, as the draft intends).
 * @param vocabulary The categories to read; the current draft's by default.
 */
export function parseAiprefStatement(value: string, vocabulary: UsageVocabulary = AIPREF_VOCABULARY): UsageStatement {
  let dictionary: ReturnType<typeof parseDictionary>;
  try {
    dictionary = parseDictionary(value);
  } catch (error) {
    const why = error instanceof Error ? error.message : String(error);
    return emptyStatement([
      { kind: 'syntax', message: `not an RFC 9651 dictionary (${why}); no preference is stated` },
    ]);
  }
  const known = new Set(vocabulary.categories.map((category) => category.label));
  const explicit = new Map<string, UsagePreference>();
  const issues: UsageIssue[] = [];
  for (const [key, member] of dictionary) {
    if (!known.has(key)) {
      issues.push({
        kind: 'unknown-category',
        label: key,
        message: `\`${key}\` is not a category of ${vocabulary.revision}; ignored`,
      });
      continue;
    }
    const bare = member[0];
    const token = !Array.isArray(bare) && bare instanceof Token ? bare.toString() : undefined;
    if (token === vocabulary.allow) explicit.set(key, 'allowed');
    else if (token === vocabulary.reserve) explicit.set(key, 'reserved');
    else {
      issues.push({
        kind: 'invalid-value',
        label: key,
        message: `\`${key}\` must be the token \`${vocabulary.allow}\` or \`${vocabulary.reserve}\`; no preference is stated for it`,
      });
    }
  }
  return statementFromCategories(vocabulary, explicit, issues);
}
