// Content Signals (`Content-Signal: search=yes, ai-train=no`; draft-romm-aipref-contentsignals-00
// and Cloudflare's Content Signals Policy). The format is a comma-separated list of `key=value`
// with `yes`/`no` values; it is not defined as an RFC 9651 Dictionary, so it is read entry by
// entry: a malformed entry states nothing but does not void the others.

import { statementFromCategories, type UsageIssue, type UsagePreference, type UsageStatement } from './statement.js';
import { CONTENT_SIGNAL_VOCABULARY, type UsageVocabulary } from './vocabulary.js';

/**
 * Reads a Content Signals statement. Keys and values are compared case-insensitively, whitespace
 * around entries and `=` is ignored, unknown keys are ignored, a value other than `yes`/`no`
 * states nothing. When one key is given twice with different values, `no` wins (conservative).
 * Never throws.
 */
export function parseContentSignal(
  value: string,
  vocabulary: UsageVocabulary = CONTENT_SIGNAL_VOCABULARY,
): UsageStatement {
  const known = new Set(vocabulary.categories.map((category) => category.label));
  const explicit = new Map<string, UsagePreference>();
  const issues: UsageIssue[] = [];
  if (value.trim().length === 0) {
    return statementFromCategories(vocabulary, explicit, [{ kind: 'syntax', message: 'no signal is given' }]);
  }
  for (const raw of value.split(',')) {
    const entry = raw.trim();
    if (entry.length === 0) {
      issues.push({ kind: 'syntax', message: 'empty entry between commas' });
      continue;
    }
    const equals = entry.indexOf('=');
    if (equals === -1) {
      issues.push({
        kind: 'syntax',
        label: entry,
        message: `\`${shorten(entry)}\` is not \`name=yes\` or \`name=no\`; ignored`,
      });
      continue;
    }
    const key = entry.slice(0, equals).trim().toLowerCase();
    const setting = entry
      .slice(equals + 1)
      .trim()
      .toLowerCase();
    if (!known.has(key)) {
      issues.push({
        kind: 'unknown-category',
        label: key,
        message: `\`${shorten(key)}\` is not a signal of ${vocabulary.revision}; ignored`,
      });
      continue;
    }
    const preference =
      setting === vocabulary.allow ? 'allowed' : setting === vocabulary.reserve ? 'reserved' : undefined;
    if (preference === undefined) {
      issues.push({
        kind: 'invalid-value',
        label: key,
        message: `\`${key}\` must be \`${vocabulary.allow}\` or \`${vocabulary.reserve}\`; no preference is stated for it`,
      });
      continue;
    }
    if (explicit.get(key) !== 'reserved') explicit.set(key, preference);
  }
  return statementFromCategories(vocabulary, explicit, issues);
}

function shorten(text: string): string {
  return text.length > 60 ? `${text.slice(0, 60)}…` : text;
}
