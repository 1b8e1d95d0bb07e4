// Statements of preference in each vocabulary, with the exact examples of the documents.

import {
  AIPREF_VOCABULARY,
  parseAiprefStatement,
  parseContentSignal,
  parseContentUsageHeader,
  purposeAncestors,
  tdmReservationOf,
  type UsageVocabulary,
} from '@politely/core';
import { tdmrepCanDecide } from '@politely/core/internal';
import { describe, expect, it } from 'vitest';

const prefs = (statement: { purposes: Record<string, { preference: string } | undefined> }) =>
  Object.fromEntries(Object.entries(statement.purposes).map(([purpose, p]) => [purpose, p?.preference]));

describe('AI Preferences statements (draft-ietf-aipref-vocab-08 §6)', () => {
  it('§6 example: `train-ai=y, search=n` allows AI training and reserves search', () => {
    const statement = parseAiprefStatement('train-ai=y, search=n');
    expect(statement.categories).toEqual({ 'train-ai': 'allowed', search: 'reserved' });
    expect(statement.purposes['ai-train']).toEqual({ preference: 'allowed', label: 'train-ai' });
    expect(statement.purposes.search).toEqual({ preference: 'reserved', label: 'search' });
    expect(statement.purposes['ai-input']).toBeUndefined();
    expect(statement.issues).toEqual([]);
  });

  it("`ai-use` (§4.2, Table 1) is politely's ai-input", () => {
    expect(prefs(parseAiprefStatement('ai-use=n'))).toEqual({ 'ai-input': 'reserved' });
  });

  it('§6.5.1: a repeated key keeps its last value; `train-ai`(boolean) and `search="n"`(string) state nothing', () => {
    const statement = parseAiprefStatement('train-ai=y, train-ai, search=n, search="n"');
    expect(statement.purposes).toEqual({});
    expect(statement.issues.map((i) => i.kind)).toEqual(['invalid-value', 'invalid-value']);
  });

  it('§6.5.2: parameters are ignored; only the selected value counts', () => {
    expect(prefs(parseAiprefStatement('train-ai;allow=n, train-ai=y'))).toEqual({
      'ai-train': 'allowed',
      'ai-train-images': 'allowed',
    });
    expect(parseAiprefStatement('train-ai;has;parameters="?";').purposes).toEqual({});
  });

  it('§6.5.1: a Dictionary that fails to parse (an uppercase key) states nothing, and never throws', () => {
    for (const value of ['Train-AI=n', 'train-ai=n,,search=n', 'train-ai=n é', '', '\u0000', '=', 'train-ai=(n']) {
      const statement = parseAiprefStatement(value);
      expect(statement.purposes).toEqual({});
    }
    expect(parseAiprefStatement('Train-AI=n').issues[0]?.kind).toBe('syntax');
  });

  it('§6.4: unknown labels are ignored (reported as issues for lint)', () => {
    const statement = parseAiprefStatement('future-use=n, train-ai=n');
    expect(prefs(statement)).toEqual({ 'ai-train': 'reserved', 'ai-train-images': 'reserved' });
    expect(statement.issues).toMatchObject([{ kind: 'unknown-category', label: 'future-use' }]);
  });

  it('a token other than y/n (`yes`) states nothing', () => {
    expect(parseAiprefStatement('train-ai=yes').purposes).toEqual({});
  });

  it("a nested vocabulary (as in revisions up to -05) is a data change: an unstated category takes its parent's preference", () => {
    const nested: UsageVocabulary = {
      ...AIPREF_VOCABULARY,
      revision: 'test vocabulary with nesting',
      categories: [
        { label: 'all', purposes: ['search', 'tdm'] },
        { label: 'train-ai', parent: 'all', purposes: ['ai-train'] },
        { label: 'train-genai', parent: 'train-ai', purposes: ['ai-train'] },
      ],
    };
    expect(prefs(parseAiprefStatement('all=n', nested))).toMatchObject({
      search: 'reserved',
      tdm: 'reserved',
      'ai-train': 'reserved',
    });
    // More specific wins inside one statement.
    const statement = parseAiprefStatement('all=n, train-ai=y', nested);
    expect(statement.purposes['ai-train']).toEqual({ preference: 'allowed', label: 'train-ai' });
    expect(statement.purposes.search?.preference).toBe('reserved');
  });

  it('the Content-Usage header: several field lines are one dictionary (RFC 9651 §4.2)', () => {
    expect(prefs(parseContentUsageHeader(['train-ai=n', 'search=y']))).toMatchObject({
      'ai-train': 'reserved',
      search: 'allowed',
    });
  });
});

describe('Content Signals (draft-romm-aipref-contentsignals-00)', () => {
  it('the managed robots.txt example: `search=yes, ai-train=no`', () => {
    const statement = parseContentSignal('search=yes, ai-train=no');
    expect(prefs(statement)).toEqual({ search: 'allowed', 'ai-train': 'reserved', 'ai-train-images': 'reserved' });
    expect(statement.issues).toEqual([]);
  });

  it('ai-input, any order, no spaces, any case', () => {
    expect(prefs(parseContentSignal('ai-train=no,search=yes,ai-input=yes'))).toMatchObject({ 'ai-input': 'allowed' });
    expect(prefs(parseContentSignal('AI-Train = NO'))).toMatchObject({ 'ai-train': 'reserved' });
  });

  it('malformed entries state nothing but do not void the others', () => {
    const statement = parseContentSignal('ai-train=no, search, ai-input=maybe, ai_train=no, , unknown=yes');
    expect(prefs(statement)).toEqual({ 'ai-train': 'reserved', 'ai-train-images': 'reserved' });
    expect(statement.issues.map((i) => i.kind)).toEqual([
      'syntax',
      'invalid-value',
      'unknown-category',
      'syntax',
      'unknown-category',
    ]);
  });

  it('a key given twice with different values: no wins', () => {
    expect(prefs(parseContentSignal('ai-train=no, ai-train=yes'))).toMatchObject({ 'ai-train': 'reserved' });
    expect(prefs(parseContentSignal('ai-train=yes, ai-train=no'))).toMatchObject({ 'ai-train': 'reserved' });
  });
});

describe('TDMRep values (W3C CG Final Report, 10 May 2024)', () => {
  it('1 reserves, 0 does not, anything else is unset', () => {
    expect(tdmReservationOf('1')).toBe('reserved');
    expect(tdmReservationOf(' 0 ')).toBe('allowed');
    expect(tdmReservationOf(1)).toBe('reserved');
    expect(tdmReservationOf('1, 1')).toBe('reserved');
    for (const value of ['yes', 'true', '2', '1, 0', '', true, null, undefined, {}])
      expect(tdmReservationOf(value)).toBeUndefined();
  });
});

describe('purposes as data', () => {
  it('ai-train and ai-input are part of tdm; images training part of ai-train', () => {
    expect(purposeAncestors('ai-train-images')).toEqual(['ai-train', 'tdm']);
    expect(purposeAncestors('search')).toEqual([]);
  });

  it('tdmrep.json is only worth fetching for purposes TDMRep can decide', () => {
    expect(tdmrepCanDecide(['search'])).toBe(false);
    expect(tdmrepCanDecide(['ai-train'])).toBe(true);
    expect(tdmrepCanDecide(['search', 'tdm'])).toBe(true);
  });
});
