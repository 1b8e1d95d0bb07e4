// The metric port (content-metric.js) against the article-extraction benchmark's evaluate.py:
// small cases worked by hand, and three prediction sets over the vendored 181 pages whose figures
// evaluate.py computed (`python3 evaluate.py --n-bootstrap 2 --output results.json` on the files
// that content-metric-cases.js writes, with the vendored ground-truth.json).

import { describe, expect, it } from 'vitest';

import { loadArticleCorpus } from '../article-corpus.js';
import { aggregate, matchShingles, scoreExtraction, shingleCounts, tokenize } from '../content-metric.js';
import { predictionSets } from './content-metric-cases.js';

describe('tokenize', () => {
  it('keeps runs of Unicode letters, digits and underscores, without case folding', () => {
    expect(tokenize('Hello, wörld! snake_case 42–7 Ωmega')).toEqual([
      'Hello',
      'wörld',
      'snake_case',
      '42',
      '7',
      'Ωmega',
    ]);
    expect(tokenize('東京 2020年')).toEqual(['東京', '2020年']);
  });

  it('reads null, undefined and the empty string as no tokens', () => {
    expect(tokenize(null)).toEqual([]);
    expect(tokenize(undefined)).toEqual([]);
    expect(tokenize('  —  ')).toEqual([]);
  });
});

describe('shingleCounts', () => {
  it('counts runs of four tokens with their multiplicity', () => {
    const counts = shingleCounts(tokenize('a b c d a b c d'));
    expect([...counts]).toEqual([
      ['a b c d', 2],
      ['b c d a', 1],
      ['c d a b', 1],
      ['d a b c', 1],
    ]);
  });

  it('gives a short text one shorter shingle and an empty text none', () => {
    expect([...shingleCounts(['x', 'y'])]).toEqual([['x y', 1]]);
    expect(shingleCounts([]).size).toBe(0);
  });
});

describe('matchShingles', () => {
  it('normalises true positives, false positives and false negatives by their sum', () => {
    // truth shingles: a b c d, b c d e; prediction: a b c d, b c d f → 1 tp, 1 fp, 1 fn.
    const m = matchShingles('a b c d e', 'a b c d f');
    expect(m.tp).toBeCloseTo(1 / 3, 12);
    expect(m.fp).toBeCloseTo(1 / 3, 12);
    expect(m.fn).toBeCloseTo(1 / 3, 12);
  });

  it('counts an empty prediction as all false negatives and two empty texts as nothing', () => {
    expect(matchShingles('a b c d e', '')).toEqual({ tp: 0, fp: 0, fn: 1 });
    expect(matchShingles('', '')).toEqual({ tp: 0, fp: 0, fn: 0 });
  });
});

describe('aggregate', () => {
  it('averages precision and recall over the pages that have them, then takes their harmonic mean', () => {
    const pages = [
      { tp: 0.5, fp: 0.5, fn: 0 }, // precision 0.5, recall 1
      { tp: 0, fp: 0, fn: 1 }, // empty prediction: recall 0, no precision
      { tp: 1, fp: 0, fn: 0 }, // perfect
    ];
    const { precision, recall, f1 } = aggregate(pages);
    expect(precision).toBeCloseTo(0.75, 12);
    expect(recall).toBeCloseTo(2 / 3, 12);
    expect(f1).toBeCloseTo((2 * 0.75 * (2 / 3)) / (0.75 + 2 / 3), 12);
  });
});

describe('scoreExtraction', () => {
  const pages = loadArticleCorpus();
  const truths = Object.fromEntries(pages.map((page) => [page.id, page.truth]));
  const sets = predictionSets(pages);
  /** evaluate.py's figures for each prediction set, to 6 decimals. */
  const expected = {
    truncated: { f1: 0.746999, precision: 0.997008, recall: 0.597236, accuracy: 0 },
    'whole-page-text': { f1: 0.66197, precision: 0.49671, recall: 0.992024, accuracy: 0 },
    mixed: { f1: 0.530796, precision: 0.602445, recall: 0.474379, accuracy: 0.005525 },
  };

  it('reads the 181 vendored pages with their ground truth', () => {
    expect(pages).toHaveLength(181);
    expect(pages.every((page) => page.html.length > 1000 && page.truth.length > 0)).toBe(true);
  });

  it('scores the ground truth itself as perfect', () => {
    const score = scoreExtraction(truths, truths);
    expect(score).toMatchObject({ f1: 1, precision: 1, recall: 1, accuracy: 1 });
  });

  for (const [name, figures] of Object.entries(expected)) {
    it(`gives evaluate.py's figures for the ${name} predictions`, () => {
      const predictions = Object.fromEntries(Object.entries(sets[name]).map(([id, p]) => [id, p.articleBody]));
      const score = scoreExtraction(truths, predictions);
      for (const metric of ['f1', 'precision', 'recall', 'accuracy']) {
        expect(score[metric], metric).toBeCloseTo(figures[metric], 5);
      }
    });
  }
});
